"""Green Beret: Vietnam, Vietnam Battles, Lock 'n Load and UP FRONT played to their end on
phones (390×844 and 360×740, touch screens) by taps only (UP FRONT, whose game runs to a few
hundred decisions, its first 50 by taps, the rest through the API; its end shown on both
phones). Each decision is made as a player
on a phone makes it: a unit, card or hex the action aims at is tapped on the map (then a
highlighted hex, then the choice or "Confirm" in the bar at the foot of the screen); any other
action is tapped in the action list (its group unfolded by a tap first). Every page met must
fit the screen's width (only the map pans, inside its frame) and its action controls must be at
least 24×24 px (WCAG 2.2 target size, 2.5.8). Which legal action to take is scripted: a few
aimed at the map first, then the ones that close a phase, so that each game ends in about a
minute. The 360 px phones read Japanese (Accept-Language ja): every page they meet, to the
game's end, must show no word left in English (tests/browser/japanese.py). Screenshots go to the
test's tmp dir."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import updated
from tests.browser.japanese import english_left
from tests.browser.test_lnl_in_browser import _api as _seat_api
from tests.browser.test_phone_pages import MEASURE, PHONES, create_game, phone
from tests.browser.test_phone_play import _api, _fresh, _touch

# The actions that close a step, a phase or the game, most closing first: after its few
# aimed decisions a seat takes the first of these it is offered.
CLOSING = ("end_game", "end_phase", "end_turn", "end_rally", "end_impulse", "end_move", "pass", "decline",
           "hold_fire", "stop", "done", "ready", "complete")


def pick(acts: list[dict[str, Any]], n: int, aimed_first: int, rng: random.Random) -> dict[str, Any]:
    """The action a scripted player takes from the page's list: for its first `aimed_first`
    decisions one aimed at a unit, card or hex (picked on the map), then the most closing one."""
    listed = [a for a in acts if a["type"] != "order"]  # standing orders have their own form
    if n < aimed_first:
        aimed = [a for a in listed if (a["unit"] or a["hex"]) and a["type"] not in CLOSING]
        if aimed:
            return rng.choice(aimed)
    for kind in CLOSING:
        for a in listed:
            if a["type"] == kind:
                return a
    return listed[0]


def problems_of(page: Any, where: str) -> list[str]:
    """The page as it stands: wider than the screen, or action controls under 24×24 px; on a
    phone that reads Japanese, a visible text left in English."""
    width = page.viewport_size["width"]
    m = page.evaluate(MEASURE, width)
    out = []
    if m["scrollWidth"] > width or m["scrollWidth"] > m["innerWidth"]:
        out.append(f"{where}: {m['scrollWidth']} px wide at {width} ({', '.join(m['wide'])})")
    if m["small"]:
        out.append(f"{where}: tap targets under 24×24 at {width}: {m['small'][:4]}")
    if getattr(page, "lang", "en") == "ja":
        out += [f"{where}: English on a Japanese page: {text!r}" for text in english_left(page)]
    return out


def _into_view(page: Any, selector: str) -> Any:
    """The first element of `selector`, scrolled (the map's frame and the page) to the middle of
    the screen, clear of the action bar at its foot."""
    target = page.locator(selector).first
    target.evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")
    return target


def _box_state(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => { const b = document.querySelector('#confirm');
      return {shown: !!b && !b.hidden, what: b && b.querySelector('.what') ? b.querySelector('.what').textContent : '',
              buttons: b ? [...b.querySelectorAll('button')].map(x => x.textContent) : []}; }""")


def _wait_box_or_update(page: Any, before: str) -> bool:
    """After a tap on the map: True when the page moved on by itself (a lone select is sent at
    once), False when the bar at the foot asks something; fails when neither happened."""
    page.wait_for_function("""b => (document.body.dataset.updates || '0') !== b
      || (!document.querySelector('#confirm').hidden && document.querySelector('#confirm .buttons button'))""", arg=before)
    return bool(page.evaluate("b => (document.body.dataset.updates || '0') !== b", before))


# The bar's words, in English and in Japanese (the second phone reads Japanese)
CONFIRM = {"Confirm", "確定"}
HIGHLIGHTED = ("highlighted hex", "強調されたヘクス")
CANCEL = re.compile("^(Cancel|取り消し)$")


