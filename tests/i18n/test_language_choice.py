"""Which language a page speaks: the `lang` cookie that the top bar's switch sets, then the
signed-in player's own choice, then the browser's Accept-Language, then English; and the
caches that hold rendered pages keep the languages apart."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.players.conftest import close_app, make_app, settle, sign_in

JA = {"Accept-Language": "ja,en;q=0.5"}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(f"sqlite:///{tmp_path}/warlog.sqlite3", WARLOG_PERIODIC=False)
    yield app
    close_app(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def text(client: FlaskClient, path: str = "/", **headers: str) -> str:
    r = client.get(path, headers=headers)
    assert r.status_code in (200, 404), r.status_code
    return r.get_data(as_text=True)


def test_english_without_any_choice(client: FlaskClient) -> None:
    html = text(client)
    assert '<html lang="en">' in html and "Create the game" in html and "ゲームを作成" not in html


def test_accept_language_ja_gives_the_japanese_lobby(client: FlaskClient) -> None:
    html = text(client, **JA)
    assert '<html lang="ja">' in html
    for words in ("ロビー", "新しいゲーム", "ゲームを作成", "サインイン", "大会"):
        assert words in html
    assert "Create the game" not in html and "New game" not in html


def test_a_language_the_interface_lacks_falls_back_to_english(client: FlaskClient) -> None:
    assert '<html lang="en">' in text(client, **{"Accept-Language": "fr-FR,de;q=0.8"})


def test_the_switch_sets_a_cookie_that_wins_over_accept_language(client: FlaskClient) -> None:
    r = client.get("/lang/en?next=/signin", headers=JA)
    assert r.status_code == 303 and r.headers["Location"].endswith("/signin")
    assert "lang=en" in r.headers["Set-Cookie"] and "HttpOnly" in r.headers["Set-Cookie"]
    html = text(client, "/signin", **JA)
    assert '<html lang="en">' in html and "Sign in to Warlog" in html
    client.get("/lang/ja?next=/")
    assert "Warlog にサインイン" in text(client, "/signin")


def test_every_page_carries_the_switch_back_to_itself(client: FlaskClient) -> None:
    html = text(client, "/signin", **JA)
    assert 'href="/lang/en?next=/signin"' in html and 'href="/lang/ja?next=/signin"' in html
    assert 'aria-current="true">日本語</a>' in html


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:x"])
def test_the_switch_never_sends_the_browser_to_another_site(client: FlaskClient, target: str) -> None:
    r = client.get("/lang/ja", query_string={"next": target})
    assert r.status_code == 303 and r.headers["Location"] in ("/", "http://localhost/")


def test_an_unknown_language_is_a_clear_404(client: FlaskClient) -> None:
    r = client.get("/lang/xx")
    assert r.status_code == 404 and "xx" in r.get_data(as_text=True)


def test_pages_tell_caches_that_they_vary_by_language(client: FlaskClient) -> None:
    assert "Accept-Language" in client.get("/", headers=JA).headers["Vary"]


def test_the_cached_lobby_is_kept_per_language(client: FlaskClient) -> None:
    """The lobby's page, rows and form are rendered once and kept: a Japanese visitor's copy is
    never served to an English one, nor the other way round."""
    client.post("/api/v1/games", json={"game": "assault-on-belgium", "scenario": "may-1940"})
    for _ in range(2):
        ja, en = text(client, **JA), text(client)
        assert "観戦" in ja and "ゲームを作成" in ja and "参加者待ち" in ja
        assert "watch" in en and "Create the game" in en and "waiting for seats" in en and "観戦" not in en


def test_error_pages_speak_the_visitors_language(client: FlaskClient) -> None:
    html = text(client, "/games/0000000000000000", **JA)
    assert "見つかりません" in html or "そのようなページはありません" in html


def test_a_signed_in_players_choice_is_kept_with_the_account(app: Flask, client: FlaskClient) -> None:
    sign_in(app, client, "kenji@example.org", "Kenji")
    client.get("/lang/ja?next=/me")
    other = app.test_client()  # another browser, signed in as the same player, no lang cookie
    sign_in(app, other, "kenji@example.org")
    other.delete_cookie("lang")
    html = text(other, "/me", **{"Accept-Language": "en"})
    assert '<html lang="ja">' in html and "マイゲーム" in html
    assert app.extensions["warlog_languages"].get(app.extensions["warlog_players"].by_email("kenji@example.org").id) == "ja"


def test_the_sign_in_mail_is_in_the_players_language(app: Flask, client: FlaskClient) -> None:
    sign_in(app, client, "aiko@example.org", "Aiko")
    client.get("/lang/ja?next=/")
    fresh = app.test_client()  # asks from an English page: the mail still follows her choice
    from tests.pages.conftest import ORIGIN, csrf_of

    app.extensions["warlog_players"].signin_every = __import__("datetime").timedelta(0)
    r = fresh.post("/signin", data={"csrf": csrf_of(fresh, "/signin"), "email": "aiko@example.org"}, headers=ORIGIN)
    assert r.status_code == 200
    settle(app)
    mail = app.extensions["warlog_notifier"].outbox(to="aiko@example.org")[0]
    assert mail["subject"] == "Warlog のサインインリンク" and "Aiko さん" in mail["body"], mail


def test_a_new_address_gets_its_mail_in_the_language_of_the_page_that_asked(app: Flask, client: FlaskClient) -> None:
    from tests.pages.conftest import ORIGIN, csrf_of

    r = client.post("/signin", data={"csrf": csrf_of(client, "/signin"), "email": "new@example.org"},
                    headers={**ORIGIN, **JA})
    assert r.status_code == 200 and "サインインリンクを送信しました" in r.get_data(as_text=True)
    settle(app)
    mail = app.extensions["warlog_notifier"].outbox(to="new@example.org")[0]
    assert mail["subject"] == "Warlog アカウント" and "アカウントが作成されます" in mail["body"]


def test_the_page_script_gets_its_words_in_the_pages_language(client: FlaskClient) -> None:
    assert 'id="i18n-messages"' not in text(client)  # English: the script keeps its own words
    html = text(client, **JA)
    words = json.loads(html.split('id="i18n-messages">', 1)[1].split("</script>", 1)[0])
    assert words["Confirm move"] == "移動を確定" and words["Cancel"] == "取り消し"
