"""Messages on Discord name commands as Discord spells them (issue 21): help and refusals
say ``/domino new``, never a bare ``/new`` nobody can type there. The rewriting, then the
real program against the fake Discord."""

from __future__ import annotations

import re

from bot.core import registry, texts
from bot.doors.discord.delivery import as_discord_spells
from lang import LANGUAGES, tr
from tests.doors.discord.driver import words

BARE = re.compile(r"(?<![\w/])/(" + "|".join(s.name for s in registry.public()) + r")\b")


def test_every_command_a_text_names_is_spelled_as_on_discord() -> None:
    for lang in LANGUAGES:
        for state in ("none", "lobby", "playing"):
            said = as_discord_spells(texts.help_text(lang, state))
            assert "/domino " in said and not BARE.search(said.replace("/domino ", "")), said
    said = as_discord_spells(tr("es", texts.NO_GAME))
    assert "/domino new" in said and "/domino domino" not in as_discord_spells(said)
    # not a command: left as written
    assert as_discord_spells("see https://x.org/new and /newbot") == (
        "see https://x.org/new and /newbot"
    )


async def test_refusals_and_help_in_the_channel_name_domino_commands(fake, bot, table) -> None:
    table.person("Ana", 320_000_000_000_021_001)
    [refused, *_] = await table.command("Ana", "hand")  # no game here: "open one with /new"
    shown = words(refused).replace("\\", "")
    assert "/domino new" in shown and not BARE.search(shown.replace("/domino ", "")), shown
    [helped, *_] = await table.command("Ana", "help")
    shown = words(helped).replace("\\", "")
    assert "/domino " in shown and not BARE.search(shown.replace("/domino ", "")), shown
