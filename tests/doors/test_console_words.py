"""The console as a person types in it (issue 21): the language changed with /settings in
each language, Ctrl-C ends it at once with the game saved, /board shows the table once,
and a tile typed alone (any dash, "on" in any language) is a play. The real program."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from bot.core import registry, texts
from lang import tr
from tests.doors.test_console import MOVE, ConsoleProcess

OTHER = {"es": "en", "en": "pt", "pt": "es"}  # the console starts in another language
ON = {"es": "en", "en": "on", "pt": "em"}


@pytest.mark.parametrize("lang", ["es", "en", "pt"])
async def test_settings_language_changes_the_rooms_language(tmp_path: Path, lang: str) -> None:
    console = await ConsoleProcess.start(tmp_path, CONSOLE_LANGUAGE=OTHER[lang])
    said = await console.type(f"/settings language {lang}")
    told = tr(lang, texts.SETTINGS_CHANGED["language"], value=texts.LANGUAGE_NAMES[lang])
    assert told in said, said
    assert tr(lang, "Commands:") in await console.type("/help")  # the console's own words too
    await console.quit()


async def test_ctrl_c_ends_the_console_at_once_and_the_game_stays(tmp_path: Path) -> None:
    console = await ConsoleProcess.start(tmp_path)
    await console.type("/new draw")
    await console.type("/add_ai")
    await console.type("/begin")
    console.process.send_signal(signal.SIGINT)  # standard input stays open: no Enter
    status = await asyncio.wait_for(console.process.wait(), timeout=20)
    assert status in (0, 130)
    again = await ConsoleProcess.start(tmp_path)
    assert "Tiles in hand" in await again.type("/board")  # the saved game
    await again.quit()


def first_move(shown: str, lang: str) -> str:
    moves = [m.group(1) for m in map(MOVE.search, shown.splitlines()) if m]
    play = f"/{registry.name_in(lang, 'play')} "  # as the console names it in ``lang``
    plays = [m for m in moves if m.startswith(play)]
    assert plays, shown
    return plays[0].removeprefix(play)


@pytest.mark.parametrize(("lang", "dash"), [("en", "–"), ("es", "—"), ("pt", "−")])
async def test_a_tile_typed_alone_is_a_play_and_board_shows_the_table_once(
    tmp_path: Path, lang: str, dash: str
) -> None:
    console = await ConsoleProcess.start(tmp_path, CONSOLE_LANGUAGE=lang)
    await console.type("/new draw")
    await console.type("/add_ai")
    shown = await console.type("/begin")
    hand = tr(lang, "Tiles in hand: {counts}", counts="").split("{")[0].strip()
    board = await console.type("/board")
    assert board.count(hand.split(":")[0]) == 1, board  # one text board per /board
    for _ in range(6):  # until a move on a tile is offered (or any move)
        move = first_move(shown, lang)
        if " on " in move or _ == 5:
            break
        shown = await console.type("/play " + move)
    typed = move.replace("-", dash).replace(" on ", f" {ON[lang]} ")
    answer = await console.type(typed)
    assert tr(lang, "Commands start with /. Try /help.") not in answer
    played = tr(lang, "{name} plays {move}.", name="Ana", move="\0").split("\0")[0]
    assert played + move.split()[0] in answer, (move, answer)  # the play was made, told
    await console.quit()


async def test_a_rooms_standings_are_printed_when_you_are_elsewhere(tmp_path) -> None:
    """Issue 33, 5: "Round 1 is over. Standings:" in the tournament's room, read from a
    table's room, is followed by the standings' words (the picture stays the room's)."""
    import io

    from bot.core.model import Picture, Place, Say
    from bot.doors.console.platform import ConsolePlatform, Screen

    out = io.StringIO()
    table = Place("console", "local", "r1-t1", "Casa", "en")
    hall = Place("console", "local", "mesa", "Casa", "en")
    platform = ConsolePlatform(Screen(out, tmp_path, table, "Ana", "en"))
    await platform.room_text(hall, Say("Round 1 is over. Standings:"), None)
    standings = Picture(
        "Copa", (), "Copa · standings after round 1\n1. Bots 1 · 1/1", rows=(("1",),)
    )
    await platform.picture(hall, standings, b"png", None)
    shown = out.getvalue()
    assert "[mesa] Round 1 is over. Standings:" in shown
    assert "[mesa] Copa · standings after round 1\n1. Bots 1 · 1/1" in shown
    assert not list(tmp_path.iterdir())  # no picture saved for a room you are not in


@pytest.mark.parametrize("lang", ["en", "pt"])
async def test_the_rooms_language_is_kept_after_a_restart(tmp_path: Path, lang: str) -> None:
    """Issue 33, 4: after /settings language and a restart under another CONSOLE_LANGUAGE,
    everything the screen shows speaks the room's language: the greeting, "[only Ana sees
    this]", the hand, the pictures' lines, the refusals."""
    console = await ConsoleProcess.start(tmp_path, CONSOLE_LANGUAGE="es")
    await console.type(f"/settings language {lang}")
    await console.type("/new draw")
    await console.type("/add_ai")
    await console.quit()
    again = await ConsoleProcess.start(tmp_path, CONSOLE_LANGUAGE="es")
    greeting = again.output
    shown = greeting + await again.type("/begin") + await again.type("/hand")
    shown += await again.type("/play zz")
    expected = [
        tr(lang, "Console room. You are {name}. Type /help, or /quit to leave.", name="Ana"),
        tr(lang, "[only {name} sees this]", name="Ana"),
        tr(lang, "Your tiles: {tiles}", tiles="").strip(),
        tr(lang, "Hand picture: {path}", path="").strip(),
        tr(lang, "Board picture: {path}", path="").strip(),
    ]
    for words in expected:
        assert words in shown, (words, shown)
    for spanish in ("Sala de consola", "[solo Ana ve esto]", "Tus fichas", "Imagen de"):
        assert spanish not in shown, (spanish, shown)
    assert "no es una jugada" not in shown
    await again.quit()


async def test_a_tournaments_tables_speak_its_rooms_language(tmp_path: Path) -> None:
    """Issue 33, 4: the rooms a tournament opens for its tables speak the tournament
    room's language, not the community's (CONSOLE_LANGUAGE here)."""
    console = await ConsoleProcess.start(tmp_path, CONSOLE_LANGUAGE="es")
    await console.type("/settings language en")
    await console.type("/tournament new Copa rounds=1 minutes=20 checkin=off")
    for team in ("Bots A", "Bots B", "Bots C", "Bots D"):
        await console.type(f"/tournament register {team} computer computer")
    await console.type("/tournament close")
    started = await console.type("/tournament start")
    told = [line for line in started.splitlines() if line.startswith("[r1-t")]
    assert any("Good luck!" in line for line in told), started
    assert not any("¡Buena suerte!" in line or "Empieza" in line for line in told), started
    await console.quit()
