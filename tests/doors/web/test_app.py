"""The JSON door (issue 34): pages served over HTTP, read-only, with security headers;
an unknown key and a key switched off answer the very same 404; no key in the log."""

from __future__ import annotations

import logging
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession

from bot.doors.web import WebDoor
from storage.store import Store
from tests.core.driver import Room

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
async def opened(tmp_path: Path) -> AsyncIterator[tuple[Room, Client]]:
    store = await Store.open(f"sqlite:///{tmp_path / 'bot.sqlite3'}")
    room = await Room.open(store)
    await room.say("Ana", "/new draw")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin fill")
    door = WebDoor(room.service.pages, "127.0.0.1", free_port())
    assert await door.start()
    client = Client(f"http://127.0.0.1:{door.port}")
    try:
        yield room, client
    finally:
        await client.close()
        await door.stop()
        await store.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Client:
    """Requests to the door as it listens (its own runner: its access log off)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.session = ClientSession()

    def request(self, method: str, path: str) -> Any:
        return self.session.request(method, self.base + path)

    def get(self, path: str) -> Any:
        return self.request("GET", path)

    def head(self, path: str) -> Any:
        return self.request("HEAD", path)

    async def close(self) -> None:
        await self.session.close()


async def fetch(
    client: Client, path: str, method: str = "GET"
) -> tuple[int, dict[str, str], bytes]:
    response = await client.request(method, path)
    body = await response.read()
    headers = {k: v for k, v in response.headers.items() if k.lower() != "date"}
    return response.status, headers, body


async def test_pages_serve_their_json_with_the_security_headers(
    opened: tuple[Room, Client],
) -> None:
    room, client = opened
    game = await room.service.pages.key("game", 1)
    community = await room.service.pages.key_of(room.place)
    status, headers, body = await fetch(client, f"/g/{game}.json?lang=pt")
    assert status == 200, body
    assert headers["Content-Type"].startswith("application/json")
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert "no-store" in headers["Cache-Control"]
    assert "Set-Cookie" not in headers
    assert headers["Server"] == "domino"  # not the server's name and version
    response = await client.get(f"/g/{game}.json?lang=pt")
    page = await response.json()
    assert page["kind"] == "game" and page["lang"] == "pt" and page["status"] == "playing"
    status, _headers, _body = await fetch(client, f"/c/{community}.json")
    assert status == 200
    head = await client.head(f"/c/{community}.json")
    assert head.status == 200
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        status, headers, _body = await fetch(client, f"/g/{game}.json", method)
        assert status == 405 and headers["X-Content-Type-Options"] == "nosniff"


async def test_unknown_and_switched_off_keys_answer_the_same_404(
    opened: tuple[Room, Client], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    room, client = opened
    game = await room.service.pages.key("game", 1)
    community = await room.service.pages.key_of(room.place)
    assert game and community
    unknown = await fetch(client, "/g/AAAAAAAAAAAAAAAAAAAAAA.json")
    assert unknown[0] == 404
    assert await fetch(client, "/g/nonsense.json") == unknown
    assert await fetch(client, f"/t/{game}.json") == unknown  # a key of another kind
    assert await fetch(client, "/nothing/here") == unknown
    await room.say("Ana", "/settings web off", admin=True)
    assert await fetch(client, f"/g/{game}.json") == unknown
    assert await fetch(client, f"/c/{community}.json") == unknown
    await room.say("Ana", "/settings web on", admin=True)
    assert (await fetch(client, f"/g/{game}.json"))[0] == 200
    await room.say("Ana", "/settings web new", admin=True)
    assert await fetch(client, f"/g/{game}.json") == unknown
    fresh = await room.service.pages.key("game", 1)
    assert (await fetch(client, f"/g/{fresh}.json"))[0] == 200
    logged = caplog.text + "\n".join(r.getMessage() for r in caplog.records)
    for key in (game, community, fresh or ""):
        assert key not in logged
