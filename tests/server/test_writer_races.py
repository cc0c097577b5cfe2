"""Writers of one game, or one league, racing each other on PostgreSQL with
real concurrent requests let go behind a barrier: whatever the order, the
answers are 2xx or 4xx and the game or league is left as some order of the
requests, one after the other, would have left it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from pbem import create_app
from pbem.clock.sweep import sweep
from pbem.db import request_session
from pbem.models import (
    Entrant,
    Game,
    GameEvent,
    Move,
    Outbox,
    SeasonEntrant,
    Seat,
    Submission,
    SubmissionStatus,
    User,
)
from pbem.services.games import SeatSpec, create_game
from pbem.services.replay import engine_game
from pbem.services.time_control import TimeControl
from tests.server.conftest import drain
from tests.server.leagues.api_play import league_with
from tests.server.openapi_client import OpenApiClient
from tests.server.pipeline_helpers import hand_on, judged, lost_submission

GAMES = 12


def at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads of their own, let go at the same moment."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def api_call(app: Flask, operation: str, token: str, json: Any = None, **params: Any) -> int:
    """One request through a client of its own, checked against the document."""
    return OpenApiClient(app.test_client()).call(operation, token, json, **params).status_code


def taluva_game(session: Session, organiser, first, second, clock=None) -> Game:
    game = create_game(
        session,
        organiser,
        "taluva",
        [SeatSpec(user=first), SeatSpec(user=second)],
        seed="race",
        time_control=clock,
    )
    session.commit()
    return game


def first_legal_move(game: Game, position: int) -> str:
    state = engine_game(game).state
    return state.format_move(state.legal_moves(position)[0])


def test_a_replaced_players_move_is_never_played_for_the_newcomer(
    postgres_only, session, make_user, token_for
):
    """Bob sends his move (with the ply he chose it at) while the organiser
    gives his seat to someone else: either his move was stored first (the
    replace waits for it or is refused) or it is refused; never is it played
    in the newcomer's seat."""
    app = postgres_only
    olga, ann = make_user("Olga"), make_user("Ann")
    olga_token = token_for(olga)
    rounds = []
    for number in range(GAMES):
        bob = make_user("Bob")
        game = taluva_game(session, olga, bob, ann)
        move = first_legal_move(game, 0)
        rounds.append((game, bob, token_for(bob), move, f"new-{number}-{game.id}@example.org"))
    calls: list[Callable[[], Any]] = []
    for game, _, bob_token, move, newcomer in rounds:
        calls.append(
            lambda g=game, t=bob_token, m=move: api_call(
                app, "submitMoves", t, {"moves": [m], "ply": 0}, game_id=g.public_id, position=0
            )
        )
        calls.append(
            lambda g=game, a=newcomer: api_call(
                app, "replacePlayer", olga_token, {"position": 0, "email": a}, game_id=g.public_id
            )
        )
    codes = at_once(calls)
    drain(app)
    assert all(200 <= code < 500 for code in codes), codes
    session.expire_all()
    for game, bob, _, _, _ in rounds:
        replaced = session.scalar(
            select(GameEvent).where(GameEvent.game_id == game.id, GameEvent.kind == "replace")
        )
        if replaced is None:
            continue
        played_after = session.scalars(
            select(Submission)
            .join(Move, Move.submission_id == Submission.id)
            .where(Submission.game_id == game.id, Submission.created_at > replaced.created_at)
        ).all()
        assert played_after == [], f"Bob's move was played in the newcomer's seat of {game.id}"
        seat = session.scalar(select(Seat).where(Seat.game_id == game.id, Seat.position == 0))
        assert seat.user_id != bob.id


def seats_owing_without_a_clock(session: Session, game: Game, now) -> list[int]:
    """Seats that must act but that no sweep will ever time out: their timeout
    is marked done, yet nothing of theirs waits to be judged."""
    session.expire_all()
    game = session.get_one(Game, game.id)
    stuck = []
    for seat in game.seats:
        if seat.position not in game.to_act or seat.bot is not None:
            continue
        waiting = session.scalar(
            select(Submission.id).where(
                Submission.seat_id == seat.id, Submission.status == SubmissionStatus.PENDING
            )
        )
        future = seat.timeout_at is not None and seat.timeout_at > now
        due = seat.timeout_at is not None and seat.timeout_at <= now and seat.timed_out_at is None
        if not (future or due or waiting):
            stuck.append(seat.position)
    return stuck


