"""Lock 'n Load's actions and facts in words (warlog.render.words): units by their counters'
names ("Lt. Harlan", "US 7th squad", "VC 1st half squad"), support weapons by theirs ("M-60"),
never by the scenario's ids ("harlan", "us7", "us-m60b")."""

from __future__ import annotations

import re
from typing import Any

from rules.lock_n_load.data import World
from warlog.render.words import ordinal

SEATS = {"us": "US", "vc": "VC"}
_MMC_ID = re.compile(r"^(?P<side>[a-z]+)(?P<n>\d+)(?:-(?P<half>\d+))?$")
_HERO_ID = re.compile(r"^(?P<side>[a-z]+)-hero(?P<n>\d+)$")
_HALVES = {2: "B", 3: "C", 4: "D"}


_CACHE: dict[tuple[int, str], Any] = {}


def _ids(w: World) -> tuple[dict[str, str], dict[str, str]]:
    """Every scenario's unit ids → kind ids, and support weapon ids → kind ids."""
    found = _CACHE.get((id(w), "ids"))
    if found is None:
        found = _CACHE[(id(w), "ids")] = _read_ids(w)
    return found  # type: ignore[no-any-return]


def _read_ids(w: World) -> tuple[dict[str, str], dict[str, str]]:
    units: dict[str, str] = {}
    sws: dict[str, str] = {}
    for sc in w.scenarios.values():
        for side_units in (sc.get("units") or {}).values():
            for u in side_units:
                units.setdefault(str(u["id"]), str(u["kind"]))
        for marker in sc.get("event_markers") or []:
            unit = (marker.get("effect") or {}).get("unit")
            if isinstance(unit, dict) and "id" in unit:
                units.setdefault(str(unit["id"]), str(unit["kind"]))
        for x, kind in (sc.get("sws") or {}).items():
            sws.setdefault(str(x), str(kind))
    return units, sws


def unit_name(w: World, uid: str) -> str:
    """A unit by its counter's name: a leader or medic by his own ("Lt. Harlan"), a squad by its
    nationality, number and size ("US 7th squad"; a half squad split from it "US 7th half squad B")."""
    units, _ = _ids(w)
    kind = w.kinds.get(units.get(uid, ""))
    if kind is not None and not kind.is_mmc:
        return str(kind.name)
    m = _MMC_ID.match(uid)
    if m is not None:
        base = w.kinds.get(units.get(f"{m['side']}{m['n']}", ""))
        nat = base.nationality if base is not None else m["side"].upper()
        half = m["half"] is not None or (kind is not None and kind.cls == "half")
        name = f"{nat} {ordinal(int(m['n']))} {'half squad' if half else 'squad'}"
        return name + (f" {_HALVES.get(int(m['half']), m['half'])}" if m["half"] else "")
    m = _HERO_ID.match(uid)
    if m is not None:
        return f"{m['side'].upper()} hero {m['n']}" if m["n"] != "1" else f"{m['side'].upper()} hero"
    return uid.replace("_", " ")


def sw_name(w: World, sw: str) -> str:
    _, sws = _ids(w)
    d = w.sws.get(sws.get(sw, sw))
    return d.name if d is not None else sw.replace("-", " ").upper()


def action_words(w: World, a: dict[str, Any]) -> str | None:
    """An action as its button reads ("Give the M-60 of US 7th squad to US 6th squad")."""
    def u(key: str = "unit") -> str:
        return unit_name(w, str(a.get(key)))

    t = a.get("type")
    hx = a.get("hex")
    mode = _MODES.get(str(a.get("mode")), str(a.get("mode", "")).replace("_", " "))
    texts: dict[str, Any] = {
        "rally": lambda: f"Rally {u()}",
        "medic": lambda: f"{u()} treats {u('patient')}",
        "pickup": lambda: f"{u()} picks up the {sw_name(w, str(a.get('sw')))}",
        "combine": lambda: f"Combine {u()} and {u('with')} into a squad",
        "split": lambda: f"Split {u()} into two half squads",
        "give_sw": lambda: f"Give the {sw_name(w, str(a.get('sw')))} of {u()} to {u('to')}",
        "swap_sw": lambda: f"Swap the {sw_name(w, str(a.get('sw')))} for the {sw_name(w, str(a.get('for')))}",
        "end_rally": lambda: "End the Rally Phase",
        "pass": lambda: "Pass",
        "activate": lambda: f"Activate the units in {hx}",
        "spot": lambda: f"{u()} tries to spot {hx}",
        "place_sniper": lambda: f"Place {u()} in {hx}",
        "order": lambda: f"Standing order for {hx}: {order_words(str(a.get('order')))}",
        "sniper_order": lambda: f"Standing order for {u()} in {hx}: {sniper_order_words(str(a.get('order')))}",
        "select": lambda: f"Select {u()}",
        "clear": lambda: "Clear the selection",
        "fire": lambda: f"Fire at {a.get('target')}",
        "move": lambda: f"Move the selected units ({mode})" if mode and mode != "normal" else "Move the selected units",
        "step": lambda: f"Move into {hx}",
        "stop": lambda: "Stop moving",
        "smoke": lambda: f"Lay smoke in {hx}",
        "melee": lambda: f"Melee in {hx}",
        "withdraw": lambda: f"Withdraw from the melee into {hx}",
        "end_impulse": lambda: "End the impulse",
        "opp_fire": lambda: f"Opportunity fire from {hx}",
        "hold_fire": lambda: "Hold fire",
        "snipe": lambda: f"{u()} snipes at {a.get('target')}",
        "melee_targets": lambda: "Melee targets: " + ", ".join(unit_name(w, str(x)) for x in a.get("units") or []),
        "drop_sw": lambda: f"{u()} drops the {sw_name(w, str(a.get('sw')))}",
        "retreat": lambda: f"{u()} retreats into {hx}",
        "place_hero": lambda: f"Place {u()} in {hx}",
    }
    make = texts.get(str(t))
    return str(make()) if make is not None else None


