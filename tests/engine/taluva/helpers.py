"""Setting up Taluva positions for rule tests, the way a rulebook figure does:
tiles of our choosing, laid through the real placement rules; and, for the
bots' tests, games some random moves in."""

from __future__ import annotations

from dataclasses import replace

from engine.bots.random_play import RandomBot
from engine.core.game import Game
from engine.core.hexgrid import Hex
from engine.games.taluva.island import Island
from engine.games.taluva.notation import PlaceTile, parse_move
from engine.games.taluva.state import BUILD, LAY_TILE, TaluvaState
from engine.games.taluva.tiles import Tile


def island_of(*tiles: str, left: str = "jungle", right: str = "sand") -> Island:
    """An island built from 'tile V L R' texts, each checked by the rules."""
    island = Island()
    for text in tiles:
        lay_on(island, text, left, right)
    return island


def lay_on(island: Island, text: str, left: str = "jungle", right: str = "sand") -> None:
    move = parse_move(text)
    assert isinstance(move, PlaceTile)
    error = island.placement_error(move)
    assert error is None, f"{text}: {error}"
    island.place(move, Tile(left, right))


def game(players: int = 2, *tiles: str, **options: object) -> TaluvaState:
    state = TaluvaState.new(players, "rules", options)
    for text in tiles:
        lay_on(state.island, text)
    return state


def to_build(state: TaluvaState, seat: int) -> TaluvaState:
    """Hand `seat` the build half of a turn (its tile already laid)."""
    state.current, state.phase, state.drawn = seat, BUILD, None
    return state


def to_lay(state: TaluvaState, seat: int, left: str = "jungle", right: str = "sand") -> TaluvaState:
    state.current, state.phase, state.drawn = seat, LAY_TILE, Tile(left, right)
    return state


def put(state: TaluvaState, seat: int, kind: str, *spaces: Hex) -> None:
    """Place buildings as if built earlier, taking them from the seat's stock."""
    for space in spaces:
        state.stocks[seat][kind] -= state.island.build(space, seat, kind)


def raise_to(state: TaluvaState, level: int, *spaces: Hex) -> None:
    """Stand spaces at a higher level, as after eruptions (for build tests)."""
    cells = state.island.cells
    for space in spaces:
        cells[space] = replace(cells[space], level=level)


def position(seed: str, plies: int, players: int = 2) -> TaluvaState:
    """A game `plies` random moves in, with a seat to act."""
    game = Game.new("taluva", [f"p{i}" for i in range(players)], seed)
    mover = RandomBot(f"{seed}/moves")
    for _ in range(plies):
        seat = game.state.current
        game.push(seat, mover.choose(game.state, seat))
    assert not game.state.is_over()
    return game.state
