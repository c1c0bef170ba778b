"""Posts: a room's board message is remembered, replaced, and forgotten."""

from __future__ import annotations

from storage.store import Store
from tests.storage.conftest import NOW


async def test_a_post_is_kept_replaced_and_dropped(store: Store, room: int) -> None:
    assert await store.posts.find(room, "board") is None
    await store.posts.keep(room, "board", None, "1001", NOW)
    await store.posts.keep(room, "board", None, "1002", NOW)  # a new board replaces it
    await store.posts.keep(room, "lobby", None, "77", NOW)
    found = await store.posts.find(room, "board")
    assert found is not None and found.message_id == "1002"
    await store.posts.drop(room, "board")
    assert await store.posts.find(room, "board") is None
    assert (await store.posts.find(room, "lobby")).message_id == "77"
