"""The judgement of an inbound mail: checked, refused with a reason, or its codes played.

Every mail the listener took is a `mail_inbound` row (stored before it answered 250); `process`
takes one from `received` to `done`, with a verdict, and mails an answer. It is safe to run
again after a crash: the token is spent by this mail's id, each move is submitted with an
idempotency key of this mail's id and step, and the results so far are kept on the row.

Checks, in order (each refusal is recorded and answered with its reason):
unknown or forged reply address → a sender other than the seat's owner → a forged sender
(envelope domain, or the operator's Authentication-Results) → an automatic message (never
answered) → too big → a seat no longer the
sender's, or a game played on the page → no plain text (an HTML-only mail) → a replayed token
(answered with the position now) → a reply written against an older position (answered with the
position now, nothing applied) → no codes, or codes not in that mail (answered with the codes).
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from warlog.catalogs import N_, GameText, Words, game_text, say, translate, words
from warlog.games.service import ServiceError, Viewer, Warlog
from warlog.mailin import parser
from warlog.mailin.play import MailPlay
from warlog.mailin.position import dice_words
from warlog.mailin.store import Inbound, TokenRow
from warlog.mailin.tokens import split_address
from warlog.notify.naming import game_titled, tagged
from warlog.players.store import Player

log = logging.getLogger("warlog.mailin")
MAX_BYTES = 2 * 1024 * 1024  # a reply quoting the board's picture fits; a big attachment does not
JUDGED_WITHIN = 120.0  # seconds to wait for the worker's judgement before leaving it to the next sweep
# Fault injection for the crash test: exit right after a move is submitted, before it is noted.
FAULT_EXIT_ENV = "WARLOG_FAULT_MAIL_IN_EXIT_AFTER_SUBMIT"
# refusals answered to one address per window, at most: nobody can flood a player's inbox through us
MAX_REFUSALS_ANSWERED = 10
ANSWER_WINDOW = timedelta(hours=1)


# Why a code of a reply was not played (kept with the mail's results; said in the reader's language)
NOT_YOUR_TURN, NOT_LEGAL = N_("it is no longer your turn"), N_("it is no longer legal")
EARLIER_NOT_PLAYED, EARLIER_REFUSED = N_("an earlier code was not played"), N_("an earlier code was refused")


@dataclass
class Refusal(Exception):
    verdict: str
    reason: Words | str  # said in the recipient's language; recorded in English
    to: str | None = None  # whom to tell (None: nobody we can trust)
    position: tuple[TokenRow, Player] | None = None  # also show the position now (with a fresh address)


class Processor:
    def __init__(self, play: MailPlay, service: Warlog, *, max_bytes: int = MAX_BYTES,
                 authserv_id: str | None = None, judged_within: float = JUDGED_WITHIN) -> None:
        self.play, self.service, self.mail = play, service, play.mail
        self.max_bytes, self.authserv_id, self.judged_within = max_bytes, authserv_id, judged_within

    def process_all(self) -> int:
        done = 0
        for inbound_id in self.play.mail.received():
            try:
                done += self.process(inbound_id)
            except Exception:
                log.exception("inbound mail %s: processing failed; the next sweep tries again", inbound_id)
        return done

    def process(self, inbound_id: str) -> bool:
        """Judge one inbound mail; True once it is done (False: waiting for the worker)."""
        m = self.mail.inbound(inbound_id)
        if m is None or m.status == "done":
            return True
        try:
            row, owner, codes = self._check(m)
        except Refusal as r:
            self._refuse(m, r)
            return True
        return self._play(m, row, owner, codes)

    # -- checks ----------------------------------------------------------------------------
    def _check(self, m: Inbound) -> tuple[TokenRow, Player, list[str]]:
        msg = parser.parse(m.raw or b"")
        sender = parser.address_of(msg.get("From"))
        self.mail.note(m.id, from_addr=sender or None, message_id=str(msg.get("Message-ID") or "")[:300] or None)
        token = split_address(m.rcpt, self.play.local)
        row = self.mail.token(token[:16]) if token else None
        if token is None or row is None or not self.play.signer.check(token, row.game_id, row.seat, row.at_seq,
                                                                        row.player_id):
            known = self.play.players.by_email(sender) if sender else None
            raise Refusal("refused:unknown-address", words(
                "%(address)s is not a reply address this server gave out (or it was altered). Reply to the latest "
                "turn mail instead.", address=m.rcpt), known.email if known else None)
        self.mail.note(m.id, token_nonce=row.nonce, game_id=row.game_id, seat=row.seat)
        owner = self.play.players.get(row.player_id)
        if owner is None:
            raise Refusal("refused:unknown-address", words("the player this address was made for is gone"))
        if sender != owner.email.strip().lower():
            raise Refusal("refused:other-sender", words(
                "a reply to your turn mail came from %(sender)s, not from your address %(owner)s: it was not "
                "played. Reply from %(owner)s.", sender=sender or words("no address"), owner=owner.email),
                owner.email)
        envelope = parser.envelope_address(m.envelope_from)
        failures = parser.auth_failures(msg, self.authserv_id)
        if failures or (envelope and not parser.same_organisation(parser.domain(envelope), parser.domain(sender))):
            why: Words | str = ", ".join(failures) if failures else words("it was sent by %(envelope)s, another "
                                                                          "domain", envelope=envelope)
            raise Refusal("refused:forged-sender", words(
                "a reply to your turn mail said it was from %(owner)s but %(why)s: it was not played. If it was "
                "yours, reply from your own mail account.", owner=owner.email, why=why), owner.email)
        if parser.automatic(msg):
            raise Refusal("refused:automatic", words(
                "an automatic message (an absence notice?) came to your reply address: it was not read, and is "
                "not answered (robots must not talk to each other)."))
        if m.size > self.max_bytes:
            raise Refusal("refused:too-big", words(
                "your reply was %(size)s KB; replies are taken up to %(most)s KB. Reply again with only the codes "
                "(no attachments).", size=m.size // 1024, most=self.max_bytes // 1024), owner.email)
        if self.play.players.owner(row.game_id, row.seat) != row.player_id:
            raise Refusal("refused:not-your-seat", words("this seat is no longer yours: the reply was not played."),
                          owner.email)
        if self.mail.mode(row.player_id, row.game_id) == "page":
            raise Refusal("refused:page-only", words(
                "you play this game on its page, not by mail: the reply was not played. Play at %(link)s (or "
                "choose mail play in your settings).", link=self.play.link(row.game_id)), owner.email)
        text = parser.plain_text(msg)
        if text is None:
            html_only = parser.has_html(msg)
            raise Refusal("refused:html-only" if html_only else "refused:no-text", words(
                "your reply had no plain-text part (only HTML): it was not read. Reply in plain text (or set your "
                "mail client to send plain text too) with the code on a line of its own, e.g. \"A1\".")
                if html_only else words(
                "your reply had no plain-text part: it was not read. Reply in plain text (or set your mail "
                "client to send plain text too) with the code on a line of its own, e.g. \"A1\"."), owner.email)
        codes = parser.codes_in(text)
        self.mail.note(m.id, codes=codes)
        if row.used_by is not None and row.used_by != m.id:
            raise Refusal("refused:replayed", words(
                "this reply address was used already (each turn mail takes one reply): nothing was played. Here "
                "is the position now."), owner.email, (row, owner))
        try:
            summary = self.service.summary(row.game_id)
        except ServiceError as err:  # the game is gone (archived, deleted): nothing to play it on
            raise Refusal("refused:no-game", words("%(why)s: nothing was played.", why=GameText(err.message)),
                          owner.email) from None
        if summary.last_seq != row.at_seq and row.used_by != m.id:
            raise Refusal("stale", words(
                "your reply was written against event %(at)s but the game has moved on to event %(now)s: it was "
                "not played. Here is the position now.", at=row.at_seq, now=summary.last_seq),
                owner.email, (row, owner))
        known = {c["code"] for c in row.codes}
        if not codes:
            raise Refusal("refused:no-codes", words(
                "your reply had no code in it. Reply with one of the codes below on a line of its own, e.g. "
                "\"A1\" (the same address takes your reply)."), owner.email)
        unknown = [c for c in codes if c not in known]
        if unknown:
            raise Refusal("refused:unknown-codes", words(
                "%(codes)s is not a code of that mail (its codes are A1 to A%(n)s): nothing was played. Reply "
                "again with codes from the list below (the same address takes your reply).",
                codes=", ".join(unknown), n=len(row.codes)), owner.email)
        return row, owner, codes

    def _refuse(self, m: Inbound, r: Refusal) -> None:
        answer_id = None
        if r.to is not None and self.mail.refusals_answered(r.to, ANSWER_WINDOW) >= MAX_REFUSALS_ANSWERED:
            r.reason = r.reason + words(" (not answered: too many refused mails for this address within the hour)")
        elif r.to is not None:
            known = self.play.players.by_email(r.to)
            lang = self.play.language(known.id if known else None)
            not_played = translate(lang, "Not played: %(reason)s", reason=say(r.reason, lang))
            nonce = m.rcpt.rpartition("+")[2][:16] if "+" in m.rcpt else ""
            row = self.mail.token(nonce) if nonce and r.verdict != "refused:unknown-address" else None
            if r.position is not None:
                prow, owner = r.position
                body = self.play.position_body(prow.game_id, prow.seat, owner.id, [not_played])
            elif row is not None and r.verdict in ("refused:no-codes", "refused:unknown-codes",
                                                   "refused:html-only", "refused:no-text", "refused:too-big"):
                body = self._again(row, not_played, lang)  # the same address still takes a reply
            else:
                body = not_played + "\n"
            subject = (self._subject(N_("Not played: %(game)s"), row.game_id).say(lang) if row is not None
                       else translate(lang, "Your mail to Warlog was not read"))
            answer_id = self.play.answer(r.to, subject, body, row.game_id if row else None)
        reason = say(r.reason, None)  # the record's words: English
        self.mail.finish(m.id, r.verdict, reason, answer_id, r.to if answer_id else None)
        log.info("inbound mail %s: %s (%s)", m.id, r.verdict, reason)

    def _subject(self, message: str, game_id: str) -> Words:
        """An answer's subject: `message` naming the game by its titles, its id at the end."""
        return tagged(words(message, game=game_titled(self.service.store, game_id)), game_id)

    def _again(self, row: TokenRow, intro: str, lang: str | None) -> str:
        from warlog.mailin import position as pos

        return pos.text([intro], row.content, row.codes, self.play.reply_address(self._token_of(row)), None, lang)

    def _token_of(self, row: TokenRow) -> str:
        return self.play.signer.token(row.nonce, row.game_id, row.seat, row.at_seq, row.player_id)

    # -- playing ---------------------------------------------------------------------------
    def _play(self, m: Inbound, row: TokenRow, owner: Player, codes: list[str]) -> bool:
        if not self.mail.use_token(row.nonce, m.id):
            self._refuse(m, Refusal("refused:replayed", words(
                "this reply address was used already (each turn mail takes one reply): nothing was played."),
                owner.email, (row, owner)))
            return True
        by_code = {c["code"]: c for c in row.codes}
        results: list[dict[str, Any]] = list(m.results)
        session = self.play.players.new_session(owner.id)  # the mail, checked, acts as its owner's sign-in
        try:
            for i, code in enumerate(codes):
                if i < len(results) and results[i].get("status") in ("resolved", "rejected", "skipped"):
                    continue
                choice = by_code[code]
                key = f"mail-{m.id}-{i}"
                if i >= len(results):  # submitted already, if the process died before noting it
                    seq = self.service.store.idempotent_seq(row.game_id, key, row.seat)
                    if seq is not None:
                        results.append({"code": code, "text": choice["text"], "seq": seq, "status": "pending"})
                if i >= len(results):
                    listing = self.service.actions(row.game_id, Viewer(row.seat))
                    standing = bool(choice.get("standing")) and bool(listing["actions"])  # a move of the seat to act
                    if not standing and choice["action"] not in listing["actions"]:
                        why = NOT_YOUR_TURN if not listing["actions"] else NOT_LEGAL
                        results.append({"code": code, "text": choice["text"], "status": "skipped", "why": why})
                        for rest in codes[i + 1:]:
                            results.append({"code": rest, "text": by_code[rest]["text"], "status": "skipped",
                                            "why": EARLIER_NOT_PLAYED})
                        self.mail.note(m.id, results=results)
                        break
                    # the first code is played against the very position its mail showed, never a later one
                    expected = row.at_seq if i == 0 else int(listing["expected_seq"])
                    try:
                        sub = self.service.submit_move(row.game_id, session, choice["action"], expected, key)
                    except ServiceError as err:
                        results.append({"code": code, "text": choice["text"], "status": "skipped",
                                        "why": err.message})
                        self.mail.note(m.id, results=results)
                        break
                    if os.environ.get(FAULT_EXIT_ENV):  # the crash test: die between the move and its note
                        os._exit(70)
                    results.append({"code": code, "text": choice["text"], "seq": sub["seq"], "status": "pending"})
                    self.mail.note(m.id, results=results)
                judged = self._judged(row.game_id, row.seat, int(results[i]["seq"]))
                if judged is None:
                    return False  # the worker has not judged it yet: the next sweep resumes here
                results[i] = {**results[i], **judged}
                self.mail.note(m.id, results=results)
                if judged["status"] == "rejected":
                    for rest in codes[i + 1:]:
                        results.append({"code": rest, "text": by_code[rest]["text"], "status": "skipped",
                                        "why": EARLIER_REFUSED})
                    self.mail.note(m.id, results=results)
                    break
        finally:
            self.play.players.end_session(session)
        played = sum(1 for r in results if r["status"] == "resolved")
        lang = self.play.language(owner.id)
        body = self.play.position_body(row.game_id, row.seat, owner.id, _reply_lines(codes, results, played, lang))
        subject = self._subject(N_("Played: %(game)s") if played else N_("Not played: %(game)s"), row.game_id)
        answer_id = self.play.answer(owner.email, subject.say(lang), body, row.game_id)
        self.mail.finish(m.id, "applied" if played else "refused:not-played",
                         " ".join(_reply_lines(codes, results, played, None)[1:]), answer_id, owner.email)
        return True

    def _judged(self, game_id: str, seat: str, seq: int) -> dict[str, Any] | None:
        deadline = time.monotonic() + self.judged_within
        pause = 0.02
        while True:
            move = self.service.move(game_id, seq, Viewer(seat))
            if move["status"] != "pending":
                return {"status": move["status"], "facts": [f.get("text", "") for f in move.get("facts", [])],
                        "dice": move.get("dice", []), "reasons": [r.get("message", "") for r in
                                                                 move.get("reasons", [])]}
            if time.monotonic() >= deadline:
                return None
            time.sleep(pause)
            pause = min(pause * 2, 0.5)


