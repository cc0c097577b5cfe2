"""Festival cards, action tokens and the festival rules around the auction."""

from engine.games.java import cards
from tests.engine.java.helpers import festival_position, game, hand, play, refused


def test_card_value_counts_symbols_shared_with_the_faceup_card():
    assert cards.value("MD", "MD") == 2
    assert cards.value("MP", "MD") == 1
    assert cards.value("MD", "M") == 1
    assert cards.value("P", "MD") == 0


def test_at_most_two_cards_per_turn_faceup_replaced_from_the_deck():
    state = game(2, 0)
    state.tile_placed = True
    top = state.deck[-1]
    faceup = state.faceup
    play(state, 0, "draw faceup")
    assert faceup in state.hands[0] and state.faceup == top
    play(state, 0, "draw deck")
    assert len(state.hands[0]) == 5 and state.ap_left == 4
    refused(state, 0, "draw deck", "cards")


def test_empty_deck_is_refilled_by_shuffling_the_discards():
    state = game(2, 0)
    state.tile_placed = True
    state.discards, state.deck = state.deck, []
    play(state, 0, "draw deck")
    assert not state.discards and len(state.deck) == 30 - 2 * 3 - 1 - 1


def test_action_token_gives_a_seventh_ap_once_per_turn():
    state = game(2, 0)
    play(state, 0, "token")
    assert state.ap_left == 7 and state.tokens[0] == 2
    refused(state, 0, "token", "action token")
    state.tokens[0] = 0
    state.token_used = False
    refused(state, 0, "token", "action token")


def test_festival_comes_after_the_land_tile_and_ends_the_turn():
    state = festival_position()
    hand(state, 0, "M")
    hand(state, 1)
    refused(state, 0, "festival E5 M", "mandatory land tile")
    play(state, 0, "rice G9", "festival E5 M")
    assert state.scores[0] == 2 and state.current == 1 and state.auction is None


def test_festival_needs_a_developer_in_the_city_and_a_matching_card():
    state = festival_position()
    state.tile_placed = True
    hand(state, 0, "D")
    refused(state, 0, "festival E5 D", "festival cards")
    state.land.developers.pop("E6")
    hand(state, 0, "M")
    refused(state, 0, "festival E5 M", "festival")


def test_festival_once_per_palace_level():
    state = festival_position()
    state.tile_placed = True
    state.land.palaces["E5"].festival = True
    hand(state, 0, "M")
    refused(state, 0, "festival E5 M", "festival once per palace level")


def test_seat_without_matching_cards_is_not_asked_and_tied_seats_without_cards_agree():
    state = festival_position()
    state.tile_placed = True
    hand(state, 0, "M", "M")
    hand(state, 1, "M")
    play(state, 0, "festival E5 M")
    assert state.to_act() == {1}
    play(state, 1, "play M")  # level at 1; seat 0 may raise or agree
    assert state.to_act() == {0}
    play(state, 0, "agree")  # seat 1 has no card left: it agrees automatically
    assert state.scores == [1, 1, 0]
    assert state.land.palaces["E5"].festival


def test_below_the_highest_total_a_seat_must_match_or_pass():
    state = festival_position()
    state.tile_placed = True
    hand(state, 0, "M", "M")
    hand(state, 1, "M", "M", "M")
    play(state, 0, "festival E5 M M")
    refused(state, 1, "play M", "festival auction")
    refused(state, 1, "agree", "festival auction")
    play(state, 1, "pass")
    assert state.scores == [2, 0, 0] and sorted(state.discards) == ["M", "M"]


NAMES = ("Ann", "Bob", "Cid")


def test_an_auction_that_drops_a_seat_is_announced_and_a_late_answer_told_how_it_ended():
    """Bob could not match Ann's two cards: the auction dropped him without
    asking and ended at once, so he may well answer it afterwards."""
    state = festival_position()
    state.tile_placed = True
    hand(state, 0, "M", "M")
    hand(state, 1, "M")
    assert state.announcements(NAMES) == []
    play(state, 0, "festival E5 M M")
    assert state.auction is None and state.scores == [2, 0, 0]
    told = state.announcements(NAMES)
    assert [said.text() for said in told] == [
        "the festival at E5 went to Ann alone, scoring 2; Bob could not match the highest total"
    ]
    late = refused(state, 1, "pass", "festival")
    explained = state.explained(late, 1, "pass", NAMES)
    assert str(explained) == (
        "the festival auction is over: the festival at E5 went to Ann alone, scoring 2; "
        "Bob could not match the highest total [festival]"
    )
    out_of_turn = refused(state, 2, "pass", "turn order")
    assert state.explained(out_of_turn, 2, "pass", NAMES).message == explained.message
    other = refused(state, 2, "end", "turn order")
    assert state.explained(other, 2, "end", NAMES) is other


def test_a_shared_festival_is_announced_with_each_ones_points():
    state = festival_position()
    state.tile_placed = True
    hand(state, 0, "M")
    hand(state, 1, "M")
    play(state, 0, "festival E5 M")
    play(state, 1, "play M")  # level, and Ann has no card to raise with: she agrees
    assert [said.text() for said in state.announcements(NAMES)] == [
        "the festival at E5 was shared by Ann, Bob, scoring 1 each"
    ]
