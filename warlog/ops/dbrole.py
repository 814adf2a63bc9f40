"""Who the app connects to PostgreSQL as. A superuser (or the tables' owner) can disable or
replace the append-only triggers, so the app refuses to run as a superuser unless the
operator says so (WARLOG_ALLOW_SUPERUSER=1 or --allow-superuser), and warns when it owns the
ledger's tables. docs/deployment.md gives the two roles' commands."""

from __future__ import annotations

import logging
import os

from ledger.store import EventStore, LedgerError

log = logging.getLogger("warlog")
ALLOW_ENV = "WARLOG_ALLOW_SUPERUSER"


class SuperuserRefused(LedgerError, ValueError):
    """The app was pointed at PostgreSQL as a superuser without being told that is intended."""


def allowed_by_env() -> bool:
    return os.environ.get(ALLOW_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def check_app_role(store: EventStore, allow_superuser: bool) -> None:
    """Raise SuperuserRefused for a superuser connection unless allowed; warn for an owner."""
    from ledger.postgres import PostgresStore

    if not isinstance(store, PostgresStore):
        return
    if store.is_superuser():
        if not allow_superuser:
            raise SuperuserRefused(
                f"refusing to run as a PostgreSQL superuser ({store.display_url()}): a superuser can disable "
                f"the ledger's append-only triggers. Connect as the app role (docs/deployment.md), "
                f"or set {ALLOW_ENV}=1 / --allow-superuser if this is intended (a test database)")
        log.warning("running as a PostgreSQL superuser (%s=1): the append-only guarantee holds only "
                    "against roles that do not own the tables", ALLOW_ENV)
    elif store.owns_events():
        log.warning("the app role owns the ledger's tables and could disable their triggers: "
                    "run the app as a role without ownership (docs/deployment.md)")
