"""Messages on Discord name commands as Discord spells them (issue 21): help and refusals
say ``/domino new``, never a bare ``/new`` nobody can type there. The rewriting, then the
real program against the fake Discord."""

from __future__ import annotations

import re

from bot.core import registry, texts
from bot.doors.discord.delivery import as_discord_spells
from lang import LANGUAGES, tr
from tests.doors.discord.driver import command_of, moves, words

# a command named bare, in any language ("/new", "/nueva")
NAMES = {registry.name_in(lang, s.name) for s in registry.public() for lang in LANGUAGES}
BARE = re.compile(r"(?<![\w/])/(" + "|".join(NAMES - {"torneo", "torneio", "tournament"}) + r")\b")


def test_every_command_a_text_names_is_spelled_as_on_discord() -> None:
    for lang in LANGUAGES:
        for state in ("none", "lobby", "playing"):
            said = as_discord_spells(texts.help_text(lang, state))
            assert "/domino " in said and not BARE.search(said.replace("/domino ", "")), said
    said = as_discord_spells(tr("es", texts.NO_GAME))
    assert "/domino nueva" in said and "/domino domino" not in as_discord_spells(said)
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


def test_a_text_in_spanish_names_the_spanish_subcommands() -> None:
    """Issue 33, 14: a Spanish text names "/mano" (tr names commands in the text's
    language), which Discord spells "/domino mano": the name a Spanish client shows."""
    said = as_discord_spells(texts.help_text("es", "playing"))
    assert "/domino mano" in said and "/domino jugar" in said, said
    assert "/domino hand" not in said and "/domino play" not in said, said
    assert as_discord_spells(tr("es", "/tournament")) == "/torneo"  # a command of its own


async def test_help_names_the_commands_as_a_spanish_client_shows_them(fake, bot, table) -> None:
    table.person("Ana", 320_000_000_000_021_002)
    fake.member(table.guild, table.people["Ana"], "Ana", locale="es-ES")  # her client: Spanish
    [helped, *_] = await table.command("Ana", "help")
    shown = words(helped).replace("\\", "")
    spanish = {registry.name_in("es", s.name) for s in registry.public()}
    named = set(re.findall(r"/domino (\w+)", shown))
    assert "/domino nueva" in shown and named <= spanish, shown


async def test_a_moves_number_after_domino_play_plays_it(fake, bot, table) -> None:
    """Issue 33, 14: ``/domino play tile:2`` is the move the hand lists as "2) ..."."""
    table.person("Ana", 320_000_000_000_021_101)
    table.person("Beto", 320_000_000_000_021_102)
    await table.start_game({"preset": "draw", "target": 30})
    name, hand, _ = await table.next_hand()
    offered = moves(hand)
    key = str(len(offered))  # the last one listed
    listed = command_of(offered[-1][0]) if offered[-1][1] is None else offered[-1][1][0]
    plies = bot.game()["plies"]
    assert await table.command(name, "play", {"tile": key}) == []  # nothing private
    await fake.wait_for(lambda: bot.game()["plies"] > plies, what="the move typed")
    made = bot.query(
        "SELECT move FROM moves WHERE game_id = ? AND ply >= ? ORDER BY ply",
        bot.game()["id"],
        plies,
    )
    assert made and made[0]["move"].split(": ", 1)[1] in listed, (listed, made)
