"""Notices to people, one registry of their kinds: each kind is one entry
saying whom it is written for, whether quiet hours and the daily digest hold
it, whether the player's choices for a game apply, whether it carries the
board and which language it speaks; `queue_notice` is the one writer of
outbox rows, in the change's own transaction. It decides when a row may go
and in which language, and hands the rows due now to the notices' worker
once the transaction commits (pbem.signals), never before. How each kind
reads is pbem.mail.compose's (one writer per kind)."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

import engine
from pbem import signals
from pbem.i18n.phrases import Phrase, phrase
from pbem.models import (
    Channel,
    Game,
    MovedMail,
    OnTimeout,
    Outbox,
    OutboxStatus,
    Seat,
    Submission,
    User,
    utcnow,
)
from pbem.services.deadlines import out_of_quiet_hours
from pbem.services.game_organisers import organiser_ids
from pbem.services.notice_choices import tells
from pbem.services.seat_address import NEW_ADDRESS
from pbem.services.time_control import outcome_said
from pbem.task_names import SEND_MAILS


class Reader(enum.StrEnum):
    """Whom a kind is written for, which decides how it is written."""

    SEAT = "seat"  # a player, about their seat: the game's mail, in its thread
    ACCOUNT = "account"  # a user, about their account or a game without a seat of theirs
    LEAGUE = "league"  # a league's player, about the league
    STRANGER = "stranger"  # an address that wrote in, with no account behind it


class Speaks(enum.StrEnum):
    """The language of a recipient who chose none (a chosen one always wins)."""

    ENGLISH = "english"
    PAGE = "page"  # the page the mail was asked from: the reader asked for it there
    INVITER = "inviter"  # the inviter's page, for an invitee who never signed in
    SENDER = "sender"  # the language of the account the answered mail came from


@dataclasses.dataclass(frozen=True)
class NoticeKind:
    name: str
    reader: Reader
    # Sent in quiet hours too: it answers what the reader is doing right now.
    at_once: bool = False
    # Only says where a game stands: held copies fold into one (pbem.mail.quiet_hours).
    about_the_board: bool = False
    # The player's choice of channels for the game applies, and its mute.
    chosen: bool = False
    # A reader of the daily digest hears of it there instead.
    in_digest: bool = False
    # Waits briefly, so the 'your turn' or the game's end that soon follows tells it instead.
    waits: bool = False
    # Carries the board picture; `short`: one line of help, no picture.
    board: bool = False
    short: bool = False
    speaks: Speaks = Speaks.ENGLISH


KINDS: dict[str, NoticeKind] = {}


def _kind(name: str, reader: Reader, **policy: Any) -> str:
    KINDS[name] = NoticeKind(name, reader, **policy)
    return name


_TURNS = {"about_the_board": True, "chosen": True, "in_digest": True}
YOUR_TURN = _kind("your_turn", Reader.SEAT, board=True, **_TURNS)
MOVED = _kind("moved", Reader.SEAT, short=True, waits=True, **_TURNS)
REMINDER = _kind("reminder", Reader.SEAT, about_the_board=True, chosen=True)
GAME_OVER = _kind("game_over", Reader.SEAT, about_the_board=True, board=True)
# How a folded held row is written when it is not the reader's turn (pbem.mail.quiet_hours).
SINCE_YOU_HEARD = _kind("since_you_heard", Reader.SEAT, board=True)
ACCEPTED = _kind("submission_accepted", Reader.SEAT, at_once=True)
REJECTED = _kind("submission_rejected", Reader.SEAT, at_once=True, board=True)
MAIL_ANSWER = _kind("mail_answer", Reader.SEAT, at_once=True)
CHAT = _kind("chat", Reader.SEAT)
TIMEOUT = _kind("timeout", Reader.SEAT)
ORGANISER_EVENT = _kind("organiser_event", Reader.SEAT)
SEAT_RESIGNED = _kind("seat_resigned", Reader.SEAT)
SIGN_IN = _kind("sign_in", Reader.ACCOUNT, at_once=True, speaks=Speaks.PAGE)
DELETE_ACCOUNT = _kind("delete_account", Reader.ACCOUNT, at_once=True, speaks=Speaks.PAGE)
# The one who invited is waiting, and the invitee's time zone is not known before they sign in.
INVITE = _kind("invite", Reader.ACCOUNT, at_once=True, speaks=Speaks.INVITER)
ORGANISER_TIMEOUT = _kind("organiser_timeout", Reader.ACCOUNT)
ORGANISER_NOTICE = _kind("organiser_notice", Reader.ACCOUNT)
DIGEST = _kind("digest", Reader.ACCOUNT)
WEBHOOK_OFF = _kind("webhook_off", Reader.ACCOUNT)
REFUSAL = _kind("refusal", Reader.STRANGER, at_once=True, speaks=Speaks.SENDER)
LEAGUE_INVITE = _kind("league_invite", Reader.LEAGUE, at_once=True, speaks=Speaks.INVITER)
SEASON_START = _kind("season_start", Reader.LEAGUE)
SEASON_OVER = _kind("season_over", Reader.LEAGUE)
# A season's place given to another player: the newcomer (the organiser waits
# for them, as for an invitation) and the player it was taken from.
SEASON_TAKE_OVER = _kind("season_take_over", Reader.LEAGUE, at_once=True)
SEASON_REPLACED = _kind("season_replaced", Reader.LEAGUE)
LEAGUE_DIGEST = _kind("league_digest", Reader.LEAGUE)
# Mails that tell a reader what their waiting 'moved' mails would have: those go unsent.
TELLS_THE_MOVES = frozenset({YOUR_TURN, GAME_OVER})


def queue_notice(
    session: Session,
    kind: str,
    payload: dict[str, Any],
    *,
    recipient: User | None = None,
    to_address: str | None = None,
    game_id: int | None = None,
    language: str | None = None,
    wait: timedelta = timedelta(0),
) -> Outbox:
    """The one way a notice enters the outbox. `language`: the page's or the
    sender's, kept for a recipient who chose none (as the kind `speaks`);
    `wait`: how long a kind that `waits` waits at least. The row goes at the
    end of the recipient's quiet hours unless the kind is `at_once`; a row due
    now is handed to the notices' worker once the transaction commits."""
    entry = KINDS[kind]
    now = utcnow()
    if language is not None and entry.speaks is not Speaks.ENGLISH:
        payload = {"language": language, **payload}
    row = Outbox(
        recipient_id=recipient.id if recipient is not None else None,
        to_address=to_address,
        game_id=game_id,
        kind=kind,
        payload=payload,
        not_before=held_until(kind, recipient, now, wait),
    )
    session.add(row)
    if row.not_before is None:
        if recipient is not None and game_id is not None and kind in TELLS_THE_MOVES:
            _fold_waiting_moves(session, recipient.id, game_id, now)
        session.flush()
        signals.announce_rows(session, SEND_MAILS, [row.id])
    return row


