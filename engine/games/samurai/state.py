"""Samurai (Reiner Knizia) on the engine core: the secret opening choice, the
figure setup, turns of tiles, resolution of surrounded settlements, the end."""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations
from typing import Any

from engine.core.errors import IllegalMove
from engine.core.messages import Message
from engine.core.registry import register
from engine.core.rng import SeededRandom
from engine.core.state import Result, State
from engine.core.textboard import TextBoard
from engine.games.samurai import messages as m
from engine.games.samurai import notation, placement, redeal, scoring, setup
from engine.games.samurai.board import FIGURES_PER_TYPE, Board, board_for
from engine.games.samurai.influence import resolve, surrounded
from engine.games.samurai.notation import (
    COMMANDS,
    TYPE_WORDS,
    ChooseTiles,
    EndTurn,
    FigureExchange,
    Move,
    PlaceFigure,
    PlayTile,
    TokenExchange,
)
from engine.games.samurai.picture import picture
from engine.games.samurai.tiles import (
    COLOUR_COUNTS,
    COLOUR_SET,
    FIGURES,
    HAND_SIZE,
    UNKNOWN,
    in_order,
    kind,
)
from engine.games.samurai.view import seat_view

CHOOSE, FIGURES_PHASE, PLAY, OVER = "choose", "figures", "play", "over"
PHASE_HELP = {
    CHOOSE: Message("samurai.phase_choose"),
    FIGURES_PHASE: Message("samurai.phase_figures"),
    PLAY: Message("samurai.phase_play"),
}


@cache
def _all_choices() -> tuple[ChooseTiles, ...]:
    """Every different set of 5 among a colour's 20 tiles, in catalogue order."""
    return tuple(dict.fromkeys(ChooseTiles(c) for c in combinations(COLOUR_SET, HAND_SIZE)))


