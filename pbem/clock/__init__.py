"""Correspondence time, as the beat's sweep acts on it: reminders, digests
and timeouts, calling the services and leagues below. What a game's clock is
(pbem.services.time_control) and each seat's deadline (pbem.services.deadlines,
with pbem.services.calendar) are services themselves, which this package
uses. Deadlines are stored rows, never long-delayed tasks, so nothing is lost
when a broker redelivers or a beat stops."""
