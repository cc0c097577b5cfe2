"""The rules of a turn's tiles: where each tile may go, the token exchange,
the figure exchange and the one-normal-tile limit."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from engine.core.errors import IllegalMove
from engine.games.samurai import messages as m
from engine.games.samurai.board import Board
from engine.games.samurai.influence import Tiles
from engine.games.samurai.notation import FigureExchange, PlayTile, TokenExchange
from engine.games.samurai.tiles import UNKNOWN, kind

FIGURE_EXCHANGE = "figure-exchange"
TOKEN_EXCHANGE = "token-exchange"
CLOSED_SETTLEMENTS = ("city", "edo")  # may never hold two equal figures

TileMove = PlayTile | TokenExchange | FigureExchange


def space_error(board: Board, tiles: Tiles, code: str, space: int) -> IllegalMove | None:
    """Why tile `code` may not lie on `space`: empty, never a settlement, ships at sea."""
    target = board.space(space)
    name = target.name
    if space in tiles:
        return IllegalMove.of("samurai.space_taken", rule=m.EMPTY_SPACES, space=name)
    if target.is_settlement:
        return IllegalMove.of("samurai.on_settlement", rule=m.NO_TILES_ON_SETTLEMENTS, space=name)
    if kind(code).is_ship and not target.is_sea:
        return IllegalMove.of("samurai.ship_on_land", rule=m.SHIPS_AT_SEA, space=name)
    if target.is_sea and not kind(code).is_ship:
        return IllegalMove.of("samurai.land_tile_at_sea", rule=m.SHIPS_AT_SEA, space=name)
    return None


def tile_of(move: TileMove) -> str:
    match move:
        case PlayTile(tile, _):
            return tile
        case TokenExchange():
            return TOKEN_EXCHANGE
    return FIGURE_EXCHANGE


def turn_error(hand: Sequence[str], played: Sequence[str], code: str) -> IllegalMove | None:
    """The tile must be behind the screen, and a turn holds one normal tile at most."""
    if code not in hand:
        return IllegalMove.of("samurai.not_in_hand", rule=m.FROM_HAND, tile=code)
    if not kind(code).fast:
        earlier = [t for t in played if not kind(t).fast]
        if earlier:
            return IllegalMove.of("samurai.one_normal", rule=m.ONE_NORMAL_TILE, tile=earlier[0])
    return None


def token_exchange_error(
    board: Board, tiles: Tiles, seat: int, move: TokenExchange
) -> IllegalMove | None:
    """The token exchange takes the place of one of the mover's tiles (a ship
    too); the lifted tile goes at once to another empty legal space."""
    if tiles.get(move.space, (None,))[0] != seat:
        return IllegalMove.of(
            "samurai.not_your_tile", rule=m.TOKEN_REPLACES, space=board.name(move.space)
        )
    if move.to == move.space:
        return IllegalMove.of("samurai.same_space", rule=m.TOKEN_MOVES)
    return space_error(board, tiles, tiles[move.space][1], move.to)


def figure_exchange_error(
    board: Board, figures: Mapping[int, list[str]], move: FigureExchange
) -> IllegalMove | None:
    """Two figures still on the board swap settlements; no city or Edo may end
    up with two equal figures."""
    if move.first == move.second:
        return IllegalMove.of("samurai.same_settlement", rule=m.FIGURE_EXCHANGE)
    pairs = ((move.first, move.first_figure), (move.second, move.second_figure))
    for space, figure in pairs:
        if figure not in figures.get(space, []):
            return IllegalMove.of(
                "samurai.no_figure_there",
                rule=m.FIGURE_EXCHANGE,
                space=board.name(space),
                figure=figure,
            )
    for (space, leaving), (_, arriving) in (pairs, pairs[::-1]):
        closed = board.space(space).kind in CLOSED_SETTLEMENTS
        if closed and arriving != leaving and arriving in figures[space]:
            return IllegalMove.of(
                "samurai.two_equal", rule=m.NO_TWO_EQUAL, space=board.name(space), figure=arriving
            )
    return None


def swap(figures: dict[int, list[str]], move: FigureExchange) -> None:
    first, second = figures[move.first], figures[move.second]
    first[first.index(move.first_figure)] = move.second_figure
    second[second.index(move.second_figure)] = move.first_figure


def candidates(
    board: Board, tiles: Tiles, figures: Mapping[int, list[str]], seat: int, hand: Sequence[str]
) -> Iterator[TileMove]:
    """Every tile move worth judging for `seat`, in a stable order (a trial's
    unknown tiles have none)."""
    for code in dict.fromkeys(hand):
        if code == UNKNOWN:
            continue
        if code == FIGURE_EXCHANGE:
            placed = [(s, f) for s in sorted(figures) for f in figures[s]]
            for i, (a, fa) in enumerate(placed):
                for b, fb in placed[i + 1 :]:
                    if a != b:
                        yield FigureExchange.between(a, fa, b, fb)
        elif code == TOKEN_EXCHANGE:
            for space in sorted(s for s, (owner, _) in tiles.items() if owner == seat):
                lifted = tiles[space][1]
                for target in board.sea if kind(lifted).is_ship else board.land:
                    if target not in tiles:
                        yield TokenExchange(space, target)
        else:
            for target in board.sea if kind(code).is_ship else board.land:
                if target not in tiles:
                    yield PlayTile(code, target)
