"""Where players hear of their games besides mail, on the settings page:
their webhooks (add, test, renew the secret, remove, the last deliveries and
what the receivers answered), their default choice of channels, and a
game's own choice (or mute) from its page."""

from __future__ import annotations

from typing import Any

from flask import current_app, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext

from pbem.models import User, WebhookFormat
from pbem.notify import hooks
from pbem.numbers import ID_CONVERTER
from pbem.services.errors import Invalid
from pbem.services.games import find_game
from pbem.services.notice_choices import CHANNELS, choice_for, choose
from pbem.web.common import db, me, page_blueprint, signed_in

bp = page_blueprint("notices")
CHANNEL_NAMES = {
    "mail": lazy_gettext("mail"),
    "push": lazy_gettext("browser notifications"),
    "webhooks": lazy_gettext("my webhooks"),
}
FORMAT_NAMES = {
    WebhookFormat.DISCORD: "Discord",
    WebhookFormat.SLACK: "Slack",
    WebhookFormat.MATRIX: "Matrix",
    WebhookFormat.JSON: lazy_gettext("JSON, signed (anything else)"),
}


def settings_page(user: User) -> dict[str, Any]:
    """What the settings page shows of the user's notices."""
    session = db()
    own = hooks.hooks_of(session, user)
    return {
        "webhooks": [(hook, hooks.recent_deliveries(session, hook)) for hook in own],
        "formats": FORMAT_NAMES,
        "channel_names": CHANNEL_NAMES,
        "default_choice": choice_for(session, user.id, None),
        "vapid_key": current_app.config.get("PBEM_VAPID_PUBLIC_KEY"),
    }


def game_choice(game_id: int) -> Any:
    """The signed-in player's choice for the game, for its page."""
    return choice_for(db(), _user().id, game_id)


def _user() -> User:
    user = me()
    assert user is not None
    return user


@bp.route("/settings/webhooks", methods=["POST"])
@signed_in
def add_webhook() -> ResponseReturnValue:
    """The new hook's secret; a refused one says why, with the form as typed."""
    try:
        hook, secret = hooks.add_hook(
            db(),
            _user(),
            request.form.get("url", "").strip(),
            request.form.get("format", ""),
            current_app.config,
        )
    except Invalid as refused:
        page = render_template(
            "webhook_refused.html", error=str(refused), typed=request.form, formats=FORMAT_NAMES
        )
        return page, 422
    db().commit()
    return render_template("webhook_secret.html", hook=hook, secret=secret)


@bp.route(f"/settings/webhooks/<{ID_CONVERTER}:hook_id>/secret", methods=["POST"])
@signed_in
def renew_secret(hook_id: int) -> str:
    hook = hooks.own_hook(db(), _user(), hook_id)
    secret = hooks.renew_secret(hook)
    db().commit()
    return render_template("webhook_secret.html", hook=hook, secret=secret)


@bp.route(f"/settings/webhooks/<{ID_CONVERTER}:hook_id>/test", methods=["POST"])
@signed_in
def test_webhook(hook_id: int) -> ResponseReturnValue:
    hooks.send_test(db(), hooks.own_hook(db(), _user(), hook_id))
    db().commit()
    return redirect(url_for("auth.settings", _anchor="webhooks"))


@bp.route(f"/settings/webhooks/<{ID_CONVERTER}:hook_id>/delete", methods=["POST"])
@signed_in
def remove_webhook(hook_id: int) -> ResponseReturnValue:
    hooks.remove_hook(db(), _user(), hook_id)
    db().commit()
    return redirect(url_for("auth.settings", _anchor="webhooks"))


@bp.route("/settings/notices", methods=["POST"])
@signed_in
def default_channels() -> ResponseReturnValue:
    choose(db(), _user().id, None, _chosen_channels())
    db().commit()
    return redirect(url_for("auth.settings", saved=1, _anchor="notices"))


@bp.route("/games/<game_id>/notices", methods=["POST"])
@signed_in
def game_channels(game_id: str) -> ResponseReturnValue:
    game = find_game(db(), game_id)
    choose(db(), _user().id, game.id, _chosen_channels(), muted=bool(request.form.get("muted")))
    db().commit()
    return redirect(url_for("play.game_page", game_id=game.public_id))


def _chosen_channels() -> set[str]:
    return {channel for channel in CHANNELS if request.form.get(channel)}
