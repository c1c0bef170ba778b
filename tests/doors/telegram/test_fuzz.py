"""Bad input at volume through the real program: malformed commands from someone who is
not playing, and callback data the bot never sent, pressed on its own messages. Each is
answered (a private word, or the press's popup) and none changes the game."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.registry import COMMANDS
from tests.doors.telegram.driver import GROUP, BotProcess, Table, leaked_tiles
from tests.doors.telegram.fake_api import FakeTelegram

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
WORDS = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="@\x00"), max_size=20
)
COMMAND_TEXT = st.builds(
    lambda name, args: f"/{name} {' '.join(args)}".strip(),
    st.sampled_from([*COMMANDS, "start", "nueva", "play6-4", "x" * 40]),
    st.lists(WORDS, max_size=4),
)
DATA = st.one_of(
    st.text(max_size=70),
    st.builds(
        lambda kind, game, move, rest: f"{kind}|{game}|{move}|{rest}",
        st.sampled_from(["c", "p", "x", ""]),
        st.sampled_from(["1", "2", "-", "999999", "1e3", ""]),
        st.sampled_from(["0", "-", "99", "-1", "x"]),
        st.text(max_size=30),
    ),
)


@pytest.fixture
async def game(tmp_path: Path) -> AsyncIterator[tuple[FakeTelegram, BotProcess, Table]]:
    async with FakeTelegram() as tg:
        tg.group(GROUP, "Dominó del barrio")
        process = await BotProcess(tg, tmp_path).polling()
        table = Table(tg)
        table.person("Ana", 1101)
        table.person("Beto", 1102)
        await table.start_game("/new draw 30")
        tg.user(1199, "Zoe", "en")  # in the group, not at the table
        tg.open_private(1199)
        yield tg, process, table
        await process.stop()
        assert not process.tracebacks(), process.tracebacks()
        assert not leaked_tiles(tg)


def _version(process: BotProcess) -> tuple[int, int]:
    database = sqlite3.connect(process.home / "bot.sqlite3")
    try:
        return database.execute("SELECT version, plies FROM games").fetchone()
    finally:
        database.close()


@FUZZ
@given(text=COMMAND_TEXT)
async def test_malformed_commands_change_nothing(game, text: str) -> None:
    tg, process, _table = game
    before = _version(process)
    answered = len(tg.calls)
    tg.send_message(GROUP, 1199, text)
    await tg.wait_for(
        lambda: any(
            c.method.lower() in ("sendmessage", "sendphoto", "senddocument", "editmessagemedia")
            for c in tg.calls[answered:]
        ),
        what=f"an answer to {text!r}",
    )
    assert _version(process) == before


@FUZZ
@given(data=DATA)
async def test_callback_data_never_sent_changes_nothing(game, data: str) -> None:
    tg, process, table = game
    before = _version(process)
    board = table.board()
    assert board is not None
    query = tg.press(GROUP, table.people["Ana"], board["message_id"], data, strict=False)
    answer = await tg.wait_for(
        lambda: next((a for a in tg.answered_callbacks() if a["id"] == query["id"]), None),
        what=f"the answer to {data!r}",
    )
    assert answer.get("text")  # a clear word, seen by the presser only
    assert _version(process) == before


async def test_junk_deep_links_are_answered_without_an_error(game) -> None:
    """Issue 32, 7: a deep link with a game number no button carries (20 digits, 4,000
    digits) is no game: the private chat gets the welcome, nothing reaches storage, no
    ERROR line is logged."""
    tg, process, _table = game
    for payload in ("h" + "9" * 20, "h" + "7" * 4000, "h-1", "hx", "h"):
        before = len(tg.sent_to(1199))
        tg.send_message(1199, 1199, f"/start {payload}")
        answered = await tg.wait_for(lambda b=before: tg.sent_to(1199)[b:], what=payload[:12])
        assert "/new" in answered[-1]["text"] or "group" in answered[-1]["text"], answered
    errors = [line for line in process.log().splitlines() if line.startswith("ERROR")]
    assert not errors, errors
