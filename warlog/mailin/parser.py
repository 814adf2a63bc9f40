"""Reading a reply: its sender, its plain text, the codes in it (quoted text ignored).

A reply's codes are the words `A<n>` of its own text, in order: lines quoted with `>` are
skipped, and reading stops at the first line that starts the quoted original ("On … wrote:",
"-----Original Message-----", an Outlook "From:" header block) or a signature ("-- ").
"""

from __future__ import annotations

import re
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr

CODE = re.compile(r"(?<![\w-])[Aa](\d{1,4})(?![\w-])")
_STOP = re.compile(r"^(On\s.+wrote:|-{2,}\s*Original Message\s*-{2,}|_{10,}|From:\s.+|Le\s.+a écrit\s?:|"
                   r"Am\s.+schrieb.+:|-- ?)$", re.IGNORECASE)
_AUTH = re.compile(r"\b(dmarc|spf|dkim)=(\w+)", re.IGNORECASE)


def parse(raw: bytes) -> EmailMessage:
    msg = BytesParser(policy=policy.default).parsebytes(raw)
    assert isinstance(msg, EmailMessage)
    return msg


def address_of(header: str | None) -> str:
    """The bare address of a From header, lower-cased ('' if none or several)."""
    if not header:
        return ""
    found = getaddresses([str(header)])
    if len(found) != 1:
        return ""
    return found[0][1].strip().lower()


def envelope_address(mail_from: str) -> str:
    return parseaddr(mail_from or "")[1].strip().lower()


def domain(address: str) -> str:
    return address.rpartition("@")[2].lower() if "@" in address else ""


def same_organisation(a: str, b: str) -> bool:
    """Whether two domains are one or one is a subdomain of the other (a provider's bounce
    domain, e.g. bounces.example.org for example.org)."""
    a, b = a.lower().rstrip("."), b.lower().rstrip(".")
    return a == b or a.endswith("." + b) or b.endswith("." + a)


def automatic(msg: Message) -> bool:
    """An automatic message (RFC 3834 Auto-Submitted, or a bulk/list/junk Precedence): a vacation
    notice is not a move, and answering it could start a loop between two robots."""
    auto = str(msg.get("Auto-Submitted") or "no").strip().lower()
    precedence = str(msg.get("Precedence") or "").strip().lower()
    return auto != "no" or precedence in ("bulk", "list", "junk") or bool(msg.get("X-Autoreply"))


def plain_text(msg: Message) -> str | None:
    """The reply's own plain text: the first text/plain part that is not an attachment."""
    for part in msg.walk():
        if part.is_multipart() or part.get_content_type() != "text/plain":
            continue
        if part.get_content_disposition() == "attachment":
            continue
        try:
            return str(part.get_content()) if isinstance(part, EmailMessage) else part.get_payload(decode=True).decode(
                part.get_content_charset() or "utf-8", "replace")
        except (LookupError, UnicodeError, AttributeError):
            payload = part.get_payload(decode=True)
            return payload.decode("utf-8", "replace") if isinstance(payload, bytes) else None
    return None


def has_html(msg: Message) -> bool:
    return any(p.get_content_type() == "text/html" for p in msg.walk())


def own_text(text: str) -> str:
    """`text` without what it quotes: quoted lines dropped, nothing after the quoted original."""
    out = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(">"):
            continue
        if _STOP.match(stripped):
            break
        out.append(line)
    return "\n".join(out)


def codes_in(text: str) -> list[str]:
    """The codes of a reply's own text, in order, as `A<n>` (leading zeros dropped)."""
    return [f"A{int(m.group(1))}" for m in CODE.finditer(own_text(text))]


def auth_failures(msg: Message, authserv_id: str | None) -> list[str]:
    """What the operator's own mail server (its `Authentication-Results` header, named by
    `authserv_id`) found failed for this message: e.g. ["dmarc=fail"]. Headers by any other
    server are not trusted (a sender can write them)."""
    if not authserv_id:
        return []
    failed = []
    for header in msg.get_all("Authentication-Results") or []:
        value = str(header)
        if value.split(";", 1)[0].strip().lower() != authserv_id.lower():
            continue
        for method, result in _AUTH.findall(value):
            if result.lower() in ("fail", "softfail", "permerror") and method.lower() in ("dmarc", "spf"):
                failed.append(f"{method.lower()}={result.lower()}")
    return failed