def test_a_timeout_and_the_players_own_move_at_once_leave_the_clock_running(
    postgres_only, session, make_user, token_for
):
    """The sweep times Ann out while her own tile (without a ply) arrives: if
    her tile is played first, the bot's timeout move is refused and the seat
    stays due, so the next sweep plays her build; never is her clock left off."""
    app = postgres_only
    games = []
    for _ in range(6):
        ann, bob = make_user("Ann"), make_user("Bob")
        game = taluva_game(session, ann, ann, bob, TimeControl(days_per_move=1))
        games.append((game, token_for(ann), first_legal_move(game, 0)))
    session.expire_all()
    late = max(session.get_one(Game, g.id).seats[0].timeout_at for g, _, _ in games)
    now = late + timedelta(minutes=1)

    def sweep_at_now() -> int:
        with app.extensions["pbem.db"].session() as own:
            sweep(own, now)
        return 200

    calls: list[Callable[[], Any]] = [sweep_at_now]
    for game, token, move in games:
        calls.append(
            lambda g=game, t=token, m=move: api_call(
                app, "submitMoves", t, {"moves": [m]}, game_id=g.public_id, position=0
            )
        )
    codes = at_once(calls)
    drain(app)
    assert all(200 <= code < 500 for code in codes), codes
    for game, _, _ in games:
        assert seats_owing_without_a_clock(session, game, now) == [], game.id
    # The next sweep acts on whatever is still due, and every clock runs on.
    with app.extensions["pbem.db"].session() as own:
        sweep(own, now)
    drain(app)
    for game, _, _ in games:
        assert seats_owing_without_a_clock(session, game, now) == [], game.id


def league_season(app: Flask, session: Session, make_user, token_for):
    """A started season of four entrants; returns the organiser's token, the
    league's id, Ann (user, token) and Ann's place in the season."""
    api = OpenApiClient(app.test_client())
    olga = token_for(make_user("Olga"))
    players = {name: make_user(name) for name in ("Ann", "Bob", "Cem", "Dan")}
    entrants = {name: (user, token_for(user)) for name, user in players.items()}
    league_id = league_with(api, olga, entrants, options={"target": 3})
    assert api.call("startSeason", olga, {}, league_id=league_id).status_code == 201
    drain(app)
    ann, ann_token = entrants["Ann"]
    place = session.scalar(select(SeasonEntrant).where(SeasonEntrant.user_id == ann.id))
    return olga, league_id, ann, ann_token, place


def test_racing_replacements_and_withdrawals_of_one_place_leave_one_player(
    postgres_only, session, make_user, token_for
):
    app = postgres_only
    olga, league_id, ann, ann_token, place = league_season(app, session, make_user, token_for)
    where = {"league_id": league_id, "season": 1, "entrant": place.id}
    newcomers = [f"new-{n}-{place.id}@example.org" for n in range(3)]
    calls: list[Callable[[], Any]] = [
        lambda a=address: api_call(app, "replaceEntrant", olga, {"email": a}, **where)
        for address in newcomers
    ]
    calls += [lambda: api_call(app, "withdrawEntrant", ann_token, **where)] * 2
    codes = at_once(calls)
    drain(app)
    assert all(200 <= code < 500 for code in codes), codes
    session.expire_all()
    place = session.get_one(SeasonEntrant, place.id)
    active = session.scalars(
        select(Entrant).where(
            Entrant.league_id == place.entrant.league_id, Entrant.left_at.is_(None)
        )
    ).all()
    candidates = {ann.id} | {e.user_id for e in active if e.user and e.user.email in newcomers}
    holders = [e.user_id for e in active if e.user_id in candidates]
    assert len(holders) == 1 and holders == [place.user_id], (codes, holders, place.user_id)
    seats = session.scalars(select(Seat).where(Seat.entrant_id == place.id)).all()
    for seat in seats:
        if seat.game.status != "active":
            continue
        if place.withdrawn_at is not None:
            assert seat.bot is not None, codes
        else:
            assert (seat.user_id, seat.bot) == (place.user_id, None), codes


def test_six_withdrawals_of_one_place_at_once_withdraw_it_once(
    postgres_only, session, make_user, token_for
):
    app = postgres_only
    _, league_id, _, ann_token, place = league_season(app, session, make_user, token_for)
    where = {"league_id": league_id, "season": 1, "entrant": place.id}
    codes = at_once([lambda: api_call(app, "withdrawEntrant", ann_token, **where)] * 6)
    assert sorted(codes) == [200] + [409] * 5, codes


