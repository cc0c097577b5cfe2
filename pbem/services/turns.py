"""One door for every turn, whatever it comes by: the pages, the API, mail,
bots and the clock.

A turn is tried on a copy first, outside any lock (so a bad move is refused
at once and nothing is stored), then stored under the game's lock after
re-checking what the trial cannot: that the sender still holds the seat,
that the game has not moved on (for a channel that says where it stood), and
that nothing of the seat's is still waiting. A worker judges the stored turn
later, once the transaction that stored it has committed (pbem.dispatch).

Each channel's rule is stated once, in CHANNEL_RULES; channels only turn a
TurnRefused into a page, an API answer or a mail.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from flask_babel import gettext as _
from flask_babel import lazy_gettext
from sqlalchemy import or_, select
from sqlalchemy.orm import Session

import engine
from pbem.db import lock_game
from pbem.i18n.refusal_texts import TURN_ORDER
from pbem.i18n.rules import describe_error
from pbem.models import Channel, Game, Move, Seat, Submission, SubmissionStatus
from pbem.services.replay import moves_stored
from pbem.services.submissions import (
    STILL_WAITING,
    check_size,
    pending_submission,
    preview,
    submission_lines,
    submit,
)

PEOPLE = frozenset({Channel.API, Channel.WEB, Channel.MAIL})
OUT_OF_TIME = lazy_gettext(
    "your time for this move ran out: a bot is making it for you; look at the game again"
)


@dataclass(frozen=True)
class ChannelRule:
    """How a channel's turns are taken.

    one_waiting: refuse a turn while another of the seat's waits (a double
    click, two tabs), since its sender is answered at once anyway.
    exact_ply: a turn that names a position other than the game's is refused
    outright, so a retried request is applied at most once.
    once_per_page: the same moves sent again from a page drawn at the same
    position (a double click, a reload, two tabs) lead to the first ones.
    tried: try the turn before storing it at all. Bots' turns (the clock's
    too) are made from the legal moves, at most a turn of them, and judged
    by the worker next, so not.
    tried_in_full: try the turn to answer at once; else only to explain why
    a reply to an older position no longer fits (mail: the worker's
    judgement is mailed with the board).
    """

    one_waiting: bool = False
    exact_ply: bool = False
    tried: bool = True
    tried_in_full: bool = True
    once_per_page: bool = False


CHANNEL_RULES = {
    Channel.API: ChannelRule(one_waiting=True, exact_ply=True),
    Channel.WEB: ChannelRule(one_waiting=True, once_per_page=True),
    Channel.MAIL: ChannelRule(tried_in_full=False),
    # A bot thinks outside the lock (pbem.services.bot_thinking): moves for a
    # position the game has left, or while a turn of the seat waits, are dropped.
    Channel.BOT: ChannelRule(one_waiting=True, exact_ply=True, tried=False),
    Channel.CLOCK: ChannelRule(one_waiting=True, exact_ply=True, tried=False),
}


class RefusalReason(StrEnum):
    """Why the one door refused a turn (TurnRefused.why)."""

    ILLEGAL = "illegal"  # the rules refuse it: `illegal` says why
    # The game moved on since the position the sender saw: `then`, `now`,
    # and `illegal` when the turn no longer fits it.
    MOVED_ON = "moved_on"
    WAITING = "waiting"  # another turn of the seat waits
    OUT_OF_TIME = "out_of_time"  # the clock's bot is playing this decision
    NOT_HOLDER = "not_holder"  # the sender no longer holds the seat
    # The same moves came from the same page: `earlier` is the id of the
    # submission they led to.
    SENT_ALREADY = "sent_already"


class TurnRefused(Exception):
    """Why a turn was not stored (`why`, a RefusalReason), with what each
    channel needs to answer: its words (`said`), its HTTP status and the
    submission a form sent twice leads to (`earlier`)."""

    def __init__(
        self,
        why: RefusalReason,
        message: str,
        *,
        illegal: engine.IllegalMove | None = None,
        then: int | None = None,
        now: int | None = None,
        earlier: int | None = None,
    ) -> None:
        super().__init__(message)
        self.why, self.illegal, self.then, self.now = why, illegal, then, now
        self.earlier = earlier

    @property
    def status(self) -> int:
        """The HTTP status the pages and the API answer with: a seat no
        longer the sender's is not found; moves the rules refuse are 409
        when it is not the seat's turn, else 422; anything else is 409."""
        if self.why == RefusalReason.NOT_HOLDER:
            return 404
        if self.illegal is not None:
            return 409 if self.illegal.rule == TURN_ORDER else 422
        return 409

    def said(self, language: str | None, *, with_rule: bool = True) -> str:
        """The refusal in `language`, the one wording of pages, the API and
        mail: the rule broken, named or not (`with_rule`); on a page, with
        the moves played since it was drawn when those are why the moves no
        longer fit (a mail says that in words of its own, with the board)."""
        if self.illegal is None:
            return str(self)
        if self.why != RefusalReason.MOVED_ON:
            illegal = self.illegal if with_rule else self.illegal.with_rule(None)
            return describe_error(illegal, language)
        assert self.then is not None and self.now is not None  # said when it moved on
        outdated = engine.IllegalMove.of(
            "pbem.page_outdated",
            rule=self.illegal.rule,
            then=self.then,
            now=self.now,
            error=self.illegal.quoted(),
        )
        return describe_error(outdated, language)