_MODES = {"normal": "normal", "double": "double time", "assault": "assault move", "crawl": "low crawl"}  # LnL 6.0-6.3
_ORDERS = {"fire": "fire at any enemy that moves in sight", "hold": "hold fire", "ask": "ask me"}


def sniper_order_words(order: str) -> str:
    """The sniper's standing order (LnL 11.4, A42): "fire" at the first enemy it can take,
    "within2" when one comes within 2 hexes, "ask" to take the order back."""
    return "fire at the first enemy in sight" if order == "fire" else order_words(order)


def order_words(order: str) -> str:
    """A standing order ("within2" → "fire at enemies moving within 2 hexes", "at:1D4")."""
    if order.startswith("within") and order[6:].isdigit():
        return f"fire at enemies moving within {order[6:]} {'hex' if order[6:] == '1' else 'hexes'}"
    if order.startswith("at:"):
        return f"fire at enemies moving into {order[3:]}"
    return _ORDERS.get(order, order)


def _id_pattern(w: World) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    found = _CACHE.get((id(w), "patterns"))
    if found is None:
        found = _CACHE[(id(w), "patterns")] = _patterns(w)
    return found  # type: ignore[no-any-return]


def _patterns(w: World) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    units, sws = _ids(w)
    leaders = sorted((u for u in units if not _MMC_ID.match(u)), key=len, reverse=True)
    names = "|".join(re.escape(n) for n in sorted({k.name for k in w.kinds.values()},
                                                   key=len, reverse=True))
    ids = r"(?:[a-z]{2,4}\d+(?:-\d+)?|[a-z]{2,4}-hero\d+" + "".join(f"|{re.escape(x)}" for x in leaders) + ")"
    named = re.compile(rf"(?:{names}) (?P<id>{ids})\b")  # "US Army half squad us1-2", "Le Thi Hoa hoa"
    bare = re.compile(rf"(?<![\w-])(?P<id>{ids})(?![\w-])")
    weapons = "|".join(re.escape(x) for x in sorted(sws, key=len, reverse=True)) or "(?!)"
    sw = re.compile(rf" \((?:{weapons})\)")
    return named, bare, sw


_REFUSED = re.compile(r"^(?P<verb>[a-z][a-z ]*?)(?: \((?P<rest>[^()]*)\))? is not legal now (?P<why>\(.*\))$")


def _refused(w: World, text: str) -> str:
    """A refusal's "give sw (sw us-m60b, to us6, unit us7) is not legal now (...)" (the rules'
    description of the refused action, schema.describe) with the action in words."""
    m = _REFUSED.match(text)
    if m is None:
        return text
    action: dict[str, Any] = {"type": m["verb"].replace(" ", "_")}
    for part in (m["rest"] or "").split(", "):
        key, _, value = part.partition(" ")
        if key:
            action[key] = value
    words = action_words(w, action)
    return f"{words} is not legal now {m['why']}" if words else text


def text_words(w: World, text: str) -> str:
    """A recorded text with the ids put in words: "us7 hands M-60 (us-m60b) to us6" → "US 7th
    squad hands M-60 to US 6th squad"."""
    text = _refused(w, text)
    named, bare, sw = _id_pattern(w)
    units, _ = _ids(w)

    def one(m: re.Match[str]) -> str:
        uid = m["id"]
        if uid in units or _MMC_ID.match(uid) and uid.rstrip("0123456789-") in SEATS or _HERO_ID.match(uid):
            return unit_name(w, uid)
        return m.group(0)

    text = sw.sub("", text)
    text = re.sub(r"(standing order to \S+): (\S+)$", lambda m: f"{m[1]}: {order_words(m[2])}", text)
    text = named.sub(one, text)
    text = bare.sub(one, text)
    return re.sub(r"\bleader (?=(Lt|Sgt|Capt|Gy|Fr|Doc)\.?)", "", text)
