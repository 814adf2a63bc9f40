"""The OpenAPI paths of /api/v1/players and of a game's clock (merged into warlog.openapi)."""

from __future__ import annotations

from typing import Any

PLAYER = [{"player": []}]


def _body(name: str) -> dict[str, Any]:
    """A request body: the component `name`, from the schema that loads it (validators.players)."""
    return {"required": True, "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{name}"}}}}


STR = {"type": "string"}
def _ref(description: str, name: str) -> dict[str, Any]:
    """An answer whose body is the component `name` (validators.player_responses)."""
    return {"description": description, "content": {"application/json": {"schema": {
        "$ref": f"#/components/schemas/{name}"}}}}


SENT = _ref("the same answer whether or not the address has an account", "Sent")
ERR = _ref("error", "Error")


def security_scheme() -> tuple[str, dict[str, Any]]:
    return "player", {"type": "http", "scheme": "bearer", "description": "a player's personal API token (wp_…)"}


def paths() -> dict[str, dict[str, Any]]:
    gid = {"name": "game_id", "in": "path", "required": True, "schema": STR}
    pid = {"name": "player_id", "in": "path", "required": True, "schema": STR}
    link = {"name": "secret", "in": "path", "required": True, "schema": STR}
    return {
        "/api/v1/players": {"post": {
            "summary": "register: mails a link that creates the account (or signs in an existing one)",
            "requestBody": _body("Register"),
            "responses": {"202": SENT, "400": ERR, "422": ERR}}},
        "/api/v1/players/signin": {"post": {
            "summary": "mail a single-use sign-in link", "requestBody": _body("Signin"),
            "responses": {"202": SENT, "400": ERR, "422": ERR}}},
        "/api/v1/players/signin/{secret}": {"post": {
            "summary": "use a sign-in link: the player and a new personal API token (shown once)",
            "parameters": [link], "requestBody": _body("UseLink"),
            "responses": {"200": _ref("signed in", "SignedIn"), "410": ERR,
                          "422": ERR}}},
        "/api/v1/players/me": {"get": {
            "summary": "the player, their games (whose turn, deadline) and other sections", "security": PLAYER,
            "responses": {"200": _ref("the player", "Me"), "401": ERR}}},
        "/api/v1/players/me/token": {"post": {
            "summary": "a new personal API token (the old one stops working)", "security": PLAYER,
            "responses": {"200": _ref("the new token", "Token"), "401": ERR}}},
        "/api/v1/players/claim": {"post": {
            "summary": "make a seat the bearer's, proved by its seat token", "security": PLAYER,
            "requestBody": _body("Claim"),
            "responses": {"200": _ref("claimed", "Claimed"), "401": ERR, "403": ERR, "404": ERR, "409": ERR}}},
        "/api/v1/players/{player_id}": {"get": {
            "summary": "a public profile (never the e-mail address)", "parameters": [pid],
            "responses": {"200": _ref("the player", "PublicPlayer"), "404": ERR}}},
        "/api/v1/games/{game_id}/clock": {
            "get": {"summary": "the game's time control, deadlines and the clock's acts", "parameters": [gid],
                    "responses": {"200": _ref("the clock", "Clock"), "403": ERR, "404": ERR}},  # 403: a private game
            "post": {"summary": "the director sets the game's time control", "parameters": [gid],
                     "security": [{"seat": []}],
                     "requestBody": {"required": True, "content": {"application/json": {"schema": {
                         "$ref": "#/components/schemas/TimeControl"}}}},  # validators.tournaments
                     "responses": {"200": _ref("the clock", "Clock"), "400": ERR, "401": ERR, "403": ERR, "404": ERR, "409": ERR,
                                   "422": ERR}}},
    }
