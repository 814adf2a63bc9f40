"""The app as the deployment tests' gunicorn serves it: warlog.app:create_app() with the test
game (dice-duel) registered, as WARLOG_GAME_MODULES registers it in the worker."""

from typing import Any


def app() -> Any:
    from tests.support.dice_duel import install
    from warlog.app import create_app

    install()
    return create_app()
