"""Single elimination ("knockout"), a format of its own (docs/tournaments.md).

The bracket is drawn once, at round 1, from the seeds (the starting order: a dice shuffle, or
the players' ratings when the event is seeded by rating). Its size is the next power of two;
seeds take the standard bracket places (1 v 16, 8 v 9, …) so that seeds 1 and 2 can only meet
in the final, and the places left over are byes that go to the top seeds. Each later round
pairs the winners of neighbouring matches. A drawn game sends the better seed through (as the
pools' playoff does). With `format.third_place`, the final round has a second table: the two
losing semi-finalists. A withdrawn player's place in a match not yet paired is a walkover.

Each round records its matches (`knockout.matches`, pairs of player ids, None for an empty
place) so that the bracket is drawn, and re-derived, from the stream alone.
"""

from __future__ import annotations

from typing import Any

from warlog.tournaments.model import Pairing, Tournament


def bracket_rounds(entrants: int) -> int:
    """Rounds of a bracket for `entrants` (2 → 1, 3..4 → 2, 5..8 → 3, …)."""
    return max(1, (max(2, entrants) - 1).bit_length())


def bracket_places(size: int) -> list[int]:
    """The seeds (1-based) in bracket order for a bracket of `size` (a power of two): each seed s
    of the smaller bracket meets size + 1 − s, so 1 and 2 stay apart until the final."""
    places = [1]
    while len(places) < size:
        n = len(places) * 2
        places = [x for s in places for x in (s, n + 1 - s)]
    return places


def first_matches(seeds: list[str]) -> list[list[str | None]]:
    """Round 1's matches: seeds placed in bracket order, None where a place is empty (a bye)."""
    size = 1 << bracket_rounds(len(seeds))
    slots = [seeds[s - 1] if s <= len(seeds) else None for s in bracket_places(size)]
    return [[slots[i], slots[i + 1]] for i in range(0, size, 2)]


def knockout_rounds_planned(t: Tournament) -> int:
    if 1 in t.rounds and "knockout" in t.rounds[1].extra:
        return bracket_rounds(2 * len(t.rounds[1].extra["knockout"]["matches"]))
    return bracket_rounds(len(t.active_entrants()))


def seeds_of(t: Tournament) -> list[str]:
    return list(t.rounds[1].extra["knockout"]["seeds"]) if 1 in t.rounds else []


def _better_seed(seeds: list[str], a: str, b: str) -> str:
    rank = {pid: i for i, pid in enumerate(seeds)}
    return min((a, b), key=lambda pid: rank.get(pid, len(seeds)))


def match_tables(t: Tournament, number: int) -> list[tuple[list[str | None], Pairing | None]]:
    """Round `number`'s matches with the table that plays each (None for a bye or walkover): the
    tables follow the matches with two players, in order."""
    r = t.rounds[number]
    tables = sorted(r.pairings, key=lambda p: p.table)
    out: list[tuple[list[str | None], Pairing | None]] = []
    i = 0
    for a, b in r.extra["knockout"]["matches"]:
        if a is not None and b is not None and i < len(tables):
            out.append(([a, b], tables[i]))
            i += 1
        else:
            out.append(([a, b], None))
    return out


def match_winner(t: Tournament, match: list[str | None], table: Pairing | None) -> str | None | bool:
    """Who goes through a match: the player (a bye or walkover: the one present), None if nobody
    (two empty places), False while the game has no result."""
    a, b = match
    if table is None:
        return a or b
    res = t.results.get(table.game_id or "")
    if res is None:
        return False
    if res.winner:
        return res.winner
    players = table.players()
    return _better_seed(seeds_of(t), players[0], players[1])  # a draw: the better seed


def advance(t: Tournament, number: int) -> list[str | None]:
    """Who goes through from each match of round `number`, in bracket order."""
    out: list[str | None] = []
    for match, table in match_tables(t, number):
        won = match_winner(t, match, table)
        out.append(None if won is False else won)  # type: ignore[arg-type]
    return out


def losers(t: Tournament, number: int) -> list[str | None]:
    """The losing player of each played match of round `number` (None for a bye)."""
    out: list[str | None] = []
    for match, table in match_tables(t, number):
        won = match_winner(t, match, table)
        if table is None or won is False or won is None:
            out.append(None)
            continue
        out.append(next((p for p in table.players() if p != won), None))
    return out


def third_place_table(t: Tournament, number: int) -> Pairing | None:
    """The third-place game of the final round, when there is one (the table after the final's)."""
    r = t.rounds.get(number)
    if r is None or not r.extra.get("knockout", {}).get("third_place"):
        return None
    played = sum(1 for a, b in r.extra["knockout"]["matches"] if a is not None and b is not None)
    tables = sorted(r.pairings, key=lambda p: p.table)
    return tables[played] if len(tables) > played else None


