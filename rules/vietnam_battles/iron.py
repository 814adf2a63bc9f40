"""The Iron Triangle's exclusive rules: Cu Chi tunnels (VB 22.0; A-21), B-52 (23.0), Ben Suc
(24.0; A-8), the exit off the red edge and the secret victory condition (27.0; A-25; H1, H7).

`s["iron"]` = {"b52_turn", "ben_suc" (None | "due" | "offered" | "rolled" | "done"), "ben_suc_roll",
"exited", "us_lost", "pending" (triggers waiting for their die), "won", "hold_roll"}; the
chosen condition is `s["secret"]["victory"]`, hidden from the US until the game ends.

H7: the die of a secret condition is rolled at EVERY trigger (each VC exit, each US loss, the end
of the game), whatever the VC chose, and applied only if it is the chosen condition; the roll's
value is addressed to the VC alone. The dice stream, which the ledger shows, therefore says nothing
of the choice. ARVN units and monitors count as US units here (A-25).
"""

from __future__ import annotations

from typing import Any

from rules.core.dice import DiceSource
from rules.core.game import Action, Fact, IllegalAction
from rules.vietnam_battles.board import hex_of
from rules.vietnam_battles.data import World, hexpart
from rules.vietnam_battles.losses import lose_step

State = dict[str, Any]
BEN_SUC = "1210"


def on(s: State) -> bool:
    return s.get("iron") is not None


def tunnel(w: World, h: str | None) -> bool:
    return h is not None and hexpart(h) in set(w.regions.get("tunnels", []))


# -- B-52 (VB 23.0) ----------------------------------------------------------------------------
def b52_actions(s: State, w: World) -> list[Action]:
    it = s.get("iron")
    if it is None or s["player"] != "us" or s["phase"] != "movement" or s["moving"] is not None:
        return []
    if it["b52_turn"] == s["turn"] or s["turn"] >= 14:
        return []
    targets = set(w.regions.get("b52_targets", []))
    return [{"type": "b52", "unit": u} for u, r in sorted(s["units"].items())
            if r["status"] == "map" and w.units[u].side == "vc" and hex_of(s, u) is not None
            and hexpart(str(hex_of(s, u))) in targets and w.terrain_of(str(hex_of(s, u))) not in ("town", "village")]


def b52(s: State, w: World, u: str, facts: list[Fact]) -> None:
    if {"type": "b52", "unit": u} not in b52_actions(s, w):
        raise IllegalAction("the B-52 may not strike that unit now", "VB 23.0")
    s["iron"]["b52_turn"] = s["turn"]
    facts.append(Fact(f"B-52 strike on {w.units[u].name} in {s['units'][u]['at']}", "VB 23.0", "b52",
                      {"unit": u, "hex": s["units"][u]["at"]}))
    lose_step(s, w, u, facts, "VB 23.0", "B-52 strike (no die)")


# -- exit off the red edge (VB 27.0, A-25, G14) ---------------------------------------------------
def exit_actions(s: State, w: World) -> list[Action]:
    mv = s["moving"]
    if not on(s) or mv is None or mv.get("mode") or s["player"] != "vc":
        return []
    u = mv["unit"]
    at = s["units"][u]["at"]
    left = w.units[u].values(bool(s["units"][u]["reduced"]))[2] * 2 - mv["spent"]
    if w.units[u].monitor or at is None or hexpart(at) not in set(w.edges.get("red", [])) or left < 2:
        return []
    return [{"type": "exit"}]


def exit_map(s: State, w: World, facts: list[Fact]) -> None:
    if exit_actions(s, w) != [{"type": "exit"}]:
        raise IllegalAction("only a VC unit moving on a red-edge hex with 1 MP left may leave the map", "VB 27.0")
    u = s["moving"]["unit"]
    at = s["units"][u]["at"]
    s["units"][u]["status"], s["units"][u]["at"] = "exited", None
    s["units"][u]["moved"] = s["phase"]
    s["moving"] = None
    s["iron"]["exited"] += 1
    s["iron"]["pending"].append("escape")
    facts.append(Fact(f"{w.units[u].name} leaves the map from {at} ({s['iron']['exited']} VC unit(s) out so far)",
                      "VB 27.0", "exit", {"unit": u, "hex": at}))


def us_lost(s: State) -> None:
    """Called for every US, ARVN or monitor unit eliminated (A-25)."""
    s["iron"]["us_lost"] += 1
    s["iron"]["pending"].append("casualties")


