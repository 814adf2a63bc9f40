"""Every game's one-action legality check (`Game.is_legal`, used by `apply` and so by the
worker and `verify`) agrees with the full listing (`legal_actions`, the `/actions` answer).

Random legal play from each scenario's set-up; at every step each listed action is legal, and
near misses (an action with one value swapped for another seen in play or on the map, another
type, an extra key) are legal exactly when listed, as JSON (`rules.core.game.listed`: 1 is not
true). The games with a targeted check (Vietnam Battles, UP FRONT, Assault on Belgium, Green
Beret: Vietnam, Lock 'n Load) are played longest; UP FRONT with its own misses (cards, groups,
discards), Lock 'n Load with its own (every action type's keys over both sides' units and hexes).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import all_games, get_game
from rules.core.game import Game
from tests.support.fuzzing import seeded_dice

GAMES = {g.name: g for g in all_games() if type(g).__module__.startswith("rules.")}


def _pool(g: Game, s: dict[str, Any]) -> list[Any]:
    """Values a near miss may take: Vietnam Battles' hexes, hexsides, units and markers in play;
    UP FRONT's cards, group letters, men and odd values."""
    if g.name == "up-front":
        return sorted(g.world().cards)[::7] + list("ABCDE") + sorted(s["men"])[::3] + [  # type: ignore[attr-defined]
            None, True, False, 0, 1, 2, "", [], ["A"], {"card": "A"}, "forward", "sideways", "play", "decline"]
    if g.name != "vietnam-battles":
        return []
    w = g.w(s)  # type: ignore[attr-defined]
    sides = sorted(w.hexsides)
    split = [h for h in sorted(w.hexes) if w.portions(h)]
    return (sorted(w.hexes) + sides + ["/".join(reversed(k.split("/"))) for k in sides[:40]] + split
            + sorted(s["units"]) + [m for hand in s["hands"].values() for m in hand])


def near_misses(a: dict[str, Any], seen: list[Any], types: list[str], rng: random.Random) -> list[dict[str, Any]]:
    out = [{**a, "extra": 1}]
    for key in [k for k in a if k != "type"]:
        out += [{**a, key: v} for v in rng.sample(seen, min(12, len(seen)))]
        out.append({k: v for k, v in a.items() if k != key})
    out += [{**a, "type": t} for t in rng.sample(types, min(4, len(types)))]
    return out


