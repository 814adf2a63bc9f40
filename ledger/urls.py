"""Service URLs as they may be printed: the password replaced by `***`."""

from __future__ import annotations

import re

_USERINFO = re.compile(r"(?P<scheme>[a-zA-Z][a-zA-Z0-9+.-]*://)(?P<user>[^:@/]*):(?P<pw>[^@/]*)@")
_KEYWORD = re.compile(r"(?P<key>\bpassword\s*=\s*)(?P<pw>'[^']*'|\S+)", re.IGNORECASE)


def mask_url(text: str) -> str:
    """`text` with every password in a URL (`scheme://user:pw@host`) or a libpq keyword
    string (`password=pw`) masked; anything else unchanged."""
    text = _USERINFO.sub(lambda m: f"{m['scheme']}{m['user']}:***@", text)
    return _KEYWORD.sub(lambda m: f"{m['key']}***", text)
