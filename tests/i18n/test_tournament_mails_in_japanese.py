"""A tournament's mails in each recipient's language, by real SMTP (aiosmtpd): players who chose
Japanese get their registration, pairing, bye, announcement, re-pairing, withdrawal and
"opponent withdrew" mails, the director their "round complete" mail, and the clock's deadline
mails in Japanese; a player who chose nothing gets the same mails in English."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from email.header import decode_header, make_header
from email.message import Message

import pytest
from flask import Flask

from tests.notify.conftest import Smtp, smtp  # noqa: F401  (the real SMTP server fixture)
from tests.players.conftest import FakeNow, close_app, make_app, settle

API = "/api/v1/tournaments"
# an English sentence of the interface left in a mail: two English words in a row
ENGLISH = re.compile(r"\b(?:you|your|the|of|in|round|game|is|are|has|a|an|and|by|to|from|withdrew|writes)\b"
                     r" [A-Za-z]{2,}", re.IGNORECASE)


@pytest.fixture
def fake() -> FakeNow:
    return FakeNow()


@pytest.fixture
def mapp(tmp_path: object, smtp: Smtp, fake: FakeNow) -> Iterator[Flask]:  # noqa: F811
    app = make_app(f"sqlite:///{tmp_path}/warlog.sqlite3", WARLOG_PERIODIC=False, WARLOG_SMTP_URL=smtp.url,
                   WARLOG_PUBLIC_URL="https://warlog.example")
    app.extensions["warlog_clock"].now = fake
    yield app
    close_app(app)


def _subject(m: Message) -> str:
    return " ".join(str(make_header(decode_header(m["Subject"]))).split())


def _text(m: Message) -> str:
    part = m.get_payload(0) if m.is_multipart() else m
    payload = part.get_payload(decode=True)  # type: ignore[union-attr]
    assert isinstance(payload, bytes)
    return payload.decode()


class Box:
    """The mails arrived since the last look, once the notifier has handed every queued one over."""

    def __init__(self, app: Flask, smtp: Smtp) -> None:  # noqa: F811
        self.app, self.smtp, self.seen = app, smtp, 0

    def new(self) -> list[tuple[str, str, str]]:
        settle(self.app)
        self.app.extensions["warlog_queue"].drain()
        settle(self.app)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            queued = self.app.extensions["warlog_notifier"].db.one(
                "SELECT COUNT(*) FROM notify_deliveries WHERE status IN ('queued', 'retrying')")[0]
            if not queued:
                break
            time.sleep(0.05)
        got = self.smtp.messages[self.seen:]
        self.seen += len(got)
        return [(str(m["To"]), _subject(m), _text(m)) for m in got]


NAMES = {"director": "監督", "ann": "杏", "bob": "Bob", "cid": "志津"}  # Bob chose no language: English
# what the tournament's people wrote (its name, the announcement, reasons): in any mail as written
DATA = ("冬の大会", "第 2 ラウンドは月曜日から", "組み合わせの誤り", "忙しくなった", *NAMES.values())


def _check(mails: list[tuple[str, str, str]], to: str, ja: list[str], en: list[str]) -> None:
    """`to`'s mails among `mails` (at least one): in Japanese with the words `ja` if `to` chose
    Japanese, else in English with the words `en`."""
    own = [(s, t) for addr, s, t in mails if addr.startswith(to + "@")]
    assert own, f"no mail to {to}: {[(a, s) for a, s, _ in mails]}"
    joined = "\n".join(s + "\n" + t for s, t in own)
    if to == "bob":
        missing = [w for w in en if w not in joined]
        for d in DATA:
            joined = joined.replace(d, "")
        assert not missing and not re.search("[ぁ-んァ-ン]", joined), (missing, joined)
        return
    for subject, text in own:
        for part in (subject, text):
            left = ENGLISH.search(part.replace("https://warlog.example", ""))
            assert not left, f"English left in a Japanese mail to {to}: {left.group(0)!r} in {part!r}"
    missing = [w for w in ja if w not in joined]
    assert not missing, (to, missing, joined)


def test_a_tournaments_mails_follow_each_players_language(mapp: Flask, smtp: Smtp, fake: FakeNow) -> None:  # noqa: F811
    box = Box(mapp, smtp)
    players, languages = mapp.extensions["warlog_players"], mapp.extensions["warlog_languages"]
    ids, tokens = {}, {}
    for key, name in NAMES.items():
        p = players.register(name, f"{key}@example.org")
        ids[key], tokens[key] = p.id, players.issue_token(p.id)
        if key != "bob":
            languages.set(p.id, "ja")
    key_of = {pid: key for key, pid in ids.items()}
    client = mapp.test_client()

    def post(path: str, who: str, body: dict[str, object], status: int = 200) -> dict[str, object]:
        r = client.post(API + path, json=body, headers={"Authorization": f"Bearer {tokens[who]}"})
        assert r.status_code == status, (path, r.status_code, r.get_json())
        out = r.get_json()
        assert isinstance(out, dict)
        return out

    tid = str(post("", "director", {"name": "冬の大会", "game": "assault-on-belgium",
                                    "format": {"kind": "swiss", "rounds": 2, "withdrawal": "forfeit"},
                                    "time_control": {"days": 1, "remind_hours": 12, "policy": "notify_director"}},
                   status=201)["id"])
    for key in ("ann", "bob", "cid"):
        post(f"/{tid}/register", key, {})
    mails = box.new()
    for key in ("ann", "bob", "cid"):
        _check(mails, key, ["冬の大会:参加登録が完了しました", "冬の大会(スイス式、Assault on Belgium)に参加登録しました"],
               ["冬の大会: you are registered", "You are registered in 冬の大会 (Swiss, Assault on Belgium)"])

    doc = post(f"/{tid}/rounds", "director", {}, status=201)
    mails = box.new()
    bye = key_of[doc["rounds_list"][0]["byes"][0]]  # type: ignore[index]
    [game] = doc["games"]  # type: ignore[misc]
    gid, seats = game["game_id"], {role: s["player_id"] for role, s in game["seats"].items()}
    _check(mails, bye, ["冬の大会:第 1 ラウンドは不戦勝(バイ)です", "このラウンドに対局はありません"],
           ["冬の大会: a bye in round 1", "nothing to play this round"])
    for pid in seats.values():
        _check(mails, key_of[pid], [f"冬の大会:第 1 ラウンド(Assault on Belgium — 1940年5月) [{gid}]",
                                    f"あなたはAssault on Belgium(1940年5月)のゲーム {gid} で"],
               [f"冬の大会: round 1 (Assault on Belgium — May 1940) [{gid}]", "you play"])

    # the clock reminds the seat to move of its deadline
    mover = key_of[game["to_move"][0]]
    fake.advance(hours=12, minutes=1)
    assert mapp.extensions["warlog_clock"].sweep()["reminded"] == 1
    mails = box.new()
    _check(mails, mover, [f"まもなく期限:Assault on Belgium — 1940年5月 [{gid}]", f"Assault on Belgium(1940年5月)のゲーム {gid} でのあなたの手"],
           [f"冬の大会: Deadline soon: Assault on Belgium — May 1940 [{gid}]", "is due by"])

    post(f"/{tid}/announcements", "director", {"text": "第 2 ラウンドは月曜日から"}, status=201)
    mails = box.new()
    for key in ("ann", "bob", "cid"):
        _check(mails, key, ["冬の大会:お知らせ", "監督 からのお知らせ:", "第 2 ラウンドは月曜日から"],
               ["冬の大会: an announcement", "監督 writes:"])

    # re-pairing: the bye player takes a seat of the game, whose player gets the bye
    leaving_role = sorted(seats)[0]
    leaving = key_of[seats[leaving_role]]
    seats[leaving_role] = ids[bye]
    post(f"/{tid}/rounds/1/repair", "director", {"pairings": [{"seats": seats}], "byes": [ids[leaving]],
                                                  "reason": "組み合わせの誤り"})
    mails = box.new()
    _check(mails, bye, ["冬の大会:第 1 ラウンドの組み直し", "が組み直されました(組み合わせの誤り)"],
           ["冬の大会: round 1 re-paired", "was re-paired (組み合わせの誤り)"])
    _check(mails, leaving, ["冬の大会:第 1 ラウンドは不戦勝(バイ)です"], ["冬の大会: a bye in round 1"])

    # a withdrawal: the player is told, and the opponent, whose game is forfeited to them
    quitter = bye
    other = key_of[next(pid for pid in seats.values() if pid != ids[quitter])]
    post(f"/{tid}/withdraw", "director", {"player_id": ids[quitter], "reason": "忙しくなった"})
    mails = box.new()
    _check(mails, quitter, ["冬の大会:棄権しました", "冬の大会 を棄権しました(忙しくなった)。"],
           ["冬の大会: you are withdrawn", "You are withdrawn from 冬の大会 (忙しくなった)."])
    _check([m for m in mails if "棄権" in m[1] or "withdrew" in m[1]], other,
           ["冬の大会:対戦相手が棄権しました", "はあなたの不戦勝となります(大会の規定)"],
           ["冬の大会: your opponent withdrew", "the game is forfeited to you"])
    # the forfeit completes round 1: the director, who chose Japanese, is told
    box.new()
    assert client.get(f"{API}/{tid}").status_code == 200  # a look syncs the judged forfeit: round 1 is complete
    mails += box.new()
    _check([m for m in mails if "ラウンド" in m[1] or "round" in m[1]], "director",
           ["冬の大会:第 1 ラウンドが完了しました", "ディレクター画面から次のラウンドを組み合わせてください。"], [])
