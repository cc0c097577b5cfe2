"""A subject reads the same in the reader's mail program as pbem wrote it,
whatever its length: a long subject is folded over several lines, and a
space at a fold between two encoded words must not be lost (Czech league
subjects came out as "Kolo 2– Hra 3" in every kind but "jste na tahu", whose
words need no encoding)."""

from __future__ import annotations

from email import policy
from email.parser import BytesParser

import pytest

from pbem.i18n.catalogues import plain_translations
from pbem.mail.message import Mail

CZECH = plain_translations("mail", "cs")
# The phrase that ends each kind's subject (pbem.mail.compose, the answers
# the mail pipeline writes): "<game>, move <n>: <phrase>".
PHRASES = [
    "your turn",
    "waiting for %(players)s",
    "game over",
    "since you last heard",
    "accepted in part",
    "not accepted",
    "accepted",
    "answer",
    "new address",
    "message from %(name)s",
    "%(name)s moved",
    "reminder",
    "timeout of %(name)s",
    "%(name)s resigned",
]
# Leagues' names of every length put the folds at every place of the title.
LONGEST = "Jarní liga Brněnského klubu deskových her"
LEAGUES = [LONGEST[:length].strip() for length in range(3, len(LONGEST) + 1)]


def czech_subject(league: str, phrase: str) -> str:
    title = CZECH.gettext("%(league)s – Season %(season)d – Round %(round)d – Game %(game)d") % {
        "league": league,
        "season": 2,
        "round": 3,
        "game": 4,
    }
    said = CZECH.gettext(phrase) % {"name": "Bořek", "players": "Bořek, Šárka"}
    return CZECH.gettext("%(name)s, move %(move)s: %(phrase)s") % {
        "name": title,
        "move": 17,
        "phrase": said,
    }


def as_received(subject: str) -> str:
    """The subject as a mail program reads it from the bytes sent (smtplib
    writes a message with the message's own policy, as `as_bytes` does)."""
    sent = Mail().message(subject).as_bytes()
    return str(BytesParser(policy=policy.default).parsebytes(sent)["Subject"])


@pytest.mark.parametrize("phrase", PHRASES)
def test_every_kinds_czech_subject_keeps_its_spaces(phrase):
    for league in LEAGUES:
        subject = czech_subject(league, phrase)
        assert as_received(subject) == subject


def test_a_subject_of_plain_letters_is_sent_as_it_is():
    subject = "Taluva, Ann's game, move 17: your turn"
    sent = Mail().message(subject).as_bytes()
    assert f"Subject: {subject}".encode() in sent
    assert as_received(subject) == subject
