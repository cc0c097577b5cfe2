"""pbem.leagues.schedule: every season size gets a schedule within the bounds the
module states, worked out here from the games themselves, not from balance()."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from itertools import combinations
from math import ceil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.leagues.schedule import MAX_ENTRANTS, PAIR_SPREAD, Balance, Schedule, schedule
from pbem.services.errors import Invalid

# The server tests' worker thread may draw on `random` while Hypothesis
# generates examples here; that is no fault of these strategies.
pytestmark = pytest.mark.filterwarnings("ignore:Do not use the `random` module inside strategies")


def check_bounds(season: Schedule) -> None:
    """Everything the module docstring promises, counted from the rounds."""
    n, k, legs = season.entrants, season.per_game, season.legs
    games: Counter[int] = Counter()
    meetings: Counter[tuple[int, int]] = Counter()
    seats: Counter[tuple[int, int]] = Counter()
    for round_ in season.rounds:
        playing = [e for game in round_ for e in game]
        assert len(playing) == len(set(playing)), f"someone plays twice in {round_}"
        assert 1 <= len(round_) <= n // k
        for game in round_:
            assert len(game) == k
            assert all(0 <= e < n for e in game)
            for position, e in enumerate(game):
                games[e] += 1
                seats[e, position] += 1
            meetings.update(combinations(sorted(game), 2))
    counts = [games[e] for e in range(n)]
    pairs = [meetings[pair] for pair in combinations(range(n), 2)]
    need = ceil(legs * (n - 1) / (k - 1))
    if k > 2 and n * need % k and n * (need + 1) % k == 0:
        need += 1  # one game more for everyone, so that all play as many
    assert min(counts) >= need
    assert max(counts) - min(counts) <= 1
    if k == 2:
        assert set(counts) == {legs * (n - 1)}
        assert set(pairs) == {legs}
        assert len(season.rounds) == legs * (n - 1 + n % 2)
    else:
        if n * need % k == 0:
            assert set(counts) == {need}
        assert max(pairs) - min(pairs) <= PAIR_SPREAD
        assert len(season.rounds) == ceil(len(season.games) / (n // k)), "not as few rounds"
    for e in range(n):
        in_position = [seats[e, p] for p in range(k)]
        assert max(in_position) - min(in_position) <= 1, f"entrant {e} sits {in_position}"
    assert season.balance() == Balance(
        games=(min(counts), max(counts)),
        meetings=(min(pairs), max(pairs)),
        seats=(min(seats[e, p] for e in range(n) for p in range(k)), max(seats.values())),
    )


@settings(max_examples=150, deadline=None)
@given(
    entrants=st.integers(2, 30),
    per_game=st.integers(2, 4),
    legs=st.integers(1, 2),
    seed=st.text(max_size=12),
)
def test_every_season_size_is_within_the_stated_bounds(
    entrants: int, per_game: int, legs: int, seed: str
) -> None:
    if entrants < per_game:
        with pytest.raises(Invalid):
            schedule(entrants, per_game, legs, seed)
        return
    check_bounds(schedule(entrants, per_game, legs, seed))


def test_the_bounds_hold_for_every_size_from_2_to_30_entrants() -> None:
    """Hypothesis samples; this walks every size once, so no size is left out."""
    for per_game in (2, 3, 4):
        for legs in (1, 2):
            for entrants in range(per_game, 31):
                check_bounds(schedule(entrants, per_game, legs, "every size"))


def test_four_entrants_two_players_is_three_rounds_of_two_games() -> None:
    season = schedule(4, 2)
    assert len(season.rounds) == 3
    assert all(len(round_) == 2 for round_ in season.rounds)
    assert sorted(tuple(sorted(game)) for game in season.games) == [
        (0, 1),
        (0, 2),
        (0, 3),
        (1, 2),
        (1, 3),
        (2, 3),
    ]
    firsts = Counter(game[0] for game in season.games)
    # Three games each: two entrants move first twice, two once.
    assert sorted(firsts[e] for e in range(4)) == [1, 1, 2, 2]
    assert season.balance() == Balance(games=(3, 3), meetings=(1, 1), seats=(1, 2))


def test_four_entrants_double_round_robin_swaps_the_seats_in_the_second_leg() -> None:
    season = schedule(4, 2, legs=2, seed="spring")
    first, second = season.rounds[:3], season.rounds[3:]
    assert second == tuple(tuple(game[::-1] for game in round_) for round_ in first)
    assert season.balance() == Balance(games=(6, 6), meetings=(2, 2), seats=(3, 3))
    assert season.balance().describe() == (
        "Each entrant plays 6 games; each pair of entrants meets twice; "
        "each entrant takes each seat 3 times."
    )


def test_five_entrants_two_players_each_sit_out_one_round_and_move_first_twice() -> None:
    season = schedule(5, 2, seed="autumn")
    assert len(season.rounds) == 5
    sitting_out = [set(range(5)).difference(*round_) for round_ in season.rounds]
    assert all(len(out) == 1 for out in sitting_out)
    assert set().union(*sitting_out) == set(range(5))
    assert Counter(game[0] for game in season.games) == dict.fromkeys(range(5), 2)
    assert season.balance() == Balance(games=(4, 4), meetings=(1, 1), seats=(2, 2))


def test_six_entrants_three_players() -> None:
    """Three games each, in three rounds of two games. Three rounds cannot
    bring all 15 pairs together: after {abc}{def} the 9 pairs across need
    covering, and a split of six into threes covers at most 4 of them. So some
    pair never meets and, with 18 meetings for 15 pairs, some meet twice."""
    season = schedule(6, 3)
    assert len(season.rounds) == 3
    assert all(len(round_) == 2 for round_ in season.rounds)
    assert season.balance() == Balance(games=(3, 3), meetings=(0, 2), seats=(1, 1))
    assert season.balance().describe() == (
        "Each entrant plays 3 games; each pair of entrants meets 0–2 times; "
        "each entrant takes each seat once."
    )


def test_six_entrants_four_players() -> None:
    """Two games each needs 12 seats: three games, one a round. Every pair
    meets, three pairs twice (18 meetings for 15 pairs)."""
    season = schedule(6, 4)
    assert len(season.games) == 3
    assert all(len(round_) == 1 for round_ in season.rounds)
    meetings = Counter(pair for game in season.games for pair in combinations(sorted(game), 2))
    assert len(meetings) == 15
    assert sorted(meetings.values()) == [1] * 12 + [2] * 3
    assert season.balance() == Balance(games=(2, 2), meetings=(1, 2), seats=(0, 1))


def test_seven_entrants_three_players_two_legs_meet_everyone_exactly_twice() -> None:
    """Six games each, two a round: seven rounds, each entrant sitting out one.
    Reaching this takes swaps across rounds, not only within them."""
    season = schedule(7, 3, legs=2)
    assert len(season.rounds) == 7
    assert season.balance() == Balance(games=(6, 6), meetings=(2, 2), seats=(2, 2))


def test_four_entrants_three_players_play_the_four_triples() -> None:
    """Two games each is 8 seats, not a multiple of 3; three games each is 12:
    the four triples, everyone playing three, not one entrant three and the
    others two."""
    season = schedule(4, 3)
    counts = Counter(e for game in season.games for e in game)
    assert sorted(counts.values()) == [3, 3, 3, 3]
    assert sorted(tuple(sorted(game)) for game in season.games) == [
        (0, 1, 2),
        (0, 1, 3),
        (0, 2, 3),
        (1, 2, 3),
    ]


def test_eight_entrants_three_players_one_plays_an_extra_game() -> None:
    """Four games each is 32 seats and five 40, neither a multiple of 3: eleven
    games (33 seats), one entrant playing a fifth."""
    season = schedule(8, 3)
    counts = Counter(e for game in season.games for e in game)
    assert sorted(counts.values()) == [4] * 7 + [5]


def test_the_same_seed_gives_the_same_schedule_and_another_seed_only_renumbers() -> None:
    one, again, other = (schedule(12, 3, 1, s) for s in ("club 2027", "club 2027", "club 2028"))
    assert one == again
    assert one != other
    assert one.balance() == other.balance()


@pytest.mark.system
def test_schedules_do_not_depend_on_the_process() -> None:
    """Hash randomisation or set order must not change a season's games."""
    code = (
        "import json; from pbem.leagues.schedule import schedule; "
        "print(json.dumps([schedule(n, k, 2, 'x').rounds for n, k in ((9, 2), (13, 3), (17, 4))]))"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in ("1", "2")
    }
    here = [schedule(n, k, 2, "x").rounds for n, k in ((9, 2), (13, 3), (17, 4))]
    assert [json.loads(output) for output in outputs] == [json.loads(json.dumps(here))]


