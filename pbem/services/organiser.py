"""What a game's organiser (its creator) may do when a player is absent or the
game must stop: extend a deadline, pause and resume, hand a seat to a bot,
give a seat to another person, choose the level of the bots that stand in
for absent players, abandon the game.

Each action runs under the game's lock and re-checks the game there, is
kept as an event of the game's history (shown between the moves), is mailed
to the players and announced (pbem.signals). The caller commits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm import Session

from pbem import signals
from pbem.db import lock_game
from pbem.i18n.phrases import Phrase, phrase
from pbem.models import ClockStop, Game, GameEvent, GameStatus, Seat, User, utcnow
from pbem.services import notifications
from pbem.services.accounts import invited_user, user_by_email
from pbem.services.bots import checked_level, level_phrase
from pbem.services.calendar import DAY
from pbem.services.deadlines import ask, follow_to_act, recompute, recompute_game
from pbem.services.errors import Conflict, Forbidden, Invalid, NotFound
from pbem.services.events import record_event
from pbem.services.game_organisers import organises
from pbem.services.games import visible_game
from pbem.services.replay import moves_stored
from pbem.services.resign import leave_seat
from pbem.services.seat_address import renew_address
from pbem.services.submissions import pending_submission

EXTEND_DAYS = range(1, 31)
# A link for the invitation to take over `seat`, for the address given.
InvitationLink = Callable[[Seat, str], str]


@dataclass
class Done:
    event: GameEvent


def organising(session: Session, game_public_id: str, user: User) -> Game:
    """The game if `user` organises it (unlocked, to show a page). Strangers get
    'not found' like for any game they cannot see; its players are told it is
    not theirs to do."""
    game = visible_game(session, game_public_id, user)
    if not organises(game, user):
        raise Forbidden(
            _("only the game's organiser (the player who created it, or its league's) may do this")
        )
    return game


def organised_game(session: Session, game_public_id: str, organiser: User) -> Game:
    """The game, locked (its seats read after the lock), if `organiser` created it."""
    game_id = session.scalar(select(Game.id).where(Game.public_id == game_public_id))
    if game_id is None:
        raise NotFound(_("no such game"))
    lock_game(session, game_id)
    return organising(session, game_public_id, organiser)


def extend(
    session: Session, organiser: User, game_public_id: str, position: int, days: int
) -> Done:
    """More time for the seat's current decision; a 'wait' timeout may strike again later."""
    game = organised_game(session, game_public_id, organiser)
    _require_going_on(game)
    if days not in EXTEND_DAYS:
        raise Invalid(
            _(
                "an extension is from %(low)s to %(high)s days",
                low=EXTEND_DAYS[0],
                high=EXTEND_DAYS[-1],
            )
        )
    if game.days_per_move is None:
        raise Conflict(_("this game has no clock, so no deadline to extend"))
    seat = _seat(game, position)
    if seat.asked_at is None:
        raise Conflict(
            _(
                "%(name)s is not asked to move now: there is no deadline to extend",
                name=seat.name,
            )
        )
    seat.extra_seconds += days * DAY
    seat.timed_out_at = seat.reminded_at = None
    recompute(session, seat)
    text = phrase(
        "%(organiser)s (organiser) gave %(name)s %(more)s more for this move.",
        durations=("more",),
        organiser=organiser.name,
        name=seat.name,
        more=days * DAY,
    )
    headline = phrase("deadline extended")
    return Done(_announce(session, game, organiser, "extend", text, headline, seat))


def pause(session: Session, organiser: User, game_public_id: str) -> Done:
    """Every clock of the game stops until it resumes; moves may still be made."""
    game = organised_game(session, game_public_id, organiser)
    _require_going_on(game)
    if game.days_per_move is None:
        raise Conflict(_("this game has no clock to stop"))
    if game.paused_at is not None:
        raise Conflict(_("the game is paused already"))
    game.paused_at = utcnow()
    session.add(ClockStop(game_id=game.id, started_at=game.paused_at))
    session.flush()
    recompute_game(session, game)
    text = phrase(
        "%(organiser)s (organiser) paused the game: the clocks stop until it resumes.",
        organiser=organiser.name,
    )
    return Done(_announce(session, game, organiser, "pause", text, phrase("game paused")))