def up_front_misses(s: dict[str, Any], seat: str, a: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """UP FRONT's near misses: each card of either hand in the action's card slots, each group letter
    and enemy group, discards of held and unheld cards, repeated, reordered, one more than the
    nation's limit, and empty, and a standing answer's other conditions."""
    hands = [c for h in s["hands"].values() for c in h]
    mine = s["hands"][seat]
    out: list[dict[str, Any]] = []
    for key in ("card", "altitude", "conceal", "terrain"):
        if key in a:
            out += [{**a, key: c} for c in hands + [None]]
    for key in ("group", "to", "target"):
        if key in a:
            out += [{**a, key: x} for x in "ABCDE"]
    if "man" in a:
        out += [{**a, "man": m} for m in sorted(s["men"])]
    if a.get("type") == "discard":
        cards = a["cards"]
        out += [{**a, "cards": cards[::-1]}, {**a, "cards": cards + cards[:1]}, {**a, "cards": []},
                {**a, "cards": cards[0]}]
        out += [{**a, "cards": cards + [c]} for c in mine if c not in cards]
        out += [{**a, "cards": [c]} for c in hands]
        out += [{**a, "cards": rng.sample(mine, n)} for n in range(1, len(mine) + 1)]
    if a.get("type") == "standing":
        out += [{**a, "when": w} for w in ([["men", "<=", n]] for n in (0, 1, 3, 10, 11))]
        out += [{**a, "answer": x} for x in ("play", "decline", "ask", "never")]
    for key in ("as_open", "one_card"):
        if key in a:
            out += [{**a, key: v} for v in (0, 1, None, "yes")]
    return out


# Lock 'n Load's action types and their keys (rules/lock_n_load/flow.py _legal, rally.py, orders.py)
LNL_SHAPES: dict[str, tuple[str, ...]] = {
    "pass": (), "activate": ("hex",), "spot": ("unit", "hex"), "place_sniper": ("unit", "hex"), "order": ("hex", "order"),
    "step": ("hex",), "stop": (), "select": ("unit",), "fire": ("target",), "move": ("mode",), "smoke": ("hex",),
    "clear": (), "melee": ("hex",), "withdraw": ("hex",), "end_impulse": (), "opp_fire": ("hex",), "hold_fire": (),
    "snipe": ("unit", "target"), "melee_targets": ("units",), "drop_sw": ("unit", "sw"), "retreat": ("unit", "hex"),
    "place_hero": ("unit", "hex"), "rally": ("unit",), "medic": ("unit", "patient"), "pickup": ("unit", "sw"),
    "end_rally": (), "give_sw": ("unit", "sw", "to"), "swap_sw": ("sw", "for"), "split": ("unit",),
    "combine": ("unit", "with"),
}
LNL_ORDERS = ["ask", "hold", "fire", "within1", "within2", "within3", "within4", "at:", "Fire", 1]


def lnl_misses(g: Game, s: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Lock 'n Load's near misses: every action type with its own keys filled from both sides' units
    (and their SWs), the hexes the units are in and next to, movement modes, standing orders (simple,
    "at:" a hex near, malformed), and values of the wrong JSON type (true for 1, a list for a hex)."""
    w = g.world  # type: ignore[attr-defined]
    units = sorted(s["units"])
    at = sorted({r["at"] for r in s["units"].values() if r["at"] is not None})
    near = sorted({n for h in at for n in w.board.neighbours(h)} | set(at))
    values: dict[str, list[Any]] = {
        "unit": units + ["", "x"], "hex": near, "target": near, "mode": ["normal", "crawl", "assault", "double", "run"],
        "sw": sorted(s["sws"]) + [None], "order": LNL_ORDERS + [f"at:{h}" for h in rng.sample(near, min(6, len(near)))],
        "units": [[u] for u in units[:6]] + [units[:2], []], "patient": units, "to": units, "with": units,
        "for": sorted(s["sws"]) + ["sw0"],
    }
    odd: list[Any] = [None, True, 1, 0, [], {}, "", [near[0]] if near else "z"]
    out: list[dict[str, Any]] = []
    for t, keys in LNL_SHAPES.items():
        for _ in range(3 if keys else 1):
            out.append({"type": t, **{k: rng.choice(values[k]) for k in keys}})
        if keys:
            out.append({"type": t, **{k: rng.choice(odd) for k in keys}})
            out.append({"type": t})
    for h in at[:8]:
        out += [{"type": "order", "hex": h, "order": o} for o in rng.sample(values["order"], 5)]
        out += [{"type": t, "hex": h} for t in ("activate", "melee", "withdraw", "smoke", "step", "opp_fire")]
        out.append({"type": "spot", "unit": rng.choice(units), "hex": h})
    out += [{"type": None}, {"type": 1}, {"type": ["pass"]}, {"hex": near[0]} if near else {}]
    return out


def _by_type(legal: list[Any]) -> list[list[Any]]:
    """The listing split by action type: Lock 'n Load lists hundreds of standing orders, so a pick
    of one type first, then one of its actions, keeps random play moving (impulses, moves, prompts)."""
    out: dict[str, list[Any]] = {}
    for a in legal:
        out.setdefault(str(a.get("type")), []).append(a)
    return list(out.values())


def _worded_standing(a: dict[str, Any]) -> bool:
    """UP FRONT v4 (rules/up_front/standing.py): a standing answer is legal in a turn when well formed."""
    from rules.core import standing
    from rules.core.game import IllegalAction
    from rules.up_front.standing import KINDS

    if set(a) != {"type", "kind", "answer", "when"}:
        return False
    try:
        standing.check(KINDS, a)
    except IllegalAction:
        return False
    return True


def check_agreement(g: Game, scenario: str, seed: int, steps: int, probes: int,
                    start: dict[str, Any] | None = None, roles: tuple[str, ...] = ()) -> int:
    rng = random.Random(seed)
    dice = seeded_dice(seed)
    s = g.setup(scenario, g.resolve_options({}), dice) if start is None else start
    seen_types: set[str] = set()
    seen_values: dict[str, Any] = {}
    checked = 0
    for _ in range(steps):
        if g.outcome(s) is not None or not g.active_seats(s):
            break
        seat = g.active_seats(s)[0]
        legal = g.legal_actions(s, seat)
        if not legal:
            break
        listed = {json.dumps(x, sort_keys=True) for x in legal}
        for a in legal:
            seen_types.add(str(a.get("type")))
            for k, v in a.items():
                if k != "type":
                    seen_values.setdefault(json.dumps(v, sort_keys=True), v)
        others = [x for x in (roles or g.roles(scenario)) if x != seat]
        for a in legal:
            assert g.is_legal(s, seat, a), (scenario, seed, a)
            for other in others:
                if other not in g.active_seats(s):
                    assert not g.is_legal(s, other, a)
        pool = list(seen_values.values()) + _pool(g, s)
        kinds = _by_type(legal) if g.name == "lock-n-load" else [legal]
        sampled = [rng.choice(k) for k in kinds] if g.name == "lock-n-load" else rng.sample(legal, min(probes, len(legal)))
        for a in sampled:
            misses: list[Any] = near_misses(a, pool, sorted(seen_types), rng)
            if g.name == "up-front":
                misses += up_front_misses(s, seat, a, rng)
            if g.name == "lock-n-load":
                misses += [{**a, "hex": True}, {**a, "unit": 1}, [a], json.dumps(a)]
            for miss in misses:
                want = isinstance(miss, dict) and json.dumps(miss, sort_keys=True) in listed
                if g.name == "up-front" and isinstance(miss, dict) and miss.get("type") == "standing" \
                        and "half" in g.state_keys and s["phase"] == "play" and not s["reaction"]:
                    want = _worded_standing(miss)  # rules v4: any well-formed answer, listed or not
                assert g.is_legal(s, seat, miss) == want, (scenario, seed, s["phase"] if "phase" in s else "", miss)
                checked += 1
        if g.name == "lock-n-load":  # once a step: every action type with its own keys
            for miss in lnl_misses(g, s, rng):
                want = json.dumps(miss, sort_keys=True) in listed
                assert g.is_legal(s, seat, miss) == want, (scenario, seed, s["phase"], s["decision"], miss)
                checked += 1
        s = g.apply(s, seat, rng.choice(rng.choice(kinds)), dice).state
    return checked


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**31), scenario=st.sampled_from(sorted(GAMES["vietnam-battles"].scenarios())))
@pytest.mark.slow
def test_vietnam_battles_targeted_check_agrees_with_the_listing(seed: int, scenario: str) -> None:
    assert check_agreement(GAMES["vietnam-battles"], scenario, seed, steps=150, probes=3) > 0


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31), scenario=st.sampled_from(sorted(GAMES["up-front"].scenarios())))
@pytest.mark.slow
def test_up_front_targeted_check_agrees_with_the_listing(seed: int, scenario: str) -> None:
    """UP FRONT's check builds only the candidates of the action's type, card and group
    (rules/up_front/game.py is_legal): played long enough to pass the deck, with its own misses."""
    assert check_agreement(GAMES["up-front"], scenario, seed, steps=160, probes=3) > 0


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31), name=st.sampled_from(["assault-on-belgium", "green-beret-vietnam"]))
@pytest.mark.slow
def test_assault_on_belgium_and_green_beret_targeted_checks_agree_with_the_listing(seed: int, name: str) -> None:
    """AoB checks only the candidate equal to the action (rules/assault_on_belgium/flow.py is_legal);
    GBV lists only the actions of its type (rules/green_beret_vietnam/flow.py candidates_like)."""
    g = GAMES[name]
    assert check_agreement(g, sorted(g.scenarios())[0], seed, steps=120, probes=3) > 0


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31), version=st.sampled_from(["1", "2"]))
@pytest.mark.slow
def test_lock_n_load_targeted_check_agrees_with_the_listing(seed: int, version: str) -> None:
    """LnL's check asks only the action type's own generator in the phase or prompt at hand, and a
    standing order only its own hex (rules/lock_n_load/flow.py is_legal, orders.allowed): both rules
    versions played through several turns (rally, impulses, moves, prompts), with LnL's own misses."""
    g = get_game("lock-n-load", version)
    for scenario in sorted(g.scenarios()):
        assert check_agreement(g, scenario, seed, steps=300, probes=2) > 0


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31), name=st.sampled_from(sorted(set(GAMES) - {"vietnam-battles"})))
@pytest.mark.slow
def test_every_game_is_legal_agrees_with_the_listing(seed: int, name: str) -> None:
    g = GAMES[name]
    scenario = sorted(g.scenarios())[seed % len(g.scenarios())]
    assert check_agreement(g, scenario, seed, steps=40, probes=2) > 0



