"""Games as the web process sees them: create and join, take submissions (service), read a game back
at any step (history), and list games a page at a time (listing)."""
