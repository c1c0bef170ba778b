"""The operator's view (issue 34): /healthz says whether the database answers and each
platform is connected (503 and what is wrong when not), /metrics the Prometheus text;
nothing else is served, no answer carries a traceback, a port taken is one WARNING line.
OPS_HOST and OPS_PORT are refused in one line when they cannot be."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import AsyncIterator, Mapping
from pathlib import Path

import aiohttp
import pytest
from aiohttp import test_utils
from prometheus_client.parser import text_string_to_metric_families

from bot.core import Unavailable
from bot.doors import retry
from bot.doors.config import SettingsError, load_settings
from bot.doors.ops import Door, Metrics, OpsServer, Watch
from storage.store import Store


class FakeDoor:
    def __init__(self, state: str = "ok", pending: int = 0) -> None:
        self._state, self._pending = state, pending

    def state(self) -> str:
        if self._state == "raise":
            raise RuntimeError("/secret/path.py line 3: boom")
        return self._state

    def pending(self) -> int:
        return self._pending


async def answering() -> None:
    return None


async def two_games() -> Mapping[str, int]:
    return {"lobby": 1, "playing": 2}


def watch(**changes: object) -> Watch:
    doors: dict[str, Door] = {"console": FakeDoor()}
    fields: dict[str, object] = {"database": answering, "games": two_games, "doors": doors}
    fields.update(changes)
    return Watch(**fields)  # type: ignore[arg-type]


async def client_of(server: OpsServer) -> test_utils.TestClient:  # type: ignore[type-arg]
    client = test_utils.TestClient(test_utils.TestServer(server.app()))
    await client.start_server()
    return client


@pytest.fixture
async def opened() -> AsyncIterator[list[test_utils.TestClient]]:  # type: ignore[type-arg]
    clients: list[test_utils.TestClient] = []  # type: ignore[type-arg]
    yield clients
    for client in clients:
        await client.close()


async def get(
    clients: list[test_utils.TestClient],  # type: ignore[type-arg]
    seen: Watch,
    path: str,
    method: str = "GET",
) -> tuple[int, str]:
    client = await client_of(OpsServer(seen, Metrics(), "127.0.0.1", 0))
    clients.append(client)
    response = await client.request(method, path)
    return response.status, await response.text()


async def test_healthy_is_200_with_each_part_ok(opened) -> None:
    doors = {"telegram": FakeDoor(), "discord": FakeDoor()}
    status, body = await get(opened, watch(doors=doors), "/healthz")
    assert status == 200
    assert json.loads(body) == {
        "status": "ok",
        "database": "ok",
        "platforms": {"telegram": "ok", "discord": "ok"},
    }


async def failing() -> None:
    raise Unavailable("postgresql://domino:secret@db/domino: connection refused")


async def never() -> None:
    await asyncio.Event().wait()


@pytest.mark.parametrize("database", [failing, never])
async def test_a_database_that_does_not_answer_is_503(opened, database) -> None:
    seen = watch(database=database, database_seconds=0.2)
    status, body = await get(opened, seen, "/healthz")
    assert status == 503
    said = json.loads(body)
    assert said["status"] != "ok" and said["database"] == "not answering", said
    assert said["platforms"] == {"console": "ok"}
    assert "secret" not in body


async def test_a_real_store_whose_database_is_gone_is_503(opened, tmp_path: Path) -> None:
    """The real query (Store.ping) on a database that cannot answer any more."""
    store = await Store.open(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    seen = watch(database=store.ping, games=store.games.active_count)
    assert (await get(opened, seen, "/healthz"))[0] == 200
    await store.close()
    status, body = await get(opened, seen, "/healthz")
    assert status == 503 and json.loads(body)["database"] != "ok", body


async def test_a_platform_disconnected_is_503_naming_it(opened) -> None:
    doors = {"telegram": FakeDoor("getUpdates failing"), "discord": FakeDoor()}
    status, body = await get(opened, watch(doors=doors), "/healthz")
    assert status == 503
    assert json.loads(body)["platforms"] == {"telegram": "getUpdates failing", "discord": "ok"}


async def test_no_traceback_in_any_answer(opened) -> None:
    status, body = await get(opened, watch(doors={"console": FakeDoor("raise")}), "/healthz")
    assert status == 503 and json.loads(body)["platforms"] == {"console": "unknown"}
    assert "Traceback" not in body and "secret" not in body

    async def broken() -> Mapping[str, int]:
        raise RuntimeError("/secret/path.py")

    status, body = await get(opened, watch(games=broken), "/metrics")
    assert status == 200 and "secret" not in body  # the games' last count stays


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/", 404),
        ("GET", "/healthz/x", 404),
        ("GET", "/../etc/passwd", 404),
        ("GET", "/g/abc", 404),
        ("POST", "/healthz", 405),
        ("PUT", "/metrics", 405),
        ("DELETE", "/metrics", 405),
        ("HEAD", "/healthz", 200),
        ("HEAD", "/metrics", 200),
    ],
)
async def test_only_get_and_head_of_two_paths(opened, method: str, path: str, status: int) -> None:
    answered, body = await get(opened, watch(), path, method)
    assert answered == status
    assert "Traceback" not in body


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    return found


async def test_metrics_in_the_prometheus_format(opened) -> None:
    metrics = Metrics()
    metrics.observe("console", "help", "ok", 0.01)
    metrics.observe("console", "begin", "refused", 0.02)
    doors = {"telegram": FakeDoor(pending=3), "discord": FakeDoor(pending=0)}
    before = retry.RETRIES["telegram"]
    retry.retried("telegram")
    client = await client_of(OpsServer(watch(doors=doors), metrics, "127.0.0.1", 0))
    opened.append(client)
    response = await client.get("/metrics")
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/plain")
    found = samples(await response.text())
    command = (("command", "help"), ("outcome", "ok"), ("platform", "console"))
    assert found["domino_commands_total", command] == 1
    refused = (("command", "begin"), ("outcome", "refused"), ("platform", "console"))
    assert found["domino_commands_total", refused] == 1
    assert found["domino_command_seconds_count", (("platform", "console"),)] == 2
    assert found["domino_games_active", (("status", "lobby"),)] == 1
    assert found["domino_games_active", (("status", "playing"),)] == 2
    assert found["domino_deliveries_pending", (("platform", "telegram"),)] == 3
    assert found["domino_deliveries_pending", (("platform", "discord"),)] == 0
    assert found["domino_platform_retries_total", (("platform", "telegram"),)] == before + 1
    assert found["domino_platform_retries_total", (("platform", "discord"),)] >= 0
    assert found["domino_web_viewers", ()] == 0


async def test_each_metrics_has_its_own_registry() -> None:
    one, two = Metrics(), Metrics()
    one.observe("console", "help", "ok", 0.0)
    assert "domino_commands_total{" in (await one.scrape(watch())).decode()
    assert "domino_commands_total{" not in (await two.scrape(watch())).decode()


async def test_a_port_taken_is_one_warning_and_no_listener(caplog) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        server = OpsServer(watch(), Metrics(), "127.0.0.1", port)
        with caplog.at_level(logging.WARNING):
            assert not await server.start()
        said = [r for r in caplog.records if r.name.startswith("bot.doors.ops")]
        assert len(said) == 1 and said[0].levelno == logging.WARNING
        line = said[0].getMessage()
        assert f"127.0.0.1:{port}" in line and "OPS_PORT" in line and "\n" not in line
        assert said[0].exc_info is None
    finally:
        taken.close()


async def test_the_listener_answers_on_its_port() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = OpsServer(watch(), Metrics(), "127.0.0.1", port)
    assert await server.start()
    try:
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{port}/healthz") as response,
        ):
            assert response.status == 200
    finally:
        await server.stop()


# ----- the settings ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"OPS_PORT": "nine"}, "OPS_PORT: is a port (1 to 65535) or off, not 'nine'"),
        ({"OPS_PORT": "0"}, "OPS_PORT: is a port (1 to 65535) or off"),
        ({"OPS_PORT": "70000"}, "OPS_PORT: is a port (1 to 65535) or off"),
        ({"OPS_PORT": "-1"}, "OPS_PORT: is a port (1 to 65535) or off"),
        ({"OPS_HOST": "my host"}, "OPS_HOST: is an address to listen on"),
        ({"OPS_HOST": "  "}, "OPS_HOST: is an address to listen on"),
        ({"OPS_HOST": "http://x/"}, "OPS_HOST: is an address to listen on"),
    ],
)
def test_a_bad_ops_setting_is_one_line(monkeypatch, env: dict[str, str], said: str) -> None:
    monkeypatch.chdir("/")  # no .env
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SettingsError) as refused:
        load_settings()
    assert said in str(refused.value) and "\n" not in str(refused.value), refused.value


def test_ops_settings_read_as_meant(monkeypatch) -> None:
    monkeypatch.chdir("/")
    monkeypatch.delenv("OPS_PORT", raising=False)
    monkeypatch.delenv("OPS_HOST", raising=False)
    settings = load_settings()
    assert (settings.ops_host, settings.ops_port) == ("127.0.0.1", 9090)
    monkeypatch.setenv("OPS_PORT", " OFF ")
    monkeypatch.setenv("OPS_HOST", "0.0.0.0")
    settings = load_settings()
    assert (settings.ops_host, settings.ops_port) == ("0.0.0.0", None)
    monkeypatch.setenv("OPS_PORT", "9191")
    assert load_settings().ops_port == 9191
