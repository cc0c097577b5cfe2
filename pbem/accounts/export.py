"""Everything pbem holds about one user, as one JSON document (the GDPR's
right of access and portability). Only the user's own data: other players'
names, moves, chat lines and mail stay out, so a mail to the user is listed
by what it was (kind, game, when), not by what it quoted of others."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from pbem.models import (
    ApiToken,
    BrowserSession,
    ChatMessage,
    ClockStop,
    Entrant,
    Game,
    InboundMessage,
    LeagueOrganiser,
    Move,
    NoticeChoice,
    Outbox,
    PushSubscription,
    Rating,
    RatingChange,
    SeasonEntrant,
    Seat,
    Submission,
    User,
    Webhook,
    utcnow,
)

FORMAT = "pbem-account-export"
VERSION = 1


def export_account(session: Session, user: User) -> dict[str, Any]:
    """The user's data, each kind under its own key."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _when(utcnow()),
        "account": {
            "id": user.id,
            "email": user.email,
            "name": user.name,
            "created_at": _when(user.created_at),
            "signed_in_at": _when(user.signed_in_at),
            "is_admin": user.is_admin,
            "suspended_at": _when(user.suspended_at),
        },
        "settings": {
            "time_zone": user.time_zone,
            "language": user.language,
            "moved_mail": user.moved_mail,
            "quiet_hours": user.quiet_hours,
            "reminder_hours": user.reminder_hours,
            "digest_hour": user.digest_hour,
            "league_digest_day": user.league_digest_day,
            "league_digest_hour": user.league_digest_hour,
        },
        "api_tokens": [
            {
                "label": token.label,
                "created_at": _when(token.created_at),
                "last_used_at": _when(token.last_used_at),
            }
            for token in session.scalars(
                select(ApiToken).where(ApiToken.user_id == user.id).order_by(ApiToken.id)
            )
        ],
        "sign_ins": [
            {"signed_in_at": _when(sign_in.created_at)}
            for sign_in in session.scalars(
                select(BrowserSession)
                .where(BrowserSession.user_id == user.id)
                .order_by(BrowserSession.id)
            )
        ],
        "vacations": [
            {"started_at": _when(stop.started_at), "ended_at": _when(stop.ended_at)}
            for stop in session.scalars(
                select(ClockStop).where(ClockStop.user_id == user.id).order_by(ClockStop.id)
            )
        ],
        "games": [_game(session, seat) for seat in _seats(session, user)],
        "games_organised": list(
            session.scalars(
                select(Game.public_id).where(Game.created_by_id == user.id).order_by(Game.id)
            )
        ),
        "turns_sent": _turns_sent(session, user),
        "mails_to_you": _mails_to(session, user),
        "mails_from_you": _mails_from(session, user),
        "ratings": _ratings(session, user),
        "rating_changes": _rating_changes(session, user),
        "leagues": _leagues(session, user),
        "notices": _notices(session, user),
    }


def _notices(session: Session, user: User) -> dict[str, Any]:
    """Where the user hears of games besides mail: webhooks (not their
    secrets, which sign what pbem sends), browser devices, per-game choices."""
    return {
        "webhooks": [
            {
                "id": hook.id,
                "url": hook.url,
                "format": hook.format,
                "game": hook.game.public_id if hook.game else None,
                "league": hook.league.public_id if hook.league else None,
                "created_at": _when(hook.created_at),
                "disabled_at": _when(hook.disabled_at),
            }
            for hook in session.scalars(
                select(Webhook).where(Webhook.user_id == user.id).order_by(Webhook.id)
            )
        ],
        "push_devices": [
            {"endpoint": device.endpoint, "created_at": _when(device.created_at)}
            for device in session.scalars(
                select(PushSubscription)
                .where(PushSubscription.user_id == user.id)
                .order_by(PushSubscription.id)
            )
        ],
        "choices": [
            {
                "game": choice.game.public_id if choice.game else None,
                "mail": choice.mail,
                "push": choice.push,
                "webhooks": choice.webhooks,
                "muted": choice.muted,
            }
            for choice in session.scalars(
                select(NoticeChoice)
                .where(NoticeChoice.user_id == user.id)
                .order_by(NoticeChoice.id)
            )
        ],
    }