@pytest.mark.parametrize(
    ("entrants", "per_game", "legs", "message"),
    [
        (8, 5, 1, "2, 3 or 4 players"),
        (8, 1, 1, "2, 3 or 4 players"),
        (8, 2, 3, "1 or 2 legs"),
        (8, 2, 0, "1 or 2 legs"),
        (3, 4, 1, "needs 4 to 64 entrants, not 3"),
        (1, 2, 1, "needs 2 to 64 entrants, not 1"),
        (MAX_ENTRANTS + 1, 2, 1, f"not {MAX_ENTRANTS + 1}"),
    ],
)
def test_impossible_seasons_are_refused_with_a_reason(
    entrants: int, per_game: int, legs: int, message: str
) -> None:
    with pytest.raises(Invalid, match=message):
        schedule(entrants, per_game, legs)


def test_the_largest_season_is_quick() -> None:
    check_bounds(schedule(MAX_ENTRANTS, 3, 2))


def test_the_table_in_the_docs_is_what_the_schedules_give() -> None:
    """docs/schedules.md tells organisers what to expect; it must not go stale."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "schedules.md").read_text()
    rows = [line.strip("|").split("|") for line in docs.splitlines() if line.startswith("| ")]
    header, *table = rows
    assert [cell.strip() for cell in header][:3] == ["Entrants", "Players", "Legs"]
    assert len(table) == 34

    def span(low_high: tuple[int, int]) -> str:
        low, high = low_high
        return str(low) if low == high else f"{low}–{high}"

    for row in table:
        entrants, per_game, legs, *stated = (cell.strip() for cell in row)
        season = schedule(int(entrants), int(per_game), int(legs))
        balance = season.balance()
        assert stated == [
            span(balance.games),
            str(len(season.rounds)),
            span(balance.meetings),
            span(balance.seats),
        ], f"{entrants} entrants, {per_game} players, {legs} legs"
