"""The account, club and league pages in the reader's language: French and
Czech readers get the home page, sign-in, settings, a league and a season
(with its table, balance, game titles and numbers) in their own words, and
the league API's refusals in the language the client asks for."""

from __future__ import annotations

import pytest

from pbem.leagues.leagues import create_league
from pbem.leagues.seasons import start_season
from pbem.models import User
from tests.server.leagues.season_play import league_of, play_out

# A few words each page says in each language.
HOME = {"fr": ["Mes parties", "Lancer une nouvelle partie"], "cs": ["Moje hry", "Začít novou hru"]}
SIGN_IN = {
    "fr": ["Pas de mot de passe", "M'envoyer un lien de connexion"],
    "cs": ["Žádné heslo", "Poslat mi přihlašovací odkaz"],
}
SETTINGS = {
    "fr": ["Vos réglages", "Heures de calme", "lundi</option>"],
    "cs": ["Vaše nastavení", "Klidové hodiny", "pondělí</option>"],
}
LEAGUE = {
    "fr": ["2 joueurs par partie", "Inscrits", "Saison 1</a>", "Barème"],
    "cs": ["2 hráči na hru", "Účastníci", "Sezóna 1</a>", "Bodování"],
}
SEASON = {
    "fr": [
        "Club – Saison 1",
        "<h2>Classement</h2>",
        "Chaque inscrit joue 2 parties",
        "Club – Saison 1 – Journée 1 – Partie 1",
        "<td>1½</td>",
        "1 phase, toutes les parties en même temps.",
    ],
    "cs": [
        "Club – Sezóna 1",
        "<h2>Tabulka</h2>",
        "Každý účastník hraje 2 hry",
        "Club – Sezóna 1 – Kolo 1 – Hra 1",
        "<td>1½</td>",
        "1× každý s každým, všechny hry najednou.",
    ],
}


def page(browser, url: str) -> str:
    answer = browser.get(url)
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def speaks(language: str, user: User, session) -> User:
    user.language = language
    session.commit()
    return user


@pytest.mark.parametrize("language", ["fr", "cs"])
def test_the_sign_in_page_follows_the_browser(app, language):
    client = app.test_client()
    shown = client.get("/sign-in", headers={"Accept-Language": language}).get_data(as_text=True)
    assert all(words in shown for words in SIGN_IN[language])
    assert "No password" not in shown


@pytest.mark.parametrize("language", ["fr", "cs"])
def test_home_and_settings_in_the_chosen_language(signed_in_as, make_user, session, language):
    browser = signed_in_as(speaks(language, make_user("Ann"), session))
    home, settings = page(browser, "/"), page(browser, "/settings")
    assert all(words in home for words in HOME[language]) and "My games" not in home
    assert all(words in settings for words in SETTINGS[language])
    assert "Quiet hours" not in settings


@pytest.mark.parametrize("language", ["fr", "cs"])
def test_a_settings_refusal_is_in_the_chosen_language(signed_in_as, make_user, session, language):
    browser = signed_in_as(speaks(language, make_user("Ann"), session))
    refused = browser.post("/settings", {"name": "Ann", "time_zone": "Mars/Olympus"})
    assert refused.status_code == 422
    expected = {"fr": "fuseau horaire inconnu", "cs": "neznámé časové pásmo"}[language]
    assert expected in refused.get_data(as_text=True)


@pytest.mark.parametrize("language", ["fr", "cs"])
def test_a_league_and_its_season_in_the_chosen_language(session, make_user, signed_in_as, language):
    _owner, league, (ann, _bob, cem) = league_of(
        session, make_user, ["Ann", "Bob", "Cem"], points=["3/2", "0"]
    )
    season = start_season(session, league)
    session.commit()
    game = next(g for g in season.games if ann.id in {s.user_id for s in g.seats})
    play_out(session, game, ann.id)
    browser = signed_in_as(speaks(language, cem, session))
    shown = page(browser, f"/leagues/{league.public_id}")
    assert all(words in shown for words in LEAGUE[language]), shown
    table = page(browser, f"/leagues/{league.public_id}/seasons/1")
    assert all(words in table for words in SEASON[language]), table
    assert "Each entrant plays" not in table and "Round 1" not in table
    # The game keeps its title in English, whoever reads it; its page and
    # the API rebuild it in the reader's language.
    assert game.title.startswith("Club – Season 1 – Round")
    own = next(g for g in season.games if cem.id in {s.user_id for s in g.seats})
    heading = page(browser, f"/games/{own.public_id}").split("<h1>", 1)[1].split("</h1>")[0]
    assert heading.startswith(SEASON[language][0]), heading


def test_a_rating_is_written_with_the_reader_s_decimal_comma(signed_in_as, make_user, session):
    _owner, league, (ann, bob) = league_of(session, make_user, ["Ann", "Bob"])
    season = start_season(session, league)
    session.commit()
    play_out(session, season.games[0], ann.id)
    shown = page(signed_in_as(speaks("fr", bob, session)), f"/players/{bob.id}")
    assert "Cotes" in shown and "sur 2" in shown  # "2e sur 2"
    rating = shown.split('<td class="rating">', 1)[1].split("</td>", 1)[0]
    assert "," in rating and "." not in rating


@pytest.mark.parametrize(
    ("language", "refusal"),
    [("fr", "ligue inconnue"), ("cs", "taková liga neexistuje"), ("en", "no such league")],
)
def test_a_league_api_refusal_follows_accept_language(
    app,
    make_user,
    token_for,
    language,
    refusal,
):
    token = token_for(make_user("Ann"))
    answer = app.test_client().get(
        "/api/v1/leagues/no-such-league",
        headers={"Authorization": f"Bearer {token}", "Accept-Language": language},
    )
    assert answer.status_code == 404
    assert answer.get_json()["message"] == refusal


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "(tiles used with 2 players (24 or 36): 36)"),
        ("fr", "(tuiles utilisées à 2 joueurs (24 ou 36) : 36)"),
        ("cs", "(počet dílků při hře 2 hráčů (24 nebo 36): 36)"),
    ],
)
def test_the_league_page_says_its_options_in_words(
    session, make_user, signed_in_as, language, said
):
    owner = speaks(language, make_user("Org"), session)
    league = create_league(session, owner, "Club", "taluva", 2, {"tiles": 36, "ranking": False})
    session.commit()
    shown = page(signed_in_as(owner), f"/leagues/{league.public_id}")
    assert "tiles: 36" not in shown and "ranking: False" not in shown  # not the raw options
    assert said in shown


def test_the_season_page_says_how_a_game_ended_in_the_readers_words(
    session, make_user, signed_in_as
):
    _owner, league, (ann, _bob) = league_of(session, make_user, ["Ann", "Bob"])
    season = start_season(session, league)
    session.commit()
    game = season.games[0]
    play_out(session, game, ann.id)
    # As a Taluva game keeps the engine's result when its tiles run out.
    game.result = {**game.result, "reason": "no tiles left"}
    session.commit()
    shown = page(signed_in_as(speaks("cs", ann, session)), f"/leagues/{league.public_id}/seasons/1")
    assert "nezbyly žádné dílky" in shown and "no tiles left" not in shown
