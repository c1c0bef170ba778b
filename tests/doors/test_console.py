"""The console room driven through its standard input, as ``make run`` starts it: a
whole game, then a second run on the same database finds the saved game."""

from __future__ import annotations

import asyncio
import io
import os
import re
import sys
from pathlib import Path

from bot.core import registry
from bot.core.model import Command, Effect, Place, Reply
from bot.doors.console import PROMPT, Console
from lang import LANGUAGES, tr
from tests.doors.test_delivery import FakePosts

# a move's button as the console prints it, its command named in the screen's language
MOVES = sorted(
    {registry.name_in(lang, n) for n in ("play", "draw", "pass", "end") for lang in LANGUAGES}
)
MOVE = re.compile(r"→ (/(?:" + "|".join(MOVES) + r")\b.*)$")


class ConsoleProcess:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.output = ""

    @staticmethod
    async def start(home: Path, **extra: str) -> ConsoleProcess:
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{home / 'db.sqlite3'}",
            "CONSOLE_NAME": "Ana",
            "CONSOLE_LANGUAGE": "en",
            "PYTHONPATH": os.getcwd(),
            **extra,
        }
        env.pop("TELEGRAM_TOKEN", None)
        env.pop("DISCORD_TOKEN", None)
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=home,
            env=env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        console = ConsoleProcess(process)
        await console.wait()
        return console

    async def wait(self) -> str:
        """Read until the room waits for a line again; what came."""
        assert self.process.stdout is not None
        chunk = ""
        while not chunk.endswith(PROMPT):
            data = await asyncio.wait_for(self.process.stdout.read(4096), timeout=60)
            if not data:
                break
            chunk += data.decode()
        self.output += chunk
        return chunk

    async def wait_for(self, text: str, seconds: float = 60) -> str:
        """Read what the program prints by itself (a timer's deal) until ``text``
        comes, with a deadline; what came."""
        assert self.process.stdout is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        chunk = ""
        while text not in chunk:
            left = deadline - loop.time()
            assert left > 0, f"{text!r} never came; last: {chunk[-500:]}"
            data = await asyncio.wait_for(self.process.stdout.read(4096), timeout=left)
            if not data:
                break
            chunk += data.decode()
        self.output += chunk
        return chunk

    async def type(self, line: str) -> str:
        assert self.process.stdin is not None
        self.process.stdin.write((line + "\n").encode())
        await self.process.stdin.drain()
        return await self.wait()

    async def quit(self) -> None:
        await self.type("/quit")
        assert await asyncio.wait_for(self.process.wait(), timeout=30) == 0


async def test_a_whole_game_through_standard_input(tmp_path: Path) -> None:
    console = await ConsoleProcess.start(tmp_path)
    await console.type("/new draw 20")
    await console.type("/add_ai hard")
    last = await console.type("/begin")
    for _ in range(400):
        if "Game over" in console.output:
            break
        moves = [MOVE.search(line) for line in last.splitlines()]
        moves = [m.group(1) for m in moves if m]
        if not moves and "next hand comes in" in last:
            # everyone is ready: the program deals a moment after the hand's end, by itself
            last = await console.wait_for("your turn")
            continue
        last = await console.type(moves[0] if moves else "/next")
    assert "Game over" in console.output
    assert "Board picture:" in console.output and (tmp_path / "data/console/board.png").exists()
    assert "[only Ana sees this]" in console.output
    assert "Tiles left:" in console.output  # each hand's end in words (issue 33, 10)
    # each hand's end stays as its own picture (issue 21), besides the current board
    assert list((tmp_path / "data/console").glob("game-*-hand-*.png"))
    await console.quit()


async def test_quitting_and_starting_again_resumes_the_game(tmp_path: Path) -> None:
    console = await ConsoleProcess.start(tmp_path)
    await console.type("/new draw")
    await console.type("/add_ai")
    await console.type("/begin")
    await console.quit()
    again = await ConsoleProcess.start(tmp_path)
    shown = await again.type("/board")
    assert "Tiles in hand" in shown  # the saved game, not "no game here"
    await again.type("/as Beto")
    assert "You have no seat" in await again.type("/hand")
    await again.quit()


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


async def test_what_it_writes_is_for_this_user_only(tmp_path: Path) -> None:
    pictures = tmp_path / "data" / "console"
    pictures.mkdir(parents=True, mode=0o755)  # as an older version left them
    (tmp_path / "data").chmod(0o755)
    (pictures / "hand-Ana.png").write_bytes(b"old")
    (pictures / "hand-Ana.png").chmod(0o644)
    console = await ConsoleProcess.start(tmp_path)
    await console.type("/new draw")
    await console.type("/add_ai")
    await console.type("/begin")
    await console.quit()
    assert mode(tmp_path / "data") == 0o700
    files = [*pictures.iterdir(), *tmp_path.glob("db.sqlite3*")]
    assert len(files) >= 3  # a board, a hand, the database
    assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}


class _Service:
    """The service as the console sees it: every command answered with a private word."""

    def __init__(self) -> None:
        self.commands: list[Command] = []

    async def handle(self, command: Command) -> list[Effect]:
        self.commands.append(command)
        return [Reply("What can be done now.", private=command.person)]

    async def language_of(self, place: Place) -> str:
        return str(place.locale)


