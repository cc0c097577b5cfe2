"""The names of the Celery tasks, in one place: the web processes send tasks
by name (pbem.dispatch) without the worker's code, the worker and the beat
register and schedule them under the same names, and a name once deployed
must not change (queued tasks carry it)."""

from __future__ import annotations

PROCESS_SUBMISSION = "pbem.process_submission"
THINK_BOT = "pbem.think_bot"  # routed to PBEM_BOT_QUEUE (worker.celery_app)
REQUEUE_STALE = "pbem.requeue_stale_submissions"
SWEEP_CLOCKS = "pbem.sweep_clocks"
PRUNE_PICTURES = "pbem.prune_pictures"
PROCESS_INBOUND = "pbem.process_inbound"
SEND_MAILS = "pbem.send_mails"
SEND_MAIL = "pbem.send_mail"  # one row: queued so by versions before batches
REQUEUE_OUTBOX = "pbem.requeue_outbox"
REQUEUE_INBOUND = "pbem.requeue_inbound"
POLL_IMAP = "pbem.poll_imap"
FORGET_INBOUND_RAW = "pbem.forget_inbound_raw"
FORGET_OUTBOX = "pbem.forget_outbox"
SEND_WEBHOOK = "pbem.send_webhook"
REQUEUE_WEBHOOKS = "pbem.requeue_webhooks"
SEND_PUSH = "pbem.send_push"
