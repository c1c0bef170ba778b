"""What a move costs at hand 1 and at hand 2,000 of one game (issue 18: a move costs the
same whatever the game's length).

A draw game of one person and a computer player is played through the service to hand
1 and, in another room, to hand 2,000 (the computer players of the engine play the hands
between, saved by the service after each hand, so the stored game is the one the bot
would have). Then the person makes moves through ``GameService.handle`` and the bench
prints, as the median of ``--repeat`` moves: the bytes the move's save writes (snapshot,
logged moves and stored hands), the time of that save, the time of a load that replays
the game from storage (what a restarted process, or one another process moved ahead of,
does), and the whole move with the game in memory and read afresh. For comparison, the
whole record: its size, the time to export and write it, and to replay it, what every
save and every load did before (``--database`` for PostgreSQL; SQLite in a temporary
file otherwise). The service's limit on a game's length is raised for the bench.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

if sys.path and sys.path[0].endswith("bench"):
    sys.path[0] = sys.path[0][: -len("bench")] or "."  # the repository, not bench/

import bot.core.progress
from bot.core.model import Board, Command, Person, Place
from bot.core.saving import save
from bot.core.service import GameService
from bot.core.session import Loaded, open_session
from bot.core.showing import command_for
from engine.game import Game
from engine.players import make_player
from engine.record import export, load
from engine.views import view_of
from storage.store import Store

PERSON = Person("ana", "Ana", "en")


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 23, 12, 0, 0)

    def __call__(self) -> datetime:
        return self.now


class Meter:
    """Wraps the store's save: the bytes and time of each one."""

    def __init__(self, store: Store) -> None:
        self.saves: list[tuple[int, float]] = []
        original = store.games.save

        async def save(*args: Any, **kwargs: Any) -> int:
            snapshot, moves = args[2], args[3]
            written = len(json.dumps(snapshot)) + sum(len(text) for _, text in moves)
            written += sum(len(json.dumps(h.record)) + 16 for h in kwargs.get("hands", ()))
            started = time.perf_counter()
            version = await original(*args, **kwargs)
            self.saves.append((written, time.perf_counter() - started))
            return version

        store.games.save = save  # type: ignore[method-assign]


def place(room: str) -> Place:
    return Place("console", "bench", room, locale="en")


async def say(service: GameService, room: str, action: str, *args: str) -> list[Any]:
    return await service.handle(Command(place(room), PERSON, action, args))


async def open_game(service: GameService, room: str) -> None:
    await say(service, room, "new", "draw", "100000")  # a target nobody reaches
    await say(service, room, "add_ai", "easy")
    await say(service, room, "begin")


def play(game: Game, moves: int | None = None) -> None:
    """Computer players' moves: ``moves`` of them, or to the end of the hand."""
    while game.hand is not None and (moves is None or moves > 0):
        seat = game.to_move
        assert seat is not None
        player = make_player("greedy", game.ply)
        game.apply(game.forced_move() or player.choose(view_of(game, seat)))
        moves = None if moves is None else moves - 1


async def advance_to(service: GameService, room: str, hand: int) -> None:
    """Play the room's game on to ``hand`` with the engine's players, saved by the
    service after each hand; the person to move at the end."""
    row = await service.store.games.active_in(await service.room_id(place(room)))
    assert row is not None
    loaded: Loaded = service.desk.loaded(row)
    session = await open_session(
        Command(place(room), PERSON, "play"), service.desk, service.clock()
    )
    game = loaded.game
    assert game is not None
    deals = random.Random(hand)
    while game.hand_number < hand:
        play(game)
        await save(session, loaded)
        game.start_hand(seed=deals.getrandbits(62))
    while game.to_move != 0:
        play(game, 1)
    await save(session, loaded)


async def a_move(service: GameService, clock: Clock, room: str, fresh: bool) -> float:
    """The person's move (the first offered; the next hand first if none is in play);
    its time. ``fresh``: the game is read from storage, not memory."""
    row = await service.store.games.active_in(await service.room_id(place(room)))
    assert row is not None
    game = service.desk.loaded(row).game
    assert game is not None
    if game.hand is None:
        clock.now += timedelta(seconds=10)  # the pause between hands
        await say(service, room, "next")
        return await a_move(service, clock, room, fresh)
    move = game.legal_moves()[0]
    words = command_for(move).split()
    command = Command(place(room), PERSON, words[0], tuple(words[1:]), game.ply, row.id)
    if fresh:
        service.desk.games.clear()
        service.desk.rows.clear()
    started = time.perf_counter()
    effects = await service.handle(command)
    took = time.perf_counter() - started
    assert any(isinstance(e, Board) for e in effects), effects  # the move was made
    return took


