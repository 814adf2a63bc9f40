"""Players: accounts with a personal API token, sign-in by e-mailed link, seats owned by players.

`PlayerStore` (warlog.players.store) is the data; warlog.players.web has `current_player()`,
the API under /api/v1/players and the pages /signin, /me and /players/<id>.
"""

from warlog.players.store import (
    EmailTaken,
    InvalidPlayer,
    LinkInvalid,
    LinkThrottled,
    Player,
    PlayerError,
    PlayerStore,
    SeatTaken,
    UnknownPlayer,
)

__all__ = ["Player", "PlayerStore", "PlayerError", "EmailTaken", "InvalidPlayer", "LinkInvalid", "LinkThrottled", "SeatTaken",
           "UnknownPlayer"]
