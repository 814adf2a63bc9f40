"""ledger.fold.apply_patch (a fold without jsonpatch's per-operation objects) does
what `jsonpatch.JsonPatch(copy.deepcopy(patch)).apply(doc, in_place=True)` does: the same
document, the same error on a patch that does not apply, and a result that shares nothing with
the patch. No database needed."""

from __future__ import annotations

import copy
from typing import Any

import jsonpatch
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.canonical import canonical_bytes
from ledger.fold import apply_patch

KEYS = st.sampled_from(["a", "b", "c", "-", "0", "1", "", "x/y", "t~1"])
LEAF = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text("ab", max_size=2))
DOC = st.recursive(LEAF, lambda kids: st.one_of(st.lists(kids, max_size=3), st.dictionaries(KEYS, kids, max_size=3)),
                   max_leaves=12)
PART = st.sampled_from(["a", "b", "c", "-", "0", "1", "2", "3", "01", "", "x", "~1", "~0", "~2"])
PATH = st.one_of(st.just(""), st.lists(PART, min_size=1, max_size=4).map(lambda ps: "/" + "/".join(ps)),
                 st.sampled_from(["a", "a/b", 7]))
OP = st.fixed_dictionaries({"op": st.sampled_from(["add", "replace", "remove", "remove", "test", "move", "bogus"]),
                            "path": PATH}, optional={"value": DOC, "from": PATH})
PATCH = st.lists(OP, max_size=4)


def _outcome(run: Any) -> tuple[str, Any]:
    try:
        return "ok", canonical_bytes(run())
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as err:
        return type(err).__name__, str(err)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=DOC, patch=PATCH)
@pytest.mark.slow
def test_apply_patch_does_what_jsonpatch_does(doc: Any, patch: list[dict[str, Any]]) -> None:
    kept = copy.deepcopy(patch)
    ours = _outcome(lambda: apply_patch(copy.deepcopy(doc), patch))
    theirs = _outcome(lambda: jsonpatch.JsonPatch(copy.deepcopy(patch)).apply(copy.deepcopy(doc), in_place=True))
    assert ours == theirs
    assert patch == kept  # the recorded patch is never changed


@settings(max_examples=300, deadline=None)
@given(doc=DOC, patch=st.lists(st.fixed_dictionaries({"op": st.sampled_from(["add", "replace", "remove"]),
                                                      "path": PATH, "value": DOC}), max_size=4))
@pytest.mark.slow
def test_the_common_operations_agree_too(doc: Any, patch: list[dict[str, Any]]) -> None:
    ours = _outcome(lambda: apply_patch(copy.deepcopy(doc), patch))
    theirs = _outcome(lambda: jsonpatch.JsonPatch(copy.deepcopy(patch)).apply(copy.deepcopy(doc), in_place=True))
    assert ours == theirs


def test_the_result_shares_no_object_with_the_patch() -> None:
    patch = [{"op": "add", "path": "/a", "value": {"b": [1]}}, {"op": "replace", "path": "/c/0", "value": [2]}]
    doc = apply_patch({"c": [0]}, patch)
    doc["a"]["b"].append(3)
    doc["c"][0].append(4)
    assert patch[0]["value"] == {"b": [1]} and patch[1]["value"] == [2]


def test_a_failing_operation_after_applied_ones_raises_what_jsonpatch_raises() -> None:
    patch = [{"op": "replace", "path": "/a", "value": 1}, {"op": "remove", "path": "/missing"}]
    ours = _outcome(lambda: apply_patch({"a": 0}, patch))
    assert ours[0] == "JsonPatchPathNotFound" and "missing" in ours[1]
