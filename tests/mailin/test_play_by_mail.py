"""Whole games played by mail only: each seat reads its turn mail (position, last moves, legal
actions with codes) and replies with codes to its signed reply address; `warlog mail-in` takes
the replies over SMTP, plays them and answers; the game ends and its export verifies."""

from __future__ import annotations

import random
import time
from email.message import Message
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask import Flask

from tests.mailin.conftest import MailIn, Table, codes_of, mail_config, text_of
from tests.notify.conftest import Smtp
from tests.players.conftest import close_app, make_app
from warlog.cli import main


def verify_export(table: Table, tmp_path: Path) -> None:
    exported = tmp_path / "game.jsonl"
    r = CliRunner().invoke(main, ["export", table.game.id, "--db", table.app.config["WARLOG_DB"],
                                  "--out", str(exported)])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["verify", str(exported)])
    assert r.exit_code == 0 and r.output.startswith("OK"), r.output


@pytest.mark.slow
def test_a_dice_duel_is_played_whole_by_mail_with_code_sequences(mail_app: Flask, smtp: Smtp, mail_in,
                                                                  tmp_path: Path) -> None:
    table = Table(mail_app, smtp, mail_in, "dice-duel", "long")
    first = table.next_turn()
    assert first is not None and first.get_content_type() == "multipart/alternative"
    text = text_of(first)
    assert "It is your turn" in text and "Your move:" in text
    assert codes_of(first) == {"A1": "type=roll", "A2": "type=bank"}, text
    assert str(first["Reply-To"]).startswith("play+") and str(first["Reply-To"]).endswith("@warlog.test")
    # roll twice, then bank: a sequence the rules allow while the turn lasts (a 1 ends it early)
    replies = table.play(lambda seat, msg, codes: "A1 A1 A2")
    assert table.game.info()["status"] == "ended"
    assert replies >= 3  # at most 12 points a turn, 30 to win
    answers = [m for m in smtp.messages if str(m["Subject"]).startswith("Played:")]
    assert len(answers) == replies  # every reply had its answer
    said = text_of(answers[0])
    assert "was read:" in said and "A1 (type=roll): played" in said and "d6 rolled" in said, said
    assert smtp.wait_until(lambda m: str(m["Subject"]).startswith("Game ended"))
    verify_export(table, tmp_path)


def _last_code(seat: str, msg: Message, codes: dict[str, str]) -> str:
    return max(codes, key=lambda c: int(c[1:]))


def test_assault_on_belgium_by_mail_shows_the_board_and_plays_to_the_end(mail_app: Flask, smtp: Smtp, mail_in,
                                                                         tmp_path: Path) -> None:
    """The last code of each mail: both set-ups standard, then Germany ends its movement at once
    and the game ends (AoB 3): a whole game of Assault on Belgium by mail."""
    table = Table(mail_app, smtp, mail_in, "assault-on-belgium", "may-1940")
    first = table.next_turn()
    assert first is not None
    html = next(p for p in first.walk() if p.get_content_type() == "text/html")
    png = next(p for p in first.walk() if p.get_content_type() == "image/png")
    assert png["Content-ID"] and f"cid:{str(png['Content-ID']).strip('<>')}" in html.get_payload(decode=True).decode()
    assert png.get_payload(decode=True).startswith(b"\x89PNG")
    assert "use the standard set-up" in codes_of(first).values()
    table.play(_last_code)
    assert table.game.info()["status"] == "ended"
    verify_export(table, tmp_path)


def test_an_assault_on_belgium_game_of_random_codes_is_played_whole_by_mail(db_url: str, smtp: Smtp, log_key: str,
                                                                 tmp_path: Path) -> None:
    """Both seats choose a code at random (seeded) from every mail until the game ends (about a
    hundred replies, each stored, judged and answered; the board's picture is left out for speed:
    the test above checks it), and the export verifies."""
    env = mail_config(db_url, smtp.url, log_key, WARLOG_MAIL_BOARD="0")
    app = make_app(db_url, **env, WARLOG_PERIODIC=False)
    mail_in = MailIn(env, tmp_path).start()
    try:
        table = Table(app, smtp, mail_in, "assault-on-belgium", "may-1940")
        rng = random.Random(1940)
        started = time.monotonic()
        replies = table.play(lambda seat, msg, codes: rng.choice(sorted(codes)), limit=5000)
        took = time.monotonic() - started
        print(f"AoB by mail: {replies} replies in {took:.0f} s ({took / replies * 1000:.0f} ms a reply)")
        info = table.game.info()
        print(f"outcome: {info.get('outcome')}")
        assert info["status"] == "ended" and replies > 50
        verify_export(table, tmp_path)
    finally:
        mail_in.stop()
        close_app(app)
