"""Taluva, complete: the turn (lay a tile, then build), elimination, the ends."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Self

from engine.core.errors import EngineError, IllegalMove
from engine.core.hexgrid import Hex
from engine.core.messages import words
from engine.core.options import Option
from engine.core.registry import register
from engine.core.rng import SeededRandom
from engine.core.state import Result, State
from engine.core.textboard import TextBoard
from engine.games.taluva import ending, view
from engine.games.taluva.builds import Builder
from engine.games.taluva.island import HUT, Island
from engine.games.taluva.messages import TILE_THEN_BUILD
from engine.games.taluva.notation import (
    VERBS,
    BuildAction,
    Extend,
    Move,
    PlaceTile,
    format_move,
    parse_move,
)
from engine.games.taluva.tiles import TERRAIN_VOCABULARY, UNKNOWN, Tile, full_set

TILES_BY_PLAYERS = {3: 36, 4: 48}
LAY_TILE, BUILD, OVER = "tile", "build", "over"

# How a game ends, as its result says it (game words: a server translates them).
INSTANT_WIN, TILES_OUT, LAST_STANDING = words(
    "all buildings of two kinds placed", "no tiles left", "every other player eliminated"
)


@register
class TaluvaState(State[Move]):
    name = "taluva"
    version = 1
    title = "Taluva"
    min_players = 2
    max_players = 4
    max_turn_moves = 2  # the tile, then one build
    # No move spends a reserve (State.spends_reserve): both halves of a turn
    # are compulsory, and the buildings are what a player wants to place
    # (all of two kinds wins), not a store kept back, so a stand-in plays a
    # Taluva turn as the seat's own bot would.
    vocabularies = (VERBS, TERRAIN_VOCABULARY)
    opening_words = (VERBS,)
    option_spec = (
        Option("tiles", 24, "tiles used with 2 players (24 or 36)", choices=(24, 36)),
        Option("ranking", False, "ranking variant: play on to rank every player"),
        Option("teams", False, "4 players in two teams, partners sitting opposite"),
    )

    @classmethod
    def check_options(cls, players: int, options: Mapping[str, Any]) -> None:
        if options["tiles"] != 24 and players != 2:
            raise EngineError.of("taluva.tiles_option", players=players)
        if options["teams"] and players != 4:
            raise EngineError.of("taluva.teams_option")
        if options["teams"] and options["ranking"]:
            raise EngineError.of("taluva.teams_and_ranking")

    def __init__(self, players: int, seed: str, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        tiles = full_set()
        SeededRandom(seed, "tiles").shuffle(tiles)
        self.pile: list[Tile] = tiles[: TILES_BY_PLAYERS.get(players, options["tiles"])]
        self.island = Island()
        self.laid: list[Tile] = []  # every tile laid, in order: what all have seen of the set
        self.stocks = [dict(ending.PIECES) for _ in range(players)]
        self.eliminated: list[int] = []  # in the order they went out
        self.finished: list[int] = []  # ranking variant: in the order they won
        self.current = 0
        self.phase = LAY_TILE
        self.end: str | None = None
        self.drawn: Tile | None = self.pile.pop()
        # The spaces the last build covered: an extension names its settlement,
        # not the spaces its new huts went to, so pictures need this to show them.
        self.last_built: list[Hex] = []

    def copy(self) -> Self:
        """Field by field, several times quicker than the pickling of
        `State.copy` (searches copy a position for every turn they weigh):
        each list and dict of its own, tiles and cells shared (never changed
        in place)."""
        clone = object.__new__(type(self))
        clone.__dict__.update(vars(self))
        clone.options = dict(self.options)
        clone.pile, clone.laid = list(self.pile), list(self.laid)
        clone.island = self.island.copy()
        clone.stocks = [dict(stock) for stock in self.stocks]
        clone.eliminated, clone.finished = list(self.eliminated), list(self.finished)
        clone.last_built = list(self.last_built)
        return clone

    # -- turn ---------------------------------------------------------------

    def to_act(self) -> frozenset[int]:
        return frozenset() if self.phase == OVER else frozenset({self.current})

    def turn_goes_on(self, seat: int) -> bool:
        return self.phase == BUILD and seat == self.current

    def _builder(self, seat: int) -> Builder:
        return Builder(self.island, seat, self.stocks[seat])

    def legal_moves(self, seat: int) -> list[Move]:
        if seat != self.current or self.phase == OVER:
            return []
        if self.phase == LAY_TILE:
            return list(self.legal_placements(seat))
        return list(self._builder(seat).legal())

    def legal_placements(self, seat: int) -> list[PlaceTile]:
        """The tiles `seat` may lay now: none unless it is to lay one."""
        if seat != self.current or self.phase != LAY_TILE:
            return []
        return self.island.legal_placements()

    def parse_syntax(self, seat: int, text: str) -> Move:
        move = parse_move(text)
        if isinstance(move, Extend):
            return self._builder(seat).canonical(move)
        return move

    def check(self, seat: int, move: Move) -> None:
        if isinstance(move, PlaceTile):
            if self.phase != LAY_TILE:
                raise IllegalMove.of("taluva.tile_laid", rule=TILE_THEN_BUILD)
            error = self.island.placement_error(move)
        else:
            if self.phase != BUILD:
                raise IllegalMove.of("taluva.tile_first", rule=TILE_THEN_BUILD)
            error = self._builder(seat).error(move)
        if error is not None:
            raise error

    def apply(self, seat: int, move: Move) -> None:
        if isinstance(move, PlaceTile):
            assert self.drawn is not None
            self.island.place(move, self.drawn)
            self.laid.append(self.drawn)
            self.drawn = None
            self.last_built = []
            self.phase = BUILD
            if next(self._builder(seat).legal(), None) is None:
                self.eliminated.append(seat)
                self._next_turn()
            return
        self._build(seat, move)
        self._check_victory(seat)
        self._next_turn()

    def _build(self, seat: int, move: BuildAction) -> None:
        stock = self.stocks[seat]
        if isinstance(move, Extend):
            builder = self._builder(seat)
            settlement = builder.settlement_at(move.settlement)
            assert settlement is not None
            self.last_built = builder.extension_spaces(settlement, move.terrain)
            for space in self.last_built:
                stock[HUT] -= self.island.build(space, seat, HUT)
        else:
            self.last_built = [move.at]
            stock[move.kind] -= self.island.build(move.at, seat, move.kind)

    def _check_victory(self, seat: int) -> None:
        if self.options["teams"]:
            if ending.team_has_won(self.stocks, ending.team_of(seat)):
                self._finish(INSTANT_WIN)
        elif ending.kinds_completed(self.stocks[seat]) >= 2:
            if self.options["ranking"]:
                self.finished.append(seat)
            else:
                self._finish(INSTANT_WIN)

    def _finish(self, reason: str) -> None:
        self.end = reason
        self.phase = OVER
        self.drawn = None

    def in_play(self) -> list[int]:
        out = set(self.eliminated) | set(self.finished)
        return [s for s in range(self.players) if s not in out]

    def _next_turn(self) -> None:
        if self.phase == OVER:
            return
        playing = self.in_play()
        if not self.pile:
            self._finish(TILES_OUT)
        elif self.options["teams"]:
            if any(all(s in self.eliminated for s in team) for team in ending.TEAMS_OF_FOUR):
                self._finish(LAST_STANDING)
        elif len(playing) <= 1:
            self._finish(LAST_STANDING)
        if self.phase == OVER:
            return
        self.current = next((s for s in playing if s > self.current), playing[0])
        self.drawn = self.take_hidden(self.pile, UNKNOWN)
        self.phase = LAY_TILE

    def redeal_unseen(self, seat: int, rng: SeededRandom) -> None:
        """The pile, and the tile in hand unless `seat` holds it, come from the
        tiles `seat` has not seen laid or held: the set less those, whatever
        part of it the game left out."""
        seen = Counter(self.laid)
        if self.drawn is not None and seat == self.current:
            seen[self.drawn] += 1
        unseen = []
        for tile in full_set():
            if seen[tile]:
                seen[tile] -= 1
            else:
                unseen.append(tile)
        rng.shuffle(unseen)
        if self.drawn is not None and seat != self.current:
            self.drawn = unseen.pop()
        self.pile = unseen[: len(self.pile)]

    # -- the end --------------------------------------------------------------

    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        scores = tuple(
            {**ending.built(stock), "eliminated": seat in self.eliminated}
            for seat, stock in enumerate(self.stocks)
        )
        unranked: tuple[int, ...] = ()
        if self.options["teams"]:
            ranking = self._team_ranking()
        elif self.options["ranking"]:
            ranking = (
                [(s,) for s in self.finished]
                + ending.rank_groups(self.in_play(), self._tiebreak)
                + [(s,) for s in reversed(self.eliminated)]
            )
        else:
            unranked = tuple(self.eliminated)
            rest = [s for s in range(self.players) if s not in self.eliminated]
            if self.end == INSTANT_WIN:
                others = [s for s in rest if s != self.current]
                ranking = [(self.current,), *ending.rank_groups(others, self._tiebreak)]
            else:
                ranking = ending.rank_groups(rest, self._tiebreak)
        return Result(tuple(ranking), scores, self.end or "", unranked)

    def _tiebreak(self, seat: int) -> tuple[int, int, int]:
        return ending.tiebreak(self.stocks[seat])

    def _team_ranking(self) -> list[tuple[int, ...]]:
        if self.end == INSTANT_WIN:
            winners = ending.team_of(self.current)
        elif self.end == LAST_STANDING:
            winners = next(
                t for t in ending.TEAMS_OF_FOUR if any(s not in self.eliminated for s in t)
            )
        else:

            def team_score(team: tuple[int, int]) -> tuple[int, ...]:
                members = [self._tiebreak(s) for s in team if s not in self.eliminated]
                return tuple(sum(parts) for parts in zip(*members, strict=True)) or (0, 0, 0)

            first, second = ending.TEAMS_OF_FOUR
            if team_score(first) == team_score(second):
                return [first + second]
            winners = max(ending.TEAMS_OF_FOUR, key=team_score)
        losers = next(t for t in ending.TEAMS_OF_FOUR if t != winners)
        return [winners, losers]

    # -- what players see ---------------------------------------------------------

    def format_move(self, move: Move) -> str:
        return format_move(move)

    def seat_view(self, seat: int | None) -> dict[str, Any]:
        return view.seat_view(self, seat)

    def text_board(self, seat: int | None) -> TextBoard:
        return view.text_board(self, seat)
