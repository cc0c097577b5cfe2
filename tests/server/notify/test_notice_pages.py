"""The settings page's webhooks and channels, and a game's own choice, as a
signed-in player uses them."""

from __future__ import annotations

import re
from html import unescape

import pytest

from pbem.models import Outbox
from pbem.services.notice_choices import choice_for
from tests.server.conftest import drain, wait_for
from tests.server.pipeline_helpers import judged, send, start_game


def test_a_hook_is_added_tested_and_removed_from_the_settings_page(
    app,
    make_user,
    signed_in_as,
    receiver,
):
    ann = make_user("Ann")
    page = signed_in_as(ann)
    assert 'id="webhooks"' in page.get("/settings").get_data(as_text=True)
    added = page.post("/settings/webhooks", {"url": receiver.url + "/room", "format": "slack"})
    secret = re.search(r'id="webhook-secret"><code>([0-9a-f]{64})<', added.get_data(as_text=True))
    assert added.status_code == 200 and secret
    html = page.get("/settings").get_data(as_text=True)
    assert secret.group(1) not in html  # shown once
    hook_id = re.search(r"/settings/webhooks/(\d+)/test", html).group(1)
    receiver.answer = b"thanks, room"
    assert page.post(f"/settings/webhooks/{hook_id}/test").status_code == 302
    wait_for(lambda: receiver.requests, what="the test")
    drain(app)
    html = page.get("/settings").get_data(as_text=True)
    assert 'class="delivery"' in html and "200" in html
    assert "thanks, room" not in html  # the receiver's words are never read back
    page.post(f"/settings/webhooks/{hook_id}/delete")
    assert f"/settings/webhooks/{hook_id}/test" not in page.get("/settings").get_data(as_text=True)


@pytest.mark.parametrize(
    ("language", "url", "why"),
    [
        ("en", "http://169.254.169.254/latest/meta-data", "a link-local address"),
        ("en", "http://127.0.0.1:9/hook", "leads back to the server itself (loopback)"),
        ("en", "http://[64:ff9b::a00:1]/hook", "in a private network"),
        ("en", "ftp://chat.example.org/hook", "does not start with http:// or https://"),
        ("en", "http://chat.invalid/hook", "its name does not resolve"),
        ("en", "http://[2001:db8::1]/hook", "not a public address"),
        ("fr", "http://169.254.169.254/latest/meta-data", "une adresse lien-local"),
        ("fr", "http://10.1.2.3/hook", "elle est dans un réseau privé"),
        ("cs", "http://127.0.0.1:9/hook", "vede zpět na tento server"),
    ],
)
def test_a_refused_address_says_why_in_the_readers_language_and_keeps_the_form(
    session, make_user, signed_in_as, language, url, why
):
    ann = make_user("Ann")
    ann.language = language
    session.commit()
    page = signed_in_as(ann)
    page.get("/settings")
    refused = page.post("/settings/webhooks", {"url": url, "format": "slack"})
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422
    said = re.search(r'id="webhook-refused">([^<]*)<', html).group(1)
    assert why in unescape(said), said
    assert f'name="url" type="url" maxlength="2000" required value="{url}"' in html
    assert '<option value="slack" selected>' in html
    again = page.post("/settings/webhooks", {"url": url, "format": "slack"})
    assert again.status_code == 422  # the page's form posts again as it is


def test_a_muted_game_sends_no_turn_mail_and_the_default_choice_holds_elsewhere(
    app,
    session,
    make_user,
    signed_in_as,
):
    ann, bob = make_user("Ann"), make_user("Bob")
    page = signed_in_as(bob)
    page.get("/settings")
    page.post("/settings/notices", {"mail": "on", "webhooks": "on"})
    default = choice_for(session, bob.id, None)
    assert (default.mail, default.push, default.webhooks) == (True, False, True)
    game = start_game(app, session, "toy-pick", [ann, bob])
    page.get(f"/games/{game.public_id}")
    page.post(f"/games/{game.public_id}/notices", {"mail": "on", "muted": "on"})
    assert choice_for(session, bob.id, game.id).muted
    before = _turn_mails(session, bob)
    judged(app, send(app, session, game, 0, "pick 1").id)
    assert _turn_mails(session, bob) == before


def _turn_mails(session, user):
    session.expire_all()
    return session.query(Outbox).filter_by(recipient_id=user.id, kind="your_turn").count()