async def hand_in(service: GameService, room: str) -> int:
    row = await service.store.games.active_in(await service.room_id(place(room)))
    assert row is not None
    game = service.desk.loaded(row).game
    assert game is not None
    return game.hand_number


async def a_load(service: GameService, room: str) -> float:
    row = await service.store.games.active_in(await service.room_id(place(room)))
    assert row is not None
    service.desk.games.clear()
    started = time.perf_counter()
    service.desk.loaded(row)
    return time.perf_counter() - started


async def median_of(repeat: int, measure: Callable[[], Awaitable[float]]) -> float:
    return statistics.median([await measure() for _ in range(repeat)])


async def figures(
    service: GameService, clock: Clock, meter: Meter, room: str, repeat: int
) -> dict[str, Any]:
    await a_move(service, clock, room, fresh=False)  # statements prepared, caches warm
    first = await hand_in(service, room)
    meter.saves.clear()
    warm = await median_of(repeat, lambda: a_move(service, clock, room, fresh=False))
    cold = await median_of(repeat, lambda: a_move(service, clock, room, fresh=True))
    written = statistics.median(b for b, _ in meter.saves)
    saved = statistics.median(t for _, t in meter.saves)
    loading = await median_of(repeat, lambda: a_load(service, room))
    row = await service.store.games.active_in(await service.room_id(place(room)))
    assert row is not None
    whole = await service.store.games.record(row.id)
    started = time.perf_counter()
    replayed = load(whole)
    whole_load = time.perf_counter() - started
    whole_save = await median_of(repeat, await whole_saves(service, clock, room, replayed))
    return {
        "hands": f"{first:,}-{replayed.hand_number:,}",
        "bytes": written,
        "save": saved * 1000,
        "load": loading * 1000,
        "warm": warm * 1000,
        "cold": cold * 1000,
        "whole_bytes": len(json.dumps(whole)),
        "whole_load": whole_load * 1000,
        "whole_save": whole_save * 1000,
    }


async def whole_saves(
    service: GameService, clock: Clock, room: str, game: Game
) -> Callable[[], Awaitable[float]]:
    """Saves as before: the whole record exported and written (to a game of its own)."""
    room_id = await service.room_id(place(room))
    scratch = await service.store.games.create(
        room_id, "draw", [], {"record": {}}, clock.now, status="finished"
    )
    version = scratch.version

    async def save() -> float:
        nonlocal version
        started = time.perf_counter()
        snapshot = {"record": export(game, ["Ana", "Computer"]), "meta": {}}
        version = await service.store.games.save(scratch.id, version, snapshot, [], clock.now)
        return time.perf_counter() - started

    return save


async def run(hands: int, repeat: int, url: str | None) -> None:
    bot.core.progress.MAX_HANDS = 10 * hands  # a game this long is not cut
    with tempfile.TemporaryDirectory() as home:
        store = await Store.open(url or f"sqlite:///{Path(home) / 'bench.sqlite3'}")
        clock = Clock()
        deals = random.Random(1)
        service = GameService(store, clock=clock, seeds=lambda: deals.randrange(1 << 62))
        meter = Meter(store)
        started = time.perf_counter()
        short, long = (f"{name}-{time.time_ns()}" for name in ("short", "long"))
        await open_game(service, short)
        await open_game(service, long)
        await advance_to(service, long, hands)
        print(f"played to hand {hands:,} in {time.perf_counter() - started:.1f} s", flush=True)
        rows = [
            await figures(service, clock, meter, short, repeat),
            await figures(service, clock, meter, long, repeat),
        ]
        await store.close()
    kind = "PostgreSQL" if url and url.startswith("postgres") else "SQLite"
    print(f"draw, one person and a computer player, {kind}; median of {repeat} moves")
    lines = [
        ("hands the moves were made in", "hands", "{}"),
        ("bytes a save writes", "bytes", "{:,.0f}"),
        ("save, ms", "save", "{:.2f}"),
        ("load (replay from storage), ms", "load", "{:.2f}"),
        ("move, game in memory, ms", "warm", "{:.2f}"),
        ("move, game read from storage, ms", "cold", "{:.2f}"),
        ("whole record, bytes (each save before)", "whole_bytes", "{:,.0f}"),
        ("whole record export and save, ms (before)", "whole_save", "{:.2f}"),
        ("whole record replay, ms (each load before)", "whole_load", "{:.2f}"),
    ]
    for label, key, form in lines:
        print(f"{label:<44}" + "".join(f"{form.format(r[key]):>14}" for r in rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="the long game's hand")
    parser.add_argument("--repeat", type=int, default=21, help="moves measured at each")
    parser.add_argument("--database", help="a PostgreSQL URL (two games are added to it)")
    args = parser.parse_args()
    asyncio.run(run(args.hands, args.repeat, args.database))


if __name__ == "__main__":
    main()
