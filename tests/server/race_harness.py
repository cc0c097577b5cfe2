"""A race harness: clients on threads send random operations
at once to a few clocked games and a league's season on PostgreSQL, through
the API as people would (moves with and without `ply`, every organiser
action, joins, withdrawals, replacements, vacations, season starts), beside
sweeps run two days ahead (every deadline then lies in the past). Then it
checks what every order of those operations must leave true.

    python -m tests.server.race_harness --seconds 60 --seed 3

runs for a time (or `--operations N`, that many from each client, the same
kinds of operation for a seed on any machine) and prints one JSON line (the
seed, the operations by kind and answer, the violations) and exits 1 on any
violation; tests/server/test_race_harness.py runs it briefly in the suite.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pbem import create_app, migrate
from pbem.cli import main as pbem_command
from pbem.clock.sweep import sweep
from pbem.leagues.leagues import create_league, invite_entrant, join_league
from pbem.leagues.seasons import start_season
from pbem.models import (
    ClockStop,
    Game,
    GameEvent,
    GameStatus,
    Move,
    Outbox,
    SeasonEntrant,
    Seat,
    Submission,
    SubmissionStatus,
    User,
    utcnow,
)
from pbem.services import accounts
from pbem.services.games import SeatSpec, create_game
from pbem.services.replay import engine_game
from pbem.services.time_control import TimeControl
from tests.server.conftest import drain, forget_queues, own_queues, scratch_database
from tests.services import REDIS_URL
from worker.embedded import worker_threads

PEOPLE = ("api", "web", "mail")
CLOCK = TimeControl(days_per_move=1)
PLAYERS = ("Ann", "Bob", "Cem", "Dan")
NEWCOMERS = ("Eve", "Fay", "Gus", "Hal")
# Events a repetition of which, at the same ply for the same seat, is a lost
# race (a timeout may strike again: _timeouts_twice).
ONCE = ("bot", "abandon")


@dataclass
class Rig:
    """The people and the places the clients act on."""

    app: Flask
    organiser: str  # the organiser's token
    tokens: dict[int, str]  # user id -> API token
    emails: dict[int, str]
    games: list[str]  # public ids of the games outside the league
    league: str
    answers: Counter[tuple[str, int]] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def call(self, kind: str, method: str, url: str, token: str, body: Any = None) -> None:
        client = self.app.test_client()
        headers = {"Authorization": f"Bearer {token}"}
        answer = client.open(url, method=method, json=body, headers=headers)
        with self.lock:
            self.answers[(kind, answer.status_code)] += 1


def build(app: Flask, session: Session) -> Rig:
    """Olga organises four clocked Taluva games and an open league whose
    first season is under way; four more people stand by to take seats."""
    tag = uuid.uuid4().hex[:6]

    def person(name: str) -> User:
        user = accounts.create_user(session, f"{name.lower()}-{tag}@example.org", name)
        user.quiet_start = user.quiet_end = None
        return user

    olga = person("Olga")
    players = [person(name) for name in PLAYERS]
    everyone = [olga, *players, *(person(name) for name in NEWCOMERS)]
    session.flush()
    tokens = {user.id: accounts.issue_api_token(session, user, "races") for user in everyone}
    games = []
    for first, second in ((0, 1), (2, 3), (1, 2), (3, 0)):
        specs = [SeatSpec(user=players[first]), SeatSpec(user=players[second])]
        games.append(create_game(session, olga, "taluva", specs, time_control=CLOCK))
    league = create_league(
        session, olga, "Races", "taluva", 2, time_control=CLOCK, open_to_all=True
    )
    for user in players:
        invite_entrant(session, league, olga, user.email, "https://pbem.test/league")
        join_league(session, league.public_id, user)
    start_season(session, league)
    session.commit()
    return Rig(
        app,
        tokens[olga.id],
        tokens,
        {user.id: user.email for user in everyone},
        [game.public_id for game in games],
        league.public_id,
    )


def all_games(session: Session) -> list[Game]:
    return list(session.scalars(select(Game).where(Game.status == GameStatus.ACTIVE)))


def move(rig: Rig, chance: random.Random, with_ply: bool) -> None:
    """A player whose seat must act, and who has no turn waiting to be judged
    (a client waits for its answer; other clients may still pick the same
    seat at once), sends a random legal move, with the ply it saw or not."""
    with rig.app.extensions["pbem.db"].session() as session:
        games = all_games(session)
        if not games:
            return
        game = chance.choice(games)
        played = engine_game(game)
        waiting = set(
            session.scalars(
                select(Submission.seat_id).where(
                    Submission.game_id == game.id, Submission.status == SubmissionStatus.PENDING
                )
            )
        )
        acting = [
            seat
            for seat in game.seats
            if seat.position in played.state.to_act()
            and seat.user_id
            and seat.bot is None
            and seat.id not in waiting
        ]
        if not acting:
            return
        seat = chance.choice(acting)
        moves = played.state.legal_moves(seat.position)
        text = played.state.format_move(chance.choice(moves)) if moves else "nothing"
        url = f"/api/v1/games/{game.public_id}/seats/{seat.position}/moves"
        body: dict[str, Any] = {"moves": [text]}
        if with_ply:
            body["ply"] = len(played.log)
        token = rig.tokens[seat.user_id]
    rig.call("move with ply" if with_ply else "move", "POST", url, token, body)


def organise(rig: Rig, chance: random.Random) -> None:
    """Olga does one of her actions to a random game, on a random seat."""
    with rig.app.extensions["pbem.db"].session() as session:
        games = all_games(session)
        if not games:
            return
        game = chance.choice(games)
        public_id, seats = game.public_id, len(game.seats)
    action = chance.choices(
        ["extend", "pause", "resume", "hand-to-bot", "replace", "abandon"], [40, 30, 30, 2, 30, 1]
    )[0]
    body: dict[str, Any] | None = None
    if action in ("extend", "hand-to-bot", "replace"):
        body = {"position": chance.randrange(seats)}
    if action == "extend":
        body = {**(body or {}), "days": chance.randint(1, 3)}
    if action == "replace":
        body = {**(body or {}), "email": chance.choice(list(rig.emails.values()))}
    url = f"/api/v1/games/{public_id}/organiser/{action}"
    rig.call(f"organiser {action}", "POST", url, rig.organiser, body)


def sweep_ahead(rig: Rig, _chance: random.Random) -> None:
    """The beat's sweep two days ahead: every deadline lies in its past."""
    with rig.app.extensions["pbem.db"].session() as session:
        sweep(session, utcnow() + timedelta(days=2))
    with rig.lock:
        rig.answers[("sweep", 200)] += 1


