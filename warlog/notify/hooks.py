"""The worker's notices: after a judgement, tell the players who own the seats concerned.

`TurnNotices` is the resolver's `on_judged` hook (warlog.judging.resolver.Judged): "your turn" to the
owner of each seat that has just become active, "game ended" to every owner when the game
ends, "ruling" to every owner when the director ruled. Seats nobody owns (open games played by
invitation link) get nothing: there is nobody to write to.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ledger.store import EventStore
from rules import get_game
from warlog.catalogs import N_, game_text, stored_language, translate, words
from warlog.games.replay import result_text, seat_name
from warlog.judging.resolver import Judged
from warlog.notify.naming import game_named, game_titled, tagged
from warlog.notify.notifier import Notifier
from warlog.players.store import PlayerStore

# The results a tournament's award ruling records (warlog.tournaments.service), said in a mail in
# the player's language; any other result is looked up whole in the catalog.
RESULT_SHAPES = [(re.compile(r"^(?P<side>\S+) wins by forfeit$"), N_("%(side)s wins by forfeit")),
                 (re.compile(r"^(?P<side>\S+) wins \(adjudicated\)$"), N_("%(side)s wins (adjudicated)"))]
WHOLE_RESULTS = [N_("Draw (adjudicated)"), N_("Ended by the director: scored as it stands")]


def said_result(lang: str | None, result: str, game: str | None) -> str:
    """A game's recorded result in `lang`, its seats named as the game names them ("belgium wins":
    "Belgium wins", ベルギー軍の勝利)."""
    for pattern, message in RESULT_SHAPES:
        found = pattern.match(result)
        if found:
            return translate(lang, message, side=translate(lang, seat_name(found["side"], game)))
    if not result:
        return ""
    whole = translate(lang, result)
    if whole != result:
        return whole
    try:
        rules = get_game(game or "")
    except KeyError:  # a game this build no longer has: the result as recorded
        return result
    return game_text(lang, result_text(result, rules))


class TurnNotices:
    def __init__(self, store: EventStore, players: PlayerStore, notifier: Notifier, base_url: Callable[[], str],
                 deadline_of: Callable[[str, str], dict[str, Any] | None] | None = None,
                 turn_mail: Callable[[str, str, str, str], str | None] | None = None) -> None:
        self.store, self.players, self.notifier = store, players, notifier
        self.base_url = base_url  # the site's address, read when a notice is made (config may change)
        self.deadline_of = deadline_of
        # (game, seat, player, intro) -> the mail's text with the position and its reply codes, for a
        # player who plays by mail (warlog.mailin.play.MailPlay.turn_body); None: the plain notice
        self.turn_mail = turn_mail

    def __call__(self, judged: Judged) -> None:
        owners = self.players.owners(judged.game_id)
        if not owners:
            return
        summary = self.store.summary(judged.game_id)
        tid = self.tournament_of(judged.game_id)  # a tournament's game: muting the tournament mutes it
        gid = judged.game_id
        # the text names the game by its titles and its id; the subject by its titles, its id at the end
        title, named = game_titled(self.store, gid), game_named(self.store, gid)
        link = f"{self.base_url().rstrip('/')}/games/{judged.game_id}"
        if judged.outcome is not None:
            result = judged.outcome.get("result") or judged.outcome.get("reason") or N_("over")
            winner = judged.outcome.get("winner")
            for player_id in sorted(set(owners.values())):  # each in the language the player chose
                lang = stored_language(self.notifier.db, player_id)
                name = named.say(lang)
                said = said_result(lang, str(result), summary.game if summary else None)
                side = translate(lang, seat_name(winner, summary.game if summary else None)) if winner else ""
                text = (translate(lang, "The %(game)s has ended: %(result)s, won by %(winner)s.", game=name,
                                  result=said, winner=side) if winner else
                        translate(lang, "The %(game)s has ended: %(result)s.", game=name, result=said))
                subject = tagged(words("Game ended: %(game)s", game=title), gid).say(lang)
                self.notifier.notify(player_id, "game_ended", subject, text,
                                     game_id=judged.game_id, tournament_id=tid, link=link)
            return
        if judged.ruling:
            for player_id in sorted(set(owners.values())):
                lang = stored_language(self.notifier.db, player_id)
                name = named.say(lang)
                self.notifier.notify(player_id, "ruling",
                                     tagged(words("A ruling in %(game)s", game=title), gid).say(lang),
                                     translate(lang, "The director has ruled in the %(game)s (event %(n)s). See the "
                                                     "game's audit page for the ruling and its reason.",
                                               game=name, n=judged.seq), game_id=judged.game_id,
                                     tournament_id=tid, link=f"{link}/audit")
        for seat in judged.after:
            if seat in judged.before and not judged.ruling:
                continue  # still this seat's turn: it knows
            player_id = owners.get(seat)
            if player_id is not None:
                deadline = self.deadline_of(judged.game_id, seat) if self.deadline_of else None
                lang = stored_language(self.notifier.db, player_id)
                name = named.say(lang)
                due = translate(lang, " Your move is due by %(due)s (UTC).", due=deadline["due_at"]) if deadline else ""
                mine = translate(lang, seat_name(seat, summary.game if summary else None))  # "US", not "us"
                text = translate(lang, "It is your turn (%(seat)s) in the %(game)s.", seat=mine, game=name) + due
                by_mail = self.turn_mail(judged.game_id, seat, player_id, text) if self.turn_mail else None
                self.notifier.notify(player_id, "your_turn",
                                     tagged(words("Your turn: %(game)s", game=title), gid).say(lang),
                                     by_mail or text,
                                     game_id=judged.game_id,
                                     tournament_id=(deadline or {}).get("tournament_id") or tid,
                                     link=None if by_mail else link)

    def tournament_of(self, game_id: str) -> str | None:
        """The tournament a game belongs to (warlog.tournaments' table), None for a game of its own."""
        try:
            row = self.notifier.db.one("SELECT tournament_id FROM tournament_games WHERE game_id = ?", (game_id,))
        except Exception:  # no tournaments on this database
            return None
        return str(row[0]) if row else None
