"""Leagues driven through the API as their players would: a league with
invited entrants who join with their own tokens, and league games played to
their end by those players, move by move from the legal-moves API."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask

from tests.server.conftest import drain
from tests.server.openapi_client import OpenApiClient

# (the game's JSON, the seat's position, its legal moves) -> the move to send
Choose = Callable[[dict[str, Any], int, list[str]], str]


def league_with(
    api: OpenApiClient, organiser: str, players: dict[str, tuple[Any, str]], **settings: Any
) -> str:
    """A league made by `organiser`'s token; `players` (name: (user, token))
    are invited by address and join. Returns the league's id."""
    body = {"name": "Club", "ruleset": "toy-pick", "players_per_game": 2, **settings}
    created = api.call("createLeague", organiser, body)
    assert created.status_code == 201, created.get_json()
    league_id = created.get_json()["id"]
    for user, token in players.values():
        invited = api.call("inviteEntrant", organiser, {"email": user.email}, league_id=league_id)
        assert invited.status_code == 201, invited.get_json()
        assert api.call("joinLeague", token, league_id=league_id).status_code == 200
    return league_id


def play_games(
    app: Flask,
    api: OpenApiClient,
    game_ids: list[str],
    watcher: str,
    tokens: dict[str, str],
    choose: Choose,
    turns: int = 400,
) -> dict[str, dict[str, Any]]:
    """Every player (by seat name in `tokens`) sends one move whenever it is
    their turn, then the worker judges them (and the bots), until every game is
    over. `watcher` (an organiser's token) reads the games. Returns their JSON."""
    for _ in range(turns):
        games = {g: api.call("getGame", watcher, game_id=g).get_json() for g in game_ids}
        going = [game for game in games.values() if game["status"] != "finished"]
        if not going:
            return games
        for game in going:
            for seat in game["seats"]:
                if seat["position"] in game["to_act"] and seat["kind"] == "user":
                    _move(api, game, seat["position"], tokens[seat["name"]], choose)
        drain(app)
    raise AssertionError(f"the games did not end within {turns} turns")


def play_season(
    app: Flask,
    api: OpenApiClient,
    league_id: str,
    season: int,
    watcher: str,
    tokens: dict[str, str],
    choose: Choose,
) -> dict[str, Any]:
    """Play every game of the season, round after round as each starts, until
    the season is over. Returns the season's JSON."""
    for _ in range(20):
        found = api.call("getSeason", watcher, league_id=league_id, season=season).get_json()
        if found["finished_at"] is not None:
            return found
        started = [
            game["game"]
            for division in found["divisions"]
            for round_ in division["rounds"]
            for game in round_
            if game["game"] is not None
        ]
        play_games(app, api, started, watcher, tokens, choose)
    raise AssertionError(f"season {season} did not end")


def _move(
    api: OpenApiClient, game: dict[str, Any], position: int, token: str, choose: Choose
) -> None:
    where = {"game_id": game["id"], "position": position}
    legal = api.call("getLegalMoves", token, **where).get_json()["moves"]
    sent = api.call("submitMoves", token, {"moves": [choose(game, position, legal)]}, **where)
    assert sent.status_code == 202, sent.get_json()


def picks_by_order(order: list[str]) -> Choose:
    """For toy-pick: the seat whose player comes first in `order` picks 3, the
    other 1, so the earlier name wins every game."""

    def choose(game: dict[str, Any], position: int, legal: list[str]) -> str:
        names = [seat["name"] for seat in game["seats"]]
        mine = names[position]
        best = min(names, key=lambda name: order.index(name) if name in order else len(order))
        return "pick 3" if mine == best else "pick 1"

    return choose