def league_action(rig: Rig, chance: random.Random) -> None:
    """A join, a leave, a withdrawal (by the player or Olga), a replacement or
    a season start, on the league's current season."""
    base = f"/api/v1/leagues/{rig.league}"
    with rig.app.extensions["pbem.db"].session() as session:
        places = session.scalars(
            select(SeasonEntrant)
            .join(SeasonEntrant.season)
            .where(SeasonEntrant.user_id.is_not(None))
        ).all()
        place = chance.choice(places) if places else None
        where = f"{base}/seasons/{place.season.number}/entrants/{place.id}" if place else None
        holder = place.user_id if place else None
    user_id = chance.choice(list(rig.tokens))
    action = chance.choice(["join", "leave", "withdraw", "withdraw by olga", "replace", "start"])
    if action in ("join", "leave"):
        rig.call(f"league {action}", "POST", f"{base}/{action}", rig.tokens[user_id])
    elif action == "start":
        rig.call("league start", "POST", f"{base}/seasons", rig.organiser, {})
    elif where is not None and action == "withdraw":
        rig.call("league withdraw", "POST", f"{where}/withdraw", rig.tokens[holder or user_id])
    elif where is not None and action == "withdraw by olga":
        rig.call("league withdraw", "POST", f"{where}/withdraw", rig.organiser)
    elif where is not None:
        body = {"email": rig.emails[user_id]}
        rig.call("league replace", "POST", f"{where}/replace", rig.organiser, body)


def vacation(rig: Rig, chance: random.Random) -> None:
    token = rig.tokens[chance.choice(list(rig.tokens))]
    if chance.random() < 0.5:
        rig.call(
            "vacation start", "POST", "/api/v1/vacation", token, {"days": chance.randint(1, 2)}
        )
    else:
        rig.call("vacation end", "DELETE", "/api/v1/vacation", token)


# A sweep two days ahead times out every seat that must act, so it comes
# seldom enough for people to move between sweeps.
OPERATIONS: list[tuple[Callable[[Rig, random.Random], None], float]] = [
    (lambda rig, chance: move(rig, chance, with_ply=True), 8),
    (lambda rig, chance: move(rig, chance, with_ply=False), 8),
    (organise, 4),
    (sweep_ahead, 0.3),
    (league_action, 1),
    (vacation, 1),
]


def run(rig: Rig, until: Until, seed: int, clients: int) -> None:
    """Each client picks operations with its own seeded chance until its
    count is done or time is up."""
    stop_at = time.monotonic() + until.seconds if until.seconds is not None else None
    failures: list[BaseException] = []
    operations, weights = zip(*OPERATIONS, strict=True)

    def going(done: int) -> bool:
        if until.operations is not None and done >= until.operations:
            return False
        return stop_at is None or time.monotonic() < stop_at

    def client(number: int) -> None:
        chance = random.Random(f"{seed}/{number}")
        done = 0
        try:
            while going(done):
                chance.choices(operations, weights)[0](rig, chance)
                done += 1
        except BaseException as exc:  # reported by the caller
            failures.append(exc)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]