def roll_pending(s: State, dice: DiceSource, facts: list[Fact]) -> None:
    it = s["iron"]
    choice = s["secret"]["victory"]
    while it["pending"] and not it["won"]:
        kind = it["pending"].pop(0)
        die = dice.roll(6, "VB 27.0 secret victory roll", secret=True)
        count = it["exited"] if kind == "escape" else it["us_lost"]
        facts.append(Fact(f"Secret victory roll after a {'VC exit' if kind == 'escape' else 'US loss'}: {die} "
                          f"(count {count}; your condition: {choice})", "VB 27.0", "secret_roll",
                          {"die": die, "count": count}, visible_to=("vc",)))
        if kind == choice and die < count:
            it["won"] = (f"{'Escape' if kind == 'escape' else 'US casualties'}: die {die} < {count}")


# -- Ben Suc (VB 24.0, A-8) --------------------------------------------------------------------------
def ben_suc_check(s: State, w: World) -> None:
    it = s["iron"]
    if it["ben_suc"] is None:
        for u, r in s["units"].items():
            if r["status"] == "map" and w.units[u].side == "us" and r["at"] == BEN_SUC and not w.units[u].monitor:
                it["ben_suc"] = "due"
    if it["ben_suc"] == "due" and s["decision"] is None:
        it["ben_suc"] = "offered"
        s["decision"] = {"kind": "ben_suc", "seat": "vc"}


def attacked(s: State, w: World, defender: str) -> None:
    it = s.get("iron")
    if it is not None and it["ben_suc"] is None and s["units"][defender]["at"] == BEN_SUC:
        it["ben_suc"] = "due"


def ben_suc_actions(s: State) -> list[Action]:
    if s["iron"]["ben_suc"] == "offered":
        return [{"type": "ben_suc", "choice": "roll"}, {"type": "ben_suc", "choice": "decline"}]
    return [{"type": "ben_suc", "choice": "extend"}, {"type": "ben_suc", "choice": "shorten"}]


def ben_suc(s: State, w: World, choice: str, dice: DiceSource, facts: list[Fact]) -> None:
    it = s["iron"]
    if {"type": "ben_suc", "choice": choice} not in ben_suc_actions(s):
        raise IllegalAction("not a Ben Suc choice now", "VB 24.0")
    if choice == "decline":
        it["ben_suc"], s["decision"] = "done", None
        facts.append(Fact("The VC does not roll for Ben Suc (final, A-8)", "VB 24.0", "ben_suc"))
        return
    if choice == "roll":
        k = dice.roll(6, "VB 24.0 Ben Suc")
        it["ben_suc"], it["ben_suc_roll"] = "rolled", k
        facts.append(Fact(f"Ben Suc: the VC rolls {k} and must now extend or shorten the game by {k} turn(s)",
                          "VB 24.0", "ben_suc", {"die": k}))
        return
    k = int(it["ben_suc_roll"])
    s["final_turn"] = 13 + k if choice == "extend" else 13 - k
    it["ben_suc"], s["decision"] = "done", None
    facts.append(Fact(f"Ben Suc: the VC {choice}s the game; the last turn is now {s['final_turn']}", "VB 24.0",
                      "ben_suc", {"final_turn": s["final_turn"]}))


# -- victory (VB 27.0) --------------------------------------------------------------------------------
def hold_roll(s: State, dice: DiceSource) -> None:
    if on(s) and s["iron"]["hold_roll"] is None:
        s["iron"]["hold_roll"] = dice.roll(6, "VB 27.0 secret victory roll", secret=True)


def victory(s: State, w: World, facts: list[Fact], immediate: bool) -> dict[str, Any] | None:
    it = s["iron"]
    choice = s["secret"]["victory"]
    if immediate:
        return {"winner": "vc"} if it["won"] else None
    if it["won"]:
        r = {"winner": "vc", "result": "VC victory", "reason": f"{it['won']} (condition: {choice})"}
    elif choice == "hold" and it["hold_roll"] is not None:
        tri = set(w.regions.get("iron_triangle", []))
        inside = sum(1 for u, x in s["units"].items()
                     if x["status"] == "map" and w.units[u].side == "vc" and x["at"] and hexpart(x["at"]) in tri)
        if it["hold_roll"] < inside:
            r = {"winner": "vc", "result": "VC victory",
                 "reason": f"Hold the battlefield: die {it['hold_roll']} < {inside} VC units in the Iron Triangle"}
        else:
            r = {"winner": "us", "result": "US victory",
                 "reason": f"Hold the battlefield failed: die {it['hold_roll']}, {inside} VC units inside"}
    else:
        r = {"winner": "us", "result": "US victory", "reason": f"the VC did not achieve {choice} (A-25)"}
    r["rule"] = "VB 27.0"
    facts.append(Fact(f"{r['result']}: {r['reason']}; the VC's secret condition was {choice}", "VB 27.0", "victory", r))
    return r
