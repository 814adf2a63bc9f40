"""The tournament API's part of the OpenAPI document (schemas from validators.tournaments)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from validators.tournaments import SCHEMAS, ListQuerySchema, TournamentQuerySchema, VoidPreviewQuerySchema
from warlog.api.export_media import export_content

PLAYER = [{"player": []}]


def tournament_paths(spec: Any, resp: Callable[..., dict[str, Any]], errors: dict[str, Any]) -> dict[str, Any]:
    for name, schema in SCHEMAS.items():
        spec.components.schema(name, schema=schema)

    def body(ref: str) -> dict[str, Any]:
        """A JSON body the route requires (its schema refuses a missing one: `required`, as POST /games)."""
        return {"required": True, "content": {"application/json": {"schema": ref}}}

    def typed(description: str, name: str) -> dict[str, Any]:  # validators.tournament_responses
        return {"description": description, "content": {"application/json": {"schema": {
            "$ref": f"#/components/schemas/{name}"}}}}

    def err(*codes: str) -> dict[str, Any]:
        return {k: errors[k] for k in codes if k in errors}

    tid = {"name": "tid", "in": "path", "required": True, "schema": {"type": "string"}}
    gid = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
    base = "/api/v1/tournaments"
    act = err("401", "403", "404", "409", "422")  # 401: no signed-in player
    return {
        base: {
            "get": {"summary": "tournaments, newest first, 25 a page", "parameters": [
                {"in": "query", "schema": ListQuerySchema}],  # limits from the schema that checks them
                "responses": {"200": typed("tournaments and next_cursor", "TournamentsPage")}},
            "post": {"summary": "create a tournament (the caller directs it)", "security": PLAYER,
                     "requestBody": body("CreateTournament"), "responses": {"201": typed("the tournament", "Tournament"), **act}}},
        base + "/ratings": {"get": {"summary": "OpenSkill ratings re-derived from every tournament result",
                                    "responses": {"200": typed("ratings", "Ratings")}}},
        base + "/{tid}": {"get": {"summary": "the tournament: entrants, rounds, games (status, deadline), "
                                             "standings, crosstable, disputes", "parameters": [tid, {
                                      "in": "query", "schema": TournamentQuerySchema}],
                                  "responses": {"200": typed("the tournament", "Tournament"), **err("404")}}},
        base + "/{tid}/register": {"post": {"summary": "register the caller", "parameters": [tid],
                                            "security": PLAYER, "responses": {"200": typed("the tournament (summary)", "TournamentSummary"), **act}}},
        base + "/{tid}/withdraw": {"post": {"summary": "withdraw (oneself; the director: anyone)",
                                            "parameters": [tid], "security": PLAYER, "requestBody": body("Withdraw"),
                                            "responses": {"200": typed("the tournament (summary)", "TournamentSummary"), **act}}},
        base + "/{tid}/rounds": {"post": {"summary": "director: pair the next round and make its games",
                                          "parameters": [tid], "security": PLAYER,
                                          "responses": {"201": typed("the tournament", "Tournament"), **act}}},
        base + "/{tid}/rounds/{number}/repair": {"post": {
            "summary": "director: re-pair the current round by hand, with a reason", "security": PLAYER,
            "parameters": [tid, {"name": "number", "in": "path", "required": True, "schema": {"type": "integer"}}],
            "requestBody": body("Repair"), "responses": {"200": typed("the tournament", "Tournament"), **act}}},
        base + "/{tid}/games/{game_id}/adjudicate": {"post": {
            "summary": "director: award a win, draw or forfeit (`forfeiting`: who forfeits; duplicate: end) — a "
                       "ruling in the game, then the tournament's result; the same award twice is one ruling",
            "parameters": [tid, gid], "security": PLAYER, "requestBody": body("Adjudicate"),
            "responses": {"202": typed("the game ruling's submission", "TournamentAward"), **act}}},
        base + "/{tid}/games/{game_id}/correct": {"post": {
            "summary": "director: correct a recorded result — an award ruling in the ended game; once the game "
                       "has judged it, the tournament records result_corrected", "parameters": [tid, gid],
            "security": PLAYER, "requestBody": body("Adjudicate"),
            "responses": {"202": typed("the game ruling's submission", "TournamentAward"), **act}}},
        base + "/{tid}/games/{game_id}/void-preview": {"get": {
            "summary": "director: the dry run of a void — the resolutions, moves and seats it would undo",
            "parameters": [tid, gid, {"in": "query", "schema": VoidPreviewQuerySchema}], "security": PLAYER,
            "responses": {"200": typed("what the void would undo", "VoidPreview"), **err("401", "403", "404")}}},
        base + "/{tid}/games/{game_id}/extend": {"post": {
            "summary": "director: extend a player's deadline", "parameters": [tid, gid], "security": PLAYER,
            "requestBody": body("Extend"), "responses": {"200": typed("the tournament (summary)", "TournamentSummary"), **act}}},
        base + "/{tid}/games/{game_id}/rulings": {"post": {
            "summary": "director: a ruling in the game (void and re-resolve, adjust, award), recorded in the "
                       "tournament too", "parameters": [tid, gid], "security": PLAYER,
            "requestBody": body("GameRuling"), "responses": {"202": typed("the ruling's events", "TournamentRuling"), **act}}},
        base + "/{tid}/disputes": {"post": {"summary": "a player disputes an event of their game",
                                            "parameters": [tid], "security": PLAYER, "requestBody": body("Dispute"),
                                            "responses": {"201": typed("the dispute's seq", "DisputeOpened"), **act}}},
        base + "/{tid}/disputes/{dispute}": {"post": {
            "summary": "director: dismiss a dispute, or rule (void, adjust, award) in the game",
            "parameters": [tid, {"name": "dispute", "in": "path", "required": True, "schema": {"type": "integer"}}],
            "security": PLAYER, "requestBody": body("Answer"), "responses": {"200": typed("the dispute", "DisputeRecord"), **act}}},
        base + "/{tid}/directors": {"post": {
            "summary": "the director who created the tournament names a co-director (a director_added event); a "
                       "director who plays in a game never acts on it: a co-director rules there",
            "parameters": [tid], "security": PLAYER, "requestBody": body("AddDirector"),
            "responses": {"200": typed("the tournament", "Tournament"), **act}}},
        base + "/{tid}/announcements": {"post": {
            "summary": "director: a word to every entrant (mail and webhook), kept on the tournament page",
            "parameters": [tid], "security": PLAYER, "requestBody": body("Announce"),
            "responses": {"201": typed("the tournament (summary)", "TournamentSummary"), **act}}},
        base + "/{tid}/invitations": {"post": {
            "summary": "director: re-issue a lost invitation — a new seat link mailed to the player (answered "
                       "once here), the old one revoked, recorded as invitation_reissued",
            "parameters": [tid], "security": PLAYER, "requestBody": body("Reissue"),
            "responses": {"201": typed("the new seat link", "SeatLink"), **act}}},
        base + "/{tid}/replacements": {"post": {
            "summary": "director: a substitute takes an abandoned seat and the player's place (seat_replaced)",
            "parameters": [tid], "security": PLAYER, "requestBody": body("Replace"),
            "responses": {"200": typed("the tournament (summary)", "TournamentSummary"), **act}}},
        base + "/{tid}/end": {"post": {"summary": "director: end after the last round; reveals the pairing seed",
                                       "parameters": [tid], "security": PLAYER,
                                       "responses": {"200": typed("the tournament", "Tournament"), **act}}},
        base + "/{tid}/export": {"get": {
            "summary": "the bundle: the tournament's stream and every game's export (warlog verify checks it)",
            "parameters": [tid], "security": [{}, *PLAYER],  # open once everything has ended; the director: always
            "responses": {"200": export_content("JSON Lines, a header line first"), **err("403", "404")}}},
    }
