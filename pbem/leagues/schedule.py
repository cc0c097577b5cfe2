"""A season's schedule: which entrants play together, in which seats, in which round.

Entrants are numbered 0..n-1 here; the league maps them to people. Every
design is built without the seed, so its balance is a property of the numbers
alone; the seed then only decides which entrant takes which number (who gets
the bye, who plays the extra game), the same way every time.

Two players per game: the circle method. n-1 rounds (n when n is odd, one
entrant sitting out each round), every pair meets once per leg; the second
leg replays the first with the seats swapped.

Three or four players per game (k): each entrant plays
g = ceil(legs * (n-1) / (k-1)) games, the fewest that would let it meet every
other entrant `legs` times, or g+1 when k divides n*(g+1) but not n*g, so
that everyone plays as many (`games_each`). That needs n*g seats; when k still
does not divide n*g the last game's spare seats go to a few entrants who play
g+1 (never more than k-1 of them). A round holds floor(n/k) games at most and there are as few
rounds as that allows, the entrants with the most games left playing first.
The groups are then improved by swapping entrants between games of a round,
or between two rounds where each sits out, while that evens out the pair
meetings (a fixed budget of passes and of fresh attempts). Rounds make meeting
everyone impossible at times (6 entrants in 3 rounds of two 3-player games
cannot bring all 15 pairs together), so the balance reached is stated, not
assumed. Seats are then dealt so each entrant takes each position as evenly
as its games allow.

What is guaranteed, and checked for 2 to 30 entrants by the tests:
- games per entrant differ by at most 1 (equal for 2 players, and for 3-4
  whenever k divides n*g or n*(g+1)), and are at least g;
- meetings per pair: exactly `legs` for 2 players; for 3-4 players the most
  and fewest are at most PAIR_SPREAD apart (2 for all sizes but one);
- seats: each entrant's counts in any two positions differ by at most 1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations, product
from math import ceil

from flask_babel import gettext as _
from flask_babel import ngettext

from engine.core.rng import SeededRandom
from pbem.services.errors import Invalid

PER_GAME = range(2, 5)
LEGS = range(1, 3)
MAX_ENTRANTS = 64
# Most meetings of any pair minus fewest, for 3-4 players (tested for 2..30
# entrants and for the largest season).
PAIR_SPREAD = 3
# The search: passes of swaps per attempt (it stops when a pass changes
# nothing), and fresh attempts while the spread is above _GOOD_SPREAD, which
# every size from 2 to 30 entrants reaches but 6 entrants, 3 players, 2 legs.
_PASSES = 15
_ATTEMPTS = 4
_GOOD_SPREAD = 2

Game = tuple[int, ...]
Round = tuple[Game, ...]


@dataclass(frozen=True)
class Balance:
    """What the season page states, each as (fewest, most): games per entrant,
    meetings per pair of entrants, and times an entrant sits in one seat."""

    games: tuple[int, int]
    meetings: tuple[int, int]
    seats: tuple[int, int]

    def describe(self) -> str:
        """One line for the season page in the reader's language, like 'Each entrant
        plays 4–5 games; each pair of entrants meets 1–2 times; each entrant takes
        each seat 1–2 times.'"""
        return _(
            "%(games)s; %(meetings)s; %(seats)s.",
            games=_games_words(self.games),
            meetings=_meetings_words(self.meetings),
            seats=_seats_words(self.seats),
        )


@dataclass(frozen=True)
class Schedule:
    """Rounds of games; a game lists entrant numbers in seat order. No entrant
    plays twice in a round, so a round's games can all run at once."""

    entrants: int
    per_game: int
    legs: int
    rounds: tuple[Round, ...]

    @property
    def games(self) -> tuple[Game, ...]:
        return tuple(game for round_ in self.rounds for game in round_)

    def balance(self) -> Balance:
        games: Counter[int] = Counter()
        meetings: Counter[tuple[int, int]] = Counter()
        seats: Counter[tuple[int, int]] = Counter()
        for game in self.games:
            for position, entrant in enumerate(game):
                games[entrant] += 1
                seats[entrant, position] += 1
            meetings.update(combinations(sorted(game), 2))
        everyone = range(self.entrants)
        return Balance(
            games=_low_high(games[e] for e in everyone),
            meetings=_low_high(meetings[pair] for pair in combinations(everyone, 2)),
            seats=_low_high(seats[e, p] for e in everyone for p in range(self.per_game)),
        )


