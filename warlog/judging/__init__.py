"""Judging: the queue that gets a game's submissions judged (queue, jobs, onejob, drainer), the worker's
side that judges them in ledger order (resolver), the deterministic judge of one submission shared with
`verify` (judge), the wake-up of waiting requests (wakeup) and riding out outages (outage)."""