def play_by_map(page: Any, a: dict[str, Any], problems: list[str], where: str, shot: Path | None = None) -> bool:
    """Tap the counter (or hex) `a` aims at, then a highlighted hex if asked, then its choice or
    Confirm. False (the bar cancelled) when the map offered something else for that tap."""
    before = page.evaluate("document.body.dataset.updates || '0'")
    target = f'#board .counter[data-unit="{a["unit"]}"]' if a["unit"] else f'#board .terrain [data-hex="{a["hex"]}"]'
    _into_view(page, target).tap(force=True)
    if _wait_box_or_update(page, before):
        return True
    for _ in range(2):
        box = _box_state(page)
        problems.extend(problems_of(page, where + " (the bar asks)"))
        if shot is not None:
            page.screenshot(path=str(shot))
            shot = None
        label = a["label"]
        if label in box["buttons"]:
            with updated(page):
                page.locator("#confirm button", has_text=label).first.tap()
            return True
        if CONFIRM & set(box["buttons"]) and box["what"].lower() == (label + "?").lower():
            assert page.evaluate("""() => { const r = document.querySelector('#confirm-go').getBoundingClientRect();
              return r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }"""), "Confirm is in sight"
            with updated(page):
                page.locator("#confirm-go").tap()
            return True
        if a["unit"] and a["hex"] and any(w in box["what"] for w in HIGHLIGHTED):
            _into_view(page, f'#board .terrain [data-hex="{a["hex"]}"]').tap(force=True)
            page.wait_for_function("w => document.querySelector('#confirm .what') "
                                   "&& document.querySelector('#confirm .what').textContent !== w", arg=box["what"])
            continue
        break
    page.locator("#confirm button", has_text=CANCEL).last.tap()
    return False


def play_by_list(page: Any, a: dict[str, Any]) -> None:
    """Tap the action's button in the action list, unfolding its group first when folded; a move the
    page asks about first (it ends the game, or a phase while units could still act) is confirmed
    in the page's own box, as a player does."""
    button = page.locator(f'#act-form button[data-i="{a["i"]}"]')
    folded = button.evaluate("b => { const d = b.closest('details'); return !!d && !d.open; }")
    if folded:
        _into_view(page, f'#act-form button[data-i="{a["i"]}"] >> xpath=ancestor::details/summary').tap()
    asks_first = button.get_attribute("data-confirm")  # before the tap, which may take it away
    with updated(page):
        button.scroll_into_view_if_needed()
        button.tap()
        if asks_first:
            page.wait_for_selector("#confirm-go")
            page.locator("#confirm-go").tap()


def finish_through_the_api(base: str, gid: str, tokens: dict[str, str], rng: random.Random, limit: int = 2000) -> None:
    """The rest of a long game: the same scripted choices, sent through the JSON API."""
    for n in range(limit):
        info = _api(base, f"/api/v1/games/{gid}")
        if info["status"] == "ended":
            return
        if info.get("pending") or not info["active_seats"]:
            time.sleep(0.02)
            continue
        seat = info["active_seats"][0]
        listing = _seat_api(base, tokens[seat], f"/api/v1/games/{gid}/actions")
        if not listing["actions"]:
            time.sleep(0.02)
            continue
        acts = [{"type": a["type"], "unit": None, "hex": None, "action": a} for a in listing["actions"]]
        action = pick(acts, limit, 0, rng)["action"]
        out = _seat_api(base, tokens[seat], f"/api/v1/games/{gid}/moves",
                        {"action": action, "expected_seq": listing["expected_seq"], "idempotency_key": f"rest{n}"})
        while _seat_api(base, tokens[seat], f"/api/v1/games/{gid}/moves/{out['seq']}")["status"] == "pending":
            time.sleep(0.01)
    raise AssertionError(f"the game did not end within {limit} more decisions")


