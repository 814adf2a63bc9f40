"""UP FRONT's standing answers in words (rules version 4 on; ours, CORE 11): the answers to the
reaction windows (rules/up_front/react.py) given ahead of time, in the language of
rules/core/standing.py that Assault on Belgium, Vietnam Battles and Lock 'n Load speak:

    {"type": "standing", "kind": "concealment", "answer": "conceal", "when": [["strength", ">=", 5]]}

Each answer says what it does (versions 1-3 said "play" or "decline" for every window):

* `concealment` (UF C.5), a group of mine is attacked: `conceal` — play the strongest Concealment
  card I hold against the attack (none held: the attack goes on as it is); `take` — play none.
  Conditions on `men` (the target's men), `strength` (the attack's), `target` (its letter).
* `terrain` (CORE 5.3; UF C.2), terrain is discarded onto my moving group: `accept` it;
  `reject` — reject it by discarding a Movement card I hold (none held: accept it). Conditions
  on `group`, `terrain` (its name, e.g. "woods") and `cover` (its cover modifier: below 0 shelters).
* `mine_altitude` (UFM 5.1.j; B.6-6 INFERRED), a Minefield hit my group while it changes altitude:
  `place` — place an altitude card of the new level I hold (at level 1 none is needed; none
  fitting: the change fails); `fail` — place none, the change fails. Conditions on `group` and
  `level` (the group's level now).

When a condition is false the seat is asked (rules/core/standing.py). Secrecy as in version 3: a
standing answer is the seat's hidden move and a face-down marker whose kind and conditions are
public (they decide, publicly, whether the seat is asked); its words are the seat's until the game
ends; a settled window says so publicly, and what it does (a card played) is public.
"""

from __future__ import annotations

from typing import Any

from rules.core import standing
from rules.core.game import Action
from rules.up_front.data import World

State = dict[str, Any]

KINDS: dict[str, standing.Kind] = {k.name: k for k in (
    standing.Kind("concealment", ("conceal", "take"), {"men": int, "strength": int, "target": str}, "UF C.5",
                  "a group of mine is attacked: play Concealment against the attack, or take it"),
    standing.Kind("terrain", ("accept", "reject"), {"group": str, "terrain": str, "cover": int}, "CORE 5.3",
                  "terrain is discarded onto my moving group: accept it, or reject it with a Movement card"),
    standing.Kind("mine_altitude", ("place", "fail"), {"group": str, "level": int}, "UFM 5.1.j",
                  "a Minefield hit my group changing altitude: place the new level's altitude card, or fail"),
)}
WORDS = {  # each answer in words, for the listing's descriptions, pages and mail
    "conceal": "play my strongest Concealment card against the attack", "take": "take the attack (no Concealment)",
    "accept": "accept the terrain", "reject": "reject the terrain with a Movement card",
    "place": "place the new level's altitude card", "fail": "place no altitude card (the change fails)",
    standing.ASK: "ask me",
}


def worded(s: State) -> bool:
    """Rules version 4 on (its state has the key "half"): standing answers in words."""
    return "half" in s


def pick(w: World, kind: str, answer: str, options: list[Action]) -> Action:
    """The window's answer the standing answer stands for, among the window's legal `options`
    (react.options: the refusal always among them)."""
    def of(t: str) -> list[Action]:
        return [a for a in options if a["type"] == t]

    if kind == "concealment":
        cards = of("conceal")
        if answer == "conceal" and cards:
            return max(cards, key=lambda a: (int(w.cards[a["card"]]["value"]), a["card"]))
        return of("decline")[0]
    if kind == "terrain":
        rejects = of("reject")
        return rejects[0] if answer == "reject" and rejects else of("accept")[0]
    places = of("mine_altitude")
    return places[0] if answer == "place" and places else of("decline")[0]


def describe(a: Action) -> str:
    """"standing answer to concealment: conceal (play my strongest Concealment card against the
    attack) when strength >= 5"."""
    kind, answer, when = a.get("kind"), a.get("answer"), a.get("when")
    text = f"standing answer to {kind}: {answer} ({WORDS.get(str(answer), '?')})"
    if isinstance(when, list) and when and all(isinstance(c, list) and len(c) == 3 for c in when):
        text += f" when {standing.conditions(when)}"
    elif answer != standing.ASK:
        text += " always"
    return text


def offered(kind_names: tuple[str, ...] = tuple(KINDS)) -> list[Action]:
    """The standing answers the turn's listing offers: for each kind each answer always, and
    "ask" (any other well-formed one is legal too: `standing.check`)."""
    return [{"type": "standing", "kind": k, "answer": a, "when": []}
            for k in kind_names for a in (*KINDS[k].answers, standing.ASK)]
