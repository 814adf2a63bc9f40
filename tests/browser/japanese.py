"""Reading a page as a Japanese player would: every visible text with where it stands, and the
words in Latin letters a Japanese page may keep (a proper name, a designation, an abbreviation or
citation of the rules: see `allowed_word`). Used by the Japanese scan of the five games and by the
phone games, whose second phone plays in Japanese."""

from __future__ import annotations

import json
import re
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any

LNL_COUNTERS = Path(__file__).resolve().parents[2] / "rules" / "lock_n_load" / "data" / "counters.json"

# Every visible text of the page with where it stands: on a counter's face or a map's place
# label (their words are names: see `allowed_word`), in a judged move's facts, or elsewhere. Not read: scripts, styles, code and commands, closed or hidden parts.
VISIBLE = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode, el = node.parentElement, text = node.textContent.trim();
    if (!text || !el || el.closest('script, style, code, pre, kbd, samp, title, desc, [hidden]')) continue;
    const r = el.getBoundingClientRect(), st = getComputedStyle(el);
    if ((!r.width && !r.height) || st.visibility === 'hidden' || st.display === 'none') continue;
    const where = el.closest('svg .counter, svg .pp-marker') && !el.closest('svg.cardtable') ? 'counter'
      : el.closest('svg .place, svg .region, svg .river-name, svg .region-name, svg .map-title') ? 'place'
      : el.closest('li.fact, .facts, .ev-title, .ev-now, .outcome') ? 'fact' : 'page';
    out.push([where, text]);
  }
  for (const e of document.querySelectorAll('input[placeholder], textarea[placeholder]'))
    if (e.getBoundingClientRect().width) out.push(['page', e.placeholder.trim()]);
  return out;
}"""

WORD = re.compile(r"[A-Za-z][A-Za-z0-9'’]*(?:[.\-][A-Za-z0-9]+)*")
# What is not words: a rule's section with its lettered clause ("UFM 4.a", "5.1.b"), a hash or a seed (hex digits), a file name, a p-value, a die ("d20"), a JSON
# patch's "op" (the director's patch field shows its syntax).
NOT_WORDS = re.compile(r"\b\d+(?:\.\d+)*\.[a-z]\b|\b[0-9a-f]{8,}\b|\S+\.(?:jsonl|md|html|png)\b|\bp = [\d.]+|\bp(?= 値)|\bd\d+\b|\b\d+[A-Z]+\d*\b|\"op\"")
# The rules' abbreviations and the rulebooks' own citation marks, as the Japanese rulebooks
# print them (MP, ZOC, LOS, DRM ...; "AoB 5.5", "LnL 10.3, T5", "UF C.4", "AMBIG-9"), the sides'
# abbreviations (US, VC, ARVN, NVA), weapons' designations (RPK, SVD, LAW), Roman numerals of
# unit designations, and the map scale's km.
ABBREVIATIONS = set("""MP TM LOS DRM CRT PP LM MF FP MA ZOC SW RR US VC ARVN NVA USMC PBR LZ LB SF TB PFL CDR
    RPK RPG SVD LAW CAL LCT OFF OC N H W AoB VB GBV LnL UF UFM CORE T AMBIG API SHA PNG DYO iCal UTC CSV ID km""".split())
# Vietnam Battles' combat results (Ae, Ex, De; A1-A3, D2, D3 and "(A)" hold a digit or are one capital):
# the Japanese rulebook's Combat Results Table prints them so, in Latin letters.
ABBREVIATIONS |= {"Ae", "Ex", "De"}
ROMAN = re.compile(r"^[IVX]+\.?$")
# The site's own name and the language switch's "English" (a language names itself).
OWN_NAMES = {"Warlog", "English"}
# A Vietnam Battles monitor's printed name ("Monitor 1-4-11"): names stay as the counters print them,
# and a monitor's counter stands on a river hexside, outside the board's counter layer read above.
OWN_NAMES |= {"Monitor"}
# The leaders' own names, as Lock 'n Load's counters print them ("Sgt. Okafor", "Tran Van Lam"): a
# page names a leader whose counter is off the screen, or not yet on the map.
OWN_NAMES |= {w for kind, c in json.loads(LNL_COUNTERS.read_text(encoding="utf-8"))["kinds"].items()
              if "-ldr-" in kind for w in WORD.findall(c["name"])}

# The titles the Japanese rulebooks print in Latin letters (their covers and scenario headings:
# "MW#7 VIETNAM BATTLES: Iron Triangle & Snoopy's Nose", "25.0 THE BOYS OF '67 (練習シナリオ)", UP
# FRONT's appendix "In the Mountains"); a Japanese page names the games and scenarios by them
# (the catalog's titles), so a title left in English ("Squad cards in the mountains") is found.
RULEBOOK_TITLES = ["Assault on Belgium", "Green Beret: Vietnam", "Lock 'n Load: Forgotten Heroes Vietnam",
                   "Vietnam Battles: Iron Triangle & Snoopy's Nose", "Vietnam Battles", "UP FRONT", "In the Mountains",
                   "The Boys of '67", "Snoopy's Nose", "The Iron Triangle"]


def game_titles() -> list[str]:
    """The rulebooks' titles, as printed and in capitals, the longest first."""
    return sorted(set(RULEBOOK_TITLES) | {t.upper() for t in RULEBOOK_TITLES}, key=len, reverse=True)


def words_of(text: str) -> list[str]:
    for title in game_titles():
        text = text.replace(title, " ")
    return WORD.findall(NOT_WORDS.sub(" ", text))


def allowed_word(word: str, names: set[str]) -> bool:
    """A word a Japanese page keeps in Latin letters: an abbreviation or citation of the rules, a
    Roman numeral, a designation (it has a digit, or it is one capital letter: group "A", half
    squad "B"), the site's name, or a proper name that the
    page's own map or counters print (NAMES: a place, a leader, a unit's printed designation)."""
    return (word in ABBREVIATIONS or bool(ROMAN.match(word)) or any(c.isdigit() for c in word) or len(word) == 1 and word.isupper()
            or word in OWN_NAMES or word in names)


def names_of(texts: list[list[str]]) -> set[str]:
    """The words a page's map and counters print (names: places, leaders, units' designations)."""
    return {w for where, t in texts if where in ("counter", "place") for w in words_of(t)}


def findings(texts: list[list[str]], known: AbstractSet[str] = frozenset()) -> list[str]:
    """The texts of a page with a word in Latin letters that is not allowed (`known`: the names
    the game's other pages print on their maps, for a page without a map, as the audit)."""
    names = names_of(texts) | set(known)
    out = []
    for where, text in texts:
        if where in ("counter", "place"):
            continue
        if any(not allowed_word(w, names) for w in words_of(text)):
            out.append(text)
    return out


def english_left(page: Any) -> list[str]:
    """The visible texts of the page that keep an English word (none on a page all in Japanese)."""
    assert page.evaluate("document.documentElement.lang") == "ja", page.url
    return sorted(set(findings(page.evaluate(VISIBLE))))
