"""Pictures in the reader's language: every word drawn (titles, headings,
seat lines, legends, terrain and figure names) is French or Czech when asked,
and the board drawing itself is unchanged."""

from __future__ import annotations

import pytest

from engine.core.game import Game
from pbem.render import render_picture, render_png
from tests.render.helpers import bot_game, cut, image

# Words each language's picture must show: the game's name as its rulebook
# spells it, the panel's headings, and game words from the rulebooks.
EXPECTED = {
    ("taluva", "fr"): ["Taluva", "Joueurs", "en réserve", "huttes", "Dernier tour"],
    ("taluva", "cs"): ["Taluva", "Hráči", "v zásobě", "chýší", "Poslední tah"],
    ("java", "fr"): ["Java", "Joueurs", "Réserve", "cartes : M masque", "Vos cartes Fête"],
    ("java", "cs"): ["Java", "Hráči", "Zásoba", "karty: M maska", "Vaše slavnostní karty"],
    ("samurai", "fr"): ["Samouraï", "Joueurs", "Pions", "H parure", "Derrière votre paravent"],
    ("samurai", "cs"): ["Samuraj", "Hráči", "Figurky", "H přilba", "Za vaší zástěnou"],
}
ENGLISH = ["Players", "Last turn", "view of", "To act"]


@pytest.mark.parametrize("language", ["fr", "cs"])
@pytest.mark.parametrize("name", ["taluva", "java", "samurai"])
def test_a_picture_in_french_and_czech(name, language):
    view = cut(bot_game(name, 2, "languages"), 8).view(0)
    english, translated = render_png(view), render_png(view, language=language)
    assert translated.startswith(b"\x89PNG") and translated != english
    assert image(translated).size[0] == image(english).size[0]
    texts = " ".join(render_picture(view, language=language).texts())
    for word in EXPECTED[name, language]:
        assert word in texts, word
    assert not [word for word in ENGLISH if word in texts]


def test_terrain_names_follow_the_language():
    game = bot_game("taluva", 2, "languages")
    view = cut(game, 0).view(0)  # the first player holds a tile before laying it
    hand = view["state"]["tile_in_hand"]
    texts = {lang: render_picture(view, language=lang).texts() for lang in ("fr", "cs")}
    words = {"jungle": ("forêt", "džungle"), "clearing": ("prairie", "mýtina")}
    words |= {"sand": ("désert", "písek"), "rock": ("montagne", "skála"), "lake": ("lac", "jezero")}
    french, czech = words[hand["left"]]
    assert f"à gauche : {french}" in texts["fr"] and f"vlevo: {czech}" in texts["cs"]
    assert "Aucune tuile sur la table : le premier volcan se pose en 0,0" in texts["fr"]


def test_czech_counts_take_their_three_forms():
    view = cut(bot_game("taluva", 2, "languages"), 0).view(0)
    texts = render_picture(view, language="cs").texts()
    assert "v zásobě: 20 chýší · 3 chrámy · 2 věže" in texts
    assert "postaveno: 0 chýší · 0 chrámů · 0 věží" in texts


def test_samurai_tiles_behind_a_screen_are_named_in_the_readers_words():
    game = Game.new("samurai", ["Ann", "Bob"], seed="languages")
    game.play(0, "choose helmet4 buddha3 samurai2 ronin ship1")
    game.play(1, "choose helmet2 helmet3 rice2 ship1 ship1")
    view = game.view(0)
    texts = render_picture(view, language="cs").texts()
    assert "úvodní výběr: přilba4 buddha3 samuraj2 rónin loď1" in texts
    pile = next(t for t in texts if t.startswith("v hromádce: "))
    assert "helmet" not in pile and "přilba" in pile


@pytest.mark.parametrize(
    ("name", "language", "words", "english"),
    [
        ("samurai", "fr", ["total 10", "shogun parure", "hors shogunat 2"], ["outside"]),
        ("samurai", "cs", ["celkem 10", "šógun přilba", "mimo šógunát 2"], ["outside", "total"]),
        ("java", "cs", ["bot1: body 0"], ["bot1: points"]),
    ],
)
def test_the_final_scores_are_named_in_the_readers_words(name, language, words, english):
    game = bot_game(name, 2, "languages")
    said = " ".join(" ".join(render_picture(game.view(None), language=language).texts()).split())
    for word in words:
        assert word in said, word
    assert not [word for word in english if word in said]