def held_until(
    kind: str, recipient: User | None, now: datetime, wait: timedelta = timedelta(0)
) -> datetime | None:
    """When a notice of `kind` queued `now` may go, if not now: the end of its
    recipient's quiet hours, after the kind's wait."""
    entry = KINDS[kind]
    if entry.at_once or recipient is None:
        return None
    start = now + wait if entry.waits else now
    end = out_of_quiet_hours(start, recipient)
    return end if end > now else None


def _fold_waiting_moves(session: Session, user_id: int, game_id: int, now: datetime) -> None:
    """The reader's 'moved' mails of the game still waiting go unsent: the mail
    going now shows the board with what was played since their last turn.
    (Mail held by quiet hours folds when they end: pbem.mail.quiet_hours.)"""
    session.execute(
        update(Outbox)
        .where(
            Outbox.recipient_id == user_id,
            Outbox.game_id == game_id,
            Outbox.kind == MOVED,
            Outbox.status == OutboxStatus.PENDING,
            Outbox.not_before > now,
        )
        .values(status=OutboxStatus.DROPPED, last_error="told in a later mail of the game")
        .execution_options(synchronize_session=False)
    )


def _queue(session: Session, seat: Seat, kind: str, payload: dict[str, Any], **how: Any) -> None:
    """To the seat's player, unless they left it or their account is
    suspended (the stand-in bot plays for them meanwhile)."""
    user = seat.user
    if seat.user_id is None or user is None or seat.has_left or user.suspended_at is not None:
        return
    if KINDS[kind].chosen and not tells(session, seat.user_id, seat.game_id, "mail"):
        return
    payload = {"game": seat.game.public_id, "seat": seat.position, **payload}
    queue_notice(session, kind, payload, recipient=user, game_id=seat.game_id, **how)


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
            "aside": _told_aside(submission),
        },
    )


def notify_accepted(
    session: Session, submission: Submission, moves: list[str], goes_on: bool
) -> None:
    """Mail players get an answer to every turn they send; other channels answer at once.
    When the turn goes on (a Taluva tile sent alone) the answer shows the board and
    the moves open now, since no new 'your turn' mail follows."""
    if submission.channel == Channel.MAIL:
        _queue(
            session,
            submission.seat,
            ACCEPTED,
            {
                "submission": submission.id,
                "moves": moves,
                "board": goes_on,
                "aside": _told_aside(submission),
            },
        )


