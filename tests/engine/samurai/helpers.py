"""Positions for the Samurai tests, built through the real moves where the
rules allow and by laying out tiles and figures where an example needs it."""

from __future__ import annotations

from collections.abc import Iterable

from engine import Game
from engine.games.samurai.state import SamuraiState

OPENING = ("helmet4", "buddha4", "rice4", "samurai3", "ronin")


def new_game(players: int = 2, seed: str = "samurai-test") -> Game:
    return Game.new("samurai", [f"p{i + 1}" for i in range(players)], seed)


def choose_all(game: Game, choice: Iterable[str] = OPENING) -> None:
    for seat in range(len(game.seats)):
        game.play(seat, "choose " + " ".join(choice))


def set_up_figures(game: Game) -> None:
    """Every seat in turn places the first legal figure until the setup is done."""
    state = game.state
    while state.phase == "figures":
        seat = state.current
        game.push(seat, state.legal_moves(seat)[0])


def game_in_play(players: int = 2, seed: str = "samurai-test") -> Game:
    game = new_game(players, seed)
    choose_all(game)
    set_up_figures(game)
    assert game.state.phase == "play"
    return game


def sid(state: SamuraiState, name: str) -> int:
    return state.board.by_name[name]


def lay(state: SamuraiState, seat: int, tiles: dict[str, str]) -> None:
    """Put tiles straight on the board: {space name: tile code}."""
    for name, code in tiles.items():
        state.tiles[sid(state, name)] = (seat, code)


def clear_board(state: SamuraiState) -> None:
    """No figures anywhere, so an example holds only the figures it names."""
    for settlement in state.figures:
        state.figures[settlement] = []


def put_figures(state: SamuraiState, figures: dict[str, list[str]]) -> None:
    for name, on in figures.items():
        state.figures[sid(state, name)] = list(on)