def violations(rig: Rig) -> list[str]:
    """What no order of the operations may leave behind."""
    found = [f"{kind} answered {code}" for (kind, code) in rig.answers if code >= 500]
    with rig.app.extensions["pbem.db"].session() as session:
        found += _moves_for_former_holders(session)
        found += _clocks_switched_off(session)
        found += _events_twice(session)
        found += _timeouts_twice(session)
        found += _league_places(session)
    verified = rig.app.test_cli_runner().invoke(pbem_command, ["verify", "--all"])
    if verified.exit_code != 0:
        found.append(f"pbem verify --all: {verified.output.strip()[-500:]}")
    return found


def _moves_for_former_holders(session: Session) -> list[str]:
    """A person's applied move must have been sent by the seat's holder, and
    no replacement may fall between its sending and its judging."""
    found = []
    rows = session.execute(
        select(Move, Submission)
        .join(Submission, Move.submission_id == Submission.id)
        .where(Submission.channel.in_(PEOPLE))
    ).all()
    for applied, sent in rows:
        if sent.author_id != sent.sent_for_id:
            found.append(f"move {applied.id} was sent by {sent.author_id} for {sent.sent_for_id}")
        replaced = session.scalar(
            select(func.count()).where(
                GameEvent.game_id == applied.game_id,
                GameEvent.kind == "replace",
                GameEvent.seat_position == applied.seat.position,
                GameEvent.created_at > sent.created_at,
                GameEvent.created_at < applied.created_at,
            )
        )
        if replaced:
            found.append(f"move {applied.id} was played after its seat was given away")
    return found


def _clocks_switched_off(session: Session) -> list[str]:
    """Every player's seat that must act in a running clocked game has a
    timeout to come, or something of its own waiting to be judged."""
    found = []
    for game in session.scalars(
        select(Game).where(
            Game.status == GameStatus.ACTIVE,
            Game.paused_at.is_(None),
            Game.days_per_move.is_not(None),
        )
    ):
        for seat in game.seats:
            if seat.position not in game.to_act or seat.bot is not None or seat.user_id is None:
                continue
            waiting = session.scalar(
                select(func.count()).where(
                    Submission.seat_id == seat.id, Submission.status == SubmissionStatus.PENDING
                )
            )
            if not waiting and (seat.timeout_at is None or seat.timed_out_at is not None):
                found.append(f"game {game.id} seat {seat.position} owes a move with no clock")
    return found


def _events_twice(session: Session) -> list[str]:
    """No hand-over or abandonment twice for the same seat and ply, and no
    'your turn' mailed twice for the same seat and ply but after a
    replacement there (which tells its newcomer, though they held it before)."""
    repeated = session.execute(
        select(GameEvent.game_id, GameEvent.kind, GameEvent.seat_position, GameEvent.ply)
        .where(GameEvent.kind.in_(ONCE))
        .group_by(GameEvent.game_id, GameEvent.kind, GameEvent.seat_position, GameEvent.ply)
        .having(func.count() > 1)
    ).all()
    found = [
        f"event {kind} twice in game {game} seat {seat} ply {ply}"
        for game, kind, seat, ply in repeated
    ]
    turns = Counter(
        (row.recipient_id, row.game_id, row.payload.get("seat"), row.payload.get("ply"))
        for row in session.scalars(select(Outbox).where(Outbox.kind == "your_turn"))
    )
    # A player given the seat back by a replacement at the same ply is told
    # again that it is their turn: each replacement tells its newcomer.
    replaced = {
        tuple(row)
        for row in session.execute(
            select(GameEvent.game_id, GameEvent.seat_position, GameEvent.ply).where(
                GameEvent.kind == "replace"
            )
        )
    }
    found += [
        f"'your turn' mailed twice: {key}"
        for key, count in turns.items()
        if count > 1 and key[1:] not in replaced
    ]
    return found


