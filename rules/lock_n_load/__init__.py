"""Lock 'n Load: Forgotten Heroes Vietnam (demo rules): data, line of sight and rules engine.

Digest: ../shared/rules/lock-n-load-forgotten-heroes.md (the Japanese seed wins). Not registered
in rules/__init__ until the demo scenario can be played to its end (docs/games/lock-n-load.md).
"""
