"""Ratings: what a finished game does to its players' ratings, and that the
pipeline rates a game when it ends."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

import engine
from pbem.models import Game, GameStatus, Rating, RatingChange, User, utcnow
from pbem.services.games import SeatSpec, create_game
from pbem.services.ratings import MODEL, rate_game, ratings_of
from tests.server.conftest import wait_for
from tests.server.pipeline_helpers import judged, send, start_game

pytestmark = pytest.mark.also_sqlite  # the embedded default's database too

START = MODEL.rating()


def finished(session, seats: list[User | str]) -> Game:
    """A toy game with these seats (a user or 'bot'), marked over; the result is the test's."""
    specs = [SeatSpec(bot="random") if s == "bot" else SeatSpec(user=s) for s in seats]
    game = create_game(session, None, "toy-pick", specs, {}, seed="test-seed")
    game.status, game.finished_at = GameStatus.FINISHED, utcnow()
    session.flush()
    return game


def result(*ranking: tuple[int, ...]) -> engine.Result:
    seats = sum(len(group) for group in ranking)
    return engine.Result(ranking, tuple({} for _ in range(seats)), "test")


def rating(session, user: User) -> Rating:
    return session.scalar(select(Rating).where(Rating.user_id == user.id))


def test_the_winner_of_two_goes_up_and_the_loser_down(session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = finished(session, [ann, bob])
    changes = rate_game(session, game, result((1,), (0,)))
    session.commit()
    assert {change.user_id for change in changes} == {ann.id, bob.id}
    assert rating(session, bob).mu > START.mu > rating(session, ann).mu
    assert rating(session, ann).games == rating(session, bob).games == 1
    bobs = next(change for change in changes if change.user_id == bob.id)
    assert (bobs.mu_before, bobs.sigma_before) == (START.mu, START.sigma)
    assert bobs.rating == pytest.approx(bobs.mu_after - 3 * bobs.sigma_after)
    assert not bobs.against_bots and not bobs.forfeit


def test_tied_players_who_start_equal_move_equally(session, make_user):
    ann, bob, cem = make_user("Ann"), make_user("Bob"), make_user("Cem")
    game = finished(session, [ann, bob, cem])
    rate_game(session, game, result((2,), (0, 1)))
    session.commit()
    first, tied = rating(session, cem), (rating(session, ann), rating(session, bob))
    assert tied[0].mu == pytest.approx(tied[1].mu)
    assert tied[0].sigma == pytest.approx(tied[1].sigma)
    assert first.mu > START.mu > tied[0].mu


def test_bots_are_left_out_only_the_peoples_order_counts(session, make_user):
    """Ann beat Bob with a bot between them: the same as Ann beating Bob alone."""
    ann, bob = make_user("Ann"), make_user("Bob")
    with_bot = finished(session, [ann, "bot", bob])
    changes = rate_game(session, with_bot, result((0,), (1,), (2,)))
    session.commit()
    assert {change.user_id for change in changes} == {ann.id, bob.id}
    assert all(change.against_bots for change in changes)
    [[alone_ann], [alone_bob]] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1, 2])
    assert rating(session, ann).mu == pytest.approx(alone_ann.mu)
    assert rating(session, bob).mu == pytest.approx(alone_bob.mu)


def test_one_person_against_bots_is_not_rated(session, make_user):
    ann = make_user("Ann")
    game = finished(session, [ann, "bot"])
    assert rate_game(session, game, result((0,), (1,))) == []
    assert rating(session, ann) is None


def test_an_abandoned_game_is_not_rated(session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = finished(session, [ann, bob])
    game.abandoned_at = utcnow()
    assert rate_game(session, game, result((0,), (1,))) == []


def test_a_game_is_rated_once(session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = finished(session, [ann, bob])
    rate_game(session, game, result((0,), (1,)))
    session.commit()
    before = (rating(session, ann).mu, rating(session, ann).games)
    assert rate_game(session, game, result((0,), (1,))) == []
    session.commit()
    assert (rating(session, ann).mu, rating(session, ann).games) == before
    rows = select(func.count()).where(RatingChange.game_id == game.id)
    assert session.scalar(rows) == 2


def test_a_seat_that_left_the_game_flags_the_rating_as_a_forfeit(session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    game = finished(session, [ann, bob])
    game.seats[1].resigned_at = utcnow()
    changes = rate_game(session, game, result((0,), (1,)))
    assert all(change.forfeit for change in changes)


def test_the_history_follows_the_games_in_order(session, make_user):
    ann, bob = make_user("Ann"), make_user("Bob")
    for winner in (0, 0, 1):
        rate_game(session, finished(session, [ann, bob]), result((winner,), (1 - winner,)))
    session.commit()
    [history] = ratings_of(session, ann.id)
    assert history.rating.ruleset == "toy-pick" and history.rating.games == 3
    values = [change.rating for change in history.changes]
    assert values[0] < values[1] and values[2] < values[1]
    assert history.conservative == pytest.approx(values[-1])


def test_the_pipeline_rates_a_game_when_it_ends(app, session, make_user):
    """Ann picks 3, Bob 1, until Ann reaches the target: she is rated up, Bob down."""
    ann, bob = make_user("Ann"), make_user("Bob")
    game = start_game(app, session, "toy-pick", [ann, bob], target=3)
    for _ in range(5):
        judged(app, send(app, session, game, 0, "pick 3").id)
        judged(app, send(app, session, game, 1, "pick 1").id)
        session.expire_all()
        if session.get(Game, game.id).status == GameStatus.FINISHED:
            break
    wait_for(lambda: rating(session, ann), what="the rating")
    assert rating(session, ann).mu > START.mu > rating(session, bob).mu
