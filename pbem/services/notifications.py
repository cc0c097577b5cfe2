"""Queueing notifications in the outbox; the mail sender delivers them later,
only once the transaction that queued them has committed."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

import engine
from pbem.i18n.phrases import Phrase, phrase
from pbem.models import Game, MovedMail, Outbox, OutboxStatus, Seat, Submission, User, utcnow
from pbem.services.deadlines import out_of_quiet_hours
from pbem.services.game_organisers import organiser_ids
from pbem.services.notice_choices import tells
from pbem.services.seat_address import NEW_ADDRESS

YOUR_TURN = "your_turn"
GAME_OVER = "game_over"
REJECTED = "submission_rejected"
SIGN_IN = "sign_in"
DELETE_ACCOUNT = "delete_account"
INVITE = "invite"
ACCEPTED = "submission_accepted"
MOVED = "moved"
MAIL_ANSWER = "mail_answer"
CHAT = "chat"
REMINDER = "reminder"
TIMEOUT = "timeout"
ORGANISER_TIMEOUT = "organiser_timeout"
ORGANISER_EVENT = "organiser_event"
ORGANISER_NOTICE = "organiser_notice"
SEAT_RESIGNED = "seat_resigned"
DIGEST = "digest"
WEBHOOK_OFF = "webhook_off"
# Notices of a game's turns: sent by mail only if the player's choice for
# the game (pbem.services.notice_choices) keeps mail and the game is not muted.
CHOSEN = frozenset({YOUR_TURN, MOVED, REMINDER})


def _queue(session: Session, seat: Seat, kind: str, payload: dict[str, Any]) -> None:
    """To the seat's player, unless they left it or their account is
    suspended (the stand-in bot plays for them meanwhile)."""
    user = seat.user
    if (
        seat.user_id is None
        or user is None
        or seat.resigned_at is not None
        or user.suspended_at is not None
    ):
        return
    if kind in CHOSEN and not tells(session, seat.user_id, seat.game_id, "mail"):
        return
    payload = {"game": seat.game.public_id, "seat": seat.position, **payload}
    session.add(Outbox(recipient_id=seat.user_id, game_id=seat.game_id, kind=kind, payload=payload))


def notify_turn(session: Session, game: Game, positions: Iterable[int], ply: int) -> None:
    """A mail to each seat now to act, except to players who chose the daily digest."""
    for seat in game.seats:
        digest = seat.user is not None and seat.user.digest_hour is not None
        if seat.position in positions and not digest:
            _queue(session, seat, YOUR_TURN, {"ply": ply})


def notify_game_over(session: Session, game: Game, result: engine.Result) -> None:
    for seat in game.seats:
        _queue(session, seat, GAME_OVER, {"result": result.to_json()})


def notify_rejected(session: Session, submission: Submission, played: Sequence[str] = ()) -> None:
    """A refused submission; `played` names the moves of it that stand (up to a draw)."""
    _queue(
        session,
        submission.seat,
        REJECTED,
        {
            "submission": submission.id,
            "channel": submission.channel,
            "reason": submission.reason,
            "refusal": submission.refusal,
            "played": list(played),
        },
    )


def notify_accepted(
    session: Session, submission: Submission, moves: list[str], goes_on: bool
) -> None:
    """Mail players get an answer to every turn they send; other channels answer at once.
    When the turn goes on (a Taluva tile sent alone) the answer shows the board and
    the moves open now, since no new 'your turn' mail follows."""
    if submission.channel == "mail":
        _queue(
            session,
            submission.seat,
            ACCEPTED,
            {"submission": submission.id, "moves": moves, "board": goes_on},
        )


def notify_moved(session: Session, mover: Seat, plies: range, told_to_act: Iterable[int]) -> None:
    """A short 'X moved' to each other player who asked for one, except the
    seats just told it is their turn (that mail has the news already) and
    players who chose the daily digest instead of mails per move."""
    skip = {mover.position, *told_to_act}
    for seat in mover.game.seats:
        user = seat.user
        wants = user is not None and user.moved_mail == MovedMail.EACH and user.digest_hour is None
        if wants and seat.position not in skip:
            _queue(
                session,
                seat,
                MOVED,
                {"mover": mover.position, "first_ply": plies.start, "last_ply": plies.stop - 1},
            )


def notify_new_address(session: Session, seat: Seat) -> None:
    """A mail whose Reply-To is the seat's new address (read when it is sent)."""
    _queue(
        session,
        seat,
        MAIL_ANSWER,
        {"text": NEW_ADDRESS.to_json(), "board": False, "subject": "new address"},
    )


def notify_chat(session: Session, sender: Seat, readers: list[Seat], text: str) -> None:
    for reader in readers:
        session.add(
            Outbox(
                recipient_id=reader.user_id,
                game_id=sender.game_id,
                kind=CHAT,
                payload={
                    "game": sender.game.public_id,
                    "seat": reader.position,
                    "from": sender.name,
                    "text": text,
                },
            )
        )


def notify_resigned(session: Session, game: Game, leaver: Seat) -> None:
    """Every other player still in the game hears who left."""
    for seat in game.seats:
        if seat.id != leaver.id:
            _queue(session, seat, SEAT_RESIGNED, {"name": leaver.name})


