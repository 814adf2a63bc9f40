"""Standing answers (ours; Assault on Belgium and Vietnam Battles from rules version 2:
rules/core/standing.py) in the words a player uses, for the play page and the turn mail.

The rules name each kind of decision, its answers and the fields a condition may test by ids
(`retreat`, `hit`, `hits`); here each has its words (kept in the catalogs, so a page shows them
in its reader's language), and a seat's answers become `Standing` rows both the page and the mail
print. `choices` lists the answers a seat may give without a condition (and "ask me" to take one
back): the page's form and the mail's codes offer these; a condition is added on the page (or by
the API), as the game's docs say.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.core import standing as core
from warlog.catalogs import DEFAULT, N_, game_text, translate

# kind -> (what is decided, {answer: words}, {field: words})
Words = dict[str, tuple[str, dict[str, str], dict[str, str]]]

AOB: Words = {
    "defender_unit": (N_("The defending unit of a battle round"),
                      {"strongest": N_("the strongest defender"), "weakest": N_("the weakest defender")},
                      {"hex": N_("the battle's hex"), "round": N_("the battle round")}),
    "bomber": (N_("Bomber support for a battle round"),
               {"support": N_("support with a bomber"), "none": N_("no bomber")},
               {"hex": N_("the battle's hex"), "round": N_("the battle round")}),
    "assign_hits": (N_("An excess hit to another defender"),
                    {"strongest": N_("give it to the strongest defender"),
                     "weakest": N_("give it to the weakest defender")},
                    {"hex": N_("the battle's hex"), "pending": N_("excess hits left")}),
    "retreat": (N_("A retreat result"),
                {"retreat": N_("retreat"), "hit": N_("take an extra hit instead")},
                {"hex": N_("the battle's hex"), "round": N_("the battle round"), "hits": N_("the unit's hits"),
                 "defense": N_("the unit's defense strength")}),
    "withdraw": (N_("Withdrawing from a battle"), {"continue": N_("fight on")},
                 {"hex": N_("the battle's hex"), "round": N_("the battle round"),
                  "mine": N_("my land units in the battle"), "theirs": N_("enemy land units in the battle")}),
    "pursuit": (N_("Pursuit with the tanks"), {"stop": N_("do not pursue")}, {"hex": N_("the battle's hex")}),
    "air": (N_("Air missions"), {"stay": N_("fly no missions: the aircraft stay at base")},
            {"battles": N_("battles to be fought")}),
}
VB: Words = {
    "support": (N_("Support fire at a step of a battle"),
                {"strongest": N_("commit the strongest marker"), "weakest": N_("commit the weakest marker"),
                 "pass": N_("pass")},
                {"hex": N_("the battle's hex"), "step": N_("the support fire step (1-4)"),
                 "bombard": N_("a bombardment (1) or an attack (0)")}),
    "retreat": (N_("Hold or retreat"), {"hold": N_("hold at all costs"), "retreat": N_("retreat")},
                {"hex": N_("the retreating unit's hex"), "n": N_("hexes to retreat")}),
    "displace": (N_("Displacing a blocking unit"), {"displace": N_("displace it"), "refuse": N_("refuse")},
                 {"hex": N_("the blocking unit's hex")}),
    "ambush": (N_("An ambush"), {"push": N_("push the ambushed unit")}, {"hex": N_("the landing hex")}),
}
# UP FRONT and Lock 'n Load from rules version 4 (rules/up_front/standing.py, rules/lock_n_load/standing.py)
UF: Words = {
    "concealment": (N_("When a group of mine is fired at"),
                    {"conceal": N_("play my strongest Concealment card"), "take": N_("take the attack (no Concealment)")},
                    {"men": N_("men in the group"), "strength": N_("the attack's strength"), "target": N_("the group")}),
    "terrain": (N_("When terrain is discarded onto my moving group"),
                {"accept": N_("accept it"), "reject": N_("reject it with a Movement card")},
                {"group": N_("the group"), "terrain": N_("the terrain"), "cover": N_("the terrain's cover")}),
    "mine_altitude": (N_("When a Minefield hits my group changing altitude"),
                      {"place": N_("place the altitude card"), "fail": N_("let the change fail")},
                      {"group": N_("the group"), "level": N_("the level")}),
    # a conditional turn (CORE 11.2, rules/up_front/plan.py): the seat's next turns, left ahead
    "turn": (N_("My next turns, left ahead (a conditional turn)"),
             {"play": N_("play them when the other side's turn ends as foreseen")},
             {"mine": N_("my groups changed in the other side's turn"),
              "his": N_("the other side's groups changed in its turn")}),
}
LNL: Words = {
    "impulse": (N_("My impulse"), {"pass": N_("pass the impulse")},
                {"targets": N_("enemy units my units could fire at"), "near": N_("the nearest enemy, in hexes"),
                 "turn": N_("the turn"), "turns_left": N_("turns left"), "passes": N_("passes in a row"),
                 "held": N_("objectives held")}),
    "rally": (N_("My Rally Phase step"), {"end": N_("end the step")},
              {"rallies": N_("units that could rally, be treated or pick up"), "shaken": N_("shaken units"),
               "turn": N_("the turn"), "turns_left": N_("turns left")}),
}
ASK_WORDS = N_("ask me (no standing answer)")
OP_WORDS: dict[str, str] = {"==": N_("is"), "!=": N_("is not"), "<=": N_("is at most"), ">=": N_("is at least"),
                            "<": N_("is less than"), ">": N_("is more than")}


def _kinds_of(game_name: str) -> Mapping[str, core.Kind]:
    if game_name == "assault-on-belgium":
        from rules.assault_on_belgium.standing import KINDS

        return KINDS
    if game_name == "vietnam-battles":
        from rules.vietnam_battles.standing import KINDS as VB_KINDS

        return VB_KINDS
    if game_name == "up-front":
        from rules.up_front.plan import KINDS as PLAN_KINDS
        from rules.up_front.standing import KINDS as UF_KINDS

        return {**UF_KINDS, **PLAN_KINDS}
    if game_name == "lock-n-load":
        from rules.lock_n_load.standing import KINDS as LNL_KINDS

        return LNL_KINDS
    return {}


WORDS: dict[str, Words] = {"assault-on-belgium": AOB, "vietnam-battles": VB, "up-front": UF, "lock-n-load": LNL}


def kinds(game: Any) -> Mapping[str, core.Kind]:
    """The kinds of decision `game` (a rules instance) takes standing answers for; none before its
    rules version 2 (`standing_answers`), nor in a game without them."""
    if not getattr(game, "standing_answers", False):
        return {}
    return _kinds_of(game.name)


@dataclass
class Condition:
    field: str
    op: str
    value: Any
    field_words: str
    op_words: str
    value_words: str


@dataclass
class Standing:
    """One standing answer in words: `decision` (what is decided), `answer`, its conditions (none:
    always). `kind` and `answer_id` are the rules' ids (the form's values)."""

    kind: str
    answer_id: str
    decision: str
    rule: str
    answer: str
    conditions: list[Condition] = field(default_factory=list)
    detail: list[str] = field(default_factory=list)  # UP FRONT's conditional turn: its turns' actions in words

    def english(self) -> str:
        """"A retreat result: take an extra hit instead, when the unit's hits is 0" (the mail's words)."""
        when = " and ".join(f"{c.field_words} {c.op_words} {c.value_words}" for c in self.conditions)
        if self.answer_id == core.ASK:
            return f"{self.decision} ({self.rule}): {self.answer}"
        return f"{self.decision} ({self.rule}): {self.answer}" + (f", when {when}" if when else ", always")

    def said(self, lang: str | None) -> str:
        """`english()` in language `lang` (a mail's words; the page's are the same messages)."""
        if not lang or lang == DEFAULT:
            return self.english()
        decision, answer = game_text(lang, self.decision), game_text(lang, self.answer)
        rule = f" ({game_text(lang, self.rule)})" if self.rule else ""
        conds = [translate(lang, "%(field)s %(op)s %(value)s", field=game_text(lang, c.field_words),
                           op=game_text(lang, c.op_words), value=c.value_words) for c in self.conditions]
        if self.answer_id == core.ASK:
            return translate(lang, "%(decision)s: %(answer)s", decision=decision, answer=answer) + rule
        if conds:
            return translate(lang, "%(decision)s: %(answer)s, when %(conditions)s", decision=decision, answer=answer,
                             conditions=translate(lang, " and ").join(conds)) + rule
        return translate(lang, "%(decision)s: %(answer)s, always", decision=decision, answer=answer) + rule


def _hex_name(name_of: Callable[[str, str], str] | None, value: Any) -> str:
    if name_of is None or not isinstance(value, str):
        return str(value)
    try:
        return name_of("hex", value)
    except Exception:  # a hex the map does not know: its id, as given
        return value


def describe(game_name: str, kind: str, answer: str, when: list[Any],
             name_of: Callable[[str, str], str] | None = None) -> Standing:
    """A standing answer in words (English; the page translates each part)."""
    rules_kind = _kinds_of(game_name).get(kind)
    decision, answers, fields = WORDS.get(game_name, {}).get(kind, (kind, {}, {}))
    conds = []
    for cond in when:
        f, op, value = cond
        words = _hex_name(name_of, value) if f == "hex" else str(value)
        conds.append(Condition(f, op, value, fields.get(f, f), OP_WORDS.get(op, op), words))
    return Standing(kind, answer, decision, rules_kind.rule if rules_kind else "",
                    ASK_WORDS if answer == core.ASK else answers.get(answer, answer), conds)


def of_seat(game: Any, state: Any, seat: str | None, name_of: Callable[[str, str], str] | None = None
            ) -> list[Standing]:
    """`seat`'s own standing answers in `state` (as that seat's view shows them) in words. Another
    seat's are face-down markers: never listed here."""
    if seat is None or not kinds(game):
        return []
    mine = ((state or {}).get("standing") or {}).get(seat) if isinstance(state, dict) else None
    if not isinstance(mine, dict):
        return []
    return [describe(game.name, k, str(v.get("answer")), list(v.get("when") or []), name_of)
            for k, v in sorted(mine.items()) if isinstance(v, dict) and v.get("answer") != core.HIDDEN]


@dataclass
class Choice:
    """An answer a seat may give as it is (no condition), or "ask me" for a kind it has one for."""

    action: dict[str, Any]
    words: Standing


def choices(game: Any, state: Any, seat: str) -> list[Choice]:
    """The unconditional standing answers `seat` may record, kind by kind in the game's order; and,
    for each kind it has an answer to, taking that answer back."""
    have = ((state or {}).get("standing") or {}).get(seat) or {}
    out = []
    for name, k in kinds(game).items():
        for answer in k.answers:
            if have.get(name) == {"answer": answer, "when": []}:
                continue  # standing already
            out.append(Choice({"type": "standing", "kind": name, "answer": answer, "when": []},
                              describe(game.name, name, answer, [])))
        if name in have:
            out.append(Choice({"type": "standing", "kind": name, "answer": core.ASK, "when": []},
                              describe(game.name, name, core.ASK, [])))
    return out


def form(game: Any) -> list[dict[str, Any]]:
    """The page form's options, kind by kind: its words, rule, answers and condition fields."""
    out = []
    words = WORDS.get(game.name, {})
    for name, k in kinds(game).items():
        decision, answers, fields = words.get(name, (name, {}, {}))
        out.append({"kind": name, "decision": decision, "rule": k.rule,
                    "answers": [(a, answers.get(a, a)) for a in k.answers],
                    "fields": [(f, fields.get(f, f), "number" if t is int else "text") for f, t in k.fields.items()]})
    return out


def action_from_form(game: Any, form_data: Mapping[str, str]) -> dict[str, Any]:
    """The standing action a play page's form asks for (`choice` = "kind answer", then up to three
    conditions `field1`/`op1`/`value1`…), checked by the rules' own `check`: IllegalAction in
    words if it is not one the game takes."""
    from rules.core.game import IllegalAction

    ks = kinds(game)
    kind, _, answer = (form_data.get("choice") or "").strip().partition(" ")
    if kind not in ks:
        raise IllegalAction("choose a decision and an answer from the list", core.RULE)
    when: list[list[Any]] = []
    for i in range(1, core.MAX_CONDITIONS + 1):
        f = (form_data.get(f"field{i}") or "").strip()
        raw = (form_data.get(f"value{i}") or "").strip()
        if not f and not raw:
            continue
        if f not in ks[kind].fields:
            words = WORDS.get(game.name, {}).get(kind, (kind, {}, {}))
            known = ", ".join(words[2].get(x, x) for x in ks[kind].fields)
            raise IllegalAction(f"{words[0]} has no such condition; it may test: {known}", core.RULE)
        value: Any = raw
        if ks[kind].fields[f] is int:
            try:
                value = int(raw)
            except ValueError:
                raise IllegalAction(f"{WORDS.get(game.name, {}).get(kind, ('', {}, {}))[2].get(f, f)} "
                                    "is compared with a whole number", core.RULE) from None
        elif not raw:
            raise IllegalAction("a condition needs a value to compare with", core.RULE)
        when.append([f, (form_data.get(f"op{i}") or "==").strip(), value])
    if answer == core.ASK and when:
        when = []  # "ask me" takes the answer back whatever the conditions
    action = {"type": "standing", "kind": kind, "answer": answer, "when": when}
    core.check(ks, action)
    return action