def accept_turn(
    session: Session,
    seat: Seat,
    author_id: int | None,
    text: str,
    channel: Channel,
    seen: int | None,
) -> Submission:
    """Store the turn for a worker to judge, or raise TurnRefused; the caller
    commits. `seen`: the number of moves the sender saw when choosing (None:
    not said). `author_id`: the person sending (None for a bot)."""
    rule = CHANNEL_RULES[channel]
    tried_at = moves_stored(seat.game)
    if rule.exact_ply and seen is not None:
        _refuse_if_moved_on(seen, tried_at)
    if rule.tried:
        try:
            try_turn(seat, text, seen, only_when_behind=not rule.tried_in_full)
        except TurnRefused as refusal:
            # The moves may no longer fit because their first sending was applied.
            raise _sent_before(session, seat, text, seen, rule) or refusal from None
    game = lock_game(session, seat.game_id)  # reads the game's seats again, as they are now
    seat = next(s for s in game.seats if s.id == seat.id)
    sent_before = _sent_before(session, seat, text, seen, rule)
    if sent_before is not None:
        raise sent_before
    _refuse_unless_held(seat, author_id, channel)
    now = _moves_now(session, game)
    if rule.exact_ply and seen is not None:
        _refuse_if_moved_on(seen, now)  # again: a turn applied while this one was tried
    if rule.one_waiting:
        _refuse_while_waiting(session, seat)
    if rule.tried and rule.tried_in_full and now != tried_at:
        try_turn(seat, text, seen)  # a turn was applied meanwhile: try it on the game as it is
    return submit(session, seat, text, channel, author_id)


def _moves_now(session: Session, game: Game) -> int:
    """The moves stored, counted under the lock (not those the session holds)."""
    session.expire(game, ["moves"])
    return moves_stored(game)


def try_turn(
    seat: Seat, text: str, seen: int | None, only_when_behind: bool = False
) -> engine.Trial | None:
    """The turn tried on a copy as the seat may know it (see preview), or
    TurnRefused: "moved_on" when it no longer fits because the game moved
    on since `seen`, else "illegal". With `only_when_behind`, a turn that
    answers the game as it is is only checked for its size (None)."""
    current = moves_stored(seat.game)
    behind = seen is not None and seen < current
    try:
        if only_when_behind and not behind:
            check_size(seat, submission_lines(text))
            return None
        return preview(seat, text)
    except engine.IllegalMove as exc:
        if behind:
            raise TurnRefused(
                RefusalReason.MOVED_ON, str(exc), illegal=exc, then=seen, now=current
            ) from None
        raise TurnRefused(RefusalReason.ILLEGAL, str(exc), illegal=exc) from None


def _refuse_if_moved_on(seen: int, current: int) -> None:
    if seen != current:
        raise TurnRefused(
            RefusalReason.MOVED_ON,
            _(
                "the game moved on since you chose these moves (then %(then)s moves,"
                " now %(now)s): look at the position and send your turn again",
                then=seen,
                now=current,
            ),
            then=seen,
            now=current,
        )


def _refuse_unless_held(seat: Seat, author_id: int | None, channel: Channel) -> None:
    """The seat as it is under the lock: a person's turn needs its player
    still seated and no bot making a decision of theirs that timed out; a
    bot's, a bot in the seat; the clock's, a player whose decision timed out."""
    if channel in PEOPLE:
        held = seat.user_id == author_id and seat.is_playing
        if held and seat.bot_asked_at is not None:
            raise TurnRefused(RefusalReason.OUT_OF_TIME, str(OUT_OF_TIME))
    elif channel == Channel.BOT:
        held = seat.bot is not None
    else:
        held = seat.timed_out
    if not held:
        raise TurnRefused(RefusalReason.NOT_HOLDER, _("this seat is no longer yours"))


def _refuse_while_waiting(session: Session, seat: Seat) -> None:
    waiting = pending_submission(session, seat)
    if waiting is None:
        return
    if waiting.channel == Channel.CLOCK:
        raise TurnRefused(RefusalReason.OUT_OF_TIME, str(OUT_OF_TIME))
    raise TurnRefused(RefusalReason.WAITING, str(STILL_WAITING))


def _sent_before(
    session: Session, seat: Seat, text: str, drawn_at: int | None, rule: ChannelRule
) -> TurnRefused | None:
    """For a channel whose pages are sent once: the same moves from this
    seat, still waiting or applied after the page was drawn at `drawn_at`
    moves. A form sent twice (a double click, a reload, two tabs) leads to
    the first one's submission instead, whatever else would refuse it."""
    if not rule.once_per_page or drawn_at is None:
        return None
    applied_since = select(Move.submission_id).where(
        Move.game_id == seat.game_id, Move.ply > drawn_at
    )
    earlier = session.scalar(
        select(Submission.id)
        .where(
            Submission.seat_id == seat.id,
            Submission.raw_text == text,
            or_(Submission.status == SubmissionStatus.PENDING, Submission.id.in_(applied_since)),
        )
        .order_by(Submission.id)
        .limit(1)
    )
    if earlier is None:
        return None
    return TurnRefused(RefusalReason.SENT_ALREADY, str(STILL_WAITING), earlier=earlier)
