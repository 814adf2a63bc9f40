"""A director's ruling never breaks hidden information, and no game goes on with a
revealed seed. Each test is an attack an opponent (the US seat) or a spectator makes alone
after one kind of ruling in a Vietnam Battles game: read every API answer and page open to
it (play, replay, audit, exports), look for the hidden hexes of a Snoopy's Nose set-up or the
Iron Triangle's secret victory condition (VB 27.0, H1), and hash every candidate action
against the public event hashes with any seed it can find (ledger.dice step 5). The VC's
idempotency keys are made predictable ("vc-0", "vc-1", …) so that only the blind stands
between the attacker and the set-up."""

from __future__ import annotations

from typing import Any

import pytest

from rules import get_game
from tests.conftest import Player
from tests.support.attacks import Reader, commitments, hash_and_guess
from warlog.trust.verify import verify_bytes

KINDS = ("reveal_seed", "void", "void_re_resolve", "adjust", "award_then_reopen")


def _play_setup(p: Player, scenario: str) -> list[str]:
    """The VC's whole secret set-up (and the US's, in the Iron Triangle) up to the US's first
    movement phase; every VC hidden position picked from the middle of its list. Returns the
    VC's keys."""
    keys: list[str] = []
    while True:
        active = p.info()["active_seats"]
        seat = active[0]
        listing = p.actions(seat)
        acts = listing["actions"]
        types = {a["type"] for a in acts}
        if seat == "us" and not types & {"place", "at"}:
            return keys
        if "choose_victory" in types:
            a = {"type": "choose_victory", "condition": "hold"}
        elif types & {"at", "camp"}:
            a = acts[len(acts) // 2]
        else:
            a = next((x for x in acts if x["type"] == "hide"), acts[0])
        key = f"{seat}-{len(keys)}" if seat == "vc" else None
        if key:
            keys.append(key)
        p.play(seat, a, key=key)


def _rule(p: Player, ruling: dict[str, Any]) -> dict[str, Any]:
    r = p.client.post(f"/api/v1/games/{p.id}/rulings", headers=p.auth("director"), json=ruling)
    assert r.status_code == 202, r.get_json()
    p.wait()
    return p.client.get(f"/api/v1/games/{p.id}/moves/{r.get_json()['seq']}", headers=p.auth("director")).get_json()


def _director_events(p: Player) -> list[dict[str, Any]]:
    return p.client.get(f"/api/v1/games/{p.id}/events?after=-1&limit=10000",
                        headers=p.auth("director")).get_json()["events"]


def _vc_submissions(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "submitted" and e["seat"] == "vc"]


def _last_vc_resolution(events: list[dict[str, Any]]) -> dict[str, Any]:
    return [e for e in events if e["type"] == "resolved" and e["payload"]["seat"] == "vc"][-1]


def _candidates(scenario: str) -> list[dict[str, Any]]:
    """Every action the VC could have sent in its set-up: the attacker knows the map."""
    g = get_game("vietnam-battles")
    w = g.iron if scenario == "iron_triangle" else g.world  # type: ignore[attr-defined]
    spots = sorted(w.hexes) + sorted(f"{h}:{p}" for h, d in w.hexes.items() for p in (d.get("portions") or {}))
    units = sorted(u for u, d in w.units.items() if d.side == "vc")
    return ([{"type": t, "hex": h} for t in ("at", "camp") for h in spots]
            + [{"type": t, "unit": u} for t in ("place", "hide") for u in units]
            + [{"type": "choose_victory", "condition": c} for c in ("escape", "casualties", "hold")])


def _apply_ruling(app: Any, p: Player, kind: str, scenario: str) -> dict[str, Any]:
    """Make the ruling; return what the attack needs to know of it."""
    events = _director_events(p)
    last_vc = _last_vc_resolution(events)
    if kind == "reveal_seed":
        return {"ruling": _rule(p, {"kind": "reveal_seed", "reason": "a dispute over a die"})}
    if kind in ("void", "void_re_resolve"):
        out = _rule(p, {"kind": "void", "target": last_vc["seq"], "re_resolve": kind == "void_re_resolve",
                        "reason": "the VC player mis-clicked"})
        assert out["status"] == "resolved", out
        return {"ruling": out}
    if kind == "adjust":
        state = p.client.get(f"/api/v1/games/{p.id}/state", headers=p.auth("director")).get_json()["state"]
        if scenario == "iron_triangle":
            patch = [{"op": "replace", "path": "/secret/victory", "value": "escape"}]
        else:
            hidden = state["secret"]["hidden"]
            unit = sorted(hidden)[0]
            new = next(n for n in get_game("vietnam-battles").world.neighbours(hidden[unit])  # type: ignore
                       if n not in set(hidden.values()))
            patch = [{"op": "replace", "path": f"/secret/hidden/{unit}", "value": new}]
        out = _rule(p, {"kind": "adjust", "patch": patch, "reason": "correcting a mis-clicked hidden set-up"})
        assert out["status"] == "resolved", out
        return {"ruling": out, "patch": patch}
    assert kind == "award_then_reopen"
    award = _rule(p, {"kind": "award", "winner": "us", "result": "US victory", "reason": "VC forfeits"})
    assert p.info()["status"] == "ended", award
    # the end publishes the seed (and every secret so far): each attacker keeps what it read
    remembered = {who: (lambda r: r.seeds(commitments(r.events)))(
        Reader(app, p.id, p.created["seats"][who] if who else None).read()) for who in ("us", None)}
    assert all(len(seeds) == 1 for seeds in remembered.values())
    reopen = _rule(p, {"kind": "void", "target": last_vc["seq"], "reason": "the forfeit was a mistake"})
    assert p.info()["status"] == "active", reopen
    # the VC sends its last set-up move again; it is as secret as the first time
    listing = p.actions("vc")
    acts = listing["actions"]
    again = acts[len(acts) // 3] if {a["type"] for a in acts} & {"at", "camp"} else acts[-1]
    p.play("vc", again, key="vc-again")
    return {"ruling": reopen, "remembered": remembered}


def _secret_marks(p: Player, scenario: str) -> list[str]:
    """Strings that name a hidden thing: they must not appear in what an attacker reads."""
    full = p.client.get(f"/api/v1/games/{p.id}/state", headers=p.auth("director")).get_json()["state"]
    marks = ["/secret/", "secret/hidden", "your condition"]
    for uid, h in sorted((full["secret"].get("hidden") or {}).items()):
        marks += [f"hidden in {h}", f'"{uid}": "{h}"', f'"{uid}":"{h}"']
    for cid, h in sorted((full["secret"].get("camps") or {}).items()):
        marks += [f'"{cid}": "{h}"', f'"{cid}":"{h}"', f"camp in {h}"]
    if full["secret"].get("victory"):
        marks += [f"condition: {full['secret']['victory']}", f"condition {full['secret']['victory']}"]
    for ev in _director_events(p):
        if "blind" in ev["payload"]:
            marks.append(ev["payload"]["blind"])
    return marks


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("scenario", ["snoopys_nose", "iron_triangle"])
@pytest.mark.slow
def test_hidden_information_no_ruling_opens_the_vc_secrets_to_the_us_seat_or_a_spectator(app, new_game, scenario, kind):
    p: Player = new_game("vietnam-battles", scenario)
    keys = _play_setup(p, scenario)
    ruled_from = p.info()["seq"] + 1
    made = _apply_ruling(app, p, kind, scenario)
    keys.append("vc-again")
    marks = _secret_marks(p, scenario)
    vc_subs = _vc_submissions(_director_events(p))
    if kind == "award_then_reopen":  # what the end made public stays public; what follows is secret again
        vc_subs = [e for e in vc_subs if e["seq"] > made["ruling"]["seq"]]
    assert vc_subs
    cands = _candidates(scenario)
    for who in ("us", None):
        reading = Reader(app, p.id, p.created["seats"][who] if who else None).read(pages_from=ruled_from - 1)
        corpus = reading.corpus
        leaked = [m for m in marks if m in corpus]
        assert leaked == [], (who, leaked[:5])
        seeds = reading.seeds(commitments(reading.events))
        assert seeds == [], who  # the seed of a running game with hidden information is the director's
        seeds += made.get("remembered", {}).get(who, [])
        seen = {e["seq"]: e for e in reading.events}
        recovered = [hash_and_guess(seen[e["seq"]], seeds, cands, [None, *keys]) for e in vc_subs]
        assert sum(map(len, recovered)) == 0, (who, recovered)
    # the director's export verifies at any time, and every export does once the game is over
    export = p.client.get(f"/api/v1/games/{p.id}/export", headers=p.auth("director")).get_data()
    assert verify_bytes(export).judgements > 0


@pytest.mark.slow
def test_hidden_information_the_attack_is_real_with_the_seed_it_recovers_every_hidden_set_up(app, new_game):
    """The director's reveal gives the director the seed; with it (as the public had it before
    the fix) hashing candidates recovers each of the VC's 27 hidden set-up moves."""
    p: Player = new_game("vietnam-battles", "snoopys_nose")
    keys = _play_setup(p, "snoopys_nose")
    _rule(p, {"kind": "reveal_seed", "reason": "a dispute over a die"})
    director = Reader(app, p.id, p.created["director_token"]).read()
    seeds = director.seeds(commitments(director.events))
    assert len(seeds) == 1
    redacted = Reader(app, p.id, None).read()
    seen = {e["seq"]: e for e in redacted.events}
    subs = _vc_submissions(_director_events(p))
    hits = [hash_and_guess(seen[e["seq"]], seeds, _candidates("snoopys_nose"), [None, *keys]) for e in subs]
    assert len(subs) == 27 and [len(h) for h in hits] == [1] * 27
    assert [h[0] for h in hits] == [e["payload"]["action"] for e in subs]


@pytest.mark.slow
def test_hidden_information_an_adjustment_is_the_directors_secret_move_even_when_refused(app, new_game):
    """The secret-number test game (tests/pages/secret_game.py): the director corrects north's
    secret, then sends a patch the state refuses. South and a spectator read that the state was
    adjusted and that a ruling was refused; never a path, a value or the refusal's text."""
    from tests.pages.secret_game import install

    install()
    p: Player = new_game("secret-test", "only")
    _rule(p, {"kind": "adjust", "reason": "north's die was misread",
              "patch": [{"op": "replace", "path": "/secrets/north", "value": "zq-north-6"}]})
    r = p.client.post(f"/api/v1/games/{p.id}/rulings", headers=p.auth("director"), json={
        "kind": "adjust", "reason": "again", "patch": [{"op": "remove", "path": "/secrets/north/zq-north-6"}]})
    p.wait()
    refused = p.client.get(f"/api/v1/games/{p.id}/moves/{r.get_json()['seq']}", headers=p.auth("director")).get_json()
    assert refused["status"] == "rejected" and "zq-north-6" in refused["reasons"][0]["message"]
    for who in ("south", None):
        reading = Reader(app, p.id, p.created["seats"][who] if who else None).read(pages_from=0)
        assert "zq-north-6" not in reading.corpus and "/secrets" not in reading.corpus, who
        assert "Director adjusts the game's state (what changed is hidden until the game ends)" in reading.corpus
        assert "the director's ruling was refused (the reason is hidden until the game ends)" in reading.corpus
    north = Reader(app, p.id, p.created["seats"]["north"]).read()
    assert "zq-north-6" in north.corpus  # north's own view shows its corrected secret
