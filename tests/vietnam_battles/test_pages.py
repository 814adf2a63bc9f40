"""Vietnam Battles through the pages (the text renderer until a map renderer exists): the lobby
creates a game, each seat plays from its page, and the VC's secret set-up never shows on the US
seat's or a spectator's page."""

from __future__ import annotations

import json
from typing import Any

from tests.pages.conftest import page_game  # noqa: F401  (fixture)


def test_a_vietnam_battles_game_on_the_pages(app: Any, page_game: Any) -> None:  # noqa: F811
    pg = page_game("vietnam-battles/snoopys_nose")
    assert "camp" in pg.page("vc")
    r = pg.act("vc", json.dumps({"type": "camp", "hex": "0717"}))
    assert r.status_code in (200, 303)
    vc = pg.page("vc")
    assert "camp-1 in 0717" in vc
    for who in ("us", "spectator"):
        page = pg.page(who)
        assert "camp-1" in page and "camp-1 in 0717" not in page and '"camp-1": "0717"' not in page
