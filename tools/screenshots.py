"""The README's tour pictures: a short game of Assault on Belgium played through the API of a
server in this process (the embedded SQLite ledger in a temporary directory, the in-process
worker), then the lobby, a seat's play page, a replay step and the audit page photographed by
Debian's Chromium (through Playwright, as the browser tests drive it).

    .venv/bin/python tools/screenshots.py            # writes docs/img/*.png
    .venv/bin/python tools/screenshots.py --out DIR  # elsewhere
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.support.chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

VIEW: Any = {"width": 1280, "height": 800}  # a Playwright ViewportSize
MOVES = 16  # moves before the pictures: both set-ups, then four German units moved, mid-turn


def call(base: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + "/api/v1" + path, data=data, headers=headers,
                                 method="GET" if body is None else "POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def judged(base: str, gid: str, seq: int) -> None:
    for _ in range(300):
        if call(base, f"/games/{gid}/moves/{seq}")["status"] != "pending":
            return
        time.sleep(0.05)
    raise SystemExit(f"move {seq} was not judged within 15 s")


def play(base: str) -> tuple[str, dict[str, str]]:
    """A new game, both seats joined, then MOVES moves, each the legal action `preference` likes best."""
    game = call(base, "/games", {"game": "assault-on-belgium", "scenario": "may-1940", "options": {}})
    gid, seats = game["id"], game["seats"]
    for token in seats.values():
        call(base, f"/games/{gid}/join", {}, token)
    steps = 0  # hexes the selected unit has moved
    for n in range(MOVES):
        active = call(base, f"/games/{gid}")["active_seats"]
        if not active:
            break
        offer = call(base, f"/games/{gid}/actions", token=seats[active[0]])
        if not offer["actions"]:
            break
        action = min(offer["actions"], key=lambda a: preference(a, steps))
        steps = steps + 1 if action["type"] == "move" else 0
        sent = call(base, f"/games/{gid}/moves", {"action": action, "expected_seq": offer["expected_seq"],
                                                  "idempotency_key": f"tour-{n}"}, seats[active[0]])
        judged(base, gid, sent["seq"])
    return gid, seats


def preference(action: dict[str, Any], steps: int) -> int:
    """The set-up as printed, then a unit moved two hexes at a time: a board worth a picture."""
    kind = action["type"]
    order = {"standard_setup": 0, "done_setup": 1, "move": 2 if steps < 2 else 6, "select": 3}
    return order.get(kind, 5)


def photograph(base: str, gid: str, seats: dict[str, str], out: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    seq = call(base, f"/games/{gid}")["seq"]
    shots = [("lobby", None, "/"), ("play", "germany", f"/games/{gid}"),
             ("replay", None, f"/games/{gid}/replay/{max(seq - 2, 0)}"), ("audit", None, f"/games/{gid}/audit")]
    written = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, seat, path in shots:
            context = browser.new_context(viewport=VIEW)
            page = context.new_page()
            if seat:
                page.goto(f"{base}/games/{gid}/seat/{seats[seat]}")  # takes the seat in this context
            page.goto(base + path)
            page.wait_for_load_state("load")
            page.wait_for_timeout(1000)  # the play page long-polls: the network is never idle
            target = out / f"{name}.png"
            page.screenshot(path=str(target))
            written.append(target)
            context.close()
        browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=REPO / "docs" / "img")
    args = ap.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"screenshots: Chromium is required at {CHROMIUM}", file=sys.stderr)
        return 2
    from werkzeug.serving import make_server

    from warlog.app import create_app

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"WARLOG_DB": f"sqlite:///{tmp}/warlog.sqlite3", "WARLOG_LOG_FORMAT": "none"})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        try:
            gid, seats = play(base)
            for path in photograph(base, gid, seats, args.out):
                print(f"wrote {path} ({path.stat().st_size:,} bytes)")
        finally:
            server.shutdown()
            app.extensions["warlog_sweeper_stop"].set()
            app.extensions["warlog"].store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
