"""Game lists at scale: "my games", the open games, profiles, pages and API: prints figures.

    .venv/bin/python -m benchmarks.lists [--sqlite] [--games 10000] [--mine 1000] [--repeats 30]

A scratch database is filled with `--games` games of every ruleset, one player
("Ann") seated in `--mine` of them: games looking for players (some with a
seat kept for an invited address), games under way at various plies with
various seats to act and clocks running, finished games with their results
(some abandoned), and three leagues of three seasons each whose games carry
their league titles. PostgreSQL by default: a database created on the server
of PBEM_TEST_POSTGRES_URL (default: the local one) and dropped at the end;
`--sqlite`: a temporary file.

The fill is fast because it is bulk inserts of prepared rows with SQLAlchemy
core (executemany with RETURNING for the ids), no ORM objects and no API.
The moves are real: one seeded bot game per ruleset and player count gives
the logs; a game under way holds a prefix of its log and the seats to act at
that ply, a finished game its result, and Ann's finished games their whole
log (other players' finished games keep their result only, which is all a
list may read: it never replays).

Then, the process holding what a web process holds (`pbem web` keeps the
loaded app out of the garbage collector's full collections, so does this
script), each list is asked as Ann through the Flask test client, its first page
and a later one, `--repeats` times after one warm-up: median, p95 and max ms,
the median CPU ms of this process (the app, and SQLite's work, but not the
PostgreSQL server's: steadier than wall time on a busy machine), the SQL
statements one request runs, and the response's size.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import Connection, Engine, event, insert, text

import engine
from engine.core.selfplay import play_bot_game
from pbem import create_app, migrate
from pbem.cli import keep_out_of_collections
from pbem.db import get_db
from pbem.models import (
    Entrant,
    Game,
    GameStatus,
    League,
    Move,
    Rating,
    RatingChange,
    Season,
    SeasonEntrant,
    Seat,
    User,
    public_id,
    seat_token,
    utcnow,
)
from pbem.render.colours import SEAT_COLOURS
from pbem.services import accounts
from tests.server.conftest import scratch_database
from tests.server.signed_in import sign_in

OTHER_PLAYERS = 200
LEAGUE_ENTRANTS = 12
SEASONS = 3
LEAGUE_GAMES_PER_SEASON = 60
NOW = utcnow()


@dataclass(frozen=True)
class Template:
    """A bot game whose log the stored games share (a prefix of it, or all)."""

    ruleset: str
    version: int
    options: dict[str, Any]
    seed: str
    moves: list[tuple[int, str]]  # (seat, text) per ply
    to_act: list[list[int]]  # the seats to act before each ply, and at the end
    result: dict[str, Any]


def _note_to_act(to_act: list[list[int]], game: engine.Game, _seat: int, _move: Any) -> None:
    to_act.append(sorted(game.state.to_act()))


def templates() -> dict[tuple[str, int], Template]:
    made = {}
    for rules in engine.rulesets():
        for players in (2, 3):
            seed, seats = f"bench-lists-{players}", [f"bot{n + 1}" for n in range(players)]
            to_act = [sorted(engine.Game.new(rules.name, seats, seed).state.to_act())]
            played = play_bot_game(
                rules.name,
                players,
                seed,
                on_move=partial(_note_to_act, to_act),
            ).game
            record = played.to_record()
            result = played.result()
            assert result is not None
            made[rules.name, players] = Template(
                rules.name,
                record.version,
                dict(record.options),
                record.seed,
                [(move.seat, move.text) for move in record.moves],
                to_act,
                result.to_json(),
            )
    return made


@dataclass
class Planned:
    """A game to insert, with its seats (user id, bot, invited address) and plies."""

    row: dict[str, Any]
    seats: list[tuple[int | None, str | None, str | None]]
    plies: int  # how many moves of the template to store
    template: Template
    rated_for_ann: bool = False


class Filler:
    """Plans the games and inserts everything in a few statements per table."""

    def __init__(self, connection: Connection, games: int, mine: int, seed: int) -> None:
        self.connection = connection
        self.total, self.mine = games, mine
        self.rng = random.Random(seed)
        self.templates = templates()
        self.planned: list[Planned] = []

    def run(self) -> int:
        ann = self._users()
        self._leagues(ann)
        ann_league = sum(1 for p in self.planned if any(s[0] == ann for s in p.seats))
        ann_casual = max(0, self.mine - ann_league)
        others = max(0, self.total - len(self.planned) - ann_casual)
        for index in range(ann_casual):
            self._casual(ann, ann_seated=True, status=self._status(index, ann_casual, 0.1))
        for index in range(others):
            self._casual(ann, ann_seated=False, status=self._status(index, others, 0.08))
        self._insert_games(ann)
        return ann

    def _status(self, index: int, count: int, open_share: float) -> GameStatus:
        share = index / max(count, 1)
        if share < open_share:
            return GameStatus.OPEN
        return GameStatus.ACTIVE if share < open_share + 0.45 else GameStatus.FINISHED

    def _insert(
        self,
        model: type[User | League | Entrant | Season | SeasonEntrant | Game | Seat],
        rows: Sequence[dict[str, Any]],
    ) -> list[int]:
        if not rows:
            return []
        statement = insert(model).returning(model.id, sort_by_parameter_order=True)
        return list(self.connection.scalars(statement, list(rows)))

    def _users(self) -> int:
        rows = [{"email": "ann@example.org", "name": "Ann", "signed_in_at": NOW}] + [
            {"email": f"player-{n}@example.org", "name": f"Player {n}", "signed_in_at": NOW}
            for n in range(1, OTHER_PLAYERS + 1)
        ]
        ids = self._insert(User, rows)
        self.ann, self.others = ids[0], ids[1:]
        return self.ann

    def _leagues(self, ann: int) -> None:
        for number, rules in enumerate(engine.rulesets(), start=1):
            players = 2 if number % 2 else 3
            league = self._insert(
                League,
                [
                    {
                        "name": f"{rules.title} Club {number}",
                        "ruleset": rules.name,
                        "players_per_game": players,
                        "public_id": public_id(),
                        "open": True,
                    }
                ],
            )[0]
            users = [ann, *self.rng.sample(self.others, LEAGUE_ENTRANTS - 1)]
            entrants = self._insert(
                Entrant,
                [{"league_id": league, "user_id": u, "joined_at": NOW} for u in users],
            )
            for season_number in range(1, SEASONS + 1):
                self._season(rules, league, players, season_number, users, entrants)

    def _season(
        self,
        rules: type[engine.State[Any]],
        league: int,
        players: int,
        number: int,
        users: list[int],
        entrants: list[int],
    ) -> None:
        started = NOW - timedelta(days=120 * (SEASONS - number + 1))
        season = self._insert(
            Season,
            [
                {
                    "league_id": league,
                    "number": number,
                    "ruleset_version": rules.version,
                    "seed": f"season-{number}",
                    "started_at": started,
                    "finished_at": None if number == SEASONS else started + timedelta(days=100),
                }
            ],
        )[0]
        places = self._insert(
            SeasonEntrant,
            [
                {"season_id": season, "entrant_id": e, "division": 1, "user_id": u, "name": ""}
                for u, e in zip(users, entrants, strict=True)
            ],
        )
        place_of = dict(zip(users, places, strict=True))
        name = f"{rules.title} Club"
        for index in range(LEAGUE_GAMES_PER_SEASON):
            seated = self.rng.sample(users, players)
            running = number == SEASONS and index >= LEAGUE_GAMES_PER_SEASON // 2
            status = GameStatus.ACTIVE if running else GameStatus.FINISHED
            round_number, game_number = index // 6 + 1, index % 6 + 1
            planned = self._plan(
                rules.name,
                status,
                creator=None,
                seats=[(u, None, None) for u in seated],
                title=f"{name} – Season {number} – Round {round_number} – Game {game_number}",
                created_at=started + timedelta(days=index),
            )
            planned.row.update(season_id=season, division=1, round=round_number, number=game_number)
            planned.row["entrants"] = [place_of[u] for u in seated]
            self.planned.append(planned)

    def _casual(self, ann: int, ann_seated: bool, status: GameStatus) -> None:
        rules = self.rng.choice(engine.rulesets())
        players = self.rng.choice((2, 3))
        users = self.rng.sample(self.others, players)
        seats: list[tuple[int | None, str | None, str | None]] = [(u, None, None) for u in users]
        if self.rng.random() < 0.25:
            seats[-1] = (None, "random", None)
        if ann_seated:  # an open game is Ann's own: she made it and waits for players
            place = 0 if status == GameStatus.OPEN else self.rng.randrange(players)
            seats[place] = (ann, None, None)
        creator = seats[0][0] or users[0]
        if status == GameStatus.OPEN:
            seats = [seats[0]] + [self._open_seat() for _ in seats[1:]]
        self.planned.append(
            self._plan(
                rules.name,
                status,
                creator,
                seats,
                title=f"{rules.title}, game {len(self.planned) + 1}",
                created_at=NOW - timedelta(minutes=self.rng.randrange(2 * 365 * 24 * 60)),
            )
        )

    def _open_seat(self) -> tuple[None, None, str | None]:
        invited = self.rng.random() < 0.2
        return (None, None, f"friend-{self.rng.randrange(10**6)}@example.org" if invited else None)

    def _plan(
        self,
        ruleset: str,
        status: GameStatus,
        creator: int | None,
        seats: list[tuple[int | None, str | None, str | None]],
        title: str,
        created_at: Any,
    ) -> Planned:
        template = self.templates[ruleset, len(seats)]
        last = len(template.moves)
        plies = {
            GameStatus.OPEN: 0,
            GameStatus.ACTIVE: self.rng.randrange(min(last, 300)),
            GameStatus.FINISHED: last,
        }[status]
        abandoned = status == GameStatus.FINISHED and self.rng.random() < 0.05
        clock = self.rng.random() < 0.5
        ended = created_at + timedelta(days=30)
        row = {
            "public_id": public_id(),
            "ruleset": ruleset,
            "ruleset_version": template.version,
            "options": template.options,
            "seed": template.seed,
            "status": status,
            "to_act": template.to_act[plies] if status == GameStatus.ACTIVE else [],
            "created_by_id": creator,
            "created_at": created_at,
            "finished_at": ended if status == GameStatus.FINISHED else None,
            "abandoned_at": ended if abandoned else None,
            "result": template.result if status == GameStatus.FINISHED and not abandoned else None,
            "days_per_move": 3 if clock else None,
            "bank_days": 7 if clock else 0,
            "title": title,
            "season_id": None,
            "division": None,
            "round": None,
            "number": None,
        }
        return Planned(row, seats, plies, template, rated_for_ann=not abandoned)

    def _insert_games(self, ann: int) -> None:
        entrants = [p.row.pop("entrants", None) for p in self.planned]
        ids = self._insert(Game, [p.row for p in self.planned])
        seat_rows = []
        for game_id, planned, places in zip(ids, self.planned, entrants, strict=True):
            acting = set(planned.row["to_act"])
            clock = planned.row["days_per_move"] is not None
            for position, (user, bot, invited) in enumerate(planned.seats):
                waiting = clock and position in acting and bot is None
                seat_rows.append(
                    {
                        "game_id": game_id,
                        "position": position,
                        "colour": SEAT_COLOURS[position],
                        "name": "Ann" if user == ann else (f"Player {user}" if user else ""),
                        "user_id": user,
                        "bot": bot,
                        "invited_email": invited,
                        "token": seat_token(),
                        "entrant_id": places[position] if places else None,
                        "asked_at": NOW - timedelta(days=1) if waiting else None,
                        "deadline": NOW + timedelta(days=2) if waiting else None,
                        "timeout_at": NOW + timedelta(days=9) if waiting else None,
                    }
                )
        seat_ids = iter(self._insert(Seat, seat_rows))
        moves, changes = [], []
        for game_id, planned in zip(ids, self.planned, strict=True):
            seats = [next(seat_ids) for _ in planned.seats]
            mine = any(seat[0] == ann for seat in planned.seats)
            finished = planned.row["status"] == GameStatus.FINISHED
            if finished and not mine:
                continue
            log = planned.template.moves[: planned.plies]
            moves += [
                {"game_id": game_id, "ply": n, "seat_id": seats[i], "text": move, "channel": "web"}
                for n, (i, move) in enumerate(log, start=1)
            ]
            if finished and planned.rated_for_ann:
                changes.append(self._rating_change(ann, game_id, planned))
        for start in range(0, len(moves), 50_000):
            self.connection.execute(insert(Move), moves[start : start + 50_000])
        self.connection.execute(insert(RatingChange), changes)
        self.connection.execute(
            insert(Rating),
            [
                {"user_id": ann, "ruleset": r.name, "mu": 27.0, "sigma": 5.0, "games": 100}
                for r in engine.rulesets()
            ],
        )
        self.moves = len(moves)
        self.ann_games = sum(1 for p in self.planned if any(s[0] == ann for s in p.seats))

    def _rating_change(self, ann: int, game_id: int, planned: Planned) -> dict[str, Any]:
        mu = 25 + self.rng.random() * 5
        return {
            "user_id": ann,
            "game_id": game_id,
            "ruleset": planned.row["ruleset"],
            "mu_before": mu,
            "sigma_before": 5.0,
            "mu_after": mu + 0.5,
            "sigma_after": 4.9,
            "rating": mu + 0.5 - 3 * 4.9,
            "against_bots": any(seat[1] for seat in planned.seats),
            "forfeit": False,
            "rated_at": planned.row["finished_at"],
        }


@contextmanager
def scratch_sqlite() -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="pbem-lists-") as folder:
        yield f"sqlite:///{Path(folder) / 'bench.sqlite3'}"


class StatementCounter:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, *_args: Any) -> None:
        self.count += 1


def measure(app: Flask, ann: int, token: str, repeats: int) -> None:
    web = sign_in(app, app.test_client(), ann)
    api = app.test_client()
    bearer = {"Authorization": f"Bearer {token}"}
    requests = [
        ("web my games", web, "/", {}),
        ("web my games, later pages", web, "/?turn=2&waiting=3&open=5&finished=5", {}),
        ("web profile", web, f"/players/{ann}", {}),
        ("web profile, later pages", web, f"/players/{ann}?active=3&finished=5", {}),
        ("api listGames", api, "/api/v1/games", bearer),
        ("api listGames, later page", api, "/api/v1/games?page=5", bearer),
        ("api getPlayer", api, f"/api/v1/players/{ann}", bearer),
        (
            "api getPlayer, later pages",
            api,
            f"/api/v1/players/{ann}?active_page=3&finished_page=5",
            bearer,
        ),
    ]
    with app.app_context():
        database = get_db().engine
    counter = StatementCounter()
    event.listen(database, "before_cursor_execute", counter)
    print(
        f"{'list':28} {'median ms':>9} {'p95 ms':>8} {'max ms':>8} {'cpu ms':>7}"
        f" {'SQL':>5} {'KB':>7}"
    )
    for label, client, url, headers in requests:
        client.get(url, headers=headers)  # warm-up
        times, cpu, statements, size = [], [], 0, 0
        for _ in range(repeats):
            counter.count = 0
            started, started_cpu = time.perf_counter(), time.process_time()
            response = client.get(url, headers=headers)
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
            statements, size = counter.count, len(response.get_data())
            if response.status_code != 200:
                raise SystemExit(f"{url}: {response.status_code} {response.get_data()[:300]!r}")
        p95 = statistics.quantiles(times, n=20, method="inclusive")[18]
        print(
            f"{label:28} {statistics.median(times):9.1f} {p95:8.1f} {max(times):8.1f}"
            f" {statistics.median(cpu):7.1f} {statements:5d} {size / 1024:7.1f}"
        )


def fill(database: Engine, args: argparse.Namespace) -> int:
    """The scratch database filled; Ann's user id."""
    migrate.upgrade(database)
    started = time.perf_counter()
    with database.begin() as connection:
        filler = Filler(connection, args.games, args.mine, args.seed)
        ann = filler.run()
    if database.dialect.name == "postgresql":
        with database.connect() as connection:
            connection.execute(text("ANALYZE"))
    print(
        f"{database.dialect.name}: {len(filler.planned)} games ({filler.ann_games} Ann's),"
        f" {filler.moves} moves filled in {time.perf_counter() - started:.1f} s"
    )
    return ann


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sqlite", action="store_true", help="a temporary SQLite file")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--mine", type=int, default=1_000, help="games Ann is seated in")
    parser.add_argument("--repeats", type=int, default=30, help="at least 2")
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()
    with (scratch_sqlite if args.sqlite else scratch_database)() as url:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "bench",
                "PBEM_LOG_LEVEL": "WARNING",
                "PBEM_DATABASE_URL": url,
            }
        )
        with app.app_context():
            ann = fill(get_db().engine, args)
        keep_out_of_collections()  # as `pbem web` does before it serves
        with app.extensions["pbem.db"].session() as session:
            user = session.get(User, ann)
            assert user is not None
            token = accounts.issue_api_token(session, user, "bench")
            session.commit()
        measure(app, ann, token, args.repeats)
        with app.app_context():
            get_db().dispose()


if __name__ == "__main__":
    main()
