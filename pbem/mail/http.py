"""The HTTP door: POST raw MIME to /mail/inbound with `Authorization: Bearer
PBEM_INBOUND_TOKEN` (for a mail host that pipes mail to curl, or a relay
service's webhook). Without the setting the endpoint does not exist."""

from __future__ import annotations

import hmac

from flask import Blueprint, abort, current_app, request
from flask_babel import lazy_gettext

from pbem.db import get_db
from pbem.mail.inbound import receive
from pbem.ratelimit import Rate, limited

blp = limited(Rate("PBEM_MAIL_INBOUND_LIMIT", lazy_gettext("Too many mails posted")))(
    Blueprint("mail_inbound", __name__)
)


@blp.post("/mail/inbound")
def inbound() -> tuple[dict[str, object], int]:
    secret = current_app.config.get("PBEM_INBOUND_TOKEN")
    if not secret:
        abort(404)
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    if not hmac.compare_digest(given.encode(), secret.encode()):
        abort(401)
    raw = request.get_data(cache=False)  # at most PBEM_MAIL_MAX_BYTES (pbem.ratelimit)
    if not raw:
        abort(400)
    with get_db().session() as session:
        row = receive(
            session,
            current_app.extensions["celery"],
            raw,
            "http",
            envelope_from=request.args.get("sender"),
            envelope_to=request.args.getlist("recipient"),
        )
        if row is None:
            return {"stored": False, "reason": "duplicate Message-ID"}, 200
        return {"stored": True, "id": row.id}, 202