def play_to_the_end(pages: dict[str, Any], base: str, gid: str, folder: Path, name: str, aimed_first: int,
                    limit: int, seed: int = 7, tokens: dict[str, str] | None = None) -> dict[str, Any]:
    """Every decision of every seat, by taps on its own phone, until the game is over (with
    `tokens`, its first `limit` decisions by taps, the rest through the API); returns what was
    done and the problems met."""
    rng = random.Random(seed)
    problems: list[str] = []
    done = {"map": 0, "list": 0, "kinds": set()}
    shot = {"map": False, "mid": False}
    for n in range(limit):
        info = _api(base, f"/api/v1/games/{gid}")
        if info["status"] == "ended":
            break
        if info.get("pending") or not info["active_seats"]:
            time.sleep(0.05)
            continue
        seat = info["active_seats"][0]
        page = pages[seat]
        _fresh(page, base, gid)
        where = f"{name} #{info['seq']} ({seat})"
        problems.extend(problems_of(page, where))
        acts = json.loads(page.locator("#actions-data").text_content() or "[]")
        if not acts:
            page.wait_for_timeout(200)
            continue
        a = pick(acts, n, aimed_first, rng)
        if n == limit // 3 and not shot["mid"]:
            page.screenshot(path=str(folder / f"{name}-midgame-{page.viewport_size['width']}.png"))
            shot["mid"] = True
        by_map = bool(a["unit"] or a["hex"])
        if by_map and not shot["map"]:
            try:
                page.screenshot(path=str(folder / f"{name}-before-map-tap-{page.viewport_size['width']}.png"))
            except PlaywrightError:
                pass
        asking = None if shot["map"] else folder / f"{name}-the-bar-asks-{page.viewport_size['width']}.png"
        if by_map and play_by_map(page, a, problems, where, asking):
            done["map"] += 1
            shot["map"] = True
        else:
            play_by_list(page, a)
            done["list"] += 1
        done["kinds"].add(a["type"])
    else:
        if tokens is None:
            raise AssertionError(f"{name}: the game did not end within {limit} decisions")
        finish_through_the_api(base, gid, tokens, rng)
    done["problems"] = problems
    done["info"] = _api(base, f"/api/v1/games/{gid}")
    return done


def seats_on_phones(browser: Any, base: str, scenario: str, sizes: dict[str, str]) -> tuple[dict[str, Any], str, Any]:
    """The game created on the lobby by a tap; each seat's invitation opened on its own phone
    (a 360 px phone reads Japanese, its pages checked for any English left, as a 390 px one reads English).
    The creator's page keeps the seats' tokens (`creator.tokens`) for the API."""
    creator = phone(browser, "390")
    links = create_game(creator, base, scenario)
    creator.tokens = {seat: link.rstrip("/").split("/")[-1] for seat, link in links.items()}
    pages = {}
    for seat, size in sizes.items():
        pages[seat] = phone(browser, size, "ja" if size == "360" else "en")
        pages[seat].goto(links[seat])
    gid = links[next(iter(sizes))].split("/")[4]
    return pages, gid, creator


def the_end(pages: dict[str, Any], base: str, gid: str, folder: Path, name: str, creator: Any) -> list[str]:
    """Every seat's page once the game is over: the result shown, the page as wide as the
    screen; the screenshots of the whole page."""
    problems = []
    for seat, page in pages.items():
        _fresh(page, base, gid)
        assert page.locator(".status-card .outcome").count(), f"{name}: {seat}'s page shows the result"
        problems += problems_of(page, f"{name} over ({seat})")
        page.screenshot(path=str(folder / f"{name}-over-{seat}-{page.viewport_size['width']}.png"), full_page=True)
    errors = creator.errors + [e for p in pages.values() for e in p.errors]
    assert not errors, errors
    return problems


@pytest.mark.browser
@pytest.mark.parametrize("size", sorted(PHONES))
def test_green_beret_is_played_to_its_end_by_taps_on_a_phone(browser: Any, live_server: Any, tmp_path: Path,
                                                            size: str) -> None:
    base, _ = live_server
    pages, gid, creator = seats_on_phones(browser, base, "green-beret-vietnam/campaign", {"player": size})
    page = pages["player"]
    _fresh(page, base, gid)
    assert page.evaluate("scrollY") == 0
    page.screenshot(path=str(tmp_path / f"gbv-start-{size}.png"))
    done = play_to_the_end(pages, base, gid, tmp_path, f"gbv-{size}", aimed_first=8, limit=60)
    problems = done["problems"] + the_end(pages, base, gid, tmp_path, f"gbv-{size}", creator)
    assert done["info"]["outcome"] is not None
    assert done["map"] >= 3 and done["list"] >= 1, done  # picked on the map, and from the list
    assert not problems, "\n".join(problems)