def _told_aside(submission: Submission) -> list[str]:
    """The lines of the mail set aside, for its answer; the submission keeps
    none of them after (a signature may hold a telephone number)."""
    aside, submission.aside = submission.aside or [], None
    return aside


def notify_moved(
    session: Session, mover: Seat, plies: range, told_to_act: Iterable[int], wait: timedelta
) -> None:
    """A short 'X moved' to each other player who asked for one, except the
    seats just told it is their turn (that mail has the news already) and
    players who chose the daily digest instead of mails per move. It waits
    `wait` first: a 'your turn' or the game's end queued meanwhile tells it
    instead (a bot's answer, the next player's quick move)."""
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
                wait=wait,
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
        assert reader.user is not None  # chat is read by the players of a game
        queue_notice(
            session,
            CHAT,
            {
                "game": sender.game.public_id,
                "seat": reader.position,
                "from": sender.name,
                "text": text,
            },
            recipient=reader.user,
            game_id=sender.game_id,
        )


def notify_resigned(session: Session, game: Game, leaver: Seat) -> None:
    """Every other player still in the game hears who left."""
    for seat in game.seats:
        if seat.id != leaver.id:
            _queue(session, seat, SEAT_RESIGNED, {"name": leaver.name})


def notify_sign_in(session: Session, user: User, link: str, language: str | None) -> None:
    """`language`: the page's the link was asked from."""
    queue_notice(session, SIGN_IN, {"link": link}, recipient=user, language=language)


def notify_delete_account(session: Session, user: User, link: str, language: str | None) -> None:
    """The link that confirms the player asked to delete their account."""
    queue_notice(session, DELETE_ACCOUNT, {"link": link}, recipient=user, language=language)


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
    the inviter chose for it, else the inviter's page's, for an invitee who
    never signed in."""
    payload = {
        "link": link,
        "game": seat.game.public_id,
        "ruleset": seat.game.ruleset,
        "seat": seat.position,
        "from": inviter,
    }
    if replaces is not None:
        payload["replaces"] = replaces
    queue_notice(
        session, INVITE, payload, recipient=invitee, game_id=seat.game_id, language=language
    )


def notify_reminder(session: Session, seat: Seat) -> None:
    """The seat's decision times out soon (the mail reads the time from the seat)."""
    assert seat.timeout_at is not None  # a reminder is due before a timeout
    _queue(session, seat, REMINDER, {"timeout_at": seat.timeout_at.isoformat()})


def notify_timeout(
    session: Session,
    game: Game,
    late: Seat,
    rule: OnTimeout,
    moves: Sequence[str] = (),
) -> None:
    """Everyone playing, the late player included, hears what the timeout
    under `rule` did, whoever acts on it (the clock; under on_timeout bot,
    the bot once it made the decision); the late player in words of their
    own ("you keep your seat"), with the moves a bot made for them (theirs
    to see; the others see them as the game shows them, secret parts
    hidden, in their next mail)."""
    outcome, to_late = outcome_said(rule)
    for seat in game.seats:
        said = {"late": late.position, "outcome": outcome}
        if seat.id == late.id:
            said = {"late": late.position, "outcome": to_late, "moves": list(moves)}
        _queue(session, seat, TIMEOUT, said)


def notify_organiser_timeout(session: Session, game: Game, late: Seat) -> None:
    """A game whose timeouts wait for the organiser: its creator (or its
    league's organisers) decides."""
    for organiser_id in sorted(organiser_ids(game)):
        queue_notice(
            session,
            ORGANISER_TIMEOUT,
            {"game": game.public_id, "name": late.name, "ruleset": game.ruleset},
            recipient=session.get_one(User, organiser_id),
            game_id=game.id,
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
    queue_notice(
        session,
        ORGANISER_NOTICE,
        {
            "game": game.public_id,
            "ruleset": game.ruleset,
            "text": text.to_json(),
            "headline": headline.to_json(),
        },
        recipient=session.get_one(User, recipient_id),
        game_id=game.id,
    )


def notify_digest(session: Session, user: User) -> None:
    """The daily list of the user's games waiting for them, written when it is sent."""
    queue_notice(session, DIGEST, {}, recipient=user)


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
    queue_notice(session, WEBHOOK_OFF, payload, recipient=session.get_one(User, user_id))
