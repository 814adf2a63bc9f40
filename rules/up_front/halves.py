"""Scenario K's two halves (UFM 11.e K; rules version 4 on).

The appendix says only: "If the second half is played (on the premise that the second-line troops
lost the first half), both sides lose the altitude levels they held at the end of the first half,
and both may place new altitude cards during the starting terrain placement" (「もし(シナリオ前半部分
で、第2線部隊が負けたと仮定して)シナリオ後半部分をプレイするなら、両軍は前半部分終了時に占めていた
高度レベルは失われる」). The base scenario's two-part structure is not in the seed (B.6-20), so the
structure is OURS (docs/games/up-front.md, *Scenario K*):

* HALF 1 (OURS): the elite side attacks the second-line troops (`second_half.second_line`) with
  the scenario's forces and time limit.
* HALF 2 (OURS): it follows only when the second-line side lost the first half (a win of the
  elite side, by casualties or on points); a first half the second-line troops win or draw ends
  the game with that result. The second-line side's first-half troops leave; its fresh force
  (`second_half.forces`) takes the table. The elite side's men killed or routed in the first half
  are out of the game; its survivors rally (pins removed) and keep their group letters.
* Between the halves every card on the table goes to the discards: the altitude cards (UFM 11.e K:
  the altitude levels are lost), terrain, Wire, Minefields and Movement cards; range chits go
  back to 0. Then a new Prepare for Play (UFM 4): starting terrain, and altitude cards by either
  player on any group (UFM 4.a, as the special rule says: "both may place new altitude cards").
* The second half is judged alone (OURS): its victory points count only its own casualties, a
  side loses when it has lost more than half of the men it brought into the second half, and its
  time limit is `second_half.passes` deck passes from the pass in which it begins (that one
  counted). Its result is the game's.
"""

from __future__ import annotations

from typing import Any

from rules.core.game import Fact
from rules.up_front.data import World
from rules.up_front.plan import drop as drop_plan
from rules.up_front.prepare import new_group
from rules.up_front.table import State, other


def first_half(w: World, scenario: str) -> dict[str, Any] | None:
    """The state's "half" at set-up: `{"no": 1, "first": None}` for a two-part scenario, else None."""
    return {"no": 1, "first": None} if w.scenarios[scenario].get("second_half") else None


def second_half_follows(s: State, w: World) -> bool:
    """The game just ended its first half and the second-line troops lost it (UFM 11.e K)."""
    h = s.get("half")
    if not h or h["no"] != 1 or not s["over"]:
        return False
    line = w.scenarios[s["scenario"]]["second_half"]["second_line"]
    return bool(s["over"]["result"] == "win" and s["over"]["winner"] not in (None, line))


def _table_cards(s: State) -> list[str]:
    out: list[str] = []
    for seat in s["roles"]:
        for _, g in sorted(s["groups"][seat].items()):
            out += [c for c in (g["terrain"], g["altitude"], g["wire"], g["minefield"]) if c]
            out += [m["card"] for m in g["moves"]]
    window = s.get("reaction")
    if window and window["kind"] == "terrain":
        out.append(window["resume"]["card"])
    return out


def begin_second_half(s: State, w: World, facts: list[Fact]) -> None:
    """Clear the table and set up the second half's Prepare for Play (HALF 2 above); changes `s`."""
    spec = w.scenarios[s["scenario"]]["second_half"]
    line = spec["second_line"]
    elite = other(s, line)
    first = s["over"]["reason"]
    cleared = _table_cards(s)
    s["deck"]["discard"].extend(cleared)
    s["reaction"] = None
    for seat in list(s.get("standing", {})):
        if "turn" in s["standing"][seat]:
            drop_plan(s, seat)  # a conditional turn foresaw the first half's table (CORE 11.2)
    out = sorted(m for m, rec in s["men"].items() if rec["seat"] == elite and rec["status"] in ("kia", "routed"))
    rallied = sorted(m for m, rec in s["men"].items() if rec["seat"] == elite and rec["status"] == "pinned")
    s["men"] = {m: rec for m, rec in s["men"].items() if rec["seat"] == elite and m not in out}
    for m in rallied:
        s["men"][m]["status"] = "ok"
    survivors: dict[str, dict[str, Any]] = {}
    for letter, g in sorted(s["groups"][elite].items()):
        men = [m for m in g["men"] if m in s["men"]]
        if men:
            survivors[letter] = new_group(men)
    s["groups"][elite] = survivors
    s["groups"][line] = {letter: new_group(men) for letter, men in sorted(spec["forces"][line].items())}
    for letter, men in spec["forces"][line].items():
        for m in men:
            s["men"][m] = {"seat": line, "group": letter, "status": "ok"}
    s["over"] = None
    s["half"] = {"no": 2, "first": first}
    s["phase"], s["ready"], s["drew_until"] = "prepare", [], []
    s["first"] = s["turn"] = spec["first"]
    s["acted"], s["discarded"] = [], 0
    s["passes"] = s["deck"]["pass"] + int(spec["passes"]) - 1
    text = (f"End of the first half ({first}): the second-line troops ({line}) lost it, so the second half "
            f"is played. Every card on the table ({len(cleared)}) goes to the discards: the altitude levels "
            f"are lost; {elite}'s {len(out)} men killed or routed are out, {len(rallied)} pinned rally; {line}'s "
            f"fresh force takes the table. A new Prepare for Play: {spec['first']} first; the second half ends "
            f"after deck pass {s['passes']}")
    s["notes"].append(text)
    facts.append(Fact(text, "UFM 11.e K; HALF 2", "half", {"half": 2, "cleared": len(cleared), "out": out}))