def test_lock_n_load_opportunity_fire_check_agrees_with_the_listing() -> None:
    """Lock 'n Load's check at an opportunity-fire prompt compares an action with its own kind only
    (rules/lock_n_load/flow.py is_legal): at every such prompt of the golden games (random play
    seldom reaches one), each listed action and its near misses are legal exactly when listed."""
    import copy
    from pathlib import Path

    from ledger.events import GAME_STARTED, RESOLVED
    from ledger.export import parse_export
    from ledger.fold import step
    from rules.lock_n_load import flow

    rng, prompts, checked = random.Random(13), 0, 0
    for path in sorted((Path(__file__).resolve().parents[1] / "golden").glob("lock-n-load--*.jsonl")):
        with path.open("rb") as fh:
            events = parse_export(fh)
        g = GAMES["lock-n-load"]
        state: Any = None
        for ev in events:
            if ev.type not in (GAME_STARTED, RESOLVED):
                continue
            state = step(state, ev) if ev.type == RESOLVED else copy.deepcopy(ev.payload["state"])
            d = state["decision"] if state["phase"] != "over" else None
            if d is None or d["kind"] != "opp_fire":
                continue
            prompts += 1
            w = g.world  # type: ignore[attr-defined]
            legal = flow.legal(state, w)
            listed = {json.dumps(x, sort_keys=True) for x in legal}
            types = sorted({str(a["type"]) for a in legal} | {"opp_fire", "hold_fire", "order", "place_sniper",
                                                              "snipe", "move"})
            pool = [v for a in legal for k, v in a.items() if k != "type"] + [None, "a1", 3]
            for a in legal:
                assert flow.is_legal(state, w, a)
            for a in rng.sample(legal, min(4, len(legal))):
                for miss in near_misses(a, pool, types, rng):
                    assert flow.is_legal(state, w, miss) == (json.dumps(miss, sort_keys=True) in listed), miss
                    checked += 1
    assert prompts > 0 and checked > 0


