"""A player's account as a whole: download everything pbem holds about them,
delete the account after confirming by a mailed link, and read what is kept."""

from __future__ import annotations

import json

from flask import Response, current_app, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import logout_user

from pbem.accounts.deletion import delete_account
from pbem.accounts.export import export_account
from pbem.db import get_db
from pbem.i18n import current_language
from pbem.models import User
from pbem.services import notifications
from pbem.services.links import BadLink, delete_account_url, read_delete_account_token
from pbem.web.common import db, me, page_blueprint, signed_in

bp = page_blueprint("account")


@bp.route("/settings/export")
@signed_in
def export() -> ResponseReturnValue:
    """One JSON file, the same as the API's GET /api/v1/account/export."""
    user = me()
    assert user is not None
    body = json.dumps(export_account(db(), user), ensure_ascii=False, indent=2)
    return Response(
        body,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="pbem-account-{user.id}.json"'},
    )


@bp.route("/settings/delete", methods=["POST"])
@signed_in
def ask_deletion() -> str:
    """Nothing is deleted yet: a link goes to the account's address, so only
    whoever reads that mail can confirm."""
    user = me()
    assert user is not None
    notifications.notify_delete_account(db(), user, delete_account_url(user), current_language())
    db().commit()
    return render_template("account_deletion_sent.html", email=user.email)


@bp.route("/account/delete/<token>", methods=["GET", "POST"])
def confirm_deletion(token: str) -> ResponseReturnValue:
    """GET only asks, so a mail scanner opening the link deletes nothing."""
    try:
        user = _linked_user(token)
    except BadLink as exc:
        return render_template("bad_link.html", message=str(exc)), 400
    if request.method == "GET":
        return render_template("account_deletion_confirm.html", email=user.email)
    delete_account(db(), user)
    db().commit()
    get_db().forget_old_pages()
    logout_user()
    return render_template("account_deleted.html")


@bp.route("/privacy")
def privacy() -> str:
    """What is kept, why and for how long, with the settings that decide it."""
    return render_template("privacy.html", config=current_app.config)


def _linked_user(token: str) -> User:
    user_id, email = read_delete_account_token(token)
    user = db().get(User, user_id)
    if user is None or user.deleted_at is not None or user.email != email:
        raise BadLink(_("this account is deleted already"))
    return user
