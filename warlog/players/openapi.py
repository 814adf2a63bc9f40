"""The OpenAPI paths of /api/v1/players and of a game's clock (merged into warlog.api.openapi)."""

from __future__ import annotations

from typing import Any

from warlog.players.store import PLAYER_ID

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
AWAY = _ref("the player's leave, grants, allowance, quiet hours and policy", "Away")
PAUSE = _ref("the game's pause", "PauseState")


def security_scheme() -> tuple[str, dict[str, Any]]:
    return "player", {"type": "http", "scheme": "bearer", "description": "a player's personal API token (wp_…)"}


def paths() -> dict[str, dict[str, Any]]:
    gid = {"name": "game_id", "in": "path", "required": True, "schema": STR}
    G = "/api/v1/games/{game_id}"
    pid = {"name": "player_id", "in": "path", "required": True,
           "schema": {"type": "string", "pattern": f"^{PLAYER_ID}$"}}
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
        "/api/v1/players/{player_id}/pace": {"get": {
            "summary": "the player's pace record: time to move (median, 90th percentile), moves in a deadline's "
                       "last hour, late moves, extensions and leave, per game and overall, from the ledgers' times",
            "parameters": [pid], "responses": {"200": _ref("the pace record", "Pace"), "404": ERR}}},
        # messages between the seats (warlog.messages)
        G + "/messages": {
            "get": {"summary": "the game's messages the bearer may read: a seat's own and those to it; the director's, "
                               "those to or reported to the director, and all of them once a dispute is raised",
                    "parameters": [gid], "security": [{"seat": []}, {"player": []}],
                    "responses": {"200": _ref("the messages", "Messages"), "401": ERR, "403": ERR, "404": ERR}},
            "post": {"summary": "a seat writes to the other seats or the director (plain text, at most 1000 characters, "
                                "12 an hour); the ledger records only its digest", "parameters": [gid],
                     "security": [{"seat": []}, {"player": []}], "requestBody": _body("SendMessage"),
                     "responses": {"201": _ref("the message", "OneMessage"), "400": ERR, "401": ERR, "403": ERR,
                                   "404": ERR, "422": ERR, "429": ERR}}},
        G + "/messages/{message_id}/report": {"post": {
            "summary": "a recipient reports a message to the director (who may read it from then on)",
            "parameters": [gid, {"name": "message_id", "in": "path", "required": True, "schema": STR}],
            "security": [{"seat": []}, {"player": []}],
            "requestBody": _body("ReportMessage"),
            "responses": {"200": _ref("the message", "OneMessage"), "400": ERR, "401": ERR, "403": ERR, "404": ERR,
                          "422": ERR}}},
        G + "/messages/mute": {"post": {
            "summary": "a seat mutes (or unmutes) the game's messages: none is mailed to it, the board folds them",
            "parameters": [gid], "security": [{"seat": []}, {"player": []}],
            "requestBody": _body("MuteMessages"),
            "responses": {"200": _ref("muted or not", "Muted"), "400": ERR, "401": ERR, "403": ERR, "404": ERR}}},
        "/api/v1/games/{game_id}/clock": {
            "get": {"summary": "the game's time control, deadlines and the clock's acts", "parameters": [gid],
                    "responses": {"200": _ref("the clock", "Clock"), "403": ERR, "404": ERR}},  # 403: a private game
            "post": {"summary": "the director sets the game's time control", "parameters": [gid],
                     "security": [{"seat": []}],
                     "requestBody": {"required": True, "content": {"application/json": {"schema": {
                         "$ref": "#/components/schemas/TimeControl"}}}},  # validators.tournaments
                     "responses": {"200": _ref("the clock", "Clock"), "400": ERR, "401": ERR, "403": ERR, "404": ERR, "409": ERR,
                                   "422": ERR}}},
        # time away from the board (warlog.clock.away_web)
        "/api/v1/players/me/leave": {
            "get": {"summary": "the player's leave, grants, allowance this year, quiet hours and the server's policy",
                    "security": PLAYER, "responses": {"200": AWAY, "401": ERR}},
            "post": {"summary": "declare leave (whole UTC days) for all the player's games: their clocks stop, "
                                "opponents are told", "security": PLAYER, "requestBody": _body("Leave"),
                     "responses": {"201": AWAY, "401": ERR, "422": ERR}}},
        "/api/v1/players/me/quiet": {"put": {
            "summary": "set the player's weekly quiet hours (UTC), when their clock does not run", "security": PLAYER,
            "requestBody": _body("Quiet"), "responses": {"200": AWAY, "401": ERR, "422": ERR}}},
        "/api/v1/games/{game_id}/pause": {
            "get": {"summary": "the pause asked or running in the game (null: none)", "parameters": [gid],
                    "responses": {"200": PAUSE, "403": ERR, "404": ERR}},
            "post": {"summary": "a seat asks for a pause, agrees to the one asked, or resumes (declines)",
                     "parameters": [gid], "security": [{"seat": []}], "requestBody": _body("Pause"),
                     "responses": {"200": PAUSE, "401": ERR, "403": ERR, "404": ERR, "409": ERR, "422": ERR}}},
        "/api/v1/games/{game_id}/leave-grants": {"post": {
            "summary": "the game's director grants a seat's player extra leave this year, with a reason",
            "parameters": [gid], "security": [{"seat": []}], "requestBody": _body("GrantLeave"),
            "responses": {"201": _ref("granted", "LeaveGranted"), "401": ERR, "403": ERR, "404": ERR, "409": ERR, "422": ERR}}},
    }
