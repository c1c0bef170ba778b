"""/export against another process (issue 32, 1 and 2): what is exported is read from one
snapshot, so a hand dealt by another process while the export reads is never in it
whole; and a hand that never ended (a game cancelled mid-hand, a tournament table
stopped by the judges) is exported as the room saw it: its moves, no hidden tile.

Two services on one SQLite file, as two processes on one database: the non-player's
export runs in one while the other deals the next hand, at every await of the export in
turn."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.core.model import Command, File, Hand
from bot.core.progress import NEXT_HAND_SECONDS
from bot.core.service import GameService
from engine.record import load
from storage.store import Store
from tests.core.driver import Clock, Room, boards, seeded


async def between_hands(store: Store, clock: Clock) -> Room:
    """A draw game of Ana and Beto whose first hand just ended (the next not dealt)."""
    room = Room(GameService(store, clock=clock, seeds=seeded(4)), clock)
    await room.say("Ana", "/new draw 500")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    while not boards(room.log)[-1].hand_end:
        hand = [e for e in room.log if isinstance(e, Hand) and e.buttons][-1]
        await room.press(hand.person.name, hand.buttons[0])
    return room


def exported(effects: list[Any]) -> dict[str, Any]:
    [file] = [e for e in effects if isinstance(e, File)]
    return json.loads(file.data)


class Interleaved:
    """Store ``games`` calls of one service, with ``meanwhile`` run before the ``at``-th
    of them (as another process would act between two reads)."""

    def __init__(self, games: Any, at: int, meanwhile: Callable[[], Awaitable[None]]) -> None:
        self._games, self._at, self._meanwhile, self.calls = games, at, meanwhile, 0

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._games, name)
        if not callable(found):
            return found

        async def call(*args: Any, **kwargs: Any) -> Any:
            if self.calls == self._at:
                await self._meanwhile()
            self.calls += 1
            return await found(*args, **kwargs)

        return call


def dealer(other: GameService, clock: Clock) -> Callable[[], Awaitable[None]]:
    """The other process dealing the next hand, by its timer."""

    async def deal() -> None:
        clock.advance(NEXT_HAND_SECONDS + 1)
        async for _ in other.fire_due():
            pass

    return deal


async def test_an_export_never_holds_a_hand_dealt_meanwhile(tmp_path: Path) -> None:
    calls = None
    at = 0
    while calls is None or at <= calls:
        path = tmp_path / f"race-{at}.sqlite3"
        here, there = await Store.open(f"sqlite:///{path}"), await Store.open(f"sqlite:///{path}")
        try:
            clock = Clock()
            room = await between_hands(here, clock)
            other = GameService(there, clock=clock, seeds=seeded(9))

            interleaved = Interleaved(here.games, at, dealer(other, clock))
            here.games = interleaved  # type: ignore[assignment]
            command = Command(room.place, room.person("Carla"), "export")
            record = exported(await room.service.handle(command))
            calls = interleaved.calls
            here.games = interleaved._games
            dealt = await here.games.record(1)
            assert len(dealt["hands"]) == 2 or at == calls, at  # the other dealt it
            # only the finished hand, whole; of the one dealt meanwhile, nothing hidden
            assert record["hands"][0] == dealt["hands"][0], at
            assert load(record).hand is None, at
            for hand in record["hands"][1:]:
                assert "deal" not in hand and "boneyard" not in hand and "seed" not in hand, at
        finally:
            await here.close()
            await there.close()
        at += 1
    assert calls is not None and calls >= 2  # the export read more than once: each was tried
    print(f"\nexport race: {calls} reads of storage, the other process dealt before each")


async def test_a_cancelled_games_unfinished_hand_is_exported_as_the_room_saw_it(
    store: Store,
) -> None:
    clock = Clock()
    room = await between_hands(store, clock)
    clock.advance(NEXT_HAND_SECONDS + 1)
    await room.tick()  # the second hand is dealt
    hand = [e for e in room.log if isinstance(e, Hand) and e.buttons][-1]
    await room.press(hand.person.name, hand.buttons[0])  # one move of it made
    full = await store.games.record(1)
    await room.say("Ana", "/cancel")
    assert (await store.games.load(1)).status == "cancelled"
    for who in ("Ana", "Carla"):
        record = exported(await room.say(who, "/export"))
        assert record["hands"][0] == full["hands"][0]  # the finished hand, whole
        [unfinished] = record["hands"][1:] or [record.get("unfinished")]
        assert unfinished is not None, record
        assert unfinished["moves"] == full["hands"][1]["moves"]  # what the room saw
        assert not {"deal", "boneyard", "seed"} & set(unfinished), unfinished
        assert load(record).hand is None  # it replays to the last hand's end


async def test_a_table_stopped_by_the_judges_is_exported_without_its_hidden_tiles(
    store: Store,
) -> None:
    """/tournament export of a voided table (its game cancelled in the middle of a hand):
    the hands finished whole, the one in play only as the room saw it."""
    import io
    import zipfile

    from tests.core.tournament.test_tournament_flow import Club

    club = await Club.started(store, "rounds=1", ("Bots",))
    for name in ("Ana", "Beto"):  # their game is dealt: it waits for their moves
        await club.say(name, "/join", club.tables[(1, 1)])
    event = await club.event()
    table = event.round_tables()[0]
    full = await store.games.record(table.game_id)
    assert load(full).hand is not None  # in the middle of a hand
    await club.say("Org", "/tournament void 1", admin=True)
    [file] = [e for e in await club.say("Ana", "/tournament export") if isinstance(e, File)]
    archive = zipfile.ZipFile(io.BytesIO(file.data))
    record = json.loads(archive.read(f"round-1-table-{table.number}.json"))
    assert record["hands"] == full["hands"][:-1]
    assert record["unfinished"]["moves"] == full["hands"][-1]["moves"]
    assert not {"deal", "boneyard", "seed"} & set(record["unfinished"])
    assert load(record).hand is None
