"""The owner's migrations make the same service tables that the modules create on an embedded
ledger: migration 4 (players, notifications, clocks, tournaments) and migration 11 (play by mail,
time away) and migration 12 (messages, calendar links, players' languages) keep frozen copies of each module's DDL, so that a deployment's app role never runs
DDL. A module whose tables change without a new migration fails here: in a deployment its
`create_schema` would find the old tables, or try DDL the app role may not run."""

from __future__ import annotations

import re

import pytest

from ledger.migrations.services import SERVICES
from ledger.migrations.services_11 import SERVICES_11
from ledger.migrations.services_12 import SERVICES_12
from warlog.catalogs import DDL as LANGUAGES
from warlog.clock.away_schema import DDL as AWAY
from warlog.clock.schema import DDL as CLOCK
from warlog.mailin.schema import DDL as MAIL
from warlog.messages.book import DDL as MESSAGES
from warlog.notify.schema import DDL as NOTIFY
from warlog.ops.sqldb import Ddl
from warlog.players.schema import DDL as PLAYERS
from warlog.tournaments.publish import DDL as CALENDAR
from warlog.tournaments.store import DDL as TOURNAMENTS


def _statements(script: str) -> set[str]:
    return {re.sub(r"\s+", " ", s).strip() for s in script.split(";") if s.strip()}


@pytest.mark.parametrize(("ddl", "copies"), [(PLAYERS, SERVICES), (NOTIFY, SERVICES), (CLOCK, SERVICES),
                                             (TOURNAMENTS, SERVICES), (MAIL, SERVICES_11), (AWAY, SERVICES_11),
                                             (MESSAGES, SERVICES_12), (CALENDAR, SERVICES_12), (LANGUAGES, SERVICES_12)],
                         ids=["players", "notify", "clock", "tournaments", "mailin", "away", "messages", "calendar", "languages"])
def test_each_module_table_is_made_by_the_migration_that_copies_it(ddl: Ddl, copies: list[str]) -> None:
    frozen = {re.sub(r"\s+", " ", s).strip() for s in copies}
    for dialect in (ddl.sqlite, ddl.postgresql):
        missing = _statements(dialect) - frozen
        assert not missing, f"{ddl.name}: not in its migration (add a new migration): {sorted(missing)}"
