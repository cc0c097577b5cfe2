"""Browser notifications: a device's subscription made by the settings
page's script (pbem/web/static/push.js) and the service worker that shows
what pbem pushes, served from the site's root so it may act for every page."""

from __future__ import annotations

from typing import Any

from flask import current_app, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from pbem.notify import push
from pbem.services.errors import Invalid
from pbem.web.common import db, me, page_blueprint, signed_in, site

bp = page_blueprint("push")


def _subscription() -> tuple[str, dict[str, Any]]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not isinstance(body.get("endpoint"), str):
        raise Invalid(_("not a push subscription"))
    keys = body.get("keys")
    return body["endpoint"], keys if isinstance(keys, dict) else {}


@bp.route("/push/subscribe", methods=["POST"])
@signed_in
def subscribe() -> ResponseReturnValue:
    endpoint, keys = _subscription()
    if not isinstance(keys.get("p256dh"), str) or not isinstance(keys.get("auth"), str):
        raise Invalid(_("not a push subscription"))
    user = me()
    assert user is not None
    push.subscribe(db(), user, endpoint, keys["p256dh"], keys["auth"], current_app.config)
    db().commit()
    return {"subscribed": True}, 201


@bp.route("/push/unsubscribe", methods=["POST"])
@signed_in
def unsubscribe() -> ResponseReturnValue:
    endpoint, _keys = _subscription()
    user = me()
    assert user is not None
    push.unsubscribe(db(), user, endpoint)
    db().commit()
    return {"subscribed": False}


@bp.route("/push-worker.js")
def service_worker() -> ResponseReturnValue:
    answer = site.send_static_file("push-worker.js")
    answer.headers["Cache-Control"] = "no-cache"
    return answer
