"""A large bot in several processes: each runs some shards of an auto-sharded client
(SHARD_COUNT, SHARD_IDS), all share one database. Two processes, two servers on different
shards, a game in each played to its end at the same time; on PostgreSQL when
TEST_DATABASE_URL names one, else on an SQLite file."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.doors.discord.driver import CHANNEL, GUILD, BotProcess, Table
from tests.doors.discord.fake_discord import FakeDiscord
from tests.storage.conftest import one_database

OTHER_GUILD = GUILD + (1 << 22)  # (id >> 22) % 2: GUILD is on shard 0, this one on shard 1
OTHER_CHANNEL = CHANNEL + 1


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        server.guild(GUILD, "Dominó del barrio", locale="en-US")
        server.text_channel(GUILD, CHANNEL, "partidas")
        server.guild(OTHER_GUILD, "Club de dominó", locale="es-419")
        server.text_channel(OTHER_GUILD, OTHER_CHANNEL, "mesa")
        yield server


async def test_two_processes_share_the_shards_and_the_database(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    url = await one_database(tmp_path)
    processes = []
    for shard in (0, 1):
        home = tmp_path / f"shard{shard}"
        home.mkdir()
        process = BotProcess(
            fake,
            home,
            DATABASE_URL=url,
            SHARD_COUNT="2",
            SHARD_IDS=str(shard),
            DISCORD_GUILD_IDS=f"{GUILD},{OTHER_GUILD}",
        )
        await process.start()
        processes.append(process)
    try:
        assert sorted(s for s in fake.connected_shards() if s) == [(0, 2), (1, 2)]
        assert sorted(i["shard"] for i in fake.identified) == [[0, 2], [1, 2]]
        here, there = Table(fake), Table(fake, channel=OTHER_CHANNEL, guild=OTHER_GUILD)
        here.person("Ana", 501)
        here.person("Beto", 502)
        there.person("Carla", 503)
        there.person("Dani", 504)
        await here.start_game({"preset": "draw", "target": 20})
        await there.start_game({"preset": "draw", "target": 20}, computers=1)
        # both games at once: each process answers its own server's interactions
        played = await asyncio.gather(here.play_out(), there.play_out())
        assert min(played) >= 3
        # (no leak check here: the detector pairs a channel with every DM, and two deals
        # at once share tiles; the single-game tests check leaks)
        # the other server speaks Spanish: its lobby, board and summaries do
        said = " ".join(m["content"] for m in fake.messages(OTHER_CHANNEL))
        assert "Partida" in said or "partida" in said
    finally:
        for process in processes:
            await process.stop()
    for process in processes:
        assert "Traceback" not in process.log(), process.log()
