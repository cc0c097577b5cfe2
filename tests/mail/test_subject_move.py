"""A reply whose threading headers were lost still says which move it
answers: its subject names it, in the language the mail was written in."""

from __future__ import annotations

import pytest

from pbem.mail.addresses import seen_position


@pytest.mark.parametrize(
    "subject",
    [
        "Re: Taluva, Ann's game, move 5: your turn",
        "RE: Taluva, Ann's game, coup 5 : à vous de jouer",
        "Odp: Taluva, Ann's game, tah 5: jste na tahu",
    ],
)
def test_the_move_answered_is_read_from_the_subject_in_each_language(subject):
    assert seen_position("", "", subject) == 4


def test_a_subject_without_a_move_says_nothing():
    assert seen_position("", "", "Re: Taluva, Ann's game") is None
