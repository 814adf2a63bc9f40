"""Play by mail in the real deployment: PostgreSQL, Redis, a `warlog worker` process that judges
the moves and sends the mail, and `warlog mail-in --redis` that only takes the replies."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mailin.conftest import MailIn, Table, mail_config, text_of
from tests.notify.conftest import Smtp
from tests.players.conftest import close_app, make_app
from tests.worker.conftest import redis_url  # noqa: F401  (the emptied test Redis)
from tests.worker.test_rq_workers import Workers


@pytest.mark.slow
def test_a_dice_duel_by_mail_with_rq_workers_on_postgresql(pg_url: str, redis_url: str, smtp: Smtp,  # noqa: F811
                                                           log_key: str, tmp_path: Path) -> None:
    env = mail_config(pg_url, smtp.url, log_key)
    app = make_app(pg_url, **env, WARLOG_REDIS=redis_url)
    workers = Workers(pg_url, redis_url, tmp_path)
    workers.start("w1", **env)
    mail_in = MailIn({**env, "WARLOG_REDIS": redis_url}, tmp_path, "--redis", redis_url).start()
    try:
        table = Table(app, smtp, mail_in, "dice-duel", "long")
        try:  # the worker process's first judgement and mail: slow to come on a loaded machine
            table.next_turn(timeout=120)
        except AssertionError as err:
            raise AssertionError(f"{err}\nthe worker's log:\n{(tmp_path / 'w1.log').read_text()[-4000:]}") from None
        replies = table.play(lambda seat, msg, codes: "A1 A1 A2")
        assert table.game.info()["status"] == "ended" and replies >= 3
        played = [m for m in table.answers() if str(m["Subject"]).startswith("Played:")]
        assert len(played) == replies and "d6 rolled" in text_of(played[0])
    finally:
        mail_in.stop()
        workers.stop()
        close_app(app)
