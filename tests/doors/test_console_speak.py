"""The console as a person speaks (issue 33, 14): the commands by their names in the
console's language (and in any other), listed so in /help and on the buttons printed; a
move's number typed alone plays the move listed under it. The real program."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core import registry, texts
from lang import tr
from tests.doors.test_console import ConsoleProcess

WORDS = {  # a game of draw begun against a computer, typed in each language
    "es": ("/nueva draw", "/computadora", "/empezar"),
    "en": ("/new draw", "/add_ai", "/begin"),
    "pt": ("/nova draw", "/computador", "/comecar"),
}


def said_play(lang: str) -> str:
    """How the room is told that Ana played: "Ana plays " in ``lang``."""
    return tr(lang, "{name} plays {move}.", name="Ana", move="\0").split("\0")[0]


@pytest.mark.parametrize("lang", ["es", "en", "pt"])
async def test_commands_in_the_consoles_language_and_a_moves_number(
    tmp_path: Path, lang: str
) -> None:
    console = await ConsoleProcess.start(tmp_path, CONSOLE_LANGUAGE=lang)
    helped = await console.type(f"/{registry.name_in(lang, 'help')}")
    for spec in registry.public():  # every command, by its name in the console's language
        assert f"  /{registry.name_in(lang, spec.name)}: " in helped, (spec.name, helped)
    new, computer, begin = WORDS[lang]
    await console.type(new)
    await console.type(computer)
    shown = await console.type(begin)
    play = registry.name_in(lang, "play")
    offered = [line for line in shown.splitlines() if f"] → /{play} " in line]
    assert offered, shown  # the buttons name the command as typed here
    assert tr(lang, "Commands start with /. Try /help.") not in shown
    # a number out of the list: said so, nothing played
    hint = await console.type("99")
    assert tr(lang, texts.NO_SUCH_MOVE, number="99") in hint and said_play(lang) not in hint
    label = offered[0].split("[", 1)[1].split("]", 1)[0]  # "1) 6-1 on 6-6"
    key, words = label.split(") ", 1)
    answer = await console.type(key)
    assert said_play(lang) + words.split()[0] in answer, (label, answer)
    await console.quit()


async def test_a_name_in_another_language_is_accepted(tmp_path: Path) -> None:
    console = await ConsoleProcess.start(tmp_path, CONSOLE_LANGUAGE="en")
    answer = await console.type("/nueva draw")  # Spanish, in an English console
    assert "I do not know the command" not in answer and "Join" in answer, answer
    refused = await console.type("/mão")  # Portuguese, accented: /hand, before the deal
    assert tr("en", texts.NOT_BEGUN) in refused, refused
    await console.quit()