def resume(session: Session, organiser: User, game_public_id: str) -> Done:
    """The clocks run again; every deadline moved on by the pause's length."""
    game = organised_game(session, game_public_id, organiser)
    _require_going_on(game)
    if game.paused_at is None:
        raise Conflict(_("the game is not paused"))
    now = utcnow()
    length = (now - game.paused_at).total_seconds()
    _end_pause(session, game, now)
    recompute_game(session, game)
    text = phrase(
        "%(organiser)s (organiser) resumed the game after a pause of %(length)s: "
        "the clocks run again.",
        durations=("length",),
        organiser=organiser.name,
        length=length,
    )
    return Done(_announce(session, game, organiser, "resume", text, phrase("game resumed")))


def hand_to_bot(session: Session, organiser: User, game_public_id: str, position: int) -> Done:
    """The player is out for the rest of the game, as if resigned; a bot plays on."""
    game = organised_game(session, game_public_id, organiser)
    _require_going_on(game)
    seat = _player_seat(game, position)
    text = phrase(
        "%(organiser)s (organiser) handed the seat of %(name)s to a bot for the rest of the game.",
        organiser=organiser.name,
        name=seat.name,
    )
    headline = phrase("seat handed to a bot")
    event = _announce(session, game, organiser, "bot", text, headline, seat)
    leave_seat(session, game, seat, "handed to a bot")
    return Done(event)


def choose_stand_in(session: Session, organiser: User, game_public_id: str, level: str) -> Done:
    """The level of the bot that takes over from now on: a decision that times
    out (under on_timeout bot), a player who resigns, a seat handed to a bot.
    Bots already in a seat keep theirs."""
    game = organised_game(session, game_public_id, organiser)
    if game.status == GameStatus.FINISHED:
        raise Conflict(_("the game is over already"))
    game.stand_in = checked_level(level)
    text = phrase(
        "%(organiser)s (organiser) chose the bots that stand in for absent players: %(level)s.",
        organiser=organiser.name,
        level=level_phrase(game.stand_in),
    )
    headline = phrase("stand-in bots changed")
    return Done(_announce(session, game, organiser, "stand-in", text, headline))


def replace(
    session: Session,
    organiser: User,
    game_public_id: str,
    position: int,
    email: str,
    invitation_link: InvitationLink,
    language: str | None = None,
) -> Done:
    """Give the seat to the person at `email` (see `hand_over`); they are
    invited by mail in `language` (pbem.services.accounts.invited_user), told
    it is their turn if it is, and the player who had it is told."""
    given = hand_over(session, organiser, game_public_id, position, email, language)
    seat, game = given.seat, given.seat.game
    notifications.notify_organiser_notice(
        session,
        game,
        given.old_user_id,
        phrase(
            "%(organiser)s (organiser) gave the seat of %(old)s to %(new)s. You no longer "
            "play in this game; its mails no longer come to you.",
            organiser=organiser.name,
            old=given.old_name,
            new=given.newcomer.name,
        ),
        phrase("your seat was given to another player"),
    )
    if given.asked:
        notifications.notify_turn(session, game, [seat.position], ply=moves_stored(game))
    link = invitation_link(seat, given.newcomer.email)
    notifications.notify_invite(
        session,
        seat,
        given.newcomer,
        link,
        organiser.name,
        replaces=given.old_name,
        language=language,
    )
    return Done(given.event)


@dataclass
class HandedOver:
    """A seat given to another player, for the caller to tell them and the
    player who had it."""

    event: GameEvent
    seat: Seat
    newcomer: User
    old_name: str
    old_user_id: int
    asked: bool  # the seat owes a decision: the newcomer's clock started now


def hand_over(
    session: Session,
    organiser: User,
    game_public_id: str,
    position: int,
    email: str,
    language: str | None = None,
) -> HandedOver:
    """Give the seat to the person at `email` (a user from now on, as on their
    first sign-in): they get its private view, its mails and a fresh clock
    for the decision it owes; the player who had it loses it. The other
    players are mailed the event; the newcomer and the player replaced are
    the caller's to tell: `replace` for one game, a season's replacement once
    for all its games (pbem.leagues.withdrawal)."""
    game = organised_game(session, game_public_id, organiser)
    _require_going_on(game)
    seat = _player_seat(game, position)
    newcomer = invited_user(session, email, language)
    if any(other.user_id == newcomer.id for other in game.seats):
        raise Conflict(_("%(email)s plays in this game already", email=newcomer.email))
    if pending_submission(session, seat) is not None:
        raise Conflict(
            _("a move of %(name)s is being judged; try again in a moment", name=seat.name)
        )
    old_name, old_user_id = seat.name, seat.user_id
    assert old_user_id is not None  # a player's seat
    text = phrase(
        "%(organiser)s (organiser) gave the seat of %(old)s to %(new)s.",
        organiser=organiser.name,
        old=old_name,
        new=newcomer.name,
    )
    seat.user, seat.name, seat.invited_email = newcomer, newcomer.name, newcomer.email
    renew_address(session, seat)  # the old player's secret mail address stops working
    session.flush()
    signals.announce(
        session,
        signals.seat_changed_hands,
        game_id=game.id,
        position=seat.position,
        old_user_id=old_user_id,
        new_user_id=newcomer.id,
        why="replaced",
    )
    asked = seat.position in game.to_act
    if asked:
        ask(session, seat, utcnow())  # the newcomer's decision starts now
    headline = phrase("new player")
    event = _announce(session, game, organiser, "replace", text, headline, seat, [seat])
    return HandedOver(event, seat, newcomer, old_name, old_user_id, asked)


