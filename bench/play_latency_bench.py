"""How soon the mover sees a move made on the play page (prints figures; not a test).

    .venv/bin/python bench/play_latency_bench.py              # 30 moves
    .venv/bin/python bench/play_latency_bench.py --moves 60

The embedded default (SQLite ledger, in-process worker) serves a game of Assault on Belgium;
headless Chromium (Debian's /usr/bin/chromium, driven by Playwright) plays Belgium's set-up by
clicking the action buttons (select a unit, place it, pick it up again), as a player would.
Each move is updated in place on the page (no reload). For each one it prints, from the
browser's and the server's clocks on this machine:

- judgement → shown: from the time the worker recorded its judgement in the ledger to the
  moment the page has its fresh board and panel in place (the issue's target: 200 ms);
- click → shown: from the click to the fresh panel, the whole round trip;
- the bytes of the `/live` answers fetched per move (the board layers the page already holds
  come back as placeholders, warlog.web.layerkeep) beside the panel they rebuild and the whole
  page a reload fetched.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import tempfile
import threading
import urllib.request
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from warlog.app import create_app  # noqa: E402

CHROMIUM = "/usr/bin/chromium"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def epoch_ms(recorded_at: str) -> float:
    return datetime.fromisoformat(recorded_at.replace("Z", "+00:00")).timestamp() * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=30)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"WARLOG_DB": f"sqlite:///{tmp}/bench.sqlite3"})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        created = app.extensions["warlog"].create_game("assault-on-belgium", "may-1940", {})
        gid, seats = created["id"], created["seats"]
        judged_ms: list[float] = []
        round_ms: list[float] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            ger = browser.new_context().new_page()
            ger.goto(f"{base}/games/{gid}/seat/{seats['germany']}")
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.set_default_timeout(20_000)
            page.goto(f"{base}/games/{gid}/seat/{seats['belgium']}")
            page.wait_for_selector("#act-form")
            page.evaluate("() => performance.setResourceTimingBufferSize(100000)")
            full_page = len(urllib.request.urlopen(f"{base}/games/{gid}").read())
            panel = 0
            order = ("select", "place", "unplace")
            for k in range(args.moves):
                kind = order[k % 3]
                page.evaluate("() => document.querySelectorAll('details.group').forEach(d => { d.open = true; })")
                button = page.locator(f'details.group[data-type="{kind}"] button.choice').first
                before = page.evaluate("() => document.body.dataset.updates || '0'")
                clicked = page.evaluate("() => Date.now()")
                button.click()
                page.wait_for_function("b => (document.body.dataset.updates || '0') !== b", arg=before)
                shown = page.evaluate("() => window.warlogShownAt")
                last = int(page.get_attribute("#play-root", "data-last") or "0")
                with urllib.request.urlopen(f"{base}/api/v1/games/{gid}/events?after={last}") as r:
                    events = json.loads(r.read())["events"]
                judgement = next(e for e in events if e["type"] in ("resolved", "rejected")
                                 and e["payload"].get("submission_seq") == last)
                judged_ms.append(shown - epoch_ms(judgement["recorded_at"]))
                round_ms.append(shown - clicked)
                panel = len(page.evaluate("() => document.querySelector('#play-root').outerHTML"))
            fetched = page.evaluate("() => performance.getEntriesByType('resource')"
                                    ".filter(e => e.name.includes('/live?')).map(e => e.encodedBodySize)")
            browser.close()
        server.shutdown()
        app.extensions["warlog_sweeper_stop"].set()

    print(f"play page, a move made by clicking, updated in place ({args.moves} moves, Assault on Belgium set-up, "
          "embedded default: SQLite + in-process worker)")
    for label, xs in (("judgement recorded → shown", judged_ms), ("click → shown", round_ms)):
        print(f"  {label:28s} p50 {statistics.median(xs):6.0f} ms   p95 {percentile(xs, 0.95):6.0f} ms   "
              f"max {max(xs):6.0f} ms")
    print(f"  machine load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPU(s)")
    print(f"  fetched per move: p50 {statistics.median(fetched) / 1024:.0f} KB of /live answers for a panel of "
          f"{panel / 1024:.0f} KB (the board layers the page holds are kept, not sent; a reload fetched the "
          f"whole page, {full_page / 1024:.0f} KB, then its script and style)")


if __name__ == "__main__":
    main()
