"""pbem.leagues.standings: league points per game and the order of the table,
worked out by hand for each rule the module states."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from pbem.leagues.standings import GameOutcome, game_score, league_points, points_table, standings
from pbem.services.errors import Invalid

pytestmark = pytest.mark.filterwarnings("ignore:Do not use the `random` module inside strategies")


def two(game_id: int, first: str, second: str, result: str, scores=(0, 0)) -> GameOutcome:
    """A 2-player game; result "1-0", "0-1" or "draw"."""
    ranking = {"1-0": ((0,), (1,)), "0-1": ((1,), (0,)), "draw": ((0, 1),)}[result]
    return GameOutcome(game_id, (first, second), ranking, scores)


def table(rows) -> list[tuple]:
    return [(row.place, row.entrant, row.played, row.points, row.score) for row in rows]


def test_default_points() -> None:
    assert league_points(((1,), (0,)), 2) == [0, 1]
    assert league_points(((0, 1),), 2) == [F(1, 2), F(1, 2)]
    assert league_points(((2,), (0,), (1,)), 3) == [1, 0, 2]
    # 4 players, a tie for 2nd: 3, 1.5, 1.5, 0.
    assert league_points(((3,), (0, 2), (1,)), 4) == [F(3, 2), 0, F(3, 2), 3]
    assert league_points(((0, 1, 2),), 3) == [1, 1, 1]


def test_custom_table_and_ties_share_its_average() -> None:
    assert league_points(((0,), (1,), (2,), (3,)), 4, [5, 3, 1, 0]) == [5, 3, 1, 0]
    assert league_points(((1,), (0, 3), (2,)), 4, ["5", "3", "1.5", 0]) == [
        F(9, 4),
        5,
        0,
        F(9, 4),
    ]
    assert league_points(((0, 1),), 2, [3, 0]) == [F(3, 2), F(3, 2)]
    assert points_table(["1/2", 0.25, F(1, 10)], 3) == (F(1, 2), F(1, 4), F(1, 10))


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ([3, 2, 1], "needs 4 values"),
        ([3, 2, 2, 5], "place 4 cannot get more points than place 3"),
        ([1, 1, 1, 1], "every place the same"),
        ([3, 2, "lots", 0], "place 3 must be a number like"),
        ([3, 2, "nan", 0], "place 3 must be a number like"),
        ([3, "1/0", 1, 0], "place 2 must be a number like"),
        ([3, None, 1, 0], "place 2 must be a number, not None"),
        ([True, 0, 0, 0], "place 1 must be a number"),
        ([3, 2, 1, -1], "place 4 cannot be negative"),
    ],
)
def test_invalid_tables_are_refused(values, message) -> None:
    with pytest.raises(Invalid, match=message):
        league_points(((0,), (1,), (2,), (3,)), 4, values)


def test_bad_outcomes_are_caller_errors() -> None:
    with pytest.raises(ValueError, match="does not rank each seat once"):
        GameOutcome(1, ("a", "b"), ((0,),), (0, 0))
    with pytest.raises(ValueError, match="1 scores for 2 seats"):
        GameOutcome(1, ("a", "b"), ((0, 1),), (0,))
    with pytest.raises(ValueError, match="'z', who is not an entrant"):
        standings(["a", "b"], [two(1, "a", "z", "1-0")])


def test_round_robin_of_four_with_a_draw() -> None:
    games = [
        two(1, "ann", "bob", "1-0"),
        two(2, "cat", "dan", "draw"),
        two(3, "ann", "cat", "1-0"),
        two(4, "bob", "dan", "0-1"),
        two(5, "dan", "ann", "1-0"),
        two(6, "bob", "cat", "0-1"),
    ]
    rows = standings(["ann", "bob", "cat", "dan"], games)
    assert table(rows) == [
        ("1", "dan", 3, F(5, 2), 0),
        ("2", "ann", 3, 2, 0),
        ("3", "cat", 3, F(3, 2), 0),
        ("4", "bob", 3, 0, 0),
    ]
    assert rows[0].games == [2, 4, 5]
    assert sum(row.points for row in rows) == len(games)


def test_four_player_game_with_a_tie_and_someone_yet_to_play() -> None:
    game = GameOutcome(7, ("ann", "bob", "cat", "dan"), ((2,), (0, 3), (1,)), (40, 12, 55, 40))
    rows = standings(["ann", "bob", "cat", "dan", "eve"], [game])
    assert table(rows) == [
        ("1", "cat", 1, 3, 55),
        ("2=", "ann", 1, F(3, 2), 40),
        ("2=", "dan", 1, F(3, 2), 40),
        ("4", "bob", 1, 0, 12),
        ("5", "eve", 0, 0, 0),
    ]


def test_custom_table_in_standings() -> None:
    games = [
        GameOutcome(1, ("a", "b", "c"), ((0,), (1,), (2,)), (9, 5, 1)),
        GameOutcome(2, ("b", "c", "a"), ((1,), (0, 2)), (3, 8, 3)),
    ]
    rows = standings(["a", "b", "c"], games, table=[4, 1, 0])
    assert table(rows) == [
        ("1", "a", 2, F(9, 2), 12),
        ("2", "c", 2, 4, 9),
        ("3", "b", 2, F(3, 2), 8),
    ]


def test_tie_on_points_broken_by_game_score() -> None:
    games = [two(1, "a", "b", "1-0", (60, 50)), two(2, "b", "a", "1-0", (70, 40))]
    assert table(standings(["a", "b"], games)) == [("1", "b", 2, 1, 120), ("2", "a", 2, 1, 100)]


def test_tie_broken_by_head_to_head_among_three_only() -> None:
    # a, b and c end on 2 points and 0 score; d's games do not count among them.
    # Among a, b, c: a beat b and c (2), b beat c (1), c beat nobody (0),
    # although c beat d and a lost to d.
    games = [
        two(1, "a", "b", "1-0"),
        two(2, "a", "c", "1-0"),
        two(3, "b", "c", "1-0"),
        two(4, "c", "d", "1-0"),
        two(5, "d", "a", "1-0"),
        two(6, "c", "d", "1-0"),
        two(7, "d", "b", "0-1"),
    ]
    rows = standings(["d", "c", "b", "a"], games)
    assert [(row.place, row.entrant, row.points) for row in rows] == [
        ("1", "a", 2),
        ("2", "b", 2),
        ("3", "c", 2),
        ("4", "d", 1),
    ]


def test_head_to_head_again_among_those_still_tied() -> None:
    # a, b, c all on 2 points. Among the three: a 2 (beat b twice, lost to c),
    # b 1 and c 1; then between b and c alone, b beat c.
    games = [
        two(1, "a", "b", "1-0"),
        two(2, "b", "a", "0-1"),
        two(3, "c", "a", "1-0"),
        two(4, "b", "c", "1-0"),
        two(5, "b", "d", "1-0"),
        two(6, "d", "c", "0-1"),
    ]
    rows = standings(["c", "b", "a", "d"], games)
    assert [(row.place, row.entrant, row.points) for row in rows] == [
        ("1", "a", 2),
        ("2", "b", 2),
        ("3", "c", 2),
        ("4", "d", 0),
    ]


def test_tie_that_stays_shares_the_rank_in_entrant_order() -> None:
    # A cycle: each beat one, lost to one; all equal on score too.
    games = [two(1, "a", "b", "1-0"), two(2, "b", "c", "1-0"), two(3, "c", "a", "1-0")]
    rows = standings(["c", "a", "b", "d"], games)
    assert [(row.place, row.entrant) for row in rows] == [
        ("1=", "c"),
        ("1=", "a"),
        ("1=", "b"),
        ("4", "d"),
    ]
    # Tied entrants who never met stay tied as well.
    assert [row.place for row in standings(["x", "y"], [])] == ["1=", "1="]


def test_outcome_of_an_engine_result_with_unranked_seats() -> None:
    result = engine.Result(
        ranking=((1,), (2,)),
        scores=({"total": 7}, {"total": 9}, {"total": 4}, {"total": 2}),
        reason="test",
        unranked=(0, 3),
    )
    outcome = GameOutcome.of(5, ["a", "b", "c", "d"], result)
    assert outcome.ranking == ((1,), (2,), (0, 3))
    assert outcome.scores == (7, 9, 4, 2)
    assert league_points(outcome.ranking, 4) == [F(1, 2), 3, 2, F(1, 2)]


def test_game_score_of_each_ruleset() -> None:
    assert game_score({"points": 31}) == 31
    assert game_score({"dragon": 2, "total": 6, "shogun": ["dragon"], "outside_shogunate": 4}) == 6
    assert game_score({"hut": 12, "tower": 2, "temple": 1, "eliminated": True}) == 15


@st.composite
def rankings(draw, players: int):
    """Any ranking of `players` seats with any ties."""
    seats = draw(st.permutations(range(players)))
    cuts = draw(st.sets(st.integers(1, players - 1)))
    bounds = [0, *sorted(cuts), players]
    return tuple(tuple(seats[a:b]) for a, b in pairwise(bounds))


@given(st.data(), st.integers(2, 4), st.booleans())
def test_a_game_gives_out_exactly_its_table(data, players, custom) -> None:
    ranking = data.draw(rankings(players))
    table_ = None
    if custom:
        places = st.fractions(min_value=0, max_value=20, max_denominator=4)
        table_ = sorted(data.draw(st.lists(places, min_size=players, max_size=players)))[::-1]
        if table_[0] == table_[-1]:
            table_[0] += 1
    points = league_points(ranking, players, table_)
    expected = sum(table_) if table_ else F(players * (players - 1), 2)
    assert sum(points) == expected
    # A better place never gets fewer points.
    for better, worse in pairwise(ranking):
        assert min(points[s] for s in better) >= max(points[s] for s in worse)


def test_per_game_ranks_by_points_then_score_per_game_played() -> None:
    """When the schedule gives some entrants a game more: a has more points
    in all (2 in 3 games), b more per game (1½ in 2)."""
    games = [
        two(1, "a", "c", "1-0"),
        two(2, "a", "d", "1-0"),
        two(3, "c", "a", "1-0"),
        two(4, "b", "c", "1-0"),
        two(5, "b", "d", "draw"),
    ]
    totals = standings(["a", "b", "c", "d"], games)
    assert [row.entrant for row in totals] == ["a", "b", "c", "d"]
    per_game = standings(["a", "b", "c", "d"], games, per_game=True)
    assert table(per_game) == [
        ("1", "b", 2, F(3, 2), 0),
        ("2", "a", 3, 2, 0),
        ("3", "c", 3, 1, 0),
        ("4", "d", 2, F(1, 2), 0),
    ]