def test_racing_joins_and_season_starts_answer_409_not_500(
    postgres_only, session, make_user, token_for
):
    app = postgres_only
    api = OpenApiClient(app.test_client())
    olga = token_for(make_user("Olga"))
    body = {"name": "Open", "ruleset": "toy-pick", "players_per_game": 2, "open": True}
    league_id = api.call("createLeague", olga, body).get_json()["id"]
    ann_token = token_for(make_user("Ann"))
    joins = at_once([lambda: api_call(app, "joinLeague", ann_token, league_id=league_id)] * 12)
    assert sorted(joins) == [200] + [409] * 11, joins
    for name in ("Bob", "Cem"):
        assert api_call(app, "joinLeague", token_for(make_user(name)), league_id=league_id) == 200
    starts = at_once([lambda: api_call(app, "startSeason", olga, {}, league_id=league_id)] * 8)
    assert sorted(starts) == [201] + [409] * 7, starts


def test_a_turn_whose_seat_changed_hands_before_judging_is_refused_and_its_author_told(
    app, session, make_user
):
    """Whatever let it through (a mail queued behind another, a worker that was
    down), a turn sent for Bob is not judged for Cem once Cem holds the seat:
    it is refused, and Bob (not Cem) hears why, without the board."""
    olga, bob, ann, cem = (make_user(name) for name in ("Olga", "Bob", "Ann", "Cem"))
    game = taluva_game(session, olga, bob, ann)
    seat = game.seats[0]
    stored = lost_submission(session, seat, first_legal_move(game, 0), "mail")
    seat.user_id, seat.name = cem.id, cem.name  # given away while the turn waited
    session.commit()
    hand_on(app, stored.id)
    judged_turn = judged(app, stored.id)
    assert judged_turn.status == SubmissionStatus.REJECTED
    assert judged_turn.refusal["code"] == "pbem.seat_changed_hands"
    session.expire_all()
    assert session.scalar(select(func.count()).where(Move.game_id == game.id)) == 0
    told = session.scalars(
        select(Outbox).where(Outbox.game_id == game.id, Outbox.kind.in_(NOT_PLAYED_KINDS))
    ).all()
    assert [(row.recipient_id, row.kind) for row in told] == [(bob.id, "organiser_notice")]


NOT_PLAYED_KINDS = ("organiser_notice", "submission_rejected")


def test_a_race_lost_on_a_unique_constraint_answers_409_not_500(app, make_user):
    """The safety net under the locks: of two requests making the same row at
    once, the loser's IntegrityError is a conflict to retry, on a page and in
    the API alike."""
    ann = make_user("Ann")
    site = create_app({**app.config, "WTF_CSRF_ENABLED": False})

    def same_row_again() -> str:
        request_session().add(User(email=ann.email, name="Ann again"))
        request_session().flush()
        return "made"

    site.add_url_rule("/api/v1/same-row", "api_same_row", same_row_again, methods=["POST"])
    site.add_url_rule("/same-row", "same_row", same_row_again, methods=["POST"])
    client = site.test_client()
    answer = client.post("/api/v1/same-row")
    assert answer.status_code == 409, answer.get_data(as_text=True)
    assert "at the same moment" in answer.get_json()["message"]
    page = client.post("/same-row")
    assert page.status_code == 409 and "at the same moment" in page.get_data(as_text=True)
    site.extensions["pbem.db"].dispose()


def test_a_refused_timeout_move_leaves_the_seat_due_for_the_next_sweep(app, session, make_user):
    """Should the clock's move for a late seat be refused when judged (the
    position moved on under it), the seat is not marked timed out for good:
    the next sweep acts on the decision it still owes."""
    ann, bob = make_user("Ann"), make_user("Bob")
    game = taluva_game(session, ann, ann, bob, TimeControl(days_per_move=1))
    seat = session.get_one(Seat, game.seats[0].id)
    late = seat.timeout_at + timedelta(minutes=1)
    seat.timed_out_at = late
    refused = lost_submission(session, seat, "no such move", "clock")
    refused.author_id = None
    session.commit()
    hand_on(app, refused.id)
    assert judged(app, refused.id).status == SubmissionStatus.REJECTED
    session.expire_all()
    assert session.get_one(Seat, seat.id).timed_out_at is None
    with app.extensions["pbem.db"].session() as own:
        sweep(own, late)  # other tests' games may be due too: this one's moves tell
    drain(app)
    session.expire_all()
    played = session.scalars(select(Move.channel).where(Move.game_id == game.id)).all()
    assert played and set(played) == {"clock"}  # the late decision, by the clock's bot
