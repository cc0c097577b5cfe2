"""The JSON API, driven through its own OpenAPI document."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from pbem.models import ApiToken, Move, Submission, User
from tests.server.conftest import drain, wait_for
from tests.server.openapi_client import OpenApiClient
from tests.server.pipeline_helpers import FESTIVAL_AFTER_A_DRAW, PALACE_TURN, java_ann_first


@pytest.fixture
def two_players(make_user, token_for, api):
    """Ann creates a toy game with an open seat, Bob joins it."""
    ann, bob = make_user("Ann"), make_user("Bob")
    ann_token, bob_token = token_for(ann), token_for(bob)
    created = api.call("createGame", ann_token, {"ruleset": "toy-pick", "seats": ["me", "open"]})
    assert created.status_code == 201
    game_id = created.get_json()["id"]
    joined = api.call("joinGame", bob_token, {}, game_id=game_id)
    assert joined.get_json()["status"] == "active", joined.get_json()
    return game_id, ann_token, bob_token


def moves_stored(session, public_id: str) -> int:
    from pbem.models import Game

    session.expire_all()
    game_id = session.scalar(select(Game.id).where(Game.public_id == public_id))
    return session.scalar(select(func.count()).select_from(Move).where(Move.game_id == game_id))


def test_openapi_document_is_valid_and_names_every_operation(api):
    assert set(api.operations) == {
        "listRulesets",
        "listGames",
        "createGame",
        "getGame",
        "joinGame",
        "getSeatView",
        "getLegalMoves",
        "submitMoves",
        "getSubmission",
        "resignSeat",
        "listChat",
        "removeChatLine",
        "postChat",
        "getSettings",
        "exportAccount",
        "updateSettings",
        "extendDeadline",
        "pauseGame",
        "resumeGame",
        "handSeatToBot",
        "chooseStandIn",
        "replacePlayer",
        "abandonGame",
        "listEvents",
        "getGameRecord",
        "getVacation",
        "startVacation",
        "endVacation",
        "getPlayer",
        "newCalendarAddress",
        "createLeague",
        "getLeague",
        "inviteEntrant",
        "setEntrantDivision",
        "addLeagueOrganiser",
        "chooseLeagueStandIn",
        "joinLeague",
        "leaveLeague",
        "startSeason",
        "getSeason",
        "getStandings",
        "withdrawEntrant",
        "replaceEntrant",
        "getSeasonStandings",
        "getSeasonStandingsCsv",
        "getSeasonRecords",
        "listWebhooks",
        "addWebhook",
        "removeWebhook",
        "testWebhook",
        "renewWebhookSecret",
    }
    assert set(api.document["webhooks"]) == {"delivery"}
    assert api.document["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"


def test_rulesets_are_listed_without_a_token(api):
    names = {r["name"] for r in api.call("listRulesets").get_json()}
    assert "toy-pick" in names


def test_requests_without_a_valid_token_get_401(api):
    assert api.call("listGames").status_code == 401
    assert api.call("listGames", "pbem_not-a-token").status_code == 401


def test_create_game_with_bots_starts_it_at_once(api, make_user, token_for):
    token = token_for(make_user("Ann"))
    seats = ["me", "bot:random", "bot"]  # Ann moves first: the medium bot waits
    created = api.call("createGame", token, {"ruleset": "taluva", "seats": seats})
    body = created.get_json()
    assert body["status"] == "active"
    assert [s["kind"] for s in body["seats"]] == ["user", "bot", "bot"]
    assert [s["bot_level"] for s in body["seats"]] == [None, "random", "medium"]
    assert body["stand_in"] == "random"  # the tests' PBEM_STAND_IN
    assert body["seats"][0]["mine"] is True
    listed = api.call("listGames", token).get_json()
    assert body["id"] in {g["id"] for g in listed}


def test_create_game_refuses_unknown_games_and_bad_options(api, make_user, token_for):
    token = token_for(make_user("Ann"))
    unknown = api.call("createGame", token, {"ruleset": "chess", "seats": ["me", "bot:random"]})
    assert unknown.status_code == 422
    assert "unknown game 'chess'" in unknown.get_json()["message"]
    bad = api.call(
        "createGame",
        token,
        {"ruleset": "toy-pick", "seats": ["me", "bot:random"], "options": {"target": 4}},
    )
    assert bad.status_code == 422
    assert "option target must be one of 3, 5, 7" in bad.get_json()["message"]
    too_many = api.call(
        "createGame", token, {"ruleset": "toy-pick", "seats": ["me"] + ["bot:random"] * 3}
    )
    assert "takes 2 to 3 players, not 4" in too_many.get_json()["message"]


def test_seat_view_and_legal_moves(api, two_players):
    game_id, ann, _ = two_players
    view = api.call("getSeatView", ann, game_id=game_id, position=0).get_json()
    assert view["view"]["viewer"] == 0
    assert view["view"]["to_act"] == [0, 1]
    assert "seed" not in view["view"]
    legal = api.call("getLegalMoves", ann, game_id=game_id, position=0).get_json()
    assert legal["moves"] == ["pick 1", "pick 2", "pick 3"]


def test_submitted_moves_are_applied_by_the_worker(app, api, two_players, session):
    game_id, ann, _ = two_players
    sent = api.call("submitMoves", ann, {"moves": ["pick 2"]}, game_id=game_id, position=0)
    assert sent.status_code == 202
    submission_id = sent.get_json()["id"]
    assert sent.headers["Location"].endswith(f"/submissions/{submission_id}")

    def accepted() -> bool:
        answer = api.call(
            "getSubmission", ann, game_id=game_id, position=0, submission_id=submission_id
        )
        return answer.get_json()["status"] == "accepted"

    wait_for(accepted, what="the submission to be accepted")
    history = api.call("getSeatView", ann, game_id=game_id, position=0).get_json()
    assert history["view"]["history"] == [{"seat": 0, "move": "pick 2"}]
    assert history["ply"] == 1
    assert moves_stored(session, game_id) == 1


def test_moves_chosen_at_an_older_ply_are_refused_not_applied(app, api, two_players, session):
    game_id, ann, bob = two_players
    assert api.call("getSeatView", ann, game_id=game_id, position=0).get_json()["ply"] == 0
    sent = api.call(
        "submitMoves", ann, {"moves": ["pick 2"], "ply": 0}, game_id=game_id, position=0
    )
    assert sent.status_code == 202
    drain(app)
    stale = api.call(
        "submitMoves", bob, {"moves": ["pick 1"], "ply": 0}, game_id=game_id, position=1
    )
    assert (stale.status_code, stale.get_json()["message"]) == (
        409,
        "the game moved on since you chose these moves (then 0 moves, now 1):"
        " look at the position and send your turn again",
    )
    fresh = api.call(
        "submitMoves", bob, {"moves": ["pick 1"], "ply": 1}, game_id=game_id, position=1
    )
    assert fresh.status_code == 202
    drain(app)
    assert moves_stored(session, game_id) == 2


def test_illegal_move_gets_422_with_the_engines_reason_and_nothing_is_stored(
    api, two_players, session
):
    game_id, ann, _ = two_players
    answer = api.call("submitMoves", ann, {"moves": ["pick 7"]}, game_id=game_id, position=0)
    assert answer.status_code == 422
    assert answer.get_json()["message"] == "you may pick 1, 2 or 3, not 7 [picks]"
    malformed = api.call("submitMoves", ann, {"moves": ["hop"]}, game_id=game_id, position=0)
    assert malformed.status_code == 422
    assert malformed.get_json()["message"] == "write 'pick N', not 'hop'"
    assert moves_stored(session, game_id) == 0
    assert (
        session.scalar(
            select(func.count())
            .select_from(Submission)
            .where(Submission.raw_text.in_(["pick 7", "hop"]))
        )
        == 0
    )


def test_double_click_sends_one_move_and_says_why_not_twice(app, api, two_players, session):
    game_id, ann, _ = two_players
    body = {"moves": ["pick 1"]}
    first = api.call("submitMoves", ann, body, game_id=game_id, position=0)
    second = api.call("submitMoves", ann, body, game_id=game_id, position=0)
    assert first.status_code == 202
    assert second.status_code == 409
    assert second.get_json()["message"] in (
        "your previous submission is still being processed",
        "it is not your turn (waiting for Bob) [turn order]",
    )
    drain(app)
    third = api.call("submitMoves", ann, body, game_id=game_id, position=0)
    assert third.status_code == 409
    assert third.get_json()["message"] == "it is not your turn (waiting for Bob) [turn order]"
    assert moves_stored(session, game_id) == 1


def test_strangers_get_the_same_404_as_for_a_game_that_does_not_exist(
    api, two_players, make_user, token_for
):
    game_id, ann, _ = two_players
    stranger = token_for(make_user("Eve"))
    for token, gid in ((stranger, game_id), (ann, "no-such-game")):
        answer = api.call("getGame", token, game_id=gid)
        assert (answer.status_code, answer.get_json()["message"]) == (404, "no such game")
        view = api.call("getSeatView", token, game_id=gid, position=0)
        assert (view.status_code, view.get_json()["message"]) == (404, "no such game")
    assert api.call("joinGame", stranger, {}, game_id=game_id).status_code == 404


def test_a_player_cannot_use_another_players_seat(api, two_players):
    game_id, ann, _ = two_players
    for operation in ("getSeatView", "getLegalMoves"):
        answer = api.call(operation, ann, game_id=game_id, position=1)
        assert (answer.status_code, answer.get_json()["message"]) == (404, "no such seat")
    sent = api.call("submitMoves", ann, {"moves": ["pick 1"]}, game_id=game_id, position=1)
    assert sent.status_code == 404


def test_joining_twice_or_a_full_game_is_a_conflict(api, two_players, make_user, token_for):
    game_id, _, bob = two_players
    assert api.call("joinGame", bob, {}, game_id=game_id).status_code == 409


def test_open_game_waits_for_players(api, make_user, token_for):
    ann = token_for(make_user("Ann"))
    game = api.call("createGame", ann, {"ruleset": "toy-pick", "seats": ["me", "open"]}).get_json()
    assert game["status"] == "open"
    answer = api.call("getLegalMoves", ann, game_id=game["id"], position=0)
    assert answer.status_code == 409
    assert answer.get_json()["message"] == "the game has not started: it is waiting for players"


def test_errors_outside_the_api_are_not_json(app):
    answer = app.test_client().get("/no-such-page")
    assert answer.status_code == 404
    assert answer.mimetype == "text/html"


def test_a_taluva_turn_against_a_bot_through_the_api(app, api, make_user, token_for):
    ann = token_for(make_user("Ann"))
    game = api.call(
        "createGame", ann, {"ruleset": "taluva", "seats": ["me", "bot:random"]}
    ).get_json()
    seat = {"game_id": game["id"], "position": 0}
    assert game["to_act"] == [0]
    wrong = api.call("submitMoves", ann, {"moves": ["hut 0,0"]}, **seat)
    assert wrong.status_code == 422
    assert wrong.get_json()["message"] == "first lay your tile, then build [turn: tile, then build]"
    tile = api.call("getLegalMoves", ann, **seat).get_json()["moves"][0]
    half = api.call("submitMoves", ann, {"moves": [tile, "hut 9,9"]}, **seat)
    assert half.status_code == 422
    assert api.call("getSeatView", ann, **seat).get_json()["view"]["history"] == []

    sent = api.call("submitMoves", ann, {"moves": [tile]}, **seat).get_json()
    wait_for(lambda: _status(api, ann, seat, sent["id"]) == "accepted", what="the tile")
    build = api.call("getLegalMoves", ann, **seat).get_json()["moves"][0]
    assert api.call("submitMoves", ann, {"moves": [build]}, **seat).status_code == 202

    def ann_again() -> list:
        view = api.call("getSeatView", ann, **seat).get_json()["view"]
        return view["to_act"] == [0] and len(view["history"]) > 2 and view["history"]

    history = wait_for(ann_again, what="the bot's answer")
    assert [h["move"] for h in history[:2]] == [tile, build]
    assert {h["seat"] for h in history[2:]} == {1}


def _status(api: OpenApiClient, token: str, seat: dict, submission_id: int) -> str:
    answer = api.call("getSubmission", token, submission_id=submission_id, **seat)
    return answer.get_json()["status"]


def test_requests_in_one_long_app_context_share_no_user_or_session(
    app, make_user, token_for, session
):
    """A pre-forking server may keep one app context open for many requests."""
    ann, bob = make_user("Ann"), make_user("Bob")
    ann_token, bob_token = token_for(ann), token_for(bob)
    with app.app_context():
        api = OpenApiClient(app.test_client())
        game = api.call(
            "createGame", ann_token, {"ruleset": "toy-pick", "seats": ["me", "open"]}
        ).get_json()
        assert api.call("getGame", bob_token, game_id=game["id"]).get_json()["seats"][1][
            "kind"
        ] == ("open")
        api.call("joinGame", bob_token, {}, game_id=game["id"])
        seats = api.call("getGame", bob_token, game_id=game["id"]).get_json()["seats"]
        assert [(s["kind"], s["mine"]) for s in seats] == [("user", False), ("user", True)]


def test_settings_are_read_and_changed_through_the_api(api, make_user, token_for, session):
    ann = make_user("Ann")
    token = token_for(ann)
    assert api.call("getSettings", token).get_json() == {
        "email": ann.email,
        "name": "Ann",
        "time_zone": "UTC",
        "language": None,  # not chosen: pages follow the browser
        "moved_mail": "each",
        "quiet_hours": None,  # the tests' users have none
        "reminder_hours": 24,
        "digest_hour": None,
        "league_digest_day": 0,  # Monday
        "league_digest_hour": 18,
        "calendar_url": f"http://localhost/calendar/{ann.calendar_token}.ics",
    }
    chosen = api.call("updateSettings", token, {"language": "cs"})
    assert chosen.status_code == 200 and chosen.get_json()["language"] == "cs"
    unset = api.call("updateSettings", token, {"language": None})
    assert unset.status_code == 200 and unset.get_json()["language"] is None
    refused = api.call("updateSettings", token, {"language": "de"})
    assert refused.status_code == 422
    changed = api.call("updateSettings", token, {"time_zone": "Asia/Tokyo", "moved_mail": "never"})
    assert changed.status_code == 200
    assert changed.get_json()["time_zone"] == "Asia/Tokyo" and changed.get_json()["name"] == "Ann"
    session.expire_all()
    assert (session.get(User, ann.id).time_zone, session.get(User, ann.id).moved_mail) == (
        "Asia/Tokyo",
        "never",
    )


def test_settings_refuse_unknown_time_zones_and_choices(api, make_user, token_for, session):
    ann = make_user("Ann")
    token = token_for(ann)
    zone = api.call("updateSettings", token, {"time_zone": "Mars/Olympus", "name": "Anna"})
    assert (
        zone.status_code == 422 and "unknown time zone 'Mars/Olympus'" in zone.get_json()["message"]
    )
    assert api.call("updateSettings", token, {"moved_mail": "daily"}).status_code == 422
    broken = api.call("updateSettings", token, {"name": "Anna\r\nBcc: all@x.test"})
    assert broken.status_code == 422
    assert "may not contain control characters" in broken.get_json()["message"]
    assert api.call("updateSettings", token, {"email": "x@example.org"}).status_code == 422
    assert api.call("updateSettings", None, {"name": "Anna"}).status_code == 401
    session.expire_all()
    assert session.get(User, ann.id).name == "Ann"  # nothing of a refused change is kept


def test_invite_only_games_are_listed_for_nobody_else(api, make_user, token_for, session):
    from pbem.services.games import SeatSpec, create_game

    ann = make_user("Ann")
    game = create_game(
        session, ann, "toy-pick", [SeatSpec(user=ann), SeatSpec(invite="friend-7@example.org")]
    )
    session.commit()
    eve = token_for(make_user("Eve"))
    assert game.public_id not in {g["id"] for g in api.call("listGames", eve).get_json()}
    assert api.call("getGame", eve, game_id=game.public_id).status_code == 404
    assert api.call("joinGame", eve, {}, game_id=game.public_id).status_code == 404
    mine = {g["id"] for g in api.call("listGames", token_for(ann)).get_json()}
    assert game.public_id in mine


def test_resigning_through_the_api_hands_the_seat_to_a_bot(api, two_players, session):
    from pbem.models import Outbox

    game_id, ann, bob = two_players
    assert api.call("resignSeat", bob, game_id=game_id, position=0).status_code == 404
    answer = api.call("resignSeat", ann, game_id=game_id, position=0)
    assert answer.status_code == 200
    assert answer.get_json()["seats"][0]["kind"] == "bot"
    assert answer.get_json()["seats"][0]["resigned"] is True
    again = api.call("resignSeat", ann, game_id=game_id, position=0)
    assert (again.status_code, again.get_json()["message"]) == (
        409,
        "this seat has no player to resign",
    )
    told = session.scalars(select(Outbox).where(Outbox.kind == "seat_resigned"))
    assert game_id in {row.payload["game"] for row in told}


def test_chat_is_kept_with_the_game_and_mailed_to_the_other_player(
    app, api, two_players, session, make_user, token_for
):
    from pbem.models import ChatMessage, Outbox

    game_id, ann, bob = two_players
    sent = api.call("postChat", ann, {"text": "  Good luck!  "}, game_id=game_id)
    assert sent.status_code == 201
    assert (sent.get_json()["readers"], sent.get_json()["summary"]) == (
        1,
        "Sent to 1 other player.",
    )
    listed = api.call("listChat", bob, game_id=game_id).get_json()
    assert [(m["seat"], m["name"], m["text"], m["channel"]) for m in listed] == [
        (0, "Ann", "Good luck!", "api")
    ]
    mailed = session.scalars(select(Outbox).where(Outbox.kind == "chat"))
    assert [
        (row.payload["from"], row.payload["text"])
        for row in mailed
        if row.payload["game"] == game_id
    ] == [("Ann", "Good luck!")]
    app.config["PBEM_CHAT_MAX_CHARS"] = 10
    try:
        long = api.call("postChat", ann, {"text": "x" * 11}, game_id=game_id)
    finally:
        app.config["PBEM_CHAT_MAX_CHARS"] = 500
    assert long.status_code == 422
    assert long.get_json()["message"] == "a chat message holds at most 10 characters, not 11"
    assert api.call("postChat", ann, {"text": "   "}, game_id=game_id).status_code == 422
    stranger = token_for(make_user("Eve"))
    assert api.call("postChat", stranger, {"text": "hi"}, game_id=game_id).status_code == 404
    assert api.call("listChat", stranger, game_id=game_id).status_code == 404
    session.expire_all()
    assert len(list(session.scalars(select(ChatMessage).where(ChatMessage.text != "")))) >= 1
    assert [m["text"] for m in api.call("listChat", ann, game_id=game_id).get_json()] == [
        "Good luck!"
    ]


def test_chat_against_bots_only_says_that_bots_do_not_read_it(api, make_user, token_for):
    ann = token_for(make_user("Ann"))
    game = api.call(
        "createGame", ann, {"ruleset": "toy-pick", "seats": ["me", "bot:random"]}
    ).get_json()
    sent = api.call("postChat", ann, {"text": "anyone?"}, game_id=game["id"]).get_json()
    assert sent["readers"] == 0 and "bots do not read chat" in sent["summary"]


def test_the_document_says_seat_positions_count_from_0(api):
    assert "Seats are numbered from 0 here" in api.document["info"]["description"]


def test_the_check_never_refuses_a_move_because_of_what_a_draw_gives(
    app, api, make_user, token_for, session
):
    """With the deck's real top card (M) Ann's festival after the draw is
    illegal: a 422 would tell her the card and let her not draw."""
    ann = make_user("Ann")
    token = token_for(ann)
    game = java_ann_first(app, session, ann)
    seat = {"game_id": game.public_id, "position": 1}
    sent = api.call("submitMoves", token, {"moves": list(FESTIVAL_AFTER_A_DRAW)}, **seat)
    assert sent.status_code == 202, sent.get_json()
    wait_for(lambda: _status(api, token, seat, sent.get_json()["id"]) == "partial", what="judging")
    answer = api.call("getSubmission", token, submission_id=sent.get_json()["id"], **seat)
    assert "not played festival B3 P" in answer.get_json()["reason"]
    view = api.call("getSeatView", token, **seat).get_json()["view"]
    assert [h["move"] for h in view["history"]] == [*PALACE_TURN, "draw deck"]
    assert view["state"]["hand"] == ["M", "D", "MP", "DP"]


def test_a_tokens_last_use_is_kept_to_the_minute_not_written_on_every_request(
    api, make_user, token_for, session
):
    # No frozen clock here: the app's worker threads share this process's clock.
    ann = make_user("Ann")
    token = token_for(ann)
    row = session.scalar(select(ApiToken).where(ApiToken.user_id == ann.id))

    def last_use():
        session.refresh(row)
        return row.last_used_at

    assert api.call("listGames", token).status_code == 200
    first = last_use()
    assert first is not None
    assert api.call("listGames", token).status_code == 200
    assert last_use() == first  # a read within the minute writes nothing
    row.last_used_at = first - timedelta(minutes=2)
    session.commit()
    assert api.call("listGames", token).status_code == 200
    assert last_use() >= first  # over a minute old: written again
