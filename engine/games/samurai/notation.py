"""Samurai moves and their text (docs/notation/samurai.md).

choose helmet4 buddha3 samurai2 ronin ship1   opening choice of 5 tiles
figure helmet O10                             setup: a figure on a settlement
helmet4 N12                                   a tile on a space
token-exchange N11 M12                        token exchange takes N11, that tile goes to M12
figure-exchange O10 helmet L16 rice           swap two figures between settlements
end                                           end the turn
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core.errors import IllegalMove
from engine.core.vocabulary import Vocabulary
from engine.games.samurai import messages  # noqa: F401  (the templates used here)
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
# Tile and figure names of the French rulebook (parure, chevalier, mouvement,
# échange...) and Czech; a tile is its type's word and its strength
# ("parure4", "loď1"). English is canonical and is what the record keeps.
TYPE_WORDS = Vocabulary(
    {
        "helmet": {"fr": ("parure",), "cs": ("přilba",)},
        "buddha": {"fr": ("bouddha",), "cs": ("buddha",)},
        "rice": {"fr": ("rizière",), "cs": ("rýže",)},
        "samurai": {"fr": ("samouraï",), "cs": ("samuraj",)},
        "ronin": {"fr": ("chevalier",), "cs": ("rónin",)},
        "ship": {"fr": ("bateau",), "cs": ("loď",)},
        "token-exchange": {"fr": ("mouvement",), "cs": ("přesun",)},
        "figure-exchange": {"fr": ("échange",), "cs": ("výměna",)},
    }
)
COMMANDS = Vocabulary(
    {
        "choose": {"fr": ("choisir",), "cs": ("vybrat",)},
        "figure": {"fr": ("pion",), "cs": ("figurka",)},
        "end": {"fr": ("fin",), "cs": ("konec",)},
    }
)
_STRENGTH = re.compile(r"^(\D+?)(\d*)$")
_EXAMPLE = "helmet4 buddha3 samurai2 ronin ship1"


def _space(board: Board, word: str) -> int:
    name = word.upper()
    if name not in board.by_name:
        raise IllegalMove.of("samurai.no_space", word=word, edo=board.name(board.edo))
    return board.by_name[name]


def _figure(word: str) -> str:
    figure = TYPE_WORDS.english(word) or word.lower()
    if figure not in FIGURES:
        raise IllegalMove.of("samurai.not_a_figure", word=word, figures=", ".join(FIGURES))
    return figure


def _tile(word: str) -> str:
    code = word.lower()
    parts = _STRENGTH.match(code)
    if parts and TYPE_WORDS.english(parts.group(1)):
        code = f"{TYPE_WORDS.english(parts.group(1))}{parts.group(2)}"
    if code not in KINDS:
        raise IllegalMove.of("samurai.not_a_tile", word=word, tiles=TILE_NAMES)
    return code


def _expect(words: list[str], count: int, shape: str) -> None:
    if len(words) != count:
        raise IllegalMove.of("samurai.write", shape=shape)


def parse(board: Board, text: str) -> Move:
    """Read a move's text; IllegalMove with the expected shape when malformed."""
    words = text.split()
    if not words:
        raise IllegalMove.of("samurai.empty_move")
    head = words[0].lower()
    head = COMMANDS.english(head) or TYPE_WORDS.english(head) or head
    if head == "end":
        _expect(words, 1, "end")
        return EndTurn()
    if head == "choose":
        if len(words) != HAND_SIZE + 1:
            raise IllegalMove.of("samurai.choose_count", count=HAND_SIZE, example=_EXAMPLE)
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
    _expect(words, 2, "TILE SPACE, e.g. helmet4 N12")
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
