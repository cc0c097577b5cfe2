"""Prometheus metrics, for installations spread over several machines.

Two kinds, read from two places:

- State, computed from the database and the broker when `/metrics` of
  `pbem web` is scraped (pbem.metrics.state): what is waiting (the task queue,
  pending submissions, the outbox backlog, unread inbound mail) and the active
  games. Every web host answers the same, whichever machine did the work.
- Events, counted by the process they happen in (pbem.metrics.events): judging
  a submission, sending or failing a mail, reading inbound mail, a timeout.
  Most happen in `pbem worker` processes, possibly on other hosts, so each
  `pbem worker` serves its own (PBEM_WORKER_METRICS_BIND) and `pbem web` its
  own (submissions received through the pages and the API); `pbem serve` runs
  all of it in one process and shows everything at its `/metrics`.

Under gunicorn and Celery's prefork pool, a process tree's counters are summed
over its processes with prometheus_client's multiprocess mode
(pbem.metrics.processes).
"""
