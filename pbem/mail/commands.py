"""The commands a player may write in a reply, and what each one does.

Every line that is not a command is a move; all the moves of one mail go in
as one submission, applied together or not at all. Command words are read in
English, French and Czech (command_words). Prose before the moves and after
them (a greeting, a closing, a signature) is set aside and named in the
answer; lines the game cannot read after a first move it can read (prose
between moves, a mistyped move) make the mail a question, not a turn
(unread_lines).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy.orm import Session

from pbem.config import base_url
from pbem.i18n import current_language
from pbem.i18n.command_words import command_named, own_word
from pbem.i18n.rules import describe_error
from pbem.i18n.times import local_time
from pbem.mail.command_help import command_word, help_text
from pbem.mail.game_text import history_lines
from pbem.mail.legal_text import legal_text
from pbem.mail.unread_lines import (
    Judge,
    not_read,
    question,
    sender_names,
    set_aside,
    unread_lines,
)
from pbem.models import Channel, GameStatus, Seat, Submission, utcnow
from pbem.services import chat, vacation
from pbem.services.errors import ServiceError
from pbem.services.events import events_by_ply, events_of
from pbem.services.names import read_names
from pbem.services.replay import engine_game
from pbem.services.resign import resign
from pbem.services.seat_address import NEW_ADDRESS, renew_address
from pbem.services.submissions import submission_lines
from pbem.services.turns import RefusalReason, TurnRefused, accept_turn

VACATION_DAYS = re.compile(r"([0-9]{1,4})(?:\s*(?:days?|jours?|dn[iíuů]|dny|den))?", re.IGNORECASE)


@dataclass
class Reading:
    """A mail's new text, split into commands and move lines, and who sent it
    (the From header: the sender may sign with the name it gives)."""

    commands: list[tuple[str, str]] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    sender: str = ""


def read_commands(text: str, sender: str = "") -> Reading:
    reading = Reading(sender=sender)
    for line in submission_lines(text):
        word, _, rest = line.partition(" ")
        command = command_named(word)
        if command is not None:
            reading.commands.append((command, rest.strip()))
        else:
            reading.moves.append(line)
    return reading


@dataclass
class Answer:
    """What the mail pipeline does with a reading: texts to answer and the
    submission stored, if any."""

    paragraphs: list[str] = field(default_factory=list)
    board: bool = False
    submission_id: int | None = None
    outcome: str = "answered"
    config: Mapping[str, Any] = field(default_factory=dict)  # the app's settings


def carry_out(
    session: Session,
    judge: Judge,
    reading: Reading,
    seen_ply: int | None,
    config: Mapping[str, Any],
) -> Answer:
    """Run the commands and store the moves of the mail to `judge`'s seat;
    the caller commits."""
    answer = Answer(config=config)
    seat = judge.seat
    moves, aside = set_aside(judge, reading.moves, sender_names(seat, reading.sender))
    resigning = any(name == "resign" for name, _ in reading.commands)
    if resigning and (moves or len(reading.commands) > 1):
        answer.paragraphs.append(
            _(
                "To resign, send a mail whose only line is: %(resign)s. Nothing was done.",
                resign=command_word("resign"),
            )
        )
        answer.outcome = "refused"
        return answer
    if moves:
        _moves(session, judge, moves, seen_ply, answer)
    for name, argument in reading.commands:
        _COMMANDS[name](session, seat, argument, answer)
    if not moves and not reading.commands:
        answer.paragraphs.append(_("Your mail held no move and no command."))
        answer.paragraphs.append(help_text(base_url(config)))
        answer.outcome = "empty"
    if aside and answer.submission_id is not None:
        # Named in the answer to the turn, once judged: one mail, not two.
        session.get_one(Submission, answer.submission_id).aside = aside
    elif aside:
        answer.paragraphs.append(not_read(aside))
    return answer


def _moves(
    session: Session, judge: Judge, moves: list[str], seen_ply: int | None, answer: Answer
) -> None:
    seat, game = judge.seat, judge.seat.game
    if game.status != GameStatus.ACTIVE:
        answer.paragraphs.append(_("This game is over; your moves were not played."))
        answer.board = True
        answer.outcome = "refused"
        return
    unread = unread_lines(judge, moves)
    if unread:
        answer.paragraphs.append(question(judge, moves, unread))
        answer.outcome = "unclear"
        return
    try:
        submission = accept_turn(
            session, seat, seat.user_id, "\n".join(moves), Channel.MAIL, seen_ply
        )
    except TurnRefused as refusal:
        _refused_moves(refusal, answer)
        return
    answer.submission_id = submission.id
    answer.outcome = "submitted"


def _refused_moves(refusal: TurnRefused, answer: Answer) -> None:
    """Why the one door refused the mail's moves, in the player's words."""
    exc = refusal.illegal
    if refusal.why == RefusalReason.MOVED_ON and exc is not None:
        assert refusal.then is not None and refusal.now is not None
        answer.paragraphs.append(
            ngettext(
                "Your reply answers the position after move %(seen)s, but %(num)d move "
                "has been played since then and your moves no longer fit (%(reason)s). "
                "Nothing was played. Here is the board now.",
                "Your reply answers the position after move %(seen)s, but %(num)d moves "
                "have been played since then and your moves no longer fit (%(reason)s). "
                "Nothing was played. Here is the board now.",
                refusal.now - refusal.then,
                seen=refusal.then,
                reason=describe_error(exc, current_language()),
            )
        )
        answer.board = True
        answer.outcome = "stale"
    else:
        reason = refusal.said(current_language(), with_rule=False)
        answer.paragraphs.append(_("Nothing was played: %(reason)s.", reason=reason))
        answer.outcome = "refused"


def _legal(session: Session, seat: Seat, argument: str, answer: Answer) -> None:
    played = engine_game(seat.game)
    if seat.position not in played.state.to_act():
        answer.paragraphs.append(_("It is not your turn, so you have no legal move now."))
        return
    answer.paragraphs.append(legal_text(played, seat.position, argument))


def _board(_session: Session, _seat: Seat, _argument: str, answer: Answer) -> None:
    answer.paragraphs.append(_("The board as it is now:"))
    answer.board = True


def _history(session: Session, seat: Seat, _argument: str, answer: Answer) -> None:
    events = events_by_ply(events_of(session, seat.game))
    names = read_names(seat.game)
    lines = history_lines(engine_game(seat.game), seat.position, names, events)
    answer.paragraphs.append(_("All moves so far:") + "\n" + ("\n".join(lines) or _("(none yet)")))


def _resign(session: Session, seat: Seat, _argument: str, answer: Answer) -> None:
    try:
        resign(session, seat)
    except ServiceError as exc:
        answer.paragraphs.append(_("You cannot resign: %(reason)s", reason=exc))
        return
    answer.paragraphs.append(
        _("You resigned. A bot plays your seat to the end; you get no more mail about this game.")
    )
    answer.outcome = "resigned"


def _chat(session: Session, seat: Seat, argument: str, answer: Answer) -> None:
    try:
        sent = chat.post(
            session, seat, argument, Channel.MAIL, answer.config["PBEM_CHAT_MAX_CHARS"]
        )
    except ServiceError as exc:
        answer.paragraphs.append(_("Your chat message was not sent: %(reason)s", reason=exc))
        return
    answer.paragraphs.append(f"{sent.summary}\n{sent.message.text}")


def _new_address(session: Session, seat: Seat, _argument: str, answer: Answer) -> None:
    renew_address(session, seat)
    answer.paragraphs.append(NEW_ADDRESS.text())


def _vacation(session: Session, seat: Seat, argument: str, answer: Answer) -> None:
    user, now = seat.user, utcnow()
    assert user is not None  # mail comes from a seat's player
    allowance = answer.config["PBEM_VACATION_DAYS"]
    asked = VACATION_DAYS.fullmatch(argument)
    if asked is None:
        left = vacation.status(session, user, allowance, now).left
        answer.paragraphs.append(
            ngettext(
                "No vacation was started: write the number of days after %(word)s, like "
                "%(word)s 7 (you have %(num)d day left this year).",
                "No vacation was started: write the number of days after %(word)s, like "
                "%(word)s 7 (you have %(num)d days left this year).",
                left,
                word=own_word("vacation"),
            )
        )
        return
    try:
        started = vacation.start(session, user, int(asked.group(1)), allowance, now)
    except ServiceError as exc:
        answer.paragraphs.append(_("No vacation was started: %(reason)s.", reason=exc))
        return
    assert started.ended_at is not None
    left = vacation.status(session, user, allowance, now).left
    answer.paragraphs.append(
        ngettext(
            "Your vacation has started: your clocks stop in every game until %(until)s. "
            "You have %(num)d vacation day left this year. Back earlier? Reply: %(back)s",
            "Your vacation has started: your clocks stop in every game until %(until)s. "
            "You have %(num)d vacation days left this year. Back earlier? Reply: %(back)s",
            left,
            until=local_time(started.ended_at, user.time_zone, now),
            back=own_word("back"),
        )
    )


def _back(session: Session, seat: Seat, _argument: str, answer: Answer) -> None:
    assert seat.user is not None  # mail comes from a seat's player
    try:
        vacation.end(session, seat.user, utcnow())
    except ServiceError as exc:
        answer.paragraphs.append(_("Nothing was changed: %(reason)s.", reason=exc))
        return
    answer.paragraphs.append(_("Welcome back: your clocks run again in every game."))


def _help(_session: Session, _seat: Seat, _argument: str, answer: Answer) -> None:
    answer.paragraphs.append(help_text(base_url(answer.config)))


_COMMANDS = {
    "legal": _legal,
    "board": _board,
    "history": _history,
    "resign": _resign,
    "chat": _chat,
    "newaddress": _new_address,
    "vacation": _vacation,
    "back": _back,
    "help": _help,
}
