"""Bad input at volume through the real program and discord.py: custom ids the bot never
sent (a tampered client) pressed on its board, and typed options no tile or setting
matches, from someone who is not playing. Each is answered, only to whoever acted, and
none changes the game."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.doors.discord.driver import CHANNEL, GUILD, BotProcess, Table, custom_ids, leaked_tiles
from tests.doors.discord.fake_discord import FakeDiscord

FUZZ = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
PRINTABLE = st.characters(blacklist_categories=("Cs", "Cc"))
CUSTOM_IDS = st.one_of(
    st.text(PRINTABLE, min_size=1, max_size=100),
    st.builds(
        lambda kind, game, move, rest: f"dom:{kind}:{game}:{move}:{rest}"[:100],
        st.sampled_from(["c", "s", "p", "x", ""]),
        st.sampled_from(["1", "2", "-", "99999", "0x1", ""]),
        st.sampled_from(["0", "-", "99", "-1", "x"]),
        st.text(PRINTABLE, max_size=40),
    ),
)
ZOE = 330_000_000_000_000_099


@pytest.fixture
async def game(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, BotProcess, Table, list[str]]]:
    async with FakeDiscord() as fake:
        fake.guild(GUILD, "Dominó del barrio", locale="en-US")
        fake.text_channel(GUILD, CHANNEL, "dominoes")
        process = BotProcess(fake, tmp_path)
        await process.start()
        table = Table(fake)
        table.person("Ana", 330_000_000_000_000_001)
        table.person("Beto", 330_000_000_000_000_002)
        await table.start_game({"preset": "draw", "target": 30})
        fake.member(GUILD, ZOE, "Zoe", locale="en-US")
        board = table.board()
        assert board is not None
        tampered = [next(c for c in custom_ids(board) if c.endswith(":board"))]
        yield fake, process, table, tampered
        await process.stop()
    assert "Traceback" not in process.log(), process.log()
    assert not leaked_tiles(fake)


def _state(process: BotProcess) -> tuple[Any, ...]:
    game = process.game()
    assert game is not None
    return game["version"], game["plies"], game["status"]


@FUZZ
@given(forged=CUSTOM_IDS)
async def test_custom_ids_never_sent_change_nothing(game, forged: str) -> None:
    fake, process, table, tampered = game
    if forged in tampered:
        return
    before = _state(process)
    board = table.board()
    assert board is not None
    fake.forge(int(board["id"]), tampered[-1], forged)
    tampered.append(forged)
    answer = await table.refusal(await table.press("Ana", table.board(), forged))
    assert answer["content"]
    assert _state(process) == before


@FUZZ
@given(
    sub=st.sampled_from(["play", "settings", "kick", "join"]),
    text=st.text(PRINTABLE, min_size=1, max_size=30),
)
async def test_typed_options_nobody_can_use_change_nothing(game, sub: str, text: str) -> None:
    fake, process, table, _tampered = game
    before = _state(process)
    options: dict[str, Any] = {
        "play": {"tile": text},
        "settings": {"name": "turn_timeout", "value": text},
        "kick": {"seat": 1 + len(text) % 10},
        "join": {"seat": 1 + len(text) % 10},
    }[sub]
    payload = fake.slash(GUILD, CHANNEL, ZOE, "domino", sub, options, locale="en-US")
    table.interactions.append(("Zoe", int(payload["id"])))
    await table.settled(int(payload["id"]), f"/domino {sub}")
    [answer, *_] = fake.interaction_messages(int(payload["id"]))
    assert answer["content"] and answer["flags"] & 64  # said to Zoe only
    assert _state(process) == before