def notify_sign_in(session: Session, user: User, link: str) -> None:
    session.add(Outbox(recipient_id=user.id, kind=SIGN_IN, payload={"link": link}))


def notify_delete_account(session: Session, user: User, link: str) -> None:
    """The link that confirms the player asked to delete their account."""
    session.add(Outbox(recipient_id=user.id, kind=DELETE_ACCOUNT, payload={"link": link}))


def notify_invite(
    session: Session,
    seat: Seat,
    invitee: User,
    link: str,
    inviter: str,
    replaces: str | None = None,
    language: str | None = None,
) -> None:
    """An invitation to an open seat, or (`replaces`: the name of the player
    who had it) to take over a seat of a game under way; `language`: the one
    the inviter chose for it, else the inviter's page's (pbem.mail.page_language)."""
    payload = {
        "link": link,
        "game": seat.game.public_id,
        "ruleset": seat.game.ruleset,
        "seat": seat.position,
        "from": inviter,
    }
    if replaces is not None:
        payload["replaces"] = replaces
    if language is not None:
        payload["language"] = language
    session.add(
        Outbox(
            recipient_id=invitee.id,
            game_id=seat.game_id,
            kind=INVITE,
            payload=payload,
        )
    )


def notify_reminder(session: Session, seat: Seat) -> None:
    """The seat's decision times out soon (the mail reads the time from the seat)."""
    assert seat.timeout_at is not None  # a reminder is due before a timeout
    _queue(session, seat, REMINDER, {"timeout_at": seat.timeout_at.isoformat()})


def notify_timeout(
    session: Session,
    game: Game,
    late: Seat,
    outcome: str,
    to_late: str,
    moves: Sequence[str] = (),
) -> None:
    """Everyone playing, the late player included, hears what the timeout did;
    the late player in words of their own ("you keep your seat"), with the
    moves a bot made for them (theirs to see; the others see them as the game
    shows them, secret parts hidden, in their next mail)."""
    for seat in game.seats:
        said = {"late": late.position, "outcome": outcome}
        if seat.id == late.id:
            said = {"late": late.position, "outcome": to_late, "moves": list(moves)}
        _queue(session, seat, TIMEOUT, said)


def notify_organiser_timeout(session: Session, game: Game, late: Seat) -> None:
    """A game whose timeouts wait for the organiser: its creator (or its
    league's organisers) decides."""
    for organiser_id in sorted(organiser_ids(game)):
        session.add(
            Outbox(
                recipient_id=organiser_id,
                game_id=game.id,
                kind=ORGANISER_TIMEOUT,
                payload={"game": game.public_id, "name": late.name, "ruleset": game.ruleset},
            )
        )


def notify_organiser_event(
    session: Session, game: Game, text: Phrase, headline: Phrase, skip: Iterable[int] = ()
) -> None:
    """What the organiser did, to every player of the game under way (not the
    seats in `skip`, which hear of it in a mail of their own)."""
    for seat in game.seats:
        if seat.position not in skip:
            said = {"text": text.to_json(), "headline": headline.to_json()}
            _queue(session, seat, ORGANISER_EVENT, said)


def notify_not_played(session: Session, submission: Submission) -> None:
    """A turn refused because its seat changed hands first, to whoever sent
    it (not to the seat's new holder): without the board, which is no longer
    theirs to see."""
    sender = submission.author_id or submission.sent_for_id
    if sender is None:
        return
    notify_organiser_notice(
        session,
        submission.game,
        sender,
        phrase("Your turn was not played: the seat passed to another player before it was judged."),
        phrase("your turn was not played"),
    )


def notify_organiser_notice(
    session: Session, game: Game, recipient_id: int, text: Phrase, headline: Phrase
) -> None:
    """What the organiser did, to someone without a seat to write from: the
    player who lost theirs, or the players of a game that never started."""
    session.add(
        Outbox(
            recipient_id=recipient_id,
            game_id=game.id,
            kind=ORGANISER_NOTICE,
            payload={
                "game": game.public_id,
                "ruleset": game.ruleset,
                "text": text.to_json(),
                "headline": headline.to_json(),
            },
        )
    )


def notify_digest(session: Session, user: User) -> None:
    """The daily list of the user's games waiting for them, written when it is sent."""
    session.add(Outbox(recipient_id=user.id, kind=DIGEST, payload={}))


def retime_held(session: Session, user: User) -> None:
    """After the user's quiet hours or zone changed: what waits for them goes
    at the end of the new quiet hours, or at once if they are not in them
    (the outbox sweep hands it on; pbem.mail.quiet_hours)."""
    now = utcnow()
    for row in session.scalars(
        select(Outbox).where(
            Outbox.recipient_id == user.id,
            Outbox.status == OutboxStatus.PENDING,
            Outbox.not_before > now,
        )
    ):
        row.not_before = out_of_quiet_hours(now, user)


def notify_webhook_off(session: Session, user_id: int, url: str, failures: int, error: str) -> None:
    """The owner of a hook switched off after failing `failures` times in a row."""
    payload = {"url": url, "failures": failures, "error": error}
    session.add(Outbox(recipient_id=user_id, kind=WEBHOOK_OFF, payload=payload))
