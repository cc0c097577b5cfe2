"""Which turns a picture outlines: the others' since the reader last moved."""

from __future__ import annotations

from pbem.render.lastturn import Turn, last_turn, moves_since, outlined_turns, spaces_in

HISTORY = [
    {"seat": 0, "move": "tile A1"},
    {"seat": 1, "move": "tile B2"},
    {"seat": 1, "move": "build B3"},
    {"seat": 2, "move": "tile C4"},
    {"seat": 0, "move": "move A1 A2"},
    {"seat": 1, "move": "tile B5"},
    {"seat": 2, "move": "tile C6"},
    {"seat": 2, "move": "end"},
]


def view(viewer: int | None, history: list[dict[str, object]] = HISTORY) -> dict[str, object]:
    return {"viewer": viewer, "history": history}


def test_moves_since_the_seats_last_move_count_plies_from_one() -> None:
    assert [ply for ply, _ in moves_since(HISTORY, 0)] == [6, 7, 8]
    assert [ply for ply, _ in moves_since(HISTORY, None)] == list(range(1, 9))


def test_a_player_sees_each_other_players_turn_since_their_last_move() -> None:
    assert outlined_turns(view(0)) == [Turn(1, 6, ("tile B5",)), Turn(2, 7, ("tile C6", "end"))]
    assert outlined_turns(view(1)) == [Turn(2, 7, ("tile C6", "end"))]
    assert [turn.seat for turn in outlined_turns(view(3))] == [0, 1, 2, 0, 1, 2]


def test_the_last_mover_and_a_spectator_see_the_last_turn() -> None:
    last = Turn(2, 7, ("tile C6", "end"))
    assert last_turn(HISTORY) == last
    assert outlined_turns(view(None)) == [last]
    assert outlined_turns(view(2)) == [last]
    assert outlined_turns(view(0, [])) == []


def test_a_moves_spaces_in_the_order_it_names_them_case_ignored() -> None:
    by_key = {"A1": "A1", "B10": "B10"}
    assert spaces_in("move b10 (a1) A1 village=A1", by_key) == ["B10", "A1"]