def schedule(entrants: int, per_game: int, legs: int = 1, seed: str = "") -> Schedule:
    """The season's schedule for `entrants` entrants; `legs` 2 makes every pair
    meet twice as often (a double round robin for 2 players)."""
    if per_game not in PER_GAME:
        raise Invalid(_("a league game has 2, 3 or 4 players"))
    if legs not in LEGS:
        raise Invalid(_("a season has 1 or 2 legs"))
    if not per_game <= entrants <= MAX_ENTRANTS:
        raise Invalid(
            _(
                "a season of %(per_game)d-player games needs %(per_game)d to "
                "%(most)d entrants, not %(entrants)d",
                per_game=per_game,
                most=MAX_ENTRANTS,
                entrants=entrants,
            )
        )
    design = _round_robin(entrants, legs) if per_game == 2 else _groups(entrants, per_game, legs)
    number = list(range(entrants))
    SeededRandom(seed, "schedule").shuffle(number)
    rounds = tuple(tuple(tuple(number[e] for e in game) for game in r) for r in design)
    return Schedule(entrants, per_game, legs, rounds)


@cache
def _round_robin(n: int, legs: int) -> tuple[Round, ...]:
    """Berger tables: the last number (the bye when n is odd) stays put while the
    others turn round the circle. At its table the seats alternate by round; at
    the others the entrant on the circle's way down sits first, which it does
    for half of its turn round; so each entrant has the first seat (n-1)/2
    times, rounded up or down (exactly, when n is odd)."""
    size = n + n % 2  # the number n, when n is odd, is the bye
    circle = [size - 1, *range(size - 1)]
    first_leg = []
    for r in range(size - 1):
        games = []
        for table in range(size // 2):
            a, b = circle[table], circle[size - 1 - table]
            if table == 0 and r % 2:
                a, b = b, a
            if n not in (a, b):
                games.append((a, b))
        first_leg.append(tuple(games))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    second_leg = [tuple(game[::-1] for game in r) for r in first_leg]
    return tuple(first_leg + second_leg[: len(first_leg) * (legs - 1)])


def games_each(n: int, k: int, legs: int) -> int:
    """g: the fewest games that let an entrant meet every other `legs` times,
    or one more when that gives every entrant the same count and g does not
    (4 entrants, 3 players: everyone plays the 4 triples' 3 games, rather
    than one entrant 3 and the others 2)."""
    need = ceil(legs * (n - 1) / (k - 1))
    return need + 1 if n * need % k and n * (need + 1) % k == 0 else need


@cache
def _groups(n: int, k: int, legs: int) -> tuple[Round, ...]:
    need = games_each(n, k, legs)
    total = ceil(n * need / k)
    spare_seats = total * k - n * need
    targets = [need + (e < spare_seats) for e in range(n)]
    sizes = _round_sizes(total, n // k)
    best: tuple[tuple[int, int], list[list[list[int]]]] | None = None
    for attempt in range(_ATTEMPTS):
        rounds = _fill_rounds(n, k, targets, sizes, attempt)
        low, high = _even_out_meetings(n, rounds)
        if best is None or (high - low, -low) < best[0]:
            best = (high - low, -low), rounds
        if high - low <= _GOOD_SPREAD:
            break
    assert best is not None
    return _deal_seats(n, k, best[1])


def _round_sizes(total: int, most: int) -> list[int]:
    """`total` games in as few rounds as allowed, as equal as possible, larger first
    (which keeps the filling of rounds from ever running out of entrants)."""
    count = ceil(total / most)
    return [total // count + (r < total % count) for r in range(count)]


def _fill_rounds(
    n: int, k: int, targets: list[int], sizes: list[int], attempt: int
) -> list[list[list[int]]]:
    """Who plays in each round (most games left first, then who sat out longest),
    grouped greedily so each newcomer to a game has met its members least.
    Attempts after the first take the players of each round in a different
    (fixed) order, for the search to start from elsewhere."""
    left = targets[:]
    last_played = [-1] * n
    met = [[0] * n for _ in range(n)]
    rounds = []
    for r, size in enumerate(sizes):
        pool = sorted(range(n), key=lambda e: (-left[e], last_played[e], e))[: size * k]
        if attempt:
            SeededRandom(f"attempt {attempt}", f"round {r}").shuffle(pool)
        games = []
        while pool:
            game = [pool.pop(0)]
            while len(game) < k:
                newcomer = min(pool, key=lambda e: (sum(met[e][x] for x in game), e))
                pool.remove(newcomer)
                game.append(newcomer)
            for a, b in combinations(game, 2):
                met[a][b] += 1
                met[b][a] += 1
            for e in game:
                left[e] -= 1
                last_played[e] = r
            games.append(game)
        rounds.append(games)
    return rounds


def _even_out_meetings(n: int, rounds: list[list[list[int]]]) -> tuple[int, int]:
    """Exchange two entrants whenever that lowers the sum of 4 ** meetings over
    all pairs: the total of meetings is fixed, so a lower sum is a more even
    spread, and the steep cost lowers the most frequent pairs first. Every
    round stays valid and every entrant's count of games stays the same.
    Returns the fewest and most meetings of any pair."""
    meetings = _Meetings(n, rounds)
    sitting = [set(range(n)).difference(*games) for games in rounds]
    for _pass in range(_PASSES):
        if not (
            _swap_within_rounds(meetings, rounds) or _swap_across_rounds(meetings, rounds, sitting)
        ):
            break
    return _low_high(meetings.met[a][b] for a, b in combinations(range(n), 2))


def _swap_within_rounds(meetings: _Meetings, rounds: list[list[list[int]]]) -> bool:
    """Two entrants of one round swap games; whether any did."""
    swapped = False
    for games in rounds:
        for one, other in combinations(games, 2):
            for a, b in product(list(one), list(other)):
                if a not in one or b not in other:
                    continue  # moved by an earlier swap of this pass
                if meetings.change(a, b, one) + meetings.change(b, a, other) < 0:
                    meetings.replace(a, b, one)
                    meetings.replace(b, a, other)
                    swapped = True
    return swapped


def _swap_across_rounds(
    meetings: _Meetings, rounds: list[list[list[int]]], sitting: list[set[int]]
) -> bool:
    """a plays in round r and sits out round s, b the other way round: they swap
    places in both rounds. The search only gets here when no swap within a
    round helps: there are many of these and they are mostly needed where
    rounds hold one or two games."""
    swapped = False
    for r, s in permutations(range(len(rounds)), 2):
        for a, b in product(sorted(sitting[s]), sorted(sitting[r])):
            if a in sitting[r] or b in sitting[s]:
                continue
            one = next(game for game in rounds[r] if a in game)
            other = next(game for game in rounds[s] if b in game)
            change = meetings.change(a, b, one)
            meetings.replace(a, b, one)
            if change + meetings.change(b, a, other) < 0:
                meetings.replace(b, a, other)
                sitting[r].symmetric_difference_update((a, b))
                sitting[s].symmetric_difference_update((a, b))
                swapped = True
            else:
                meetings.replace(b, a, one)
    return swapped


class _Meetings:
    """How often each pair of entrants meets, kept up to date as games change."""

    def __init__(self, n: int, rounds: list[list[list[int]]]) -> None:
        self.met = [[0] * n for _ in range(n)]
        for games in rounds:
            for game in games:
                for a, b in combinations(game, 2):
                    self.met[a][b] += 1
                    self.met[b][a] += 1
        self.cost = [4**m for m in range(sum(map(len, rounds)) + 2)]

    def change(self, leaving: int, coming: int, game: list[int]) -> int:
        """The change of cost if `coming` (not in the game) took `leaving`'s place."""
        met, cost = self.met, self.cost
        return sum(
            cost[met[coming][x] + 1]
            - cost[met[coming][x]]
            + cost[met[leaving][x] - 1]
            - cost[met[leaving][x]]
            for x in game
            if x != leaving
        )

    def replace(self, leaving: int, coming: int, game: list[int]) -> None:
        for x in game:
            if x != leaving:
                self.met[leaving][x] -= 1
                self.met[x][leaving] -= 1
                self.met[coming][x] += 1
                self.met[x][coming] += 1
        game[game.index(leaving)] = coming


def _deal_seats(n: int, k: int, rounds: list[list[list[int]]]) -> tuple[Round, ...]:
    """Even out seats: while an entrant sits in position `over` at least twice
    more than in `under`, move it along an alternating path (de Werra's
    equitable colouring of the entrant-game graph). Each step strictly lowers
    the sum of squared seat counts, and a path always exists, so the loop ends
    with every entrant's positions at most 1 apart."""
    games = [game for games in rounds for game in games]
    sat = [[0] * k for _ in range(n)]
    where: list[list[set[int]]] = [[set() for _ in range(k)] for _ in range(n)]
    for g, game in enumerate(games):
        for p, e in enumerate(game):
            sat[e][p] += 1
            where[e][p].add(g)
    while uneven := next(
        (
            (e, over, under)
            for e in range(n)
            for over, under in permutations(range(k), 2)
            if sat[e][over] - sat[e][under] >= 2
        ),
        None,
    ):
        _shift_seat(games, sat, where, *uneven)
    return tuple(tuple(tuple(game) for game in games) for games in rounds)


def _shift_seat(
    games: list[list[int]],
    sat: list[list[int]],
    where: list[list[set[int]]],
    start: int,
    over: int,
    under: int,
) -> None:
    """Find entrants start, e1, ..., z where each sits in `over` in a game in which
    the next sits in `under`, z having sat in `under` more than in `over`; swapping
    each pair moves one `over` seat from start to z and leaves the others even.
    Such a z is always reachable: the games reached hold as many `under` seats
    as `over` seats, and start alone has a surplus of `over`."""
    reached: dict[int, tuple[int, int] | None] = {start: None}
    queue = [start]
    for entrant in queue:
        for g in sorted(where[entrant][over]):
            z = games[g][under]
            if z in reached:
                continue
            reached[z] = (entrant, g)
            if sat[z][under] > sat[z][over]:
                sat[start][over], sat[start][under] = sat[start][over] - 1, sat[start][under] + 1
                sat[z][over], sat[z][under] = sat[z][over] + 1, sat[z][under] - 1
                step = reached[z]
                while step is not None:
                    e, g = step
                    games[g][over], games[g][under] = z, e
                    where[e][over].remove(g)
                    where[e][under].add(g)
                    where[z][under].remove(g)
                    where[z][over].add(g)
                    z, step = e, reached[e]
                return
            queue.append(z)
    raise AssertionError("an equitable seating always exists")


def _low_high(values: Iterable[int]) -> tuple[int, int]:
    found = list(values)
    return min(found), max(found)


def _games_words(low_high: tuple[int, int]) -> str:
    low, high = low_high
    if low == high:
        return ngettext("Each entrant plays %(num)d game", "Each entrant plays %(num)d games", low)
    # The plural follows the larger number, as "2–5 games" is said.
    return ngettext(
        "Each entrant plays %(low)d–%(high)d games",
        "Each entrant plays %(low)d–%(high)d games",
        high,
        low=low,
        high=high,
    )


def _meetings_words(low_high: tuple[int, int]) -> str:
    low, high = low_high
    if low == high:
        named = {
            0: _("each pair of entrants never meets"),
            1: _("each pair of entrants meets once"),
            2: _("each pair of entrants meets twice"),
        }
        return named.get(low) or _("each pair of entrants meets %(num)d times", num=low)
    return ngettext(
        "each pair of entrants meets %(low)d–%(high)d times",
        "each pair of entrants meets %(low)d–%(high)d times",
        high,
        low=low,
        high=high,
    )


def _seats_words(low_high: tuple[int, int]) -> str:
    low, high = low_high
    if low == high:
        named = {
            1: _("each entrant takes each seat once"),
            2: _("each entrant takes each seat twice"),
        }
        return named.get(low) or _("each entrant takes each seat %(num)d times", num=low)
    return ngettext(
        "each entrant takes each seat %(low)d–%(high)d times",
        "each entrant takes each seat %(low)d–%(high)d times",
        high,
        low=low,
        high=high,
    )
