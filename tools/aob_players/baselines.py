"""Baselines: the HTTP test bot's logic, and uniform random play."""

from __future__ import annotations

from typing import Any

from rules.assault_on_belgium.game import AssaultOnBelgium
from tools.aob_players.base import BELGIUM, GERMANY, Action, State, objectives, pick, stable_hash
from tools.aob_players.belgian import CompetentBelgian
from tools.aob_players.players import Player

# ---------------------------------------------------------------------------------------------
# Baselines: the HTTP test bot's logic, and uniform random play
# ---------------------------------------------------------------------------------------------

NAIVE_PREFERENCE = ["standard_setup", "done_setup", "pursue", "attack", "resolve_battle", "retreat", "continue",
                    "choose_fighter", "choose_bomber", "assign_hit", "take_hit", "no_pursuit"]


class NaivePlayer(Player):
    """tests/assault_on_belgium/api_bot.py's choices, through the pure interface."""

    def new_game(self, g: AssaultOnBelgium, seed: int, options: dict[str, Any]) -> None:
        super().new_game(g, seed, options)
        self.targets: dict[str, str] = {}
        self.reacted = False

    def decide(self, s: State, legal: list[Action], t: dict[str, list[Action]]) -> Action:
        w = self.w
        ph = s["phase"]
        if ph == "german_land_move":
            sel = s["selected"]
            if sel and "move" in t:
                target = self.targets[sel]
                here = s["units"][sel]["hex"]
                best = min(t["move"], key=lambda a: (w.distance(a["hex"], target), 0 if a.get("tank_battle") else 1))
                if w.distance(best["hex"], target) < w.distance(here, target):
                    return best
            if sel and "end_unit_move" in t:
                return t["end_unit_move"][0]
            tanks = [a for a in t.get("select", []) if w.units[a["unit"]].is_tank]
            if tanks:
                self.targets[tanks[0]["unit"]] = objectives(w)[len(self.targets) % 2]
                return tanks[0]
            return t["end_movement"][0]
        if ph == "belgian_reaction":
            sel = s["selected"]
            if sel and "end_unit_move" in t:
                self.reacted = True
                return t["end_unit_move"][0]
            if sel and "move" in t:
                return t["move"][0]
            if "select" in t and not self.reacted:
                return t["select"][0]
            return t["end_reaction"][0]
        if ph in ("german_air", "belgian_air"):
            return (t.get("fly") or t["end_air"])[0]
        for kind in NAIVE_PREFERENCE:
            if kind in t:
                return t[kind][0]
        return legal[0]


class NaiveGerman(NaivePlayer):
    side = GERMANY


class NaiveBelgian(NaivePlayer):
    side = BELGIUM


class SetupOnlyBelgian(NaiveBelgian):
    """The competent Belgian's set-up, then the naive bot's choices (ablation: do the Belgian
    choices after the set-up matter?)."""

    def new_game(self, g: AssaultOnBelgium, seed: int, options: dict[str, Any]) -> None:
        super().new_game(g, seed, options)
        self.setup = CompetentBelgian()
        self.setup.new_game(g, seed, options)

    def decide(self, s: State, legal: list[Action], t: dict[str, list[Action]]) -> Action:
        if s["phase"] == "setup_belgium":
            return self.setup.decide(s, legal, t)
        return super().decide(s, legal, t)


class RandomPlayer(Player):
    """Uniform among the legal actions (standard set-up; never picks a unit up again)."""

    def __init__(self, side: str) -> None:
        self.side = side

    def decide(self, s: State, legal: list[Action], t: dict[str, list[Action]]) -> Action:
        if s["phase"].startswith("setup"):
            return (t.get("standard_setup") or t.get("done_setup") or legal)[0]
        options = [a for a in legal if a["type"] != "unplace"]
        ends = [a for a in options if a["type"] in ("end_movement", "end_unit_move", "end_reaction", "end_air")]
        rest = [a for a in options if a not in ends]
        if rest and (not ends or stable_hash(self.seed, self.side, self.steps, "end") % 10):
            return pick(rest, self.seed, self.side, self.steps)
        return pick(options, self.seed, self.side, self.steps)


