"""The shipped data files are exactly what the authoring tools write (docs/games/vietnam-battles-data.md:
edit the tools, never the JSON), and the tools are deterministic."""

from __future__ import annotations

import pytest

from tests.vietnam_battles_data.vb_data_helpers import DATA, load_tool


@pytest.mark.parametrize("tool", ["vb_author_maps", "vb_author_data"])
@pytest.mark.slow
def test_files_equal_what_the_tool_writes(tool: str) -> None:
    mod = load_tool(tool)
    for name, build in mod.OUTPUTS.items():
        first = mod.render(build())
        assert first == mod.render(build()), f"{tool} is not deterministic for {name}"
        assert (DATA / name).read_text(encoding="utf-8") == first, \
            f"{name} differs from tools/{tool}.py: run it and commit the result"


def test_no_floats_in_the_maps() -> None:
    """Like AoB's map: integers and strings only (coordinates are strings), so the bytes never drift."""
    import json

    def walk(o: object) -> None:
        assert not isinstance(o, float)
        if isinstance(o, dict):
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    for name in ("snoopys-nose-map.json", "iron-triangle-map.json", "counters.json", "tables.json"):
        walk(json.loads((DATA / name).read_text(encoding="utf-8")))