def _timeouts_twice(session: Session) -> list[str]:
    """No seat timed out twice at one ply with nothing between that gave it
    time back. A timeout strikes again once its deadline moved on
    (pbem.services.deadlines.recompute): after an extension, a resume or a
    replacement, which are events of the game, or a vacation of one of its
    players started or ended. Two with none of these between are two sweeps
    timing out one decision."""
    players: dict[int, set[int | None]] = {}
    for game_id, user_id in session.execute(select(Seat.game_id, Seat.user_id)):
        players.setdefault(game_id, set()).add(user_id)
    vacations = session.scalars(select(ClockStop).where(ClockStop.user_id.is_not(None))).all()

    def vacation_between(game_id: int, start: datetime, end: datetime) -> bool:
        return any(
            stop.user_id in players.get(game_id, set()) and start <= moment <= end
            for stop in vacations
            for moment in (stop.started_at, stop.ended_at)
            if moment is not None
        )

    events = session.scalars(select(GameEvent).order_by(GameEvent.game_id, GameEvent.id)).all()
    return [
        f"event timeout twice in game {event.game_id} seat {event.seat_position}"
        f" ply {event.ply}, nothing between"
        for before, event in itertools.pairwise(events)
        if before.kind == event.kind == "timeout"
        and (before.game_id, before.seat_position, before.ply)
        == (event.game_id, event.seat_position, event.ply)
        and not vacation_between(event.game_id, before.created_at, event.created_at)
    ]


def _league_places(session: Session) -> list[str]:
    """A place of a season is played by its holder (or by whoever the
    organiser last gave that one game's seat to), or by bots once withdrawn;
    one person holds it, an active entrant of the league."""
    found = []
    for place in session.scalars(select(SeasonEntrant)):
        going_on = place.withdrawn_at is None and place.season.finished_at is None
        entrant = place.entrant
        if going_on and (entrant.left_at is not None or entrant.user_id != place.user_id):
            found.append(f"place {place.id} is held by someone who is not its entrant")
        for seat in session.scalars(select(Seat).where(Seat.entrant_id == place.id)):
            if seat.game.status != GameStatus.ACTIVE:
                continue
            if place.withdrawn_at is not None and seat.bot is None:
                found.append(f"withdrawn place {place.id} still plays game {seat.game_id}")
            given = _last_given_to(session, seat)
            if place.withdrawn_at is None and seat.user_id != place.user_id and given != seat.name:
                found.append(f"place {place.id}'s seat in game {seat.game_id} has another player")
    return found


def _last_given_to(session: Session, seat: Seat) -> str | None:
    """The name of whoever the last replacement in the seat's game gave it to."""
    event = session.scalar(
        select(GameEvent)
        .where(
            GameEvent.game_id == seat.game_id,
            GameEvent.kind == "replace",
            GameEvent.seat_position == seat.position,
        )
        .order_by(GameEvent.id.desc())
        .limit(1)
    )
    return None if event is None or event.phrase is None else event.phrase["params"]["new"]


def harness_app(database_url: str) -> Flask:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "races",
            "PBEM_DATABASE_URL": database_url,
            "PBEM_BROKER_URL": REDIS_URL,
            **own_queues("pbem-races"),
            "RATELIMIT_ENABLED": False,  # every client is 127.0.0.1 here
        }
    )
    migrate.upgrade(app.extensions["pbem.db"].engine)
    return app


@dataclass(frozen=True)
class Until:
    """When each client stops: after `operations` of its own, or `seconds`."""

    seconds: float | None = None
    operations: int | None = None


def race(until: Until, seed: int, clients: int = 6) -> dict[str, Any]:
    """One seeded run on a database of its own; its report."""
    with scratch_database() as url:
        app = harness_app(url)
        try:
            with worker_threads(app):
                with app.extensions["pbem.db"].session() as session:
                    rig = build(app, session)
                drain(app, timeout=120)
                run(rig, until, seed, clients)
                drain(app, timeout=300)
                found = violations(rig)
                with app.extensions["pbem.db"].session() as session:
                    applied = {
                        channel: count
                        for channel, count in session.execute(
                            select(Move.channel, func.count()).group_by(Move.channel)
                        )
                    }
        finally:
            app.extensions["pbem.db"].dispose()
            forget_queues(app)
    answers = {f"{kind} {code}": count for (kind, code), count in sorted(rig.answers.items())}
    return {
        "seed": seed,
        "seconds": until.seconds,
        "operations per client": until.operations,
        "answers": answers,
        "moves applied by channel": applied,
        "violations": found,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, help="how long (60 s without --operations)")
    parser.add_argument("--operations", type=int, help="how many operations each client sends")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=1, help="seeds seed, seed+1, ...")
    parser.add_argument("--clients", type=int, default=6)
    arguments = parser.parse_args()
    failed = False
    for seed in range(arguments.seed, arguments.seed + arguments.runs):
        seconds = 60 if arguments.seconds is None and arguments.operations is None else None
        until = Until(arguments.seconds or seconds, arguments.operations)
        report = race(until, seed, arguments.clients)
        print(json.dumps(report), flush=True)
        failed = failed or bool(report["violations"])
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