def next_matches(t: Tournament, number: int) -> tuple[list[list[str | None]], list[str] | None]:
    """Round `number`'s matches (number ≥ 2) from the winners of the round before, and the
    third-place pair when this is the final, the event asks for one and both semi-finals were
    played."""
    active = set(t.active_entrants())
    through = [p if p in active else None for p in advance(t, number - 1)]
    matches = [[through[i], through[i + 1] if i + 1 < len(through) else None] for i in range(0, len(through), 2)]
    third = None
    if len(matches) == 1 and t.format.get("third_place"):
        semi_losers = [p for p in losers(t, number - 1) if p is not None and p in active]
        if len(semi_losers) == 2:
            third = semi_losers
    return matches, third


def champion(t: Tournament) -> str | None:
    """The final's winner once it has its result."""
    last = knockout_rounds_planned(t)
    if last not in t.rounds:
        return None
    through = advance(t, last)
    return through[0] if len(through) == 1 and through[0] else None


def stages(t: Tournament) -> dict[str, int]:
    """How far each entrant went: twice the rounds they went through (a bye or a win), one more
    for winning the third-place game. The standings of a knockout rank by it."""
    out = {pid: 0 for pid in t.entrants}
    for number in sorted(t.rounds):
        if "knockout" not in t.rounds[number].extra:
            continue
        for pid in advance(t, number):
            if pid is not None and pid in out:
                out[pid] = max(out[pid], 2 * number)
        third = third_place_table(t, number)
        if third is not None:
            res = t.results.get(third.game_id or "")
            if res is not None:
                players = third.players()
                won = res.winner or _better_seed(seeds_of(t), players[0], players[1])
                out[won] = max(out[won], 2 * (number - 2) + 1)
    return out


def bracket_doc(t: Tournament) -> dict[str, Any] | None:
    """The bracket as the page draws it: a column per round (planned rounds not yet paired are
    empty places), each match with its two players, its game, the winner; the third-place game."""
    if t.kind != "knockout" or 1 not in t.rounds:
        return None
    planned = knockout_rounds_planned(t)
    seeds = seeds_of(t)
    seed_no = {pid: i + 1 for i, pid in enumerate(seeds)}
    columns: list[list[dict[str, Any]]] = []
    width = len(t.rounds[1].extra["knockout"]["matches"])
    for number in range(1, planned + 1):
        column = []
        if number in t.rounds:
            for match, table in match_tables(t, number):
                won = match_winner(t, match, table)
                column.append(_match_doc(t, match, table, won, seed_no))
        else:
            column = [_match_doc(t, [None, None], None, False, seed_no) for _ in range(width)]
        columns.append(column)
        width = max(1, width // 2)
    third = None
    table = third_place_table(t, planned)
    if table is not None:
        res = t.results.get(table.game_id or "")
        players = table.players()
        won = (res.winner or _better_seed(seeds, players[0], players[1])) if res is not None else False
        third = _match_doc(t, [players[0], players[1]], table, won, seed_no)
    return {"rounds": planned, "columns": columns, "third_place": third, "champion": champion(t)}


def _match_doc(t: Tournament, match: list[str | None], table: Pairing | None, won: str | None | bool,
               seed_no: dict[str, int]) -> dict[str, Any]:
    players = table.players() if table is not None else match
    return {"players": [{"player_id": p, "name": t.name_of(p) if p else "", "seed": seed_no.get(p) if p else None,
                         "won": bool(p) and won == p} for p in players],
            "game_id": table.game_id if table is not None else None,
            "decided": won is not False, "bye": table is None and any(players)}


def playoff_bracket_doc(t: Tournament) -> dict[str, Any] | None:
    """The pools' playoff as a bracket to draw (same shape as `bracket_doc`): a column per playoff
    round from its recorded `playoff.bracket`, the rounds still to come as empty places."""
    from warlog.tournaments.pairing import playoff_advance, pool_rounds, rounds_planned

    if t.kind != "pools":
        return None
    first = pool_rounds(t) + 1
    if first not in t.rounds or "playoff" not in t.rounds[first].extra:
        return None
    seeds = list(t.rounds[first].extra["playoff"]["seeds"])
    seed_no = {pid: i + 1 for i, pid in enumerate(seeds)}
    columns: list[list[dict[str, Any]]] = []
    width = len(t.rounds[first].extra["playoff"]["bracket"])
    for number in range(first, rounds_planned(t) + 1):
        r = t.rounds.get(number)
        if r is None or "playoff" not in r.extra:
            columns.append([_match_doc(t, [None, None], None, False, seed_no) for _ in range(max(1, width))])
        else:
            done = t.round_complete(number)
            through = playoff_advance(t, number) if done else []
            column = []
            for i, (a, b) in enumerate(r.extra["playoff"]["bracket"]):
                table = next((p for p in r.pairings if a and b and set(p.players()) == {a, b}), None)
                won: str | None | bool = through[i] if done and i < len(through) else False
                if table is None:
                    won = a or b
                elif t.results.get(table.game_id or "") is None:
                    won = False
                column.append(_match_doc(t, [a, b], table, won, seed_no))
            columns.append(column)
            width = len(column)
        width = max(1, width // 2)
    last = t.rounds.get(rounds_planned(t))
    champ = None
    if last is not None and "playoff" in last.extra and t.round_complete(last.number):
        through = playoff_advance(t, last.number)
        champ = through[0] if len(through) == 1 else None
    return {"rounds": len(columns), "columns": columns, "third_place": None, "champion": champ}
