"""A player's world: a bit of everything pbem may hold about a person (games
finished and going on, chat, tokens, mail in, webhooks and devices, a league
season), and the kinds of data an account's export holds."""

from __future__ import annotations

import uuid
from datetime import timedelta

from pbem.accounts.browsers import start_browser_session
from pbem.leagues.leagues import create_league, invite_entrant, join_league
from pbem.leagues.seasons import start_season
from pbem.mail import inbound
from pbem.models import NoticeChoice, PushSubscription, User, Webhook, WebhookDelivery
from pbem.services import accounts, chat
from tests import toy_game  # noqa: F401  (registers the toy ruleset)
from tests.server.pipeline_helpers import rivals

KINDS = (
    "account",
    "settings",
    "api_tokens",
    "sign_ins",
    "vacations",
    "games",
    "games_organised",
    "turns_sent",
    "mails_to_you",
    "mails_from_you",
    "ratings",
    "rating_changes",
    "leagues",
    "notices",
)


def unique(word: str) -> str:
    """A name no other test's rows hold, so a search for it finds only this test's."""
    return f"{word}{uuid.uuid4().hex[:6]}"


def mail_from(session, user: User, marker: str) -> None:
    raw = (
        f"From: {user.email}\r\nTo: play@localhost\r\nSubject: hello\r\n"
        f"Message-ID: <{uuid.uuid4().hex}@example.org>\r\n\r\n{marker}\r\n"
    ).encode()
    inbound.store(session, raw, "http", envelope_from=user.email.upper())  # as a client wrote it


def hears_elsewhere(session, user: User, game) -> None:
    """A webhook, a browser device and a choice for a game, each naming the user."""
    hook = Webhook(user=user, url=f"https://hooks.example.org/{user.name}", format="json")
    hook.secret = "s" * 64
    session.add(hook)
    session.add(
        PushSubscription(
            user_id=user.id, endpoint=f"https://push.example.org/{user.name}", p256dh="k", auth="a"
        )
    )
    session.add(NoticeChoice(user_id=user.id, game_id=game.id, push=False))
    session.flush()
    session.add(WebhookDelivery(webhook_id=hook.id, event="your_turn", payload={"to": user.name}))


def a_players_world(session, make_user):
    """Ann and Bob: a finished game and one going on, chat, tokens, sign-ins, mail in,
    and a league season Ann plays against Cem."""
    ann, bob, cem = make_user(unique("Ann")), make_user(unique("Bob")), make_user(unique("Cem"))
    done, going_on = rivals(session, ann, bob)
    for game, line in ((done, "ann-line"), (done, "bob-line"), (going_on, "ann-too")):
        writer = ann if line.startswith("ann") else bob
        seat = next(s for s in game.seats if s.user_id == writer.id)
        chat.post(session, seat, f"{line} {writer.name}", "web", 500)
    accounts.issue_api_token(session, ann, "ann-laptop")
    accounts.issue_api_token(session, bob, "bob-phone")
    for player in (ann, bob):
        start_browser_session(session, player.id, timedelta(days=365))
    for player in (ann, bob):
        hears_elsewhere(session, player, going_on)
    session.commit()
    mail_from(session, ann, "ann-raw-marker")
    mail_from(session, bob, "bob-raw-marker")
    league = create_league(session, bob, unique("Club"), "toy-pick", 2, {"target": 3})
    for player in (ann, cem):
        invite_entrant(session, league, bob, player.email, "https://pbem.test/league")
        join_league(session, league.public_id, player)
    season = start_season(session, league)
    session.commit()
    return ann, bob, cem, done, going_on, season