def abandon(session: Session, organiser: User, game_public_id: str) -> Done:
    """The game ends without a result, whether under way or still waiting for players."""
    game = organised_game(session, game_public_id, organiser)
    if game.status == GameStatus.FINISHED:
        raise Conflict(_("the game is over already"))
    was_open = game.status == GameStatus.OPEN
    now = utcnow()
    if game.paused_at is not None:
        _end_pause(session, game, now)
    game.status, game.finished_at, game.abandoned_at, game.to_act = (
        GameStatus.FINISHED,
        now,
        now,
        [],
    )
    follow_to_act(session, game, ())  # no decision is owed any more
    text = phrase(
        "%(organiser)s (organiser) abandoned the game: it ends without a result.",
        organiser=organiser.name,
    )
    headline = phrase("game abandoned")
    if not was_open:
        event = _announce(session, game, organiser, "abandon", text, headline)
    else:
        for user_id in _waiting_players(session, game, organiser):
            notifications.notify_organiser_notice(session, game, user_id, text, headline)
        event = record_event(session, game, "abandon", text, actor=organiser)
        _acted(session, game, organiser, "abandon")
    signals.announce(session, signals.game_ended, game_id=game.id, abandoned=True)
    return Done(event)


def _require_going_on(game: Game) -> None:
    if game.status != GameStatus.ACTIVE:
        raise Conflict(_("the game is not going on"))


def _seat(game: Game, position: int) -> Seat:
    for seat in game.seats:
        if seat.position == position:
            return seat
    raise NotFound(_("no such seat"))


def _player_seat(game: Game, position: int) -> Seat:
    """A seat its player still holds (not a bot's, not one given up)."""
    seat = _seat(game, position)
    if not seat.is_playing:
        raise Conflict(
            _(
                "seat %(number)s has no player: a bot plays it or nobody took it",
                number=position + 1,
            )
        )
    return seat


def _end_pause(session: Session, game: Game, now: datetime) -> None:
    for stop in session.scalars(
        select(ClockStop).where(ClockStop.game_id == game.id, ClockStop.ended_at.is_(None))
    ):
        stop.ended_at = now
    game.paused_at = None


def _announce(
    session: Session,
    game: Game,
    organiser: User,
    kind: str,
    text: Phrase,
    headline: Phrase,
    seat: Seat | None = None,
    also_skip: Iterable[Seat] = (),
) -> GameEvent:
    """Keep the event and mail it to the players; the organiser knows already."""
    event = record_event(
        session, game, kind, text, seat_position=seat.position if seat else None, actor=organiser
    )
    skip = {s.position for s in game.seats if s.user_id == organiser.id}
    skip |= {s.position for s in also_skip}
    notifications.notify_organiser_event(session, game, text, headline, skip)
    _acted(session, game, organiser, kind)
    return event


def _acted(session: Session, game: Game, organiser: User, kind: str) -> None:
    signals.announce(
        session, signals.organiser_acted, game_id=game.id, kind=kind, organiser_id=organiser.id
    )


def _waiting_players(session: Session, game: Game, organiser: User) -> set[int]:
    """Who waits for a game that has not started: its seated players and its invitees."""
    waiting = {seat.user_id for seat in game.seats if seat.user_id is not None}
    for seat in game.seats:
        invitee = user_by_email(session, seat.invited_email) if seat.invited_email else None
        if invitee is not None:
            waiting.add(invitee.id)
    waiting.discard(organiser.id)
    return waiting
