"""Corrupt records: any change to a valid record (a value replaced, a key dropped, a move
garbled) is either still a game or refused with a DominoError naming the problem; never
another exception (which `replay` would show as a traceback)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import DominoError
from engine.record import load

RECORDS = sorted((Path(__file__).parents[1] / "data" / "records").glob("*.json"))
VALID = []
for path in RECORDS:
    data = json.loads(path.read_text())
    try:
        load(data.get("record", data))
    except DominoError:
        continue
    VALID.append(data.get("record", data))

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.floats() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)
MOVE_TEXT = st.from_regex(
    r"-?\d{0,2}: ?(\d{1,2}-\d{1,2}( on (\d{1,2}-\d{1,2}|train:\d|mexican))?"
    r"|draw|pass|end|[a-z ]{0,8})",
    fullmatch=True,
)


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON tree."""
    found = [at]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*at, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*at, index))
    return found


def _put(tree: Any, path: tuple[Any, ...], value: Any, drop: bool) -> Any:
    if not path:
        return value
    parent = tree
    for step in path[:-1]:
        parent = parent[step]
    if drop:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return tree


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_corrupt_record_is_refused_or_loads(data: st.DataObject) -> None:
    record = copy.deepcopy(data.draw(st.sampled_from(VALID)))
    for _ in range(data.draw(st.integers(1, 3))):
        places = _paths(record)
        path = data.draw(st.sampled_from(places))
        moves = bool(path) and isinstance(path[-1], int) and "moves" in path
        value = data.draw(MOVE_TEXT if moves else JSON_VALUES)
        drop = bool(path) and data.draw(st.booleans())
        record = _put(record, path, value, drop)
    try:
        load(record)
    except DominoError as error:
        assert str(error)  # it names the problem
