"""The pages of playing and organising a game, and the API's refusals, in the
reader's language: the one chosen in the settings, else the browser's."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from pbem.models import GameEvent
from pbem.services.games import SeatSpec
from tests.server.clock.helpers import organised_game
from tests.server.openapi_client import OpenApiClient
from tests.server.pipeline_helpers import judged, send, start_game
from tests.server.web.page_helpers import created_game, taluva_against


def text(response) -> str:
    return response.get_data(as_text=True)


@pytest.fixture
def french(make_user, session):
    """A player who chose French in the settings."""
    user = make_user("Amélie")
    user.language = "fr"
    session.commit()
    return user


def czech_browser(signed_in_as, user):
    """A player who chose nothing, whose browser asks for Czech."""
    browser = signed_in_as(user)
    browser.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "cs,en;q=0.5"
    return browser


def test_the_game_page_in_french_and_czech(app, session, make_user, french, signed_in_as):
    game = taluva_against(app, session, french)
    page = text(signed_in_as(french).get(f"/games/{game.public_id}"))
    assert "<h2>Votre coup</h2>" in page
    assert "Coups, un par ligne" in page and "Coups possibles (" in page
    assert "Obtenir une nouvelle adresse e-mail" in page
    assert "Your move" not in page
    assert "coup 0 sur 0" in page and "%(" not in page  # every placeholder filled
    assert "tuiles restant dans la pioche" in page  # the text board's lines too
    assert "<dt>tuile en main</dt>" in page  # what only the player sees, named too

    jan = make_user("Jan")
    game = taluva_against(app, session, jan)
    page = text(czech_browser(signed_in_as, jan).get(f"/games/{game.public_id}"))
    assert "<h2>Váš tah</h2>" in page
    assert "Tahy, jeden na řádek" in page and "Možné tahy (" in page
    assert '<span class="tag">vy</span>' in page and "tah 0 z 0" in page
    assert "dílky zbývající" in page
    assert "<dt>dílek v ruce</dt>" in page


def test_the_game_and_watch_pages_link_how_to_write_moves(app, session, french, signed_in_as):
    game = taluva_against(app, session, french)
    page = text(signed_in_as(french).get(f"/games/{game.public_id}"))
    link = '<a href="/help/taluva?lang=fr" id="notation-link">Comment écrire les coups</a>'
    assert link in page
    watch = app.test_client().get(
        f"/games/{game.public_id}/watch", headers={"Accept-Language": "cs"}
    )
    assert '<a href="/help/taluva?lang=cs" id="notation-link">Jak zapisovat tahy</a>' in text(watch)


def test_an_illegal_move_is_refused_on_a_page_in_the_readers_language(
    app, session, make_user, french, signed_in_as
):
    game = taluva_against(app, session, french)
    refused = signed_in_as(french).post(
        f"/games/{game.public_id}/submit", {"moves": "hut 2,-1", "ply": "0"}
    )
    assert refused.status_code == 422
    page = text(refused)
    assert "puis construisez [tour : tuile, puis construction]" in page
    assert "<h2>Votre coup</h2>" in page

    jan = make_user("Jan")
    game = taluva_against(app, session, jan)
    refused = czech_browser(signed_in_as, jan).post(
        f"/games/{game.public_id}/submit", {"moves": "hut 2,-1", "ply": "0"}
    )
    assert refused.status_code == 422
    page = text(refused)
    assert "nejdřív položte dílek, pak stavte" in page
    assert "<h2>Váš tah</h2>" in page


def test_the_new_game_form_in_french_and_czech(make_user, french, signed_in_as):
    browser = signed_in_as(french)
    form = text(browser.get("/games/new/taluva"))
    assert "<h1>Nouvelle partie de Taluva</h1>" in form
    assert "tuiles utilisées à 2 joueurs (24 ou 36)" in form  # an option of the engine's
    assert "Jours par coup (1–30)" in form and ">un bot : fort</option>" in form
    assert "Commencer la partie" in form
    assert "Quel jeu ?" in text(browser.get("/games/new"))

    czech = czech_browser(signed_in_as, make_user("Jan"))
    form = text(czech.get("/games/new/samurai"))
    assert "<h1>Nová hra Samuraj</h1>" in form
    assert "Místa (2–4 hráči, v pořadí hry)" in form
    refused = czech.post(
        "/games/new/taluva", {"seat-0": "me", "seat-1": "bot:random", "clock": "on"}
    )
    assert refused.status_code == 422
    assert "počet dnů na tah musí být celé číslo od 1 do 30" in text(refused)


def test_the_organiser_pages_in_french_and_czech(app, session, make_user, french, signed_in_as):
    bob = make_user("Bob")
    game = organised_game(app, session, french, [SeatSpec(user=french), SeatSpec(user=bob)])
    browser = signed_in_as(french)
    page = text(browser.get(f"/games/{game.public_id}"))
    assert "<h2>Organisateur</h2>" in page and "Mettre la partie en pause" in page
    # Ending the game is not resigning from it ("Abandonner…", beside it).
    assert "Mettre fin à la partie…" in page and "Abandonner la partie" not in page
    confirm = text(browser.get(f"/games/{game.public_id}/organiser/abandon"))
    assert "Mettre fin à cette partie de Taluva ?" in confirm
    assert "Oui, mettre fin à la partie" in confirm

    jan = make_user("Jan")
    game = organised_game(app, session, jan, [SeatSpec(user=jan), SeatSpec(user=bob)])
    czech = czech_browser(signed_in_as, jan)
    page = text(czech.get(f"/games/{game.public_id}"))
    assert "<h2>Organizátor</h2>" in page and "Pozastavit hru" in page
    confirm = text(czech.get(f"/games/{game.public_id}/organiser/hand-to-bot?position=1"))
    assert "Předat místo hráče Bob botovi?" in confirm
    refused = czech.post(f"/games/{game.public_id}/organiser/extend", {"position": "1"})
    assert refused.status_code == 422
    assert "zadejte prodloužení jako celý počet dnů, od 1 do 30" in text(refused)


def test_an_api_refusal_speaks_the_accept_language(app, make_user, session):
    from pbem.services import accounts

    token = accounts.issue_api_token(session, make_user("Ann"), "tests")
    session.commit()
    api = OpenApiClient(app.test_client())
    game = api.call(
        "createGame", token, {"ruleset": "taluva", "seats": ["me", "bot:random"]}
    ).get_json()
    seat = {"game_id": game["id"], "position": 0}

    api.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "fr"
    wrong = api.call("submitMoves", token, {"moves": ["hut 0,0"]}, **seat)
    assert wrong.status_code == 422
    body = wrong.get_json()
    assert (
        body["message"]
        == "posez d'abord votre tuile, puis construisez [tour : tuile, puis construction]"
    )
    assert body["errors"]["code"] == "taluva.tile_first"  # the machine's words stay

    api.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "cs"
    missing = api.call("getGame", token, game_id="no-such-game")
    assert missing.status_code == 404
    assert missing.get_json()["message"] == "taková hra neexistuje"

    api.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    wrong = api.call("submitMoves", token, {"moves": ["hut 0,0"]}, **seat)
    assert wrong.get_json()["message"] == "first lay your tile, then build [turn: tile, then build]"


def test_a_new_games_default_names_are_in_its_creators_language(
    session, make_user, french, signed_in_as
):
    browser = signed_in_as(french)
    game = created_game(
        session, browser.post("/games/new/taluva", {"seat-0": "me", "seat-1": "bot:random"})
    )
    assert game.title == "Taluva, partie de Amélie"
    assert [seat.name for seat in game.seats] == ["Amélie", "Robot 2"]


def test_an_organisers_action_is_told_in_each_readers_language(
    app, session, make_user, french, signed_in_as
):
    jan = make_user("Jan")
    game = organised_game(app, session, french, [SeatSpec(user=french), SeatSpec(user=jan)])
    organiser = signed_in_as(french)
    assert (
        organiser.post(
            f"/games/{game.public_id}/organiser/extend", {"position": "0", "days": "2"}
        ).status_code
        == 302
    )
    page = text(organiser.get(f"/games/{game.public_id}"))
    assert "Amélie (organisateur) a accordé 2\xa0jours de plus à Amélie pour ce coup." in page
    page = text(czech_browser(signed_in_as, jan).get(f"/games/{game.public_id}"))
    assert "Amélie (organizátor) přidal(a) hráči Amélie na tento tah 2 dny." in page
    # The event keeps its English too, for what reads it without a language.
    event = session.scalar(select(GameEvent).where(GameEvent.game_id == game.id))
    assert event.text == "Amélie (organiser) gave Amélie 2 days more for this move."


def test_a_refused_api_body_is_summed_up_in_the_readers_language(app, make_user, session):
    from marshmallow import Schema, fields

    from pbem.api import schemas
    from pbem.api.validation_texts import MARSHMALLOW_MESSAGES
    from pbem.services import accounts

    token = accounts.issue_api_token(session, make_user("Ann"), "tests")
    session.commit()
    refused = app.test_client().post(
        "/api/v1/games",
        json={"seats": "me", "colour": 1},
        headers={"Authorization": f"Bearer {token}", "Accept-Language": "fr"},
    )
    assert refused.status_code == 422
    message = refused.get_json()["message"]
    assert "ruleset: Champ obligatoire manquant." in message
    assert "seats: Ce n'est pas une liste valide." in message
    assert "Missing data" in str(refused.get_json()["errors"])  # for programs, as marshmallow says
    # Every fixed message of the field kinds our schemas use is in the catalogues.
    used = {
        type(field)
        for schema in vars(schemas).values()
        if isinstance(schema, type) and issubclass(schema, Schema) and schema is not Schema
        for field in schema().fields.values()
    }
    known = {str(message) for message in MARSHMALLOW_MESSAGES}
    for kind in used | {fields.Field}:
        for cls in kind.__mro__:
            for text in getattr(cls, "default_error_messages", {}).values():
                assert "{" in text or text in known, (kind.__name__, text)


def test_the_vacation_page_names_the_mail_commands_in_the_readers_words(french, signed_in_as):
    page = text(signed_in_as(french).get("/vacation"))
    assert "<code>vacances 7</code>" in page and "<code>retour</code>" in page


def test_what_only_the_player_sees_names_samurai_tiles_in_their_words(
    app, session, french, signed_in_as
):
    game = start_game(app, session, "samurai", [french, "bot"])
    browser = signed_in_as(french)
    page = text(browser.get(f"/games/{game.public_id}"))
    assert "<dt>main</dt><dd>aucune</dd>" in page  # nothing chosen yet: no tile
    chosen = send(app, session, game, 0, "choose helmet4 buddha3 samurai2 ronin ship1")
    assert judged(app, chosen.id).status == "accepted"
    page = text(browser.get(f"/games/{game.public_id}"))
    assert "<dt>main</dt><dd>parure4, bouddha3, samouraï2, chevalier, bateau1</dd>" in page