def _when(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _seats(session: Session, user: User) -> list[Seat]:
    return list(session.scalars(select(Seat).where(Seat.user_id == user.id).order_by(Seat.id)))


def _game(session: Session, seat: Seat) -> dict[str, Any]:
    """One game the user sat at: their seat, their moves and their chat lines."""
    game = seat.game
    moves = session.scalars(select(Move).where(Move.seat_id == seat.id).order_by(Move.ply))
    lines = session.scalars(
        select(ChatMessage).where(ChatMessage.seat_id == seat.id).order_by(ChatMessage.id)
    )
    return {
        "game": game.public_id,
        "ruleset": game.ruleset,
        "status": game.status,
        "created_at": _when(game.created_at),
        "finished_at": _when(game.finished_at),
        "seat": {
            "position": seat.position,
            "colour": seat.colour,
            "name": seat.name,
            "resigned_at": _when(seat.resigned_at),
        },
        "moves": [
            {"ply": m.ply, "text": m.text, "channel": m.channel, "at": _when(m.created_at)}
            for m in moves
        ],
        "chat": [
            {
                "text": line.text,
                "channel": line.channel,
                "at": _when(line.created_at),
                "removed_at": _when(line.removed_at),
            }
            for line in lines
        ],
    }


def _turns_sent(session: Session, user: User) -> list[dict[str, Any]]:
    """Every turn the user sent, or that was sent for their seat (the clock's),
    judged or not, with why one was refused."""
    rows = _with_game(
        session, Submission, or_(Submission.author_id == user.id, Submission.sent_for_id == user.id)
    )
    return [
        {
            "game": public_id,
            "text": sent.raw_text,
            "channel": sent.channel,
            "status": sent.status,
            "reason": sent.reason,
            "at": _when(sent.created_at),
        }
        for sent, public_id in rows
    ]


def _mails_to(session: Session, user: User) -> list[dict[str, Any]]:
    rows = _with_game(
        session,
        Outbox,
        or_(Outbox.recipient_id == user.id, func.lower(Outbox.to_address) == user.email),
    )
    return [
        {
            "kind": mail.kind,
            "game": public_id,
            "status": mail.status,
            "created_at": _when(mail.created_at),
            "sent_at": _when(mail.sent_at),
            "message_id": mail.message_id,
        }
        for mail, public_id in rows
    ]


def _with_game(session: Session, model: Any, condition: Any) -> Any:
    """The rows, oldest first, each with its game's public id (None: no game)."""
    return session.execute(
        select(model, Game.public_id)
        .outerjoin(Game, Game.id == model.game_id)
        .where(condition)
        .order_by(model.id)
    )


def _mails_from(session: Session, user: User) -> list[dict[str, Any]]:
    """Mail the user sent in, with the mail itself while it is kept."""
    rows = session.scalars(
        select(InboundMessage)
        .where(func.lower(InboundMessage.envelope_from) == user.email)
        .order_by(InboundMessage.id)
    )
    return [
        {
            "message_id": mail.message_id,
            "channel": mail.channel,
            "received_at": _when(mail.received_at),
            "outcome": mail.outcome,
            "raw": mail.raw.decode("utf-8", "replace") if mail.raw is not None else None,
        }
        for mail in rows
    ]


def _ratings(session: Session, user: User) -> list[dict[str, Any]]:
    rows = session.scalars(select(Rating).where(Rating.user_id == user.id).order_by(Rating.id))
    return [
        {
            "ruleset": r.ruleset,
            "mu": r.mu,
            "sigma": r.sigma,
            "games": r.games,
            "updated_at": _when(r.updated_at),
        }
        for r in rows
    ]


def _rating_changes(session: Session, user: User) -> list[dict[str, Any]]:
    rows = session.scalars(
        select(RatingChange).where(RatingChange.user_id == user.id).order_by(RatingChange.id)
    )
    return [
        {
            "game": change.game.public_id,
            "ruleset": change.ruleset,
            "mu_before": change.mu_before,
            "sigma_before": change.sigma_before,
            "mu_after": change.mu_after,
            "sigma_after": change.sigma_after,
            "rating": change.rating,
            "against_bots": change.against_bots,
            "forfeit": change.forfeit,
            "rated_at": _when(change.rated_at),
        }
        for change in rows
    ]


def _leagues(session: Session, user: User) -> dict[str, Any]:
    entries = session.scalars(
        select(Entrant).where(Entrant.user_id == user.id).order_by(Entrant.id)
    )
    places = session.scalars(
        select(SeasonEntrant).where(SeasonEntrant.user_id == user.id).order_by(SeasonEntrant.id)
    )
    organised = session.scalars(select(LeagueOrganiser).where(LeagueOrganiser.user_id == user.id))
    return {
        "entries": [
            {
                "league": entry.league.public_id,
                "league_name": entry.league.name,
                "division": entry.division,
                "joined_at": _when(entry.joined_at),
                "left_at": _when(entry.left_at),
            }
            for entry in entries
        ],
        "season_places": [
            {
                "league": place.season.league.public_id,
                "season": place.season.number,
                "division": place.division,
                "name": place.name,
                "withdrawn_at": _when(place.withdrawn_at),
            }
            for place in places
        ],
        "organised": [row.league.public_id for row in organised],
    }
