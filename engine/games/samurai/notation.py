"""Samurai moves and their text (docs/notation/samurai.md).

choose helmet4 buddha3 samurai2 ronin ship1   opening choice of 5 tiles
figure helmet O10                             setup: a figure on a settlement
helmet4 N11                                   a tile on a space
token-exchange N11 M12                        token exchange takes N11, that tile goes to M12
figure-exchange O10 helmet L16 rice           swap two figures between settlements
end                                           end the turn
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.errors import IllegalMove
from engine.games.samurai.board import Board
from engine.games.samurai.tiles import FIGURES, HAND_SIZE, KINDS, in_order


@dataclass(frozen=True)
class ChooseTiles:
    tiles: tuple[str, ...]  # catalogue order


@dataclass(frozen=True)
class PlaceFigure:
    figure: str
    space: int


@dataclass(frozen=True)
class PlayTile:
    tile: str
    space: int


@dataclass(frozen=True)
class TokenExchange:
    space: int  # one of the mover's tiles, replaced by the token exchange
    to: int  # where the lifted tile goes


@dataclass(frozen=True)
class FigureExchange:
    first: int
    first_figure: str
    second: int
    second_figure: str

    @classmethod
    def between(cls, a: int, a_figure: str, b: int, b_figure: str) -> FigureExchange:
        """The swap is symmetric: the lower space is always written first."""
        if (b, b_figure) < (a, a_figure):
            a, a_figure, b, b_figure = b, b_figure, a, a_figure
        return cls(a, a_figure, b, b_figure)


@dataclass(frozen=True)
class EndTurn:
    pass


Move = ChooseTiles | PlaceFigure | PlayTile | TokenExchange | FigureExchange | EndTurn

TILE_NAMES = ", ".join(KINDS)
_EXAMPLE = "helmet4 buddha3 samurai2 ronin ship1"


def _space(board: Board, word: str) -> int:
    name = word.upper()
    if name not in board.by_name:
        raise IllegalMove(
            f"there is no space {word!r} in play (a space is a column letter and a row"
            f" number as on the board, e.g. {board.name(board.edo)} for Edo)"
        )
    return board.by_name[name]


def _figure(word: str) -> str:
    figure = word.lower()
    if figure not in FIGURES:
        raise IllegalMove(f"{word!r} is not a figure (figures: {', '.join(FIGURES)})")
    return figure


def _tile(word: str) -> str:
    code = word.lower()
    if code not in KINDS:
        raise IllegalMove(f"{word!r} is not a tile (tiles: {TILE_NAMES})")
    return code


def _expect(words: list[str], count: int, shape: str) -> None:
    if len(words) != count:
        raise IllegalMove(f"write '{shape}'")


def parse(board: Board, text: str) -> Move:
    """Read a move's text; IllegalMove with the expected shape when malformed."""
    words = text.split()
    if not words:
        raise IllegalMove("empty move: write a tile and a space, e.g. 'helmet4 N11', or 'end'")
    head = words[0].lower()
    if head == "end":
        _expect(words, 1, "end")
        return EndTurn()
    if head == "choose":
        if len(words) != HAND_SIZE + 1:
            raise IllegalMove(f"choose exactly {HAND_SIZE} tiles, e.g. 'choose {_EXAMPLE}'")
        return ChooseTiles(tuple(in_order([_tile(w) for w in words[1:]])))
    if head == "figure":
        _expect(words, 3, "figure FIGURE SPACE, e.g. figure helmet O10")
        return PlaceFigure(_figure(words[1]), _space(board, words[2]))
    if head == "token-exchange":
        _expect(
            words, 3, "token-exchange SPACE-OF-YOUR-TILE NEW-SPACE, e.g. token-exchange N11 M12"
        )
        return TokenExchange(_space(board, words[1]), _space(board, words[2]))
    if head == "figure-exchange":
        _expect(words, 5, "figure-exchange SPACE FIGURE SPACE FIGURE, e.g. ... O10 helmet L16 rice")
        return FigureExchange.between(
            _space(board, words[1]), _figure(words[2]), _space(board, words[3]), _figure(words[4])
        )
    _expect(words, 2, "TILE SPACE, e.g. helmet4 N11")
    return PlayTile(_tile(words[0]), _space(board, words[1]))


def format_move(board: Board, move: Move) -> str:
    match move:
        case ChooseTiles(tiles):
            return "choose " + " ".join(tiles)
        case PlaceFigure(figure, space):
            return f"figure {figure} {board.name(space)}"
        case PlayTile(tile, space):
            return f"{tile} {board.name(space)}"
        case TokenExchange(space, to):
            return f"token-exchange {board.name(space)} {board.name(to)}"
        case FigureExchange(a, a_figure, b, b_figure):
            return f"figure-exchange {board.name(a)} {a_figure} {board.name(b)} {b_figure}"
        case EndTurn():
            return "end"
    raise TypeError(f"not a Samurai move: {move!r}")
