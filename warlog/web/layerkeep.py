"""Board layers the browser already has are not sent again (the mover sees the
result within 200 ms of the judgement).

Most of a board's SVG is the printed map (terrain, borders, rivers, places: ~150 KB on Assault
on Belgium), the same after every move. Each large top-level `<g>` layer of a page's SVG gets
`data-k`, a digest of its markup. The play page's script names the keys it holds in the
`X-Warlog-Have` header of its `/live` request; a layer with one of those keys is answered as an
empty `<g data-k=… data-keep>` and the script moves its own node into that place. The browser
downloads, parses and lays out only what changed. A page without the header (a reload, a
client without script) gets every layer whole.
"""

from __future__ import annotations

import hashlib
import re

HAVE_HEADER = "X-Warlog-Have"
MIN_LAYER = 2048  # smaller layers are cheaper to send than to track
MAX_KEYS = 64  # a header naming more is cut here (bounded work per request)
_TAG = re.compile(r"<(/?)(g|defs)(?=[\s>/])[^>]*?(/?)>")
_KEY = re.compile(r"^[0-9a-f]{16}$")


def parse_have(header: str | None) -> frozenset[str]:
    """The layer keys a request says its page holds (malformed ones are ignored)."""
    words = (header or "").replace(",", " ").split()[:MAX_KEYS]
    return frozenset(w for w in words if _KEY.match(w))


def key_of(layer: str) -> str:
    return hashlib.sha1(layer.encode("utf-8")).hexdigest()[:16]


def annotate(html: str, have: frozenset[str] = frozenset()) -> str:
    """`html` with every large top-level SVG `<g>` keyed (`data-k`), and those in `have`
    replaced by a placeholder. `<g>` inside `<defs>` is left alone (it is referenced, not drawn)."""
    out: list[str] = []
    pos = depth = in_defs = 0
    start = -1
    for m in _TAG.finditer(html):
        close, name, selfclose = m.groups()
        if name == "defs":
            if not selfclose:
                in_defs = max(0, in_defs + (-1 if close else 1))
            continue
        if in_defs or selfclose:
            continue
        if not close:
            if depth == 0:
                start = m.start()
            depth += 1
            continue
        if depth == 0:  # a stray closing tag: not ours to fix
            continue
        depth -= 1
        if depth or start < 0:
            continue
        layer = html[start:m.end()]
        if len(layer) >= MIN_LAYER:
            key = key_of(layer)
            out.append(html[pos:start])
            out.append(f'<g data-k="{key}" data-keep=""></g>' if key in have else f'<g data-k="{key}"' + layer[2:])
            pos = m.end()
        start = -1
    out.append(html[pos:])
    return "".join(out)
