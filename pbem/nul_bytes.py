"""No text pbem keeps may hold a NUL character: PostgreSQL's text refuses it,
so an id or a message carrying one would fail deep in the driver. Checked once
for every request, before any view: a path with one names nothing (404); a
query, form or JSON body with one is refused (422) and nothing is kept."""

from __future__ import annotations

from typing import Any

from flask import Flask, abort, request
from flask_babel import gettext

NUL = "\x00"
FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")
# The HTTP mail door reads its body as raw mail; the mail pipeline judges that.
RAW_BODIES = ("mail_inbound",)


def holds_nul(value: Any) -> bool:
    """Whether a string, or any key or string inside lists and objects, holds NUL."""
    if isinstance(value, str):
        return NUL in value
    if isinstance(value, dict):
        return any(holds_nul(key) or holds_nul(item) for key, item in value.items())
    if isinstance(value, list | tuple):
        return any(holds_nul(item) for item in value)
    return False


def _refuse_nul() -> None:
    if NUL in request.path:
        abort(404)
    if request.blueprint in RAW_BODIES:
        return
    sent: list[Any] = list(request.args.items(multi=True))
    if request.mimetype in FORMS:
        sent += request.form.items(multi=True)
    elif request.is_json:
        sent.append(request.get_json(silent=True))
    if holds_nul(sent):
        abort(422, description=gettext("Text sent here may not hold a NUL character (\\0)."))


def init_app(app: Flask) -> None:
    """Call after the body cap is in place, so an oversized form is refused before it is read."""
    app.before_request(_refuse_nul)
