"""operationIds and tags of every operation of /api/v1: a generated client's function names
(`create_game`, `submit_move`, `get_state`, ...) and modules (games, moves, log, players,
clock, tournaments). A path added without a name here fails the document's test."""

from __future__ import annotations

from typing import Any

G, T = "/api/v1/games/{game_id}", "/api/v1/tournaments/{tid}"
OPERATIONS: dict[tuple[str, str], tuple[str, str]] = {
    ("get", "/api/v1/catalogue"): ("get_catalogue", "games"),
    ("get", "/api/v1/games"): ("list_games", "games"),
    ("post", "/api/v1/games"): ("create_game", "games"),
    ("get", G): ("get_game", "games"),
    ("post", G + "/join"): ("join_game", "games"),
    ("get", G + "/state"): ("get_state", "games"),
    ("get", G + "/events"): ("get_events", "games"),
    ("get", G + "/export"): ("export_game", "games"),
    ("get", G + "/actions"): ("get_actions", "moves"),
    ("post", G + "/moves"): ("submit_move", "moves"),
    ("get", G + "/moves/{seq}"): ("get_move", "moves"),
    ("post", G + "/moves/{seq}/take-back"): ("take_back_move", "moves"),
    ("post", G + "/rulings"): ("submit_ruling", "moves"),
    ("post", G + "/umpire"): ("invite_umpire", "moves"),
    ("post", G + "/dice"): ("add_dice", "sandbox"),
    ("post", G + "/fork"): ("fork_game", "sandbox"),
    ("get", "/api/v1/games/schemas/{game}/state"): ("get_state_schema", "sandbox"),
    ("get", "/api/v1/log/head"): ("get_log_head", "log"),
    ("get", "/api/v1/log/proof/{game_id}"): ("get_inclusion_proof", "log"),
    ("get", "/api/v1/log/consistency"): ("get_consistency_proof", "log"),
    ("get", "/api/v1/log/key"): ("get_log_key", "log"),
    ("get", "/api/v1/log/checkpoint"): ("get_log_checkpoint", "log"),
    ("get", "/api/v1/log/entries"): ("get_log_entries", "log"),
    ("post", "/api/v1/players"): ("register_player", "players"),
    ("post", "/api/v1/players/signin"): ("request_signin", "players"),
    ("post", "/api/v1/players/signin/{secret}"): ("use_signin_link", "players"),
    ("get", "/api/v1/players/me"): ("get_me", "players"),
    ("post", "/api/v1/players/me/token"): ("renew_token", "players"),
    ("post", "/api/v1/players/claim"): ("claim_seat", "players"),
    ("get", "/api/v1/players/{player_id}"): ("get_player", "players"),
    ("get", G + "/clock"): ("get_clock", "clock"),
    ("post", G + "/clock"): ("set_clock", "clock"),
    # time away from the board (warlog.clock.away_web)
    ("get", "/api/v1/players/me/leave"): ("get_leave", "clock"),
    ("post", "/api/v1/players/me/leave"): ("declare_leave", "clock"),
    ("put", "/api/v1/players/me/quiet"): ("set_quiet_hours", "clock"),
    ("get", G + "/pause"): ("get_pause", "clock"),
    ("post", G + "/pause"): ("pause_game", "clock"),
    ("post", G + "/leave-grants"): ("grant_leave", "clock"),
    ("get", "/api/v1/players/{player_id}/pace"): ("get_pace", "players"),  # warlog.clock.pace_web
    ("get", G + "/messages"): ("get_messages", "games"),  # warlog.messages
    ("post", G + "/messages"): ("send_message", "games"),
    ("post", G + "/messages/{message_id}/report"): ("report_message", "games"),
    ("post", G + "/messages/mute"): ("mute_messages", "games"),
    ("get", "/api/v1/tournaments"): ("list_tournaments", "tournaments"),
    ("post", "/api/v1/tournaments"): ("create_tournament", "tournaments"),
    ("get", "/api/v1/tournaments/ratings"): ("get_ratings", "tournaments"),
    ("get", T): ("get_tournament", "tournaments"),
    ("post", T + "/register"): ("register_for_tournament", "tournaments"),
    ("post", T + "/withdraw"): ("withdraw_from_tournament", "tournaments"),
    ("post", T + "/rounds"): ("pair_round", "tournaments"),
    ("post", T + "/rounds/{number}/repair"): ("repair_round", "tournaments"),
    ("post", T + "/games/{game_id}/adjudicate"): ("adjudicate_game", "tournaments"),
    ("post", T + "/games/{game_id}/correct"): ("correct_result", "tournaments"),
    ("get", T + "/games/{game_id}/void-preview"): ("preview_void", "tournaments"),
    ("post", T + "/games/{game_id}/extend"): ("extend_deadline", "tournaments"),
    ("post", T + "/games/{game_id}/rulings"): ("tournament_ruling", "tournaments"),
    ("post", T + "/disputes"): ("open_dispute", "tournaments"),
    ("post", T + "/disputes/{dispute}"): ("answer_dispute", "tournaments"),
    ("post", T + "/directors"): ("add_co_director", "tournaments"),
    ("post", T + "/announcements"): ("announce_to_entrants", "tournaments"),
    ("post", T + "/invitations"): ("reissue_invitation", "tournaments"),
    ("post", T + "/replacements"): ("replace_player", "tournaments"),
    ("post", T + "/end"): ("end_tournament", "tournaments"),
    ("get", T + "/export"): ("export_tournament", "tournaments"),
}


class UnnamedOperation(KeyError):
    pass


def name_operations(paths: dict[str, dict[str, Any]]) -> None:
    """Set each operation's operationId and tags; an operation without a name is an error."""
    for path, ops in paths.items():
        for method, op in ops.items():
            try:
                op_id, tag = OPERATIONS[(method, path)]
            except KeyError:
                raise UnnamedOperation(f"{method.upper()} {path} has no operationId in warlog.api.openapi_ids") from None
            op["operationId"], op["tags"] = op_id, [tag]
