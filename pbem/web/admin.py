"""The administrators' page: a role of an account (`pbem user admin EMAIL`),
not an app of its own. Failed and held mail (a failed one sent again), turns
no worker has judged, and what was refused lately."""

from __future__ import annotations

from flask import current_app, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from pbem.models import User, utcnow
from pbem.numbers import ID_CONVERTER
from pbem.services.errors import Forbidden
from pbem.services.server_watch import hand_on_mail, resend, watch
from pbem.web.common import db, me, page_blueprint, signed_in

bp = page_blueprint("admin")


def _administrator() -> User:
    user = me()
    if user is None or not user.is_admin:
        raise Forbidden(_("only an administrator may see this page"))
    return user


@bp.route("/admin")
@signed_in
def overview() -> str:
    _administrator()
    stale = current_app.config["PBEM_STALE_SUBMISSION_SECONDS"]
    return render_template("admin.html", watch=watch(db(), utcnow(), stale))


@bp.route(f"/admin/mail/<{ID_CONVERTER}:outbox_id>/resend", methods=["POST"])
@signed_in
def resend_mail(outbox_id: int) -> ResponseReturnValue:
    _administrator()
    again = resend(db(), outbox_id)
    db().commit()
    if again:
        hand_on_mail(current_app.extensions["celery"], outbox_id)
    return redirect(url_for("admin.overview", resent=outbox_id if again else None))
