"""Signing out: a browser's sign-out ends its sign-in for good, a copy of
its cookies included; "sign out everywhere" ends every browser's; a
suspension and a deletion end them all too. API tokens are apart."""

from __future__ import annotations

from sqlalchemy import func, select

from pbem.cli import main
from pbem.models import BrowserSession
from pbem.services.links import sign_in_token
from tests.server.csrf_browser import Browser
from tests.server.signed_in import by_link, copy_of, is_signed_in
from tests.server.suspending import post_while_suspending

SIGN_OUT_EVERYWHERE = {  # the settings' button, and the page after it
    "en": ("Sign out everywhere", "Signed out everywhere"),
    "fr": ("Se déconnecter partout", "Déconnecté partout"),
    "cs": ("Odhlásit se všude", "Odhlášeno všude"),
}


def test_a_cookie_jar_copied_before_sign_out_is_refused_after_it(app, session, make_user):
    ann = make_user("Ann")
    laptop, phone = by_link(app, session, ann), by_link(app, session, ann)
    jar = copy_of(app, laptop)
    remembered = copy_of(app, laptop, ("remember_token",))
    assert is_signed_in(jar) and is_signed_in(remembered)  # the copies work while it lasts
    assert laptop.post("/sign-out").status_code == 302
    assert not is_signed_in(laptop)
    assert not is_signed_in(copy_of(app, jar))  # the session cookie, as copied before
    assert not is_signed_in(copy_of(app, remembered, ("remember_token",)))
    assert is_signed_in(phone)  # her other browser stays signed in


def test_signing_out_everywhere_ends_every_browsers_session_and_remember_cookie(
    app, session, make_user, token_for, api
):
    ann = make_user("Ann")
    token = token_for(ann)
    laptop, phone = by_link(app, session, ann), by_link(app, session, ann)
    remembered = copy_of(app, phone, ("remember_token",))
    page = laptop.get("/settings").get_data(as_text=True)
    assert 'action="/settings/sign-out-everywhere"' in page
    done = laptop.post("/settings/sign-out-everywhere")
    assert done.status_code == 200 and "Signed out everywhere" in done.get_data(as_text=True)
    for browser in (laptop, phone, remembered):
        assert not is_signed_in(browser)
    assert api.call("exportAccount", token).status_code == 200  # tokens are revoked apart
    assert by_link(app, session, ann) is not None  # and she signs in again as ever


def test_sign_out_everywhere_speaks_the_readers_language(app, session, make_user):
    ann = make_user("Ann")
    for language, (button, done) in SIGN_OUT_EVERYWHERE.items():
        ann.language = language
        session.commit()
        browser = by_link(app, session, ann)
        assert button in browser.get("/settings").get_data(as_text=True), language
        assert done in browser.post("/settings/sign-out-everywhere").get_data(as_text=True)


def test_a_suspension_ends_every_sign_in_and_a_restore_brings_none_back(app, session, make_user):
    ann = make_user("Ann")
    browser = by_link(app, session, ann)
    remembered = copy_of(app, browser, ("remember_token",))
    runner = app.test_cli_runner()
    assert runner.invoke(main, ["user", "suspend", ann.email]).exit_code == 0
    assert not is_signed_in(copy_of(app, browser))
    assert runner.invoke(main, ["user", "restore", ann.email]).exit_code == 0
    assert not is_signed_in(browser)
    assert not is_signed_in(remembered)
    assert is_signed_in(by_link(app, session, ann))  # a new sign-in works again


def test_a_deletion_ends_every_sign_in_and_keeps_none(app, session, make_user):
    ann = make_user("Ann")
    browser = by_link(app, session, ann)
    remembered = copy_of(app, browser, ("remember_token",))
    deleted = app.test_cli_runner().invoke(main, ["user", "delete", ann.email, "--yes"])
    assert deleted.exit_code == 0, deleted.output
    assert not is_signed_in(browser) and not is_signed_in(remembered)
    session.expire_all()
    kept = select(func.count()).where(BrowserSession.user_id == ann.id)
    assert session.scalar(kept) == 0


def test_a_sign_in_that_waits_on_a_suspension_is_refused_for_good(postgres_only, make_user):
    """The link is followed while an administrator's suspension holds the
    account's lock: once the suspension commits, the sign-in is refused,
    and after a restore its browser is still signed in as nobody."""
    app = postgres_only
    ann = make_user("Ann")
    with app.app_context():
        path = f"/sign-in/{sign_in_token(ann.id, ann.signed_in_at)}"
    browser = Browser(app.test_client())
    browser.get(path)  # the confirmation page, before the suspension
    assert post_while_suspending(app, browser, path, ann.id).status_code == 403
    assert app.test_cli_runner().invoke(main, ["user", "restore", ann.email]).exit_code == 0
    assert not is_signed_in(browser)