def _reply_lines(codes: list[str], results: list[dict[str, Any]], played: int, lang: str | None) -> list[str]:
    """The answer's first lines: what was read, then each code's result, in language `lang`."""
    return [translate(lang, "Your reply (%(codes)s) was read: %(played)s of %(n)s move(s) played.",
                      codes=" ".join(codes), played=played, n=len(codes))] + [_result_words(r, lang) for r in results]


def _result_words(r: dict[str, Any], lang: str | None) -> str:
    """One code's result: played (its facts and dice), refused by the rules (their reasons), or
    not played (why)."""
    from warlog.games.replay import english

    head = f"- {r['code']} ({r['text']})"
    if r["status"] == "resolved":
        facts = translate(lang, "; ").join(game_text(lang, english(f)) for f in r.get("facts", []) if f)
        dice = dice_words(r.get("dice", []), lang)
        details = (f" — {facts}" if facts else "") + (translate(lang, " (dice: %(dice)s)", dice=dice) if dice else "")
        return translate(lang, "%(action)s: played%(details)s.", action=head, details=details)
    if r["status"] == "rejected":
        reasons = translate(lang, "; ").join(game_text(lang, english(x)) for x in r.get("reasons", []))
        return translate(lang, "%(action)s: refused by the rules — %(reasons)s.", action=head, reasons=reasons)
    return translate(lang, "%(action)s: not played — %(why)s.", action=head, why=game_text(lang, r.get("why", "")))
