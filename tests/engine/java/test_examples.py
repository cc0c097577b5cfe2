"""The rulebook's worked examples, move by move."""

from engine.games.java.land import Land
from engine.games.java.positions import standings, strict_winner
from engine.games.java.scoring import final_scoring
from tests.engine.java.helpers import game, hand, palace, play, put

A, B, C, D = 0, 1, 2, 3


def test_example_turn_of_player_a():
    """Triple, enter from the lowlands, into the village, palace of 4, irrigation,
    a triple closing the pond, then a festival: 6 AP and 2 + 3 + 2 points."""
    state = game(4, A, "village G6", "village G7", "village H6", "rice I7")
    state.faceup = "M"
    hand(state, A, "M")
    play(state, A, "triple G8 G9 H8 village=G8")
    assert state.ap_left == 5
    play(state, A, "enter G9")  # rice on the southern edge, from the lowlands
    assert state.ap_left == 4
    play(state, A, "move G9 G8")  # rice to village: one colour change
    assert state.ap_left == 3
    play(state, A, "build G7 4")  # the village G6 G7 H6 G8 has 4 spaces
    assert (state.ap_left, state.scores[A]) == (2, 2)
    play(state, A, "irrigate H7")
    play(state, A, "triple I8 I9 J8 village=J8")  # H7 is now surrounded
    assert (state.ap_left, state.scores[A]) == (0, 5)
    play(state, A, "festival G7 M")  # nobody else may join: A holds it alone
    assert state.scores[A] == 7
    assert state.land.palaces["G7"].festival
    assert state.current == B and state.discards == ["M"]


def test_highest_position_example_1():
    """A: two developers on level 4; B: one on 4 and two on 3. A is higher."""
    positions = standings([(A, 4), (A, 4), (B, 4), (B, 3), (B, 3)])
    assert strict_winner(positions) == A


def test_highest_position_example_2():
    """A on 2, B on 1, C on 2 and 1: C wins on the second developer."""
    positions = standings([(A, 2), (B, 1), (C, 2), (C, 1)])
    assert strict_winner(positions) == C


def test_highest_position_needs_a_strict_winner():
    assert strict_winner(standings([(A, 3), (B, 3)])) is None
    assert strict_winner({}) is None


def test_final_scoring_example():
    """Palace of 10: A, B, C each on levels 3 and 2, B also on 1.
    B is first (10 points); A and C share second place (5 points each)."""
    land = Land()
    city = ["C2", "C3", "C4", "C5", "C6", "D2", "D3", "D4", "D5", "D6", "E3"]
    for cell in city:
        land.level[cell], land.face[cell], land.top[cell] = 1, "V", 0
    land.sizes.append(1)
    for cell, level in (("C2", 3), ("C3", 2), ("C4", 3), ("C5", 2), ("C6", 3), ("D2", 2)):
        land.level[cell] = level
    land.developers.update({"C2": A, "C3": A, "C4": B, "C5": B, "D3": B, "C6": C, "D2": C})
    from engine.games.java.land import Palace

    land.palaces["E3"] = Palace([10])
    assert [s.points for s in final_scoring(land, B)] == [10]
    assert [s.points for s in final_scoring(land, A)] == [5]
    assert [s.points for s in final_scoring(land, C)] == [5]
    assert final_scoring(land, D) == []


def _auction_example(a_cards):
    """A organises a festival at a palace of 8; the face-up card shows two symbols."""
    state = game(
        4,
        A,
        "triple G8 G9 H8 village=G8",
        "village G7",
        "village H7",
        "village H6",
        "village G6",
        "village F7",
    )
    palace(state, "G7", 8)
    put(state, A, "G8")
    put(state, B, "H7")
    put(state, C, "H6")
    put(state, D, "G6")
    state.tile_placed = True
    state.faceup = "MD"
    hand(state, A, *a_cards)
    hand(state, B, "M", "D")
    hand(state, C, "M", "MD", "D")
    hand(state, D, "D", "M")
    play(state, A, "festival G7 M")  # 1 point
    play(state, B, "play M")  # B follows with 1
    play(state, C, "play MD")  # C: a two-symbol card, 2 points
    play(state, D, "pass")
    play(state, A, "play D")  # A matches C's 2
    play(state, B, "pass")  # B does not; its card is lost anyway
    play(state, C, "play M")  # C will not agree and raises to 3
    return state


def test_festival_auction_example():
    state = _auction_example(["D", "M", "M"])
    assert state.to_act() == {A}
    play(state, A, "play M")  # A matches 3
    assert state.to_act() == {C}
    play(state, C, "agree")
    assert state.scores == [2, 0, 2, 0]  # shared at a palace of 8: 2 each
    assert sorted(state.discards) == sorted(["M", "M", "MD", "D", "M", "M"])
    assert state.land.palaces["G7"].festival
    assert state.auction is None and state.current == B


def test_festival_auction_example_solo_when_a_cannot_match():
    """'If A had not been able to match, C would have scored 4 alone.'"""
    state = _auction_example(["D", "M"])
    assert state.scores == [0, 0, 4, 0]
    assert state.auction is None
