"""drain's ledger of tasks sent and finished, as Celery's signals feed it."""

from __future__ import annotations

from types import SimpleNamespace

from tests.server.conftest import QueueLedger


def run_from(queue: str) -> SimpleNamespace:
    """A task as task_postrun hands it over: its request says the queue it came from."""
    return SimpleNamespace(request=SimpleNamespace(delivery_info={"routing_key": queue}))


def test_a_queue_is_idle_once_each_task_sent_has_finished_its_retries_too():
    ledger = QueueLedger()
    ledger.sent(routing_key="pbem", headers={"id": "a"})
    ledger.sent(routing_key="pbem", headers={"id": "b"})
    ledger.sent(routing_key="pbem", headers={"id": "a"})  # a's retry, sent while a runs
    ledger.finished(task_id="a", task=run_from("pbem"))
    ledger.finished(task_id="b", task=run_from("pbem"))
    assert not ledger.idle(["pbem"])  # a's retry is still to run
    ledger.finished(task_id="a", task=run_from("pbem"))
    assert ledger.idle(["pbem"]) and ledger.idle(["bots"])


def test_a_task_delivered_twice_leaves_no_count_ahead_of_the_sends():
    ledger = QueueLedger()
    ledger.sent(routing_key="pbem", headers={"id": "a"})
    ledger.finished(task_id="a", task=run_from("pbem"))
    ledger.finished(task_id="a", task=run_from("pbem"))  # the broker handed it out again
    assert ledger.idle(["pbem"])
    ledger.sent(routing_key="pbem", headers={"id": "b"})
    assert not ledger.idle(["pbem"])  # counted, b would look finished already
    ledger.finished(task_id="b", task=run_from("pbem"))
    assert ledger.idle(["pbem"])