@pytest.mark.slow
def test_lock_n_load_check_agrees_with_the_listing_at_every_golden_position() -> None:
    """Every position of the Lock 'n Load golden games (both rules versions: melees, withdrawals,
    prompts and moves random play seldom reaches): one listed action of each type and its near
    misses, and LnL's own misses, are legal exactly when listed (rules/lock_n_load/flow.py is_legal)."""
    import copy
    from pathlib import Path

    from ledger.events import GAME_STARTED, RESOLVED
    from ledger.export import parse_export
    from ledger.fold import step

    rng, positions, checked = random.Random(31), 0, 0
    for path in sorted((Path(__file__).resolve().parents[1] / "golden").glob("lock-n-load--*.jsonl")):
        with path.open("rb") as fh:
            events = parse_export(fh)
        state: Any = None
        for ev in events:
            if ev.type not in (GAME_STARTED, RESOLVED):
                continue
            state = step(state, ev) if ev.type == RESOLVED else copy.deepcopy(ev.payload["state"])
            g = get_game("lock-n-load", state["version"])
            seats = g.active_seats(state)
            if not seats:
                continue
            positions += 1
            legal = g.legal_actions(state, seats[0])
            listed = {json.dumps(x, sort_keys=True) for x in legal}
            pool = [v for a in legal[:40] for k, v in a.items() if k != "type"] + [None, True, 1]
            misses: list[Any] = lnl_misses(g, state, rng)
            for kind in _by_type(legal):
                a = rng.choice(kind)
                assert g.is_legal(state, seats[0], a), a
                misses += near_misses(a, pool, sorted(LNL_SHAPES), rng)
            for miss in misses:
                want = json.dumps(miss, sort_keys=True) in listed
                assert g.is_legal(state, seats[0], miss) == want, (path.name, ev.seq, state["decision"], miss)
                checked += 1
    assert positions > 1000 and checked > positions


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31))
@pytest.mark.slow
def test_lock_n_load_check_agrees_with_the_listing_in_melee(seed: int) -> None:
    """LnL 8.0-8.1 positions neither random play from the demo nor the golden games reach: two
    locked melees (one already fought) and free units on both sides, on a small open board, played
    randomly (melee, withdraw, melee_targets, moves into enemy hexes) with LnL's own misses; half
    the seeds start inside an impulse of a locked hex that has acted."""
    from rules.lock_n_load.game import LockNLoad
    from tests.lock_n_load.helpers import blank_state, tiny

    w = tiny(["ooo"] * 4)
    g = LockNLoad(w)
    s = blank_state(w, {"us1": ("us", "us-sq-264", "9A2"), "vc1": ("vc", "vc-sq-143", "9A2"),
                        "us2": ("us", "us-sq-264", "9B3"), "vc2": ("vc", "vc-hs-033", "9B3"),
                        "us3": ("us", "us-sq-264", "9C1"), "vc3": ("vc", "vc-sq-143", "9C4"),
                        "vc4": ("vc", "vc-sq-143", "9A2")},
                    melee={"9A2": {"fought": 0}, "9B3": {"fought": seed % 2}})
    for u in ("us1", "vc1", "vc4", "us2", "vc2"):
        s["units"][u]["melee_locked"] = True
    s["player"] = "us" if seed % 3 else "vc"
    if seed % 2:  # 8.0: an impulse in the locked hex that has acted already may melee, not withdraw
        s["player"] = "us"
        s["impulse"] = {"hexes": ["9A2"], "group": [], "done": [], "fired": {}, "move": None, "acted": True,
                        "visible": {}}
    assert check_agreement(g, "test", seed, steps=80, probes=2, start=s, roles=("us", "vc")) > 0