@pytest.mark.browser
def test_vietnam_battles_is_played_to_its_end_by_taps_on_two_phones(browser: Any, live_server: Any,
                                                                   tmp_path: Path) -> None:
    base, _ = live_server
    pages, gid, creator = seats_on_phones(browser, base, "vietnam-battles/boys67", {"us": "390", "vc": "360"})
    done = play_to_the_end(pages, base, gid, tmp_path, "vb-boys67", aimed_first=12, limit=120)
    problems = done["problems"] + the_end(pages, base, gid, tmp_path, "vb-boys67", creator)
    assert done["map"] >= 3 and done["list"] >= 3, done
    assert not problems, "\n".join(problems)


@pytest.mark.browser
def test_lock_n_load_is_played_to_its_end_by_taps_on_two_phones(browser: Any, live_server: Any,
                                                               tmp_path: Path) -> None:
    base, _ = live_server
    pages, gid, creator = seats_on_phones(browser, base, "lock-n-load/demo", {"us": "390", "vc": "360"})
    done = play_to_the_end(pages, base, gid, tmp_path, "lnl-demo", aimed_first=16, limit=160)
    problems = done["problems"] + the_end(pages, base, gid, tmp_path, "lnl-demo", creator)
    assert done["map"] >= 3 and done["list"] >= 3, done
    assert not problems, "\n".join(problems)


@pytest.mark.browser
def test_up_front_is_played_by_taps_on_two_phones_to_its_end(browser: Any, live_server: Any,
                                                            tmp_path: Path) -> None:
    base, _ = live_server
    pages, gid, creator = seats_on_phones(browser, base, "up-front/A", {"americans": "390", "germans": "360"})
    done = play_to_the_end(pages, base, gid, tmp_path, "up-front-a", aimed_first=12, limit=50, tokens=creator.tokens)
    problems = done["problems"] + the_end(pages, base, gid, tmp_path, "up-front-a", creator)
    assert done["map"] >= 3 and done["list"] >= 3, done
    assert not problems, "\n".join(problems)


# Every title the bar at the foot of the screen shows, as it shows it (the panel is replaced after each move).
WATCH_THE_BAR = """() => { window.barTitles = [];
  new MutationObserver(() => { const w = document.querySelector('#confirm .what');
    if (w && window.barTitles[window.barTitles.length - 1] !== w.textContent) window.barTitles.push(w.textContent); })
  .observe(document.body, {subtree: true, childList: true, characterData: true}); }"""


@pytest.mark.browser
def test_a_tap_on_a_stacked_unit_with_one_action_sends_it_and_asks_nothing_more(browser: Any, live_server: Any) -> None:
    """Lock 'n Load (3.0, 4.0): once 1C7 is activated its leader Okafor can only be selected; a
    tap on his counter sends that selection, and the bar shows no "Units in 1C7" chooser
    for the stack under the finger while it is being sent."""
    base, _ = live_server
    pages, gid, creator = seats_on_phones(browser, base, "lock-n-load/demo", {"us": "390", "vc": "360"})
    us, vc = pages["us"], pages["vc"]
    for page in (us, vc):
        _fresh(page, base, gid)
        play_by_list(page, next(a for a in json.loads(page.locator("#actions-data").text_content() or "[]")
                                if a["type"] == "end_rally"))
    _fresh(us, base, gid)
    _into_view(us, '#board .terrain [data-hex="1C7"]').tap(force=True)
    with updated(us):
        us.locator("#confirm-go").tap()
    acts = json.loads(us.locator("#actions-data").text_content() or "[]")
    assert [a["action"] for a in acts if a["unit"] == "okafor"] == [{"type": "select", "unit": "okafor"}]
    us.evaluate(WATCH_THE_BAR)
    sent: list[str] = []
    us.on("request", lambda r: sent.append(r.post_data or "") if r.method == "POST" else None)
    with updated(us):
        _into_view(us, '#board .counter[data-unit="okafor"]').tap(force=True)
    titles = us.evaluate("window.barTitles")
    assert not [t for t in titles if t.startswith("Units in")], titles
    assert len(sent) == 1 and '"okafor"' in sent[0], sent
    assert "selected" in (us.get_attribute('#board .counter[data-unit="okafor"]', "class") or "")
    assert not us.errors and not vc.errors and not creator.errors


