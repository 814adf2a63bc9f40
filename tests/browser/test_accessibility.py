"""Every page checked with axe-core (tests/support/vendor/axe-core: version 4.10.2, MPL-2.0,
its licence beside it), in the system's light and dark colour schemes, at a desktop's size:
no serious or critical violation (WCAG 2.2 A and AA rules and axe's best practices: contrast,
names and labels, landmarks, keyboard reach of scrolling regions, ...). The site is the one the
phone tests build through a phone (five games, a tournament and its desk, a signed-in
director); each game's play page is also opened from a seat, with its actions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_phone_pages import phone_server, site  # noqa: F401  (the same site, built once here)

AXE = Path(__file__).resolve().parents[1] / "support" / "vendor" / "axe-core" / "axe.min.js"
DESKTOP = {"width": 1400, "height": 1000}
RUN = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v =>
    v.impact + ' ' + v.id + ' (' + v.help + '): ' + v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' — ' +
      (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 160)).join(' | '));
}"""


def violations(page: Any, url: str) -> list[str]:
    """axe-core's serious and critical findings on `url`, once its script has laid the page out."""
    page.goto(url)
    page.wait_for_load_state("load")
    page.wait_for_timeout(200)
    page.add_script_tag(path=str(AXE))
    return page.evaluate(RUN)


def pages_of(site: dict[str, Any]) -> dict[str, str]:  # noqa: F811
    urls = dict(site["urls"])
    for game, links in site["games"].items():  # a seat's own page: the prompt and its actions
        seat = sorted(s for s in links if s != "director")[0]
        urls[f"seat-{game.split('/')[0]}"] = links[seat]
    return urls


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_page_has_a_serious_or_critical_axe_violation(browser: Any, site: dict[str, Any],  # noqa: F811
                                                          scheme: str) -> None:
    state = site["director"].context.storage_state()
    found: list[str] = []
    for name, url in pages_of(site).items():
        ctx = browser.new_context(viewport=DESKTOP, color_scheme=scheme, bypass_csp=True, storage_state=state)
        page = ctx.new_page()
        page.set_default_timeout(30_000)
        try:
            found += [f"{name}: {v}" for v in violations(page, url)]
        finally:
            ctx.close()
    assert not found, "\n".join(found)


@pytest.mark.browser
def test_the_pages_follow_the_systems_dark_mode(browser: Any, site: dict[str, Any]) -> None:  # noqa: F811
    """prefers-color-scheme: dark gives dark paper and light ink; light keeps the paper look."""
    colours = {}
    for scheme in ("light", "dark"):
        ctx = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
        page = ctx.new_page()
        page.goto(site["urls"]["lobby"])
        colours[scheme] = page.evaluate("() => [getComputedStyle(document.body).backgroundColor, "
                                        "getComputedStyle(document.body).color]")
        ctx.close()
    assert colours["light"] == ["rgb(244, 241, 232)", "rgb(31, 30, 26)"]
    assert colours["dark"] == ["rgb(23, 24, 26)", "rgb(236, 233, 224)"]


def test_the_vendored_axe_core_is_the_pinned_release() -> None:
    """The copy is the npm package's own file, with its licence (MPL-2.0) beside it."""
    head = AXE.read_text(encoding="utf-8")[:300]
    assert "axe v4.10.2" in head and (AXE.parent / "LICENSE").read_text().startswith("Mozilla Public License")
