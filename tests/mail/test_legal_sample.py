"""The legal moves a 'your turn' mail shows: those a player would consider
(the bots' candidates, then the moves nearest them on the board), every kind
of move open to the seat, a few of each; not the board's corner."""

from __future__ import annotations

from engine import Game
from engine.bots.strategy import strategy_for
from engine.core.selfplay import play_bot_game
from engine.games.java.board import NEIGHBORS
from pbem.mail.game_text import SHORT_LIST_MAX, SHORT_LIST_PER_KIND, seat_picture, short_list
from tests.engine.java.helpers import game, hand, palace, put
from tests.render.helpers import cut


def java_city() -> Game:
    """Seat 0's developers stand in a city with a palace (E5) and on a
    triple beside it (F7); its tile is laid, cards in hand."""
    state = game(3, 0, "village E5", "village E6", "village D5", "triple F6 F7 G6 village=F6")
    palace(state, "E5", 4)
    put(state, 0, "E6", "F7")
    put(state, 1, "D5")
    state.faceup = "M"
    hand(state, 0, "M", "MD")
    state.tile_placed = True
    played = Game.new("java", ["Ann", "Bob", "Cy"], "sample")
    played.state = state
    return played


def around(*cells: str) -> set[str]:
    """The spaces and their neighbours."""
    return {n for c in cells for n in (c, *NEIGHBORS[c])}


def named(move: str) -> set[str]:
    return {word.split("=")[-1] for word in move.split()[1:]}


def test_a_java_sample_is_near_the_seats_developers_and_city_and_of_every_kind() -> None:
    sample = seat_picture(java_city(), 0, "en").legal_sample
    kinds = [move.split()[0] for move in sample]
    for kind in ("festival", "triple", "move", "irrigate", "draw", "token", "end"):
        assert kind in kinds, (kind, sample)
    near = around(*around("E5", "E6", "D5", "F6", "F7", "G6"))
    for move in sample:
        if move.split()[0] in ("triple", "double", "rice", "village", "irrigate"):
            assert named(move) & near, move
    assert sample.index("end") < SHORT_LIST_MAX


def test_the_sample_speaks_the_readers_words() -> None:
    english = seat_picture(java_city(), 0, "en").legal_sample
    czech = seat_picture(java_city(), 0, "cs").legal_sample
    assert len(czech) == len(english) and "konec" in czech and "žeton" in czech


def test_every_kind_gets_a_turn_before_any_gets_more() -> None:
    ranked = [f"kind{k} {n}" for k in range(12) for n in range(6)] + ["end"]
    sample = short_list(ranked)
    assert len(sample) == SHORT_LIST_MAX
    kinds = [move.split()[0] for move in sample]
    assert set(kinds) == {move.split()[0] for move in ranked}  # "end" too
    assert max(kinds.count(k) for k in kinds) <= SHORT_LIST_PER_KIND
    assert sample[:3] == ["kind0 0", "kind0 1", "kind0 2"]  # by kind, likeliest first


def test_taluva_and_samurai_samples_open_with_the_bots_likeliest_moves() -> None:
    for ruleset, ply in (("taluva", 20), ("taluva", 21), ("samurai", 40)):
        played = cut(play_bot_game(ruleset, 3, "groups").game, ply)
        seat = min(played.state.to_act())
        state = played.state
        first = state.format_move(strategy_for(ruleset).candidates(state, seat)[0])
        sample = seat_picture(played, seat, "en").legal_sample
        assert sample[0] == first, ruleset
        kinds = [move.split()[0] for move in sample]
        legal_kinds = {state.format_move(m).split()[0] for m in state.legal_moves(seat)}
        assert set(kinds) == legal_kinds and max(map(kinds.count, kinds)) <= SHORT_LIST_PER_KIND
