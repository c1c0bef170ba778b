"""A game's notes and a room's settings as typed values: each reads back as written, with
its version; what an older version wrote (no version, the same names; a room's one set of
house rules for every preset) reads as it meant."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from storage.notes import (
    NOTES_VERSION,
    SETTINGS_VERSION,
    Choosing,
    GameNotes,
    RoomSettings,
    TableRef,
)
from storage.store import Store

seconds = st.floats(min_value=0, max_value=4e9, allow_nan=False)
notes = st.builds(
    GameNotes,
    creator=st.none() | st.integers(1, 10**9),
    started_at=st.none() | seconds,
    turn_due=st.none() | seconds,
    last_ply=st.none() | st.integers(0, 10**6),
    hand_over_at=st.none() | seconds,
    table=st.none()
    | st.builds(TableRef, st.integers(1, 99), st.integers(1, 30), st.integers(1, 999)),
    absent=st.lists(st.integers(0, 9), max_size=4),
    choosing=st.none() | st.builds(Choosing, st.integers(1, 100), seconds),
    ready=st.lists(st.integers(0, 9), max_size=4, unique=True).map(sorted),
)
words = st.none() | st.sampled_from(["es", "en", "pt", "partnership", "dark", "x"])
settings = st.builds(
    RoomSettings,
    language=words,
    preset=words,
    theme=words,
    turn_timeout=st.none() | st.integers(15, 86_400),
    hand_pause=st.none() | st.integers(5, 120),
    numerals=st.booleans(),
    house=st.dictionaries(
        st.sampled_from(["partnership", "draw"]),
        st.dictionaries(
            st.sampled_from(["target", "blocked_tie"]), st.integers(1, 500), min_size=1
        ),
    ),
)


@given(notes)
def test_a_games_notes_read_back_as_written(written: GameNotes) -> None:
    data = written.to_json()
    assert data["v"] == NOTES_VERSION
    assert GameNotes.from_json(data) == written


@given(settings)
def test_a_rooms_settings_read_back_as_written(written: RoomSettings) -> None:
    data = written.to_json()
    assert data["v"] == SETTINGS_VERSION
    assert RoomSettings.from_json(data) == written


def test_what_an_older_version_wrote_reads_as_it_meant() -> None:
    older = {
        "creator": 3,
        "started_at": 100.5,
        "tournament": {"id": 2, "round": 1, "table": 4},
        "absent": [1, 3],
        "choosing": {"hand": 2, "until": 200.0},
    }
    read = GameNotes.from_json(older)
    assert read.creator == 3 and read.started_at == 100.5
    assert read.table == TableRef(2, 1, 4) and read.absent == [1, 3]
    assert read.choosing == Choosing(2, 200.0)
    assert read.ready == []  # written before presses of Next were kept: none yet
    assert GameNotes.from_json(None) == GameNotes()
    assert RoomSettings.from_json({"v": 1, "turn_timeout": 30}).hand_pause is None  # default
    flat = RoomSettings.from_json({"language": "en", "options": {"blocked_tie": "nobody"}})
    assert flat.language == "en" and flat.house_for_all == {"blocked_tie": "nobody"}
    assert flat.to_json()["options"] == {"blocked_tie": "nobody"}  # kept as it was
    # written again with house rules of a preset: the older flat set is gone with it
    again = flat.changed(house={"draw": {"target": 50}})
    assert again.house_for_all == {} and again.to_json()["options"] == {"draw": {"target": 50}}


def test_a_setting_set_back_to_none_is_the_default() -> None:
    chosen = RoomSettings(language="en", turn_timeout=60, numerals=True)
    assert chosen.shown() == {"language": "en", "turn_timeout": 60, "numerals": True}
    back = chosen.changed(language=None, numerals=None)
    assert back.shown() == {"turn_timeout": 60}


async def test_a_rooms_settings_change_by_name_in_storage(store: Store, room: int) -> None:
    changed = await store.people.change_settings(room, language="pt", turn_timeout=30)
    assert (await store.people.room_by_id(room)).settings == changed
    kept = await store.people.change_settings(room, turn_timeout=None)
    assert kept.language == "pt" and kept.turn_timeout is None
