"""A preset added at run time, in engine/ only, is offered by every front door: the real
program, started with a ``sitecustomize`` that registers it (no line of bot/ knows it),
opens it and describes it on the console, on Telegram and on Discord, and Discord's
command tree offers it among the games.

The point is the issue's promise that adding a preset touches only engine/ and the
catalogs: if any part of bot/ kept its own list of presets, one of these would fail."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.doors.discord.driver import CHANNEL, GUILD
from tests.doors.discord.driver import BotProcess as DiscordProcess
from tests.doors.discord.driver import Table as DiscordTable
from tests.doors.discord.driver import words as discord_words
from tests.doors.discord.fake_discord import FakeDiscord
from tests.doors.telegram.driver import GROUP
from tests.doors.telegram.driver import BotProcess as TelegramProcess
from tests.doors.telegram.driver import Table as TelegramTable
from tests.doors.telegram.fake_api import FakeTelegram
from tests.doors.test_console import ConsoleProcess

NAME = "quick_draw"
TITLE = "quick draw"
ABOUT = "Draw dominoes to 50 points, for a short game at lunch."
RULES = "target=50"  # /rules says the rules in force, generated from the engine's (issue 20)
HOOK = f"""
from engine.presets import register_preset
from engine.rules import PRESETS

register_preset({NAME!r}, {{**PRESETS["draw"], "target": 50}}, {TITLE!r}, {ABOUT!r})
"""


@pytest.fixture
def hooked(tmp_path: Path) -> Iterator[dict[str, str]]:
    """The environment that makes every Python started with it register the preset."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(HOOK)
    paths = [str(hook), os.getcwd(), *filter(None, [os.environ.get("PYTHONPATH")])]
    yield {"PYTHONPATH": os.pathsep.join(paths)}


async def test_the_console_opens_and_describes_it(tmp_path: Path, hooked: dict[str, str]) -> None:
    home = tmp_path / "console"
    home.mkdir()
    console = await ConsoleProcess.start(home, **hooked)
    try:
        assert RULES in await console.type(f"/rules {NAME}")
        assert TITLE in await console.type(f"/new {NAME}")
        assert RULES in await console.type("/rules")  # the game on the table
        assert NAME in await console.type("/rules chess")  # among the games offered
    finally:
        await console.quit()


async def test_telegram_opens_and_describes_it(tmp_path: Path, hooked: dict[str, str]) -> None:
    async with FakeTelegram() as tg:
        tg.group(GROUP, "Dominó del barrio")
        process = await TelegramProcess(tg, tmp_path, **hooked).polling()
        try:
            table = TelegramTable(tg)
            table.person("Ana", 101)
            await table.say("Ana", f"/rules {NAME}")
            await table.say("Ana", f"/new {NAME}")
            said = "\n".join(m.get("text", "") for m in tg.sent_to(GROUP))
            assert RULES in said and TITLE in said
        finally:
            await process.stop()
        assert not process.tracebacks(), process.tracebacks()


async def test_discord_offers_opens_and_describes_it(
    tmp_path: Path, hooked: dict[str, str]
) -> None:
    async with FakeDiscord() as fake:
        fake.guild(GUILD, "Dominó del barrio", locale="en-US")
        fake.text_channel(GUILD, CHANNEL, "dominoes")
        process = DiscordProcess(fake, tmp_path, **hooked)
        await process.start()
        try:
            [sync] = process._syncs()
            [domino] = [c for c in sync.json if c["name"] == "domino"]
            offered = {
                choice["value"]
                for sub in domino["options"]
                for option in sub.get("options", [])
                if option["name"] == "preset"
                for choice in option.get("choices", [])
            }
            assert NAME in offered and "mexican_train" in offered
            table = DiscordTable(fake)
            table.person("Ana", 201)
            described = await table.command("Ana", "rules", {"preset": NAME})
            await table.command("Ana", "new", {"preset": NAME})
            shown = "\n".join(discord_words(m) for m in [*described, *fake.messages(CHANNEL)])
            assert RULES in shown and TITLE in shown
        finally:
            await process.stop()
        assert "Traceback" not in process.log(), process.log()
