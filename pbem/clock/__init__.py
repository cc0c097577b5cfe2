"""Correspondence time: each game's clock, each seat's deadline, and the sweep
that reminds players and applies timeouts. Deadlines are stored rows, never
long-delayed tasks, so nothing is lost when a broker redelivers or a beat
stops; see pbem.clock.deadlines for how a deadline is computed."""
