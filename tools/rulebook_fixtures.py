"""Quote the rulebook excerpts the data tests compare against into tests/fixtures/rulebooks/.

The tests must pass on a clone with nothing beside it, so they never read the rulebooks
(the Japanese translations, which win, or their English digests, kept in a `shared` directory
beside our own checkouts and not distributed) directly. This tool copies, verbatim, only the parts the tests read — each excerpt headed by
its source file and section — and `--check` says whether the committed fixtures still match
the rulebooks beside a developer's checkout.

    python tools/rulebook_fixtures.py            # rewrite the fixtures from the rulebooks
    python tools/rulebook_fixtures.py --check    # exit 1 if a fixture differs from its source
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
OUT = REPO / "tests" / "fixtures" / "rulebooks"

AOB_DIGEST = "rules/assault-on-belgium.md"
AOB_SEED = "seeds/003_b03290f82365b114.txt"
VB_DIGEST = "rules/vietnam-battles.md"
VB_SEED = "seeds/001_edc78823b4957b97.txt"
UF_SEED = "seeds/004_388b2498f7572d59.txt"

# (start, end) ranges of the Vietnam Battles digest that tests/vietnam_battles_data reads by heading.
VB_SECTIONS = [
    ("## 24.0", "# PART III"),
    ("## Scenario summary", "## 25.0"),
    ("## 25.0 The Boys of '67", "### Victory conditions (25.0)"),
    ("#### Game Turn 1 reinforcements — as printed", "#### Game Turn 1 reinforcements — most plausible"),
    ("#### Game Turn 9 reinforcements", "### Victory conditions (26.0)"),
    ("## IV.1 The table as printed", "## IV.2"),
]
# Hex numbers and hexsides the digest names, anywhere (tests/vietnam_battles_data/test_maps.py).
HEX_LINE = re.compile(r"(?<![\w.,])\d{4}(?!\w)|(?<!\d)\d{4}/\d{4}(?!\d)")

# How a fixture's header names its source (the rulebooks are not distributed with Warlog).
_SOURCES = {
    AOB_DIGEST: "Assault on Belgium, English digest",
    AOB_SEED: "Assault on Belgium, Japanese translation (003_b03290f82365b114.txt)",
    VB_DIGEST: "Vietnam Battles, English digest",
    VB_SEED: "Vietnam Battles, Japanese translation (001_edc78823b4957b97.txt)",
    UF_SEED: "UP FRONT 'In the Mountains', Japanese translation (004_388b2498f7572d59.txt)",
}


def _header(source: str, what: str) -> str:
    return (f"<!-- Quoted verbatim from the rulebook {_SOURCES[source]}: {what}.\n"
            f"     Regenerate with `python tools/rulebook_fixtures.py`; do not edit by hand. -->\n\n")


def aob_tables(digest: str, seed: str) -> str:
    """AoB 19: the seed's own tables (one line of text: 陸上戦闘表 to 'No Use'), then every
    ```csv block of the digest, under the heading it sits in."""
    start = seed.index("陸上戦闘表 戦闘力")
    out = [_header(AOB_SEED, "the land combat, air combat and anti-aircraft tables as the seed prints them "
                   "(flattened to one line by the seed's own extraction)"),
           "```seed\n", seed[start:seed.index("No Use", start)].strip(), "\n```\n\n",
           _header(AOB_DIGEST, "the machine-readable tables of section 19 (LCT, ACRT, AA)")]
    heading = ""
    for m in re.finditer(r"^(#+ [^\n]*)$|```csv\n(.*?)```", digest, re.M | re.S):
        if m.group(1):
            heading = m.group(1)
        else:
            out.append(f"{heading}\n\n```csv\n{m.group(2)}```\n\n")
    return "".join(out)


def _ranges(text: str, sections: list[tuple[str, str]]) -> list[tuple[int, int]]:
    spans = []
    for start, end in sections:
        i = text.index(start)
        j = text.index(end, i + len(start))
        line_end = text.find("\n", j)
        spans.append((i, len(text) if line_end < 0 else line_end + 1))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def vb_digest(digest: str) -> str:
    """The sections tests/vietnam_battles_data reads, then every line that names a hex or a hexside."""
    out = [_header(VB_DIGEST, "the scenario sections 24.0–26.0, the scenario summary and the CRT as "
                   "printed (IV.1), then every line that names a hex number or a hexside, under its heading")]
    for a, b in _ranges(digest, VB_SECTIONS):
        out.append(digest[a:b].rstrip("\n") + "\n\n")
    out.append("# Every line of the digest that names a hex or a hexside\n\n")
    heading = ""
    for line in digest.splitlines():
        if line.startswith("#"):
            heading = line
            continue
        if HEX_LINE.search(line):
            if heading:
                out.append(f"{heading.lstrip('#').strip()} ⟶\n")
                heading = ""
            out.append(line + "\n")
    return "".join(out)


def vb_seed(seed: str) -> str:
    """The seed's scenarios 25.0 and 26.0 (its unit lines) and its combat results table (戦闘結果表)."""
    heads = [seed.index(f"\n{h}") for h in ("25.0 THE BOYS OF '67 (", "26.0 SNOOPY'S NOSE\n", "27.0 THE IRON TRIANGLE\n")]
    out = [_header(VB_SEED, "sections 25.0 and 26.0 (to the heading of 27.0), and the combat results "
                   "table from its last heading 戦闘結果表 to the end").replace("<!--", "#").replace("-->", "")]
    out.append(seed[heads[0]:heads[2] + len("\n27.0 THE IRON TRIANGLE\n")])
    out.append("\n")
    out.append(seed[seed.rindex("戦闘結果表"):])
    return "".join(out)


def uf_seed(seed: str) -> str:
    """"In the Mountains": section 4 (Prepare for Play, to the heading of 5) and section 11 (the
    scenarios, to the heading of 12), which tests/up_front reads for each scenario's set-up."""
    out = [_header(UF_SEED, "section 4 (to the heading of 5) and section 11 (to the heading of 12)")
           .replace("<!--", "#").replace("-->", "")]
    for start, end in (("\n4. ", "\n5. "), ("\n11. ", "\n12. ")):
        i = seed.index(start)
        out.append(seed[i + 1:seed.index(end, i)].rstrip("\n") + "\n\n")
    return "".join(out)


def fixtures() -> dict[str, str]:
    read = lambda rel: (SHARED / rel).read_text(encoding="utf-8")  # noqa: E731
    return {
        "assault-on-belgium.tables.md": aob_tables(read(AOB_DIGEST), read(AOB_SEED)),
        "vietnam-battles.digest-excerpt.md": vb_digest(read(VB_DIGEST)),
        "vietnam-battles.seed-excerpt.txt": vb_seed(read(VB_SEED)),
        "up-front-mountains.seed-excerpt.txt": uf_seed(read(UF_SEED)),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare, do not write")
    args = ap.parse_args(argv)
    if not SHARED.is_dir():
        print(f"rulebook_fixtures: no rulebooks at {SHARED}", file=sys.stderr)
        return 2
    stale = []
    for name, text in fixtures().items():
        path = OUT / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(REPO)} ({len(text):,} characters)")
    for name in stale:
        print(f"stale: tests/fixtures/rulebooks/{name}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
