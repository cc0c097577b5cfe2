"""A delivery as its receiver reads it, written when it is sent, in its
hook owner's language and time zone: one sentence for people (the game's
title, whose turn, the deadline, the link) in the shape each service posts
(Discord, Slack, Matrix), or pbem's own JSON, signed.

The shapes are built here rather than by a notification library (Apprise
knows these services): such a library makes its own requests, which would
bypass the address checks, the pinned connection and the no-redirect rule
of pbem.notify.outbound; the bodies themselves are a few keys each."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

from flask_babel import gettext as _
from sqlalchemy.orm import Session

from pbem.i18n import in_language
from pbem.i18n.times import local_time
from pbem.leagues.links import league_link
from pbem.leagues.seasons import named
from pbem.models import Game, League, Season, Seat, Webhook, WebhookDelivery, WebhookFormat
from pbem.notify.queue import GAME_ENDED, MOVE, ROUND_STARTED, STANDINGS_CHANGED, TEST, YOUR_TURN
from pbem.services.links import absolute_url

SIGNATURE_HEADER = "X-Pbem-Signature"


@dataclass(frozen=True)
class Request:
    method: str
    url: str
    body: bytes
    headers: dict[str, str]


def request_for(session: Session, delivery: WebhookDelivery, now: int) -> Request:
    """`now`: the Unix time the signature states."""
    hook = delivery.webhook
    with in_language(hook.user.language):
        news = _news(session, delivery, hook)
    body: dict[str, Any]
    if hook.format == WebhookFormat.DISCORD:
        body = {"content": news["text"], "allowed_mentions": {"parse": []}}
    elif hook.format == WebhookFormat.SLACK:
        body = {"text": news["text"]}
    elif hook.format == WebhookFormat.MATRIX:
        body = {"msgtype": "m.text", "body": news["text"]}
        return _matrix(hook, delivery, _encoded(body))
    else:
        encoded = _encoded({"delivery": delivery.id, **news})
        headers = {SIGNATURE_HEADER: signature(hook.secret, now, encoded)}
        return Request("POST", hook.url, encoded, {**_JSON, **headers})
    return Request("POST", hook.url, _encoded(body), dict(_JSON))


_JSON = {"Content-Type": "application/json", "User-Agent": "pbem-webhooks"}


def _encoded(body: Mapping[str, Any]) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """`t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the time is signed
    too, so a receiver can refuse an old delivery played again."""
    signed = f"{timestamp}.".encode() + body
    digest = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def _matrix(hook: Webhook, delivery: WebhookDelivery, body: bytes) -> Request:
    """PUT to the room with a transaction id of the delivery's own, so a retry
    after a lost answer is not posted twice; the token goes in a header."""
    parts = urlsplit(hook.url)
    query = parse_qs(parts.query)
    token = query.pop("access_token")[0]
    path = f"{parts.path}/pbem-{delivery.id}"
    url = urlunsplit((parts.scheme, parts.netloc, path, urlencode(query, doseq=True), ""))
    headers = {**_JSON, "Authorization": f"Bearer {token}"}
    return Request("PUT", url, body, headers)


def _news(session: Session, delivery: WebhookDelivery, hook: Webhook) -> dict[str, Any]:
    """The event, what it is about (game, league, the seats to act and their
    deadlines) and a sentence saying it."""
    payload = delivery.payload
    news: dict[str, Any] = {"event": delivery.event}
    if delivery.event == TEST:
        return {**news, "text": _("A test from pbem: this webhook works.")}
    if delivery.event == ROUND_STARTED:
        season = session.get_one(Season, payload["season"])
        text = _(
            "Round %(round)d of %(league)s has started (division %(division)d): %(link)s",
            round=payload["round"],
            league=season.league.name,
            division=payload["division"],
            link=league_link(season.league),
        )
        where = {"division": payload["division"], "round": payload["round"]}
        return {**news, "league": _league(season.league), **where, "text": text}
    game = session.get_one(Game, payload["game"])
    about: dict[str, Any] = {
        "game": _game(game),
        "to_act": [_seat(s, hook) for s in _to_act(game, payload)],
    }
    link, title = about["game"]["link"], about["game"]["title"]
    if delivery.event == YOUR_TURN:
        seat = about["to_act"][0]
        text = _(
            "Your turn in %(game)s (%(seat)s), %(due)s: %(link)s",
            game=title,
            seat=seat["player"],
            due=seat["due"],
            link=link,
        )
    elif delivery.event == MOVE:
        waiting = ", ".join(f"{s['player']} ({s['due']})" for s in about["to_act"])
        text = _(
            "%(player)s moved in %(game)s; now to play: %(waiting)s. %(link)s",
            player=_player(_seat_at(game, payload["mover"])),
            game=title,
            waiting=waiting or "-",
            link=link,
        )
    elif delivery.event == GAME_ENDED:
        text = (
            _("%(game)s was abandoned: %(link)s", game=title, link=link)
            if payload.get("abandoned")
            else _("%(game)s is over: %(link)s", game=title, link=link)
        )
        about["to_act"] = []
    else:
        assert delivery.event == STANDINGS_CHANGED and game.season is not None
        league = game.season.league
        text = _(
            "The standings of %(league)s changed: %(link)s",
            league=league.name,
            link=league_link(league),
        )
        about = {**about, "league": _league(league), "to_act": []}
    return {**news, **about, "text": text}


def _to_act(game: Game, payload: Mapping[str, Any]) -> list[Seat]:
    return [_seat_at(game, position) for position in payload.get("seats", [])]


def _seat_at(game: Game, position: int) -> Seat:
    return next(seat for seat in game.seats if seat.position == position)


def _player(seat: Seat) -> str:
    if seat.user is not None:
        return seat.user.name
    return seat.name or seat.bot or seat.colour


def _game(game: Game) -> dict[str, Any]:
    return {
        "id": game.public_id,
        "title": named(game),
        "link": absolute_url("play.game_page", game_id=game.public_id),
    }


def _league(league: League) -> dict[str, Any]:
    return {"id": league.public_id, "name": league.name, "link": league_link(league)}


def _seat(seat: Seat, hook: Webhook) -> dict[str, Any]:
    """Seats count from 0, as in the API; the deadline in the owner's zone too."""
    deadline = seat.timeout_at
    due = (
        _("due %(time)s", time=local_time(deadline, hook.user.time_zone))
        if deadline is not None
        else _("no deadline")
    )
    return {
        "seat": seat.position,
        "player": _player(seat),
        "deadline": deadline.isoformat() if deadline is not None else None,
        "due": due,
    }
