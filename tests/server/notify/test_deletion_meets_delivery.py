"""An account deleted while a worker records what its webhook's receiver
answered (a fresh-clone run found PostgreSQL's "deadlock detected" between
the two): both take the hook's row before its deliveries', so one waits for
the other and neither is cancelled."""

from __future__ import annotations

import threading

from sqlalchemy import text

from pbem.accounts.deletion import delete_account
from pbem.models import DeliveryStatus, User, Webhook, WebhookDelivery, utcnow
from pbem.notify import deliver
from pbem.notify.queue import TEST
from tests.server.conftest import wait_for
from tests.server.postgres_locks import blocked_by


def test_a_deletion_waits_for_a_delivery_answer_being_recorded(app, session, make_user):
    ann = make_user("Ann")
    hook = Webhook(user_id=ann.id, url="https://hooks.example.org/a", format="json", secret="s")
    session.add(hook)
    session.flush()
    answered = WebhookDelivery(
        webhook_id=hook.id,
        event=TEST,
        payload={},
        next_attempt_at=utcnow(),
        status=DeliveryStatus.SENDING,
        attempts=1,  # counted before the request, in a transaction of its own
    )
    session.add(answered)
    session.commit()
    hook_id, delivery_id = hook.id, answered.id
    database = app.extensions["pbem.db"]
    failures: list[BaseException] = []

    def delete() -> None:
        with app.app_context(), database.session() as other:
            try:
                delete_account(other, other.get_one(User, ann.id))
                other.commit()
            except BaseException as exc:  # the test reads it in its own thread
                failures.append(exc)

    with database.session() as worker:
        delivery = worker.get_one(WebhookDelivery, delivery_id)
        # The receiver has answered 503; the worker starts recording it.
        assert deliver._hook_kept(worker, delivery.webhook)
        worker_pid = worker.scalar(text("SELECT pg_backend_pid()"))
        deleting = threading.Thread(target=delete)
        deleting.start()
        wait_for(lambda: blocked_by(database.engine, worker_pid), 30, "the deletion to wait")
        status = deliver._failed(worker, delivery, "HTTP 503", app.config, utcnow())
        assert status == DeliveryStatus.PENDING
    deleting.join(30)
    assert failures == []
    session.expire_all()
    assert session.get(Webhook, hook_id) is None
    assert session.get(WebhookDelivery, delivery_id) is None
    assert session.get_one(User, ann.id).deleted_at is not None
