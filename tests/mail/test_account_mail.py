"""Mail about an account as a whole: the link that confirms a deletion, in
the reader's language, and an administrator's resend of a failed mail, which
goes out once however often it is asked for."""

from __future__ import annotations

import pytest

from pbem.models import Outbox, OutboxStatus
from pbem.services import notifications
from tests.mail.helpers import text_of
from tests.server.conftest import drain, wait_for
from tests.server.csrf_browser import Browser
from tests.server.signed_in import sign_in

pytestmark = pytest.mark.parametrize("rig", ["sqlite"], indirect=True)


@pytest.mark.parametrize(
    ("language", "subject", "words"),
    [
        (None, "Delete your pbem account?", "This cannot be undone."),
        ("fr", "Supprimer votre compte pbem ?", "C'est irréversible."),
        ("cs", "Smazat váš účet pbem?", "Nelze to vrátit zpět."),
    ],
)
def test_the_deletion_link_comes_in_the_readers_language(
    rig, session, make_user, language, subject, words
):
    ann = make_user("Ann")
    ann.language = language
    notifications.notify_delete_account(session, ann, "http://pbem.test/account/delete/x", None)
    session.commit()
    mail = rig.capture.take(lambda m: m["To"].addresses[0].addr_spec == ann.email)
    assert str(mail["Subject"]) == subject
    assert words in text_of(mail) and "http://pbem.test/account/delete/x" in text_of(mail)


def signed_in(app, user) -> Browser:
    return Browser(sign_in(app, app.test_client(), user.id))


def test_an_administrators_resend_sends_a_failed_mail_once(rig, session, make_user):
    ann, root = make_user("Ann"), make_user("Root")
    root.is_admin = True
    failed = Outbox(
        recipient_id=ann.id,
        kind=notifications.SIGN_IN,
        payload={"link": "http://pbem.test/resent"},
        status=OutboxStatus.FAILED,
        attempts=300,
    )
    failed.last_error = "gave up after 300 attempts: down"
    session.add(failed)
    session.commit()
    drain(rig.app)
    admin = signed_in(rig.app, root)
    admin.get("/admin")
    first = admin.post(f"/admin/mail/{failed.id}/resend")
    second = admin.post(f"/admin/mail/{failed.id}/resend")  # a second press, at once
    assert first.status_code == second.status_code == 302
    assert f"resent={failed.id}" in first.headers["Location"]
    mail = rig.capture.take(lambda m: "http://pbem.test/resent" in text_of(m))
    assert mail["To"].addresses[0].addr_spec == ann.email

    def sent() -> bool:
        session.expire_all()
        return session.get(Outbox, failed.id).status == OutboxStatus.SENT

    wait_for(sent, what="the resent mail to be marked sent")
    admin.post(f"/admin/mail/{failed.id}/resend")  # a sent mail is not sent again
    drain(rig.app)
    assert not [m for m in rig.capture.messages if "http://pbem.test/resent" in text_of(m)]
    assert session.get(Outbox, failed.id).attempts == 1
