"""What the API takes is bounded, and its OpenAPI document says so: every
whole number sent has a minimum and a maximum the database can hold (a larger
one was a 500), the lengths and minimums the server enforces are stated, the
X-Pagination header is documented as the JSON text it is, a body the document
requires must be sent, and a 405 names the methods allowed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from openapi_schema_validator import OAS31Validator

from pbem.numbers import MAX_ID
from pbem.services import accounts
from tests.server.openapi_client import OpenApiClient


@pytest.fixture
def api(app) -> OpenApiClient:
    return OpenApiClient(app.test_client())


@pytest.fixture
def token(session, make_user) -> str:
    issued = accounts.issue_api_token(session, make_user("Ann"), "tests")
    session.commit()
    return issued


def numbers_sent(api: OpenApiClient) -> Iterator[tuple[str, dict[str, Any]]]:
    """(where, schema) of every integer a request carries: path, query, body."""

    def walk(where: str, schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
        types = schema.get("type", [])
        if "integer" in (
            [types] if isinstance(types, str) else types
        ):  # 3.1: or ["integer", "null"]
            yield where, schema
        for inner in schema.get("anyOf", []):
            yield from walk(where, inner)
        for name, inner in schema.get("properties", {}).items():
            yield from walk(f"{where}.{name}", inner)
        if "items" in schema:
            yield from walk(f"{where}[]", schema["items"])

    for operation_id, (_, _, operation) in api.operations.items():
        operation = api._resolve(operation)
        for parameter in operation.get("parameters", []):
            yield from walk(f"{operation_id} {parameter['name']}", parameter["schema"])
        body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
        yield from walk(f"{operation_id} body", body.get("schema", {}))


def test_every_number_sent_is_bounded_in_the_document(api):
    found = dict(numbers_sent(api))
    assert "createLeague body.promotion" in found
    unbounded = [
        where
        for where, schema in found.items()
        if "enum" not in schema
        and not ("minimum" in schema and schema.get("maximum", MAX_ID + 1) <= MAX_ID)
    ]
    assert unbounded == []


def test_the_document_states_what_the_server_enforces(api):
    def body(operation_id: str) -> dict[str, Any]:
        operation = api._resolve(api.operations[operation_id][2])
        return operation["requestBody"]["content"]["application/json"]["schema"]["properties"]

    assert body("createGame")["version"]["minimum"] == 1
    assert body("postChat")["text"]["minLength"] == 1
    assert body("inviteEntrant")["email"]["minLength"] == 1
    assert body("setEntrantDivision")["division"]["minimum"] == 1
    assert body("startVacation")["days"]["minimum"] == 1
    points = body("createLeague")["points_table"]
    assert (points["minItems"], points["maxItems"]) == (2, 4)
    assert not OAS31Validator(points).is_valid([None, None])
    clock = OAS31Validator(body("createGame")["time_control"])
    assert clock.is_valid(None) and clock.is_valid({"days_per_move": 3})
    assert not clock.is_valid({})  # "or null", not "or any object"


@pytest.mark.parametrize("number", [2**31, 2**63, 10**30])
def test_a_number_too_large_for_the_database_is_refused(api, token, number):
    league = {"name": "Club", "ruleset": "taluva", "players_per_game": 2, "divisions": 2}
    refused = api.call("createLeague", token, {**league, "promotion": number})
    assert refused.status_code == 422
    assert "promotion" in refused.get_json()["message"]
    assert api.call("listGames", token, query={"page": number}).status_code == 422


def test_x_pagination_is_documented_as_the_json_text_it_is(api, token):
    answer = api.call("listGames", token)
    documented = api._resolve(api.operations["listGames"][2])["responses"]["200"]["headers"]
    header = documented["X-Pagination"]["schema"]
    OAS31Validator(header).validate(answer.headers["X-Pagination"])
    assert "total" in json.loads(answer.headers["X-Pagination"])


def test_a_required_body_must_be_sent_and_an_optional_one_may_be_left_out(
    app, api, session, make_user, token
):
    client = app.test_client()
    auth = {"Authorization": f"Bearer {token}"}
    missing = client.patch("/api/v1/settings", headers=auth)
    assert missing.status_code == 422
    assert "JSON body" in missing.get_json()["message"]
    assert client.patch("/api/v1/settings", json={}, headers=auth).status_code == 200
    bob = accounts.issue_api_token(session, make_user("Bob"), "tests")
    session.commit()
    game = api.call("createGame", bob, {"ruleset": "taluva", "seats": ["me", "open"]})
    joined = client.post(f"/api/v1/games/{game.get_json()['id']}/join", headers=auth)
    assert joined.status_code == 200
    assert api.operations["joinGame"][2]["requestBody"]["required"] is False
    assert api.operations["updateSettings"][2]["requestBody"]["required"] is True


def test_a_method_not_allowed_names_those_that_are(app):
    answer = app.test_client().put("/api/v1/games")
    assert answer.status_code == 405
    assert set(answer.headers["Allow"].split(", ")) >= {"GET", "POST"}
    assert answer.is_json


@pytest.mark.parametrize("number", [2.5890419884777833e-42, 1.5, "3", True])
def test_a_whole_number_in_a_body_must_be_one(app, token, number):
    auth = {"Authorization": f"Bearer {token}"}
    answer = app.test_client().patch(
        "/api/v1/settings", json={"league_digest_hour": number}, headers=auth
    )
    assert answer.status_code == 422
    assert "league_digest_hour" in answer.get_json()["message"]


@pytest.mark.parametrize("flag", [0, 1, "yes", "off"])
def test_a_true_or_false_in_a_body_must_be_one(api, token, flag):
    league = {"name": "Club", "ruleset": "taluva", "players_per_game": 2, "open": flag}
    assert api.call("createLeague", token, league).status_code == 422
    clock = {"days_per_move": 3, "weekends_off": flag}
    game = {"ruleset": "taluva", "seats": ["me", "bot:random"], "time_control": clock}
    assert api.call("createGame", token, game).status_code == 422


def test_a_write_without_a_token_is_refused_before_its_body_is_read(app):
    client = app.test_client()
    bad_league = {"name": "Club", "points_table": [None, None]}
    assert client.post("/api/v1/leagues", json=bad_league).status_code == 401
    assert client.patch("/api/v1/settings").status_code == 401
    assert client.get("/api/v1/rulesets").status_code == 200  # reading the rules is public