@pytest.mark.parametrize("scenario,options", [("snoopys_nose", {}), ("snoopys_nose", {"real_chit": True}),
                                              ("iron_triangle", {})])
def test_vietnam_battles_set_up_placement_check_agrees_with_the_listing(scenario: str, options: dict[str, Any]) -> None:
    """A set-up placement (`at`) is asked of its one place (rules/vietnam_battles/setup_vc.py and
    iron_setup.py `is_legal`): through a whole random set-up, every place on the map (and values of
    other JSON types) is legal exactly when listed, while a unit waits to be placed and before."""
    g = GAMES["vietnam-battles"]
    w = g.w(scenario)  # type: ignore[attr-defined]
    rng, dice = random.Random(11), seeded_dice(11)
    s = g.setup(scenario, g.resolve_options(options), dice)
    places = [n for h in sorted(w.hexes) for n in ([f"{h}:{p}" for p in w.portions(h)] or [h])] + sorted(w.hexes)
    odd: list[Any] = [None, True, 1, [], "", "0101:nowhere", sorted(w.hexes)[:1]]
    placements = 0
    while s["phase"] == "setup":
        seat = g.active_seats(s)[0]
        legal = g.legal_actions(s, seat)
        listed = {json.dumps(x, sort_keys=True) for x in legal}
        waiting = any(a["type"] == "at" for a in legal)
        for h in (places if waiting else rng.sample(places, 8)) + odd:
            a = {"type": "at", "hex": h}
            assert g.is_legal(s, seat, a) == (json.dumps(a, sort_keys=True) in listed), (scenario, a)
        assert not g.is_legal(s, seat, {"type": "at", "hex": places[0], "unit": "x"})
        placements += waiting
        s = g.apply(s, seat, rng.choice(legal), dice).state
    assert placements > 10
