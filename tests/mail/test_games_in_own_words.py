"""A French and a Czech player play Taluva by mail, each in their own words:
commands (plateau, coups, historique, aide; deska, tahy, historie, nápověda)
and moves (tuile, hutte, étendre ... forêt; dílek, chýše, rozšířit ... les),
through the real mail rig, and every answer comes in the reader's language."""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import EmailMessage

import pytest

from engine.games.taluva.notation import VERBS
from engine.games.taluva.tiles import TERRAIN_VOCABULARY
from pbem.models import Game, User
from pbem.services.replay import verify_game
from tests.mail.helpers import listed_under, reply, submit_by_smtp, text_of
from tests.server.pipeline_helpers import moves_of, start_game

TURNS_EACH = 3


@dataclass(frozen=True)
class Speaker:
    """What a player of one language types, and what the mails say to them."""

    language: str
    your_turn: str  # the subject's end
    accepted: str
    answer: str
    legal_title: str  # the short list of legal moves starts with it
    board: str
    legal: str
    history: str
    help: str
    board_said: str
    legal_said: str
    history_said: str
    help_said: str


FRENCH = Speaker(
    "fr",
    your_turn=" : à vous de jouer",
    accepted=" : accepté",
    answer=" : réponse",
    legal_title="À vous de jouer. ",
    board="plateau",
    legal="coups",
    history="historique",
    help="aide",
    board_said="Le plateau tel qu'il est maintenant :",
    legal_said="coups légaux",  # listed, or counted by kind when there are many
    history_said="Tous les coups jusqu'ici :",
    help_said="Commandes, une par ligne :",
)
CZECH = Speaker(
    "cs",
    your_turn=": jste na tahu",
    accepted=": přijato",
    answer=": odpověď",
    legal_title="Jste na tahu. ",
    board="deska",
    legal="tahy",
    history="historie",
    help="nápověda",
    board_said="Deska, jak je teď:",
    legal_said="možných tahů",  # listed, or counted by kind when there are many
    history_said="Všechny dosavadní tahy:",
    help_said="Příkazy, jeden na řádek:",
)


def canonical(move: str) -> str:
    """A move as the player's mail lists it ('étendre 1,-1 forêt') in the
    record's words ('extend 1,-1 jungle')."""
    return " ".join(VERBS.english(w) or TERRAIN_VOCABULARY.english(w) or w for w in move.split())


def listed(message: EmailMessage, title: str) -> list[str]:
    """The legal moves a mail lists under its title, in the reader's words."""
    return listed_under(message, lambda line: line.startswith(title))


class Table:
    """The rig seen from two players' mailboxes."""

    def __init__(self, rig, game: Game) -> None:
        self.rig, self.game = rig, game

    def mail(self, user: User, ending: str) -> EmailMessage:
        return self.rig.capture.take(
            lambda m: (
                str(m["X-Pbem-Game"]) == self.game.public_id
                and user.email in str(m["To"])
                and str(m["Subject"]).endswith(ending)
            ),
            timeout=60,
        )

    def send(self, user: User, answered: EmailMessage, body: str) -> str:
        """Reply; the outcome of reading it."""
        raw = reply(answered, user.email, body)
        return submit_by_smtp(self.rig, raw, user.email, str(answered["Reply-To"])).outcome


def play_a_turn(table: Table, user: User, speaker: Speaker, turn: int) -> list[str]:
    """Commands first, then the tile, then a build, all typed in the player's words."""
    mail = table.mail(user, speaker.your_turn)
    commands = [
        [speaker.board, speaker.legal],
        [speaker.history],
        [speaker.help],
    ][turn % 3]
    assert table.send(user, mail, "\n".join(commands)) == "answered"
    answer = text_of(table.mail(user, speaker.answer))
    said = {
        speaker.board: speaker.board_said,
        speaker.legal: speaker.legal_said,
        speaker.history: speaker.history_said,
        speaker.help: speaker.help_said,
    }
    for command in commands:
        assert said[command] in answer, answer
    tile = listed(mail, speaker.legal_title)[0]
    assert tile.startswith(VERBS.words("tile", speaker.language)[0] + " ")  # not "tile"
    assert table.send(user, mail, tile) == "submitted"
    goes_on = table.mail(user, speaker.accepted)
    assert not re.search(r"\((\d+) (sur|z) \1\b", text_of(goes_on))  # not "some: 2 of 2"
    builds = listed(goes_on, speaker.legal_title)
    extend = VERBS.words("extend", speaker.language)[0] + " "
    build = next((m for m in builds if m.startswith(extend)), builds[0])
    assert table.send(user, goes_on, build) == "submitted"
    done = text_of(table.mail(user, speaker.accepted))
    assert speaker.legal_title not in done  # the turn is over
    assert f"  {build}" in done.splitlines()  # the answer lists it as it was typed
    return [canonical(tile), canonical(build)]


@pytest.mark.parametrize("rig", ["postgresql"], indirect=True)
def test_a_french_and_a_czech_player_play_taluva_by_mail_in_their_own_words(
    rig, session, make_user
):
    ann, bob = make_user("Anne"), make_user("Bohuslav")
    ann.language, bob.language = "fr", "cs"
    session.commit()
    game = start_game(rig.app, session, "taluva", [ann, bob])
    table = Table(rig, game)
    played = []
    for turn in range(TURNS_EACH):
        played += play_a_turn(table, ann, FRENCH, turn)
        played += play_a_turn(table, bob, CZECH, turn)
    # The record keeps the canonical words, whatever language they were typed in.
    session.expire_all()
    assert [text for _seat, _ply, text in moves_of(session, game)] == played
    assert verify_game(session.get(Game, game.id)) == []