@register
class SamuraiState(State[Move]):
    name = "samurai"
    version = 1
    title = "Samurai"
    min_players = 2
    max_players = 4
    max_turn_moves = HAND_SIZE + 1  # every tile in hand, then `end`
    vocabularies = (TYPE_WORDS, COMMANDS)
    opening_words = (TYPE_WORDS, COMMANDS)  # "helmet4 N12", "end"

    def __init__(self, players: int, seed: str, options: dict[str, Any]) -> None:
        super().__init__(players, seed, options)
        board = self.board
        self.phase = CHOOSE
        self.choices: list[tuple[str, ...] | None] = [None] * players
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.piles: list[list[str]] = [[] for _ in range(players)]
        self.pile_rngs = [SeededRandom(seed, f"pile-{s}") for s in range(players)]
        self.supply = {f: FIGURES_PER_TYPE[players] - 1 for f in FIGURES}
        self.figures: dict[int, list[str]] = {s: [] for s in board.settlements}
        self.figures[board.edo] = list(FIGURES)
        self.tiles: dict[int, tuple[int, str]] = {}
        self.current = 0
        self.turn = 0
        self.played: list[str] = []  # tiles of the turn under way
        self.figure_exchanges = [0] * players  # laid beside the board, public
        self.captured = [dict.fromkeys(FIGURES, 0) for _ in range(players)]
        self.set_aside = dict.fromkeys(FIGURES, 0)
        self.last_resolution: list[tuple[int, str, int | None]] = []
        self.passed: list[int] = []  # seats skipped at the last change of turn
        self.outcome: Result | None = None

    @property
    def board(self) -> Board:
        return board_for(self.players)

    # -- whose turn -------------------------------------------------------

    def to_act(self) -> frozenset[int]:
        if self.phase == OVER:
            return frozenset()
        if self.phase == CHOOSE:
            return frozenset(s for s in range(self.players) if self.choices[s] is None)
        return frozenset((self.current,))

    def turn_goes_on(self, seat: int) -> bool:
        return self.phase == PLAY and seat == self.current and bool(self.played)

    def result(self) -> Result | None:
        return self.outcome

    # -- moves --------------------------------------------------------------

    def parse_syntax(self, seat: int, text: str) -> Move:
        return notation.parse(self.board, text)

    def format_move(self, move: Move) -> str:
        return notation.format_move(self.board, move)

    def history_text(self, text: str, mover: int, viewer: int | None) -> str:
        """The opening choice stays behind the screen until the end of the game."""
        if text.startswith("choose ") and viewer != mover and self.phase != OVER:
            return m.SECRET_CHOICE
        return text

    def legal_moves(self, seat: int) -> list[Move]:
        if seat not in self.to_act():
            return []
        if self.phase == CHOOSE:  # every one is five of the colour's tiles, so legal
            return list(_all_choices())
        if self.phase == FIGURES_PHASE:
            figures = [PlaceFigure(f, s) for s in self.board.settlements for f in FIGURES]
            return [m for m in figures if self._error(seat, m) is None]
        moves: list[Move] = [
            m
            for m in self._tile_candidates(seat)
            if self._error(seat, m) is None and not self.kept_back(seat, m)
        ]
        if self.played:
            moves.append(EndTurn())
        return moves

    def spends_reserve(self, seat: int, move: Move) -> bool:
        """A turn's normal means is one normal tile; the fast tiles (ships, the
        ronin, the two exchanges: one each a game) join it at the player's
        choice, so they are a reserve."""
        if not isinstance(move, PlayTile | TokenExchange | FigureExchange):
            return False
        return self._reserve_tile(seat, placement.tile_of(move))

    def holds_back(self, seat: int, code: str) -> bool:
        """Whether the seat keeps its tile `code` (keep_reserves) now."""
        return seat in self.reserves_kept and self._reserve_tile(seat, code)

    def _reserve_tile(self, seat: int, code: str) -> bool:
        """A fast tile is a reserve unless it is all the turn can play: a turn
        plays a tile, so with no normal tile to play and none played yet it
        must be a fast one."""
        if not kind(code).fast:
            return False
        if self.played:
            return True
        normal = any(c != UNKNOWN and not kind(c).fast for c in self.hands[seat])
        return normal and any(space not in self.tiles for space in self.board.land)

    def check(self, seat: int, move: Move) -> None:
        error = self._error(seat, move)
        if error is not None:
            raise error

    def _error(self, seat: int, move: Move) -> IllegalMove | None:
        """Why `move` is illegal for `seat` now, or None."""
        expected = {
            CHOOSE: (ChooseTiles,),
            FIGURES_PHASE: (PlaceFigure,),
            PLAY: (PlayTile, TokenExchange, FigureExchange, EndTurn),
        }[self.phase]
        if not isinstance(move, expected):
            return IllegalMove.of("samurai.phase", rule=m.GAME_PHASE, phase=PHASE_HELP[self.phase])
        match move:
            case ChooseTiles(tiles):
                return self._choice_error(tiles)
            case PlaceFigure(figure, space):
                return setup.placement_error(self.board, self.figures, self.supply, figure, space)
            case EndTurn():
                if not self.played:
                    return IllegalMove.of("samurai.play_a_tile", rule=m.ONE_TILE_PER_TURN)
                return None
        return self._tile_error(seat, move)

    @staticmethod
    def _choice_error(tiles: tuple[str, ...]) -> IllegalMove | None:
        extra = Counter(tiles) - COLOUR_COUNTS
        if len(tiles) != HAND_SIZE or extra:
            counts = tuple(
                Message("samurai.colour_count", {"count": COLOUR_COUNTS[t], "tile": t})
                for t in extra
            )
            return IllegalMove.of(
                "samurai.choice", rule=m.OPENING_CHOICE, count=HAND_SIZE, counts=counts
            )
        return None

    def _tile_error(
        self, seat: int, move: PlayTile | TokenExchange | FigureExchange
    ) -> IllegalMove | None:
        code = placement.tile_of(move)
        error = placement.turn_error(self.hands[seat], self.played, code)
        if error is not None:
            return error
        match move:
            case PlayTile(tile, space):
                if tile in (placement.TOKEN_EXCHANGE, placement.FIGURE_EXCHANGE):
                    return IllegalMove.of(
                        "samurai.exchange_syntax", rule=m.EXCHANGE_TILES, tile=tile
                    )
                return placement.space_error(self.board, self.tiles, tile, space)
            case TokenExchange():
                return placement.token_exchange_error(self.board, self.tiles, seat, move)
        return placement.figure_exchange_error(self.board, self.figures, move)

    def _tile_candidates(self, seat: int) -> list[Move]:
        return list(
            placement.candidates(self.board, self.tiles, self.figures, seat, self.hands[seat])
        )

    def _can_play(self, seat: int) -> bool:
        """Whether `seat` could open a turn now (a tile in hand with a legal place).
        A trial's unknown tile might fit: the trial then lets the seat play on
        rather than end the game and open the screens on a guess."""
        if UNKNOWN in self.hands[seat]:
            return True
        candidates = placement.candidates(
            self.board, self.tiles, self.figures, seat, self.hands[seat]
        )
        return any(self._tile_error(seat, m) is None for m in candidates)

    # -- effects ------------------------------------------------------------

    def apply(self, seat: int, move: Move) -> None:
        match move:
            case ChooseTiles(tiles):
                self.choices[seat] = tiles
                if all(c is not None for c in self.choices):
                    self._deal()
            case PlaceFigure(figure, space):
                self.figures[space].append(figure)
                self.supply[figure] -= 1
                if setup.setup_complete(self.board, self.figures):
                    self.phase, self.current, self.turn = PLAY, 0, 1
                else:
                    self.current = (self.current + 1) % self.players
            case PlayTile(tile, space):
                self._spend(seat, tile)
                self.tiles[space] = (seat, tile)
            case TokenExchange(space, to):
                self._spend(seat, placement.TOKEN_EXCHANGE)
                self.tiles[to] = self.tiles[space]
                self.tiles[space] = (seat, placement.TOKEN_EXCHANGE)
            case FigureExchange():
                self._spend(seat, placement.FIGURE_EXCHANGE)
                self.figure_exchanges[seat] += 1
                placement.swap(self.figures, move)
            case EndTurn():
                self._end_turn(seat)

    def _deal(self) -> None:
        """Each chosen five go behind the screen; the other 15 are shuffled face down."""
        for seat, choice in enumerate(self.choices):
            assert choice is not None
            pile = list((COLOUR_COUNTS - Counter(choice)).elements())
            self.pile_rngs[seat].shuffle(pile)
            self.hands[seat] = list(choice)
            self.piles[seat] = pile
        self.phase = FIGURES_PHASE

    def _spend(self, seat: int, code: str) -> None:
        self.hands[seat].remove(code)
        self.played.append(code)

    def _end_turn(self, seat: int) -> None:
        self._resolve()
        hand, pile = self.hands[seat], self.piles[seat]
        while len(hand) < HAND_SIZE and pile:
            hand.append(self.take_hidden(pile, UNKNOWN, 0))
        self.hands[seat] = in_order(hand)
        self.played = []
        reason = self._ending()
        if reason is None:
            self._next_seat(seat)
        else:
            self._finish(reason)

    def _resolve(self) -> None:
        """Every settlement with figures whose land is surrounded gives them up."""
        self.last_resolution = []
        for settlement in self.board.settlements:
            figures = self.figures[settlement]
            if not figures or not surrounded(self.board, self.tiles, settlement):
                continue
            for figure, captor in resolve(self.board, self.tiles, settlement, figures):
                if captor is None:
                    self.set_aside[figure] += 1
                else:
                    self.captured[captor][figure] += 1
                self.last_resolution.append((settlement, figure, captor))
            self.figures[settlement] = []

    def _ending(self) -> str | None:
        on_board = Counter(f for figures in self.figures.values() for f in figures)
        if any(on_board[f] == 0 for f in FIGURES):
            return scoring.TYPE_GONE
        if sum(self.set_aside.values()) >= 4:
            return scoring.FOUR_ASIDE
        return None

    def _next_seat(self, seat: int) -> None:
        """The next seat that can play; seats without a playable tile pass."""
        self.passed = []
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if self._can_play(candidate):
                self.current = candidate
                self.turn += 1
                return
            self.passed.append(candidate)
        self._finish(scoring.NO_TILES if not any(self.hands) else scoring.NO_PLAY)

    def _finish(self, reason: str) -> None:
        self.phase = OVER
        self.outcome = scoring.final_result(self.captured, reason)

    # -- what seats see -----------------------------------------------------

    def redeal_unseen(self, seat: int, rng: SeededRandom) -> None:
        redeal.redeal_unseen(self, seat, rng)

    def seat_view(self, seat: int | None) -> dict[str, Any]:
        return seat_view(self, seat)

    def text_board(self, seat: int | None) -> TextBoard:
        return picture(self, seat)

    def screens_open(self, viewer: int | None, seat: int) -> bool:
        """What lies behind `seat`'s screen shows to its owner, and to all at the end."""
        return self.phase == OVER or viewer == seat
