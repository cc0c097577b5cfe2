"""What browsers are told to refuse (flask-talisman): scripts, styles and
connections from anywhere but this site, being framed by another site (the
resign and abandon buttons cannot be clicked through a disguise), guessing a
file's type, and the full address in the Referer sent elsewhere. The session
and remember-me cookies stay on this site (SameSite=Lax) and travel over
https only when the site is served over https (PBEM_BASE_URL). What is
answered to someone signed in (a cookie or a token) is not stored by the
browser or a proxy unless the route says otherwise: settings, exports and a
seat's view of a game are that person's alone."""

from __future__ import annotations

from flask import Flask, Response, current_app, request, session
from flask_talisman import Talisman

CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",  # the pages' own files; no inline script, no eval
    "style-src": "'self'",
    # The seat colours' dots carry their colour in a style attribute (markup
    # only; an attribute cannot load anything or run script).
    "style-src-attr": "'unsafe-inline'",
    "img-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def init_app(app: Flask) -> Talisman:
    app.after_request(_not_stored_when_personal)
    secure = (app.config["PBEM_BASE_URL"] or "").startswith("https://")
    app.config["REMEMBER_COOKIE_SECURE"] = secure
    app.config["REMEMBER_COOKIE_SAMESITE"] = "Lax"
    return Talisman(
        app,
        # nginx sends http to https (deploy/nginx); the embedded server has only http.
        force_https=False,
        session_cookie_secure=secure,
        session_cookie_samesite="Lax",
        frame_options="DENY",
        content_security_policy=CONTENT_SECURITY_POLICY,
        referrer_policy="strict-origin-when-cross-origin",
        # nginx sends Strict-Transport-Security itself (deploy/nginx/pbem.conf).
        strict_transport_security=False,
    )


def _not_stored_when_personal(response: Response) -> Response:
    """Flask-Login keeps the signed-in user under _user_id in the session, and
    a remember cookie may sign one in; the API's callers send a token."""
    personal = (
        "_user_id" in session
        or current_app.config.get("REMEMBER_COOKIE_NAME", "remember_token") in request.cookies
        or "Authorization" in request.headers
    )
    if personal and "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = "no-store"
    return response
