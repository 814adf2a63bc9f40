"""What lets a third party trust a game: offline verification of an export (verify, verify_parallel),
the audit page's findings (audit, stats), the seeds (seeds, rounds) and the transparency log (tlog,
logcheck, logpin, monitor, witness)."""
