"""OpenAPI links of /api/v1 (OpenAPI 3.0.3 4.7.20): how an answer's ids feed the next request.
A created game's `id` is the `game_id` of every game operation, a submitted move's `seq` is the
step to read its judgement, a created tournament's `id` is its `tid`, and so on: a client (or a
stateful fuzzer) reaches each operation by following them instead of guessing ids."""

from __future__ import annotations

from typing import Any

from warlog.api.openapi_ids import OPERATIONS

GAME_ID = "$response.body#/id"
_GAME_OPS = ("get_game", "join_game", "get_state", "get_events", "export_game", "get_actions", "submit_move",
             "submit_ruling", "invite_umpire", "add_dice", "fork_game", "get_clock", "set_clock", "get_pause",
             "pause_game", "grant_leave", "get_inclusion_proof", "get_messages", "send_message", "mute_messages")
_TOURNAMENT_OPS = ("get_tournament", "register_for_tournament", "withdraw_from_tournament", "pair_round",
                   "open_dispute", "add_co_director", "announce_to_entrants", "reissue_invitation",
                   "replace_player", "end_tournament", "export_tournament")
_IN_TOURNAMENT_GAME = ("adjudicate_game", "correct_result", "preview_void", "extend_deadline", "tournament_ruling")


def _to(ops: tuple[str, ...], **parameters: str) -> dict[str, dict[str, Any]]:
    return {op: {"operationId": op, "parameters": dict(parameters)} for op in ops}


def _game_links(game_id: str) -> dict[str, dict[str, Any]]:
    return _to(_GAME_OPS, game_id=game_id)


# (operationId, status) -> the links of that answer, by name (the operation they lead to)
LINKS: dict[tuple[str, str], dict[str, dict[str, Any]]] = {
    ("create_game", "201"): _game_links(GAME_ID),
    ("fork_game", "201"): _game_links(GAME_ID),
    ("list_games", "200"): _game_links("$response.body#/games/0/id"),
    ("get_game", "200"): _game_links("$request.path.game_id"),
    ("submit_move", "202"): _to(("get_move", "take_back_move"), game_id="$request.path.game_id",
                                seq="$response.body#/seq"),
    ("send_message", "201"): _to(("report_message",), game_id="$request.path.game_id",
                                 message_id="$response.body#/message/id"),
    ("submit_ruling", "202"): _to(("get_move",), game_id="$request.path.game_id", seq="$response.body#/seq"),
    ("add_dice", "201"): _to(("get_events", "get_state"), game_id="$request.path.game_id"),
    ("get_me", "200"): _to(("get_player", "get_pace"), player_id="$response.body#/id"),
    ("use_signin_link", "200"): _to(("get_player", "get_pace"), player_id="$response.body#/player/id"),
    ("create_tournament", "201"): {
        **_to(_TOURNAMENT_OPS, tid="$response.body#/id"),
        **_to(("repair_round",), tid="$response.body#/id", number="$response.body#/round")},
    ("list_tournaments", "200"): _to(_TOURNAMENT_OPS, tid="$response.body#/tournaments/0/id"),
    ("pair_round", "201"): {
        **_to(_IN_TOURNAMENT_GAME, tid="$request.path.tid", game_id="$response.body#/games/0/game_id"),
        **_to(("repair_round",), tid="$request.path.tid", number="$response.body#/round")},
    ("open_dispute", "201"): _to(("answer_dispute",), tid="$request.path.tid", dispute="$response.body#/dispute"),
}


def add_links(paths: dict[str, dict[str, Any]]) -> None:
    """Put each answer's links in the document (after the operations are named)."""
    where = {op_id: (path, method) for (method, path), (op_id, _tag) in OPERATIONS.items()}
    for (op_id, status), links in LINKS.items():
        path, method = where[op_id]
        response = paths[path][method]["responses"][status]
        response["links"] = {name: link for name, link in links.items() if name in where}
