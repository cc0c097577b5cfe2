"""Legal moves grouped by kind and space, and Samurai's opening as a set to tick."""

from __future__ import annotations

from engine.core.selfplay import play_bot_game
from engine.games.samurai.tiles import COLOUR_SET
from pbem.render import space_centres
from pbem.web.move_groups import SHORT_KIND, Choice, as_choice, group_moves, lone_moves
from tests.render.helpers import cut


def legal_and_view(ruleset: str, ply: int):
    played = cut(play_bot_game(ruleset, 3, "groups").game, ply)
    seat = min(played.state.to_act())
    legal = [played.state.format_move(m) for m in played.state.legal_moves(seat)]
    return legal, played.view(seat)


def test_every_move_is_in_one_group_of_its_kind_and_first_named_space() -> None:
    legal, view = legal_and_view("java", 0)
    spaces = space_centres(view)
    kinds = group_moves(legal, spaces)
    listed = [move for kind in kinds for group in kind.groups for move in group.moves]
    assert lone_moves(legal) == ["token"]
    assert sorted(listed + lone_moves(legal)) == sorted(legal)
    assert [kind.kind for kind in kinds] == list(dict.fromkeys(m.split()[0] for m in legal))[:-1]
    triple = next(kind for kind in kinds if kind.kind == "triple")
    assert triple.count == sum(m.startswith("triple ") for m in legal) > SHORT_KIND
    assert len(triple.groups) > 10
    for group in triple.groups:
        assert group.label in spaces
        assert all(move.split()[1] == group.label for move in group.moves)


def test_a_short_kind_is_one_group_without_a_label() -> None:
    kinds = group_moves(["end", "tile A1", "tile B2"], ["A1", "B2"])
    assert [(k.kind, [(g.label, g.moves) for g in k.groups]) for k in kinds] == [
        ("tile", [("", ("tile A1", "tile B2"))]),
    ]


def test_moves_of_one_word_stand_apart_from_every_group() -> None:
    moves = [f"tile {q},0 {q + 1},0" for q in range(700)] + ["pass", "agree", "end"]
    assert lone_moves(moves) == ["pass", "agree", "end"]
    grouped = [m for kind in group_moves(moves, []) for group in kind.groups for m in group.moves]
    assert "end" not in grouped and len(grouped) == 700


def test_moves_naming_no_known_space_go_by_their_first_argument() -> None:
    moves = [f"tile {q},0 {q + 1},0 {q},1" for q in range(SHORT_KIND)] * 2
    kinds = group_moves(moves, ["9,9"])
    assert [g.label for g in kinds[0].groups] == [f"{q},0" for q in range(SHORT_KIND)]


def test_samurais_opening_is_five_of_the_seats_twenty_tiles() -> None:
    legal, _ = legal_and_view("samurai", 0)
    assert len(legal) > 7000
    assert as_choice(legal) == Choice("choose", 5, COLOUR_SET)


def test_a_list_that_leaves_out_a_pick_is_no_choice() -> None:
    legal, _ = legal_and_view("samurai", 0)
    assert as_choice(legal[1:]) is None
    assert as_choice(["choose a b", "choose a c", "choose b c"]) is None  # no shorter than a, b, c
    assert as_choice(["choose a b", "choose a c", "choose b c", "choose a b c"]) is None


def test_other_lists_are_no_choice() -> None:
    for ruleset, ply in (("java", 0), ("taluva", 30), ("samurai", 62)):
        legal, _ = legal_and_view(ruleset, ply)
        assert as_choice(legal) is None, ruleset
    assert as_choice([]) is None