@pytest.mark.browser
@pytest.mark.xfail(strict=False, reason="in the whole suite (never alone: it passes run by itself) the "
                   "two-finger pinch after Fit leaves the table's width unchanged, as if the touch events "
                   "reached a board the page had just replaced; not yet understood")
def test_the_up_front_card_table_zooms_and_fits_a_phone_like_the_maps(browser: Any, live_server: Any,
                                                                    tmp_path: Path) -> None:
    """UP FRONT's card table is wider than a phone: like the other games' maps it has the zoom
    bar (Fit shows the whole table's width in its frame) and two fingers zoom it in its frame."""
    base, _ = live_server
    pages, gid, creator = seats_on_phones(browser, base, "up-front/A", {"americans": "360", "germans": "390"})
    page = pages["americans"]
    _fresh(page, base, gid)
    table = "document.querySelector('#board svg.cardtable').getBoundingClientRect().width"
    frame = "document.querySelector('#board').clientWidth"
    assert page.evaluate(table) > page.evaluate(frame), "the table is wider than the phone (else nothing to check)"
    page.locator(".zoom button:has-text('Fit')").tap()
    assert page.evaluate(table) <= page.evaluate(frame)
    page.screenshot(path=str(tmp_path / "up-front-table-fit-360.png"))
    page.cdp = page.context.new_cdp_session(page)
    box = page.evaluate("(() => { const r = document.querySelector('#board').getBoundingClientRect();"
                        " return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()")
    width0 = page.evaluate(table)
    _touch(page, "touchStart", [(box["x"] - 30, box["y"]), (box["x"] + 30, box["y"])])
    for step in range(1, 6):
        _touch(page, "touchMove", [(box["x"] - 30 - 12 * step, box["y"]), (box["x"] + 30 + 12 * step, box["y"])])
    _touch(page, "touchEnd", [])
    assert page.evaluate(table) > width0 * 1.5, "two fingers zoom the table in its frame"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360 and page.evaluate("visualViewport.scale") == 1
    assert not page.errors and not creator.errors


# For every group box of the card table: the words written on it (its name, range, level,
# terrain, men) where a tap on them lands; a tap that lands on no group is listed.
TAPS_ON_GROUP_WORDS = """() => { const missed = [];
  for (const box of document.querySelectorAll('#board svg.cardtable .terrain [data-hex]')) {
    const b = box.getBoundingClientRect();
    for (const t of document.querySelectorAll('#board svg.cardtable text')) {
      const r = t.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
      if (x < b.left || x > b.right || y < b.top || y > b.bottom || t.closest('.counter')) continue;
      const hit = document.elementFromPoint(x, y), on = hit && hit.closest('[data-hex]');
      if (!on || on.dataset.hex !== box.dataset.hex) missed.push(box.dataset.hex + ': ' + t.textContent);
    }
  }
  return missed; }"""


@pytest.mark.browser
def test_a_tap_on_the_words_of_an_up_front_group_picks_that_group(browser: Any, live_server: Any) -> None:
    """A card that goes onto a group asks for a tap on that group (UF 4.0); the group's box is
    mostly its words (name, range, level, terrain, men): a tap on them is a tap on the group."""
    base, _ = live_server
    pages, gid, creator = seats_on_phones(browser, base, "up-front/A", {"americans": "390", "germans": "360"})
    page = pages["americans"]
    _fresh(page, base, gid)
    page.locator(".zoom button:has-text('Fit')").tap()
    _into_view(page, "#board")
    assert page.locator("#board svg.cardtable .terrain [data-hex]").count() == 6
    missed = page.evaluate(TAPS_ON_GROUP_WORDS)
    assert not missed, missed
    assert not page.errors and not creator.errors
