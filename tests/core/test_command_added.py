"""Adding a command is one registry entry, its handler and its catalog texts: a command
added at run time, and nowhere else, is run by the service, refused where its entry says,
and offered by every front door (Telegram's menu, Discord's tree, the console's /help, the
style of a button that sends it)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.core import registry, texts
from bot.core.model import Button, Say
from bot.core.registry import COMMANDS, Kind, Option, Spec, Style, Where, handles
from bot.core.session import Session
from bot.doors.console import Console
from bot.doors.discord.commands import domino_command
from bot.doors.discord.components import buttons_view
from bot.doors.telegram.app import menu_commands
from lang import tr
from storage.store import Store
from tests.core.driver import Room
from tests.doors.test_delivery import FakePosts

ABOUT = "Greet the table"


@pytest.fixture
def hello(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The command ``hello [who]``, in the registry for the test only."""
    who = Option("who", "opt:who", "Whom to greet", Kind.TEXT, length=20)
    entry = Spec("hello", "cmd:hello", ABOUT, where=Where.ROOM, options=(who,))
    monkeypatch.setitem(COMMANDS, "hello", entry)

    @handles("hello")
    async def hello(session: Session) -> None:
        session.say("Hello, {who}!", who=" ".join(session.args) or "everyone")

    yield "hello"


def said(effects: list[Any]) -> str:
    return "\n".join(e.text for e in effects if isinstance(e, Say))


async def test_the_service_runs_it_where_its_entry_allows(store: Store, hello: str) -> None:
    room = await Room.open(store)
    assert "Hello, Beto!" in said(await room.say("Ana", "/hello Beto"))
    refused = said(await room.say("Ana", "/hello", private=True, game_id=1))
    assert tr("en", texts.ROOM_ONLY) in refused and "Hello" not in refused


def test_every_front_door_offers_it(hello: str, tmp_path: Path) -> None:
    assert ("hello", ABOUT) in [(c.command, c.description) for c in menu_commands("en")]

    async def run(*_: Any) -> None: ...

    async def complete(*_: Any) -> list[Any]:
        return []

    tree = domino_command(run, complete)
    [command] = [c for c in tree.commands if c.name == "hello"]
    assert isinstance(command, discord.app_commands.Command)
    assert [p.name for p in command.parameters] == ["who"]


async def test_the_console_lists_it_and_a_button_takes_its_style(
    monkeypatch: pytest.MonkeyPatch, hello: str, tmp_path: Path
) -> None:
    class Service:
        async def handle(self, command: Any) -> list[Any]:
            return []

        async def language_of(self, place: Any) -> str:
            return str(place.locale)

    out = io.StringIO()
    console = Console(Service(), FakePosts(), out, tmp_path, "Ana", "en")  # type: ignore[arg-type]
    await console.line("/help")
    assert f"/hello: {ABOUT}" in out.getvalue()

    monkeypatch.setitem(
        COMMANDS, "hello", Spec(**{**COMMANDS["hello"].__dict__, "style": Style.DANGER})
    )
    assert registry.style_of("hello beto") is Style.DANGER
    view = buttons_view((Button("Hi", "hello beto", 1),))
    assert view is not None
    [button] = view.children
    assert isinstance(button, discord.ui.Button) and button.style is discord.ButtonStyle.danger