async def test_help_lists_every_command_of_the_registry(tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(_Service(), FakePosts(), out, tmp_path, "Ana", "pt")  # type: ignore[arg-type]
    await console.line("/help")
    shown = out.getvalue()
    assert "What can be done now." in shown  # the service's answer, as before
    for spec in registry.public():
        assert f"/{registry.name_in('pt', spec.name)}: {tr('pt', spec.about)}" in shown
    assert tr("pt", spec.about) != spec.about  # in the person's language
    assert "/timer" not in shown  # the service's own command is nobody's


async def test_house_rules_typed_in_the_console(tmp_path: Path) -> None:
    """BOT.md / issue 20: options after the preset, shown in the lobby, changed with
    /rule, refused with the valid values, and in force in /rules (the real program)."""
    console = await ConsoleProcess.start(tmp_path)
    lobby = await console.type("/new partnership 200 blocked_tie=nobody redeal_doubles=4")
    assert "the team that reaches 200 loses" in lobby
    assert "(blocked_tie=nobody)" in lobby and "(redeal_doubles=4)" in lobby
    refused = await console.type("/rule blocked_tie sometimes")
    assert "closer_wins" in refused and "(blocked_tie=nobody)" not in refused
    changed = await console.type("/rule score_to winner")
    assert "(score_to=winner)" in changed and "the first to reach them wins" in changed
    said = await console.type("/rules")
    assert "blocked_tie=nobody) ✱" in said and "score_to=winner) ✱" in said
    await console.quit()


async def test_a_tournament_in_the_console_moves_between_its_tables(tmp_path: Path) -> None:
    """Issue 22: the console runs a tournament locally; /room moves between its rooms, so
    a person plays at one table while computers play the others."""
    console = await ConsoleProcess.start(tmp_path)
    await console.type("/tournament new Copa rounds=1 minutes=20 checkin=off")
    await console.type("/tournament register Los Nuestros computer")
    for team in ("Bots A", "Bots B", "Bots C"):
        await console.type(f"/tournament register {team} computer computer")
    await console.type("/tournament close")
    started = await console.type("/tournament start")
    rooms = re.findall(r"→ /room (r1-t\d)", started)
    assert sorted(rooms) == ["r1-t1", "r1-t2"], started
    listed = await console.type("/room")
    assert "r1-t1" in listed and "r1-t2" in listed
    lines = {line.split("→ /room ")[1]: line for line in started.splitlines() if "→ /room" in line}
    [ours] = [room for room, line in lines.items() if "Los Nuestros" in line]
    await console.type(f"/room {ours}")
    joined = await console.type("/join")
    assert "the game begins" in joined.lower(), joined
    back = await console.type("/room mesa")
    assert "mesa" in back
    await console.quit()


async def test_only_the_consoles_own_person_administers_it(tmp_path: Path) -> None:
    """Issue 31: the console's own person (CONSOLE_NAME) is its community's admin; those
    played with /as are members, so an organiser and a judge are told apart there."""
    console = await ConsoleProcess.start(tmp_path)
    await console.type("/as Beto")
    refused = await console.type("/tournament new Copa")
    assert "Only a community admin can open a tournament" in refused, refused
    assert "open for registration" not in refused
    await console.type("/as Ana")
    opened = await console.type("/tournament new Copa")
    assert "open for registration" in opened, opened
    await console.type("/tournament judge Beto")
    await console.type("/as Beto")
    assert "Only the organiser or a community admin" in await console.type("/tournament cancel")
    await console.quit()


async def test_coming_back_shows_the_game_where_it_stands(tmp_path: Path) -> None:
    """Issue 33, 9: ``make run`` on a game in progress shows its board (in words, with
    whose turn it is) and the hand of the person here, not only the greeting."""
    console = await ConsoleProcess.start(tmp_path)
    await console.type("/new draw 100")
    await console.type("/add_ai")
    await console.type("/begin")
    await console.quit()
    again = await ConsoleProcess.start(tmp_path)
    shown = again.output
    assert "Tiles in hand" in shown and "To play: " in shown, shown
    assert "Board picture:" in shown
    assert "[only Ana sees this]" in shown and "Your tiles:" in shown, shown
    await again.quit()
    # a room with no game: the greeting alone, no refusal
    (tmp_path / "empty").mkdir()
    empty = await ConsoleProcess.start(tmp_path / "empty")
    assert "no game" not in empty.output.lower(), empty.output
    await empty.quit()


async def test_as_refuses_a_computers_name_and_what_is_no_name(tmp_path: Path) -> None:
    """Issue 33, 12: ``/as Computer 2 (easy)`` posed as a computer. A name the bot gives a
    computer player or an empty seat, in any language and any case, or one that is no
    name, is refused in words, and who you are does not change."""
    console = await ConsoleProcess.start(tmp_path)
    await console.type("/new draw")
    await console.type("/add_ai easy")
    for name in [
        "Computer 2 (easy)", "computadora 2 (facil)", "Computadora 2 (fácil)",
        "COMPUTADOR 2 (DIFÍCIL)", "Computer", "computer2", "Seat 3", "Asiento 2", "Lugar 4",
    ]:  # fmt: skip
        said = await console.type(f"/as {name}")
        assert "is how the bot names a computer player or an empty seat" in said, said
        assert "You are now" not in said
    for name in ["/begin", "@ana", "user:1", "x" * 41]:
        said = await console.type(f"/as {name}")
        assert "cannot be a person's name" in said, said
    board = await console.type("/join")  # still Ana, seated already: nobody new joined
    assert "You already sit in seat 1" in board, board
    said = await console.type("/as Computadoras del Barrio")  # a name, not a computer's
    assert "You are now Computadoras del Barrio." in said
    await console.quit()
