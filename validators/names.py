"""Names that reach a mail header (a tournament's name is in its mails' subjects; display names
in texts and pages): no control characters. A CR or LF in a header is refused by the mail
library, so such a name would make every mail that carries it fail."""

from __future__ import annotations

import unicodedata

from marshmallow import ValidationError

NO_CONTROLS = "must not contain control characters (line breaks, tabs and the like)"
_CONTROLS = "\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029"  # Cc, Zl and Zp, as `control_character` finds them
# A display name as a pattern (the OpenAPI document's and the schema's): no control character,
# and something besides spaces (warlog.players.store.clean_name collapses them).
NAME_PATTERN = f"^[^{_CONTROLS}]*[^\\s{_CONTROLS}][^{_CONTROLS}]*$"


def control_character(text: str) -> str | None:
    """The first control character in `text` (Unicode Cc, or a line/paragraph separator), as
    U+XXXX, or None."""
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
            return f"U+{ord(ch):04X}"
    return None


def no_controls(text: str) -> None:
    """A marshmallow validator: refuse a name with a control character, saying which."""
    found = control_character(text)
    if found:
        raise ValidationError(f"{NO_CONTROLS}; found {found}")
