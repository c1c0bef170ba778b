"""The operator's /healthz of the real program on Discord (issue 34): "ok" while the
gateway is connected, 503 naming Discord while it is not, "ok" again once Discord is
back."""

from __future__ import annotations

from pathlib import Path

from tests.doors.discord.driver import BotProcess
from tests.doors.discord.fake_discord import FakeDiscord
from tests.doors.telegram.test_ops import healthz_until
from tests.doors.test_ops_program import free_port


async def test_healthz_follows_the_gateway(fake: FakeDiscord, tmp_path: Path) -> None:
    port = free_port()
    bot = BotProcess(fake, tmp_path, OPS_PORT=str(port))
    await bot.start()
    try:
        _status, said = await healthz_until(port, lambda s, _b: s == 200)
        assert said == {"status": "ok", "database": "ok", "platforms": {"discord": "ok"}}
        discord_port = int(fake.url.rsplit(":", 1)[1].split("/")[0])
        await fake.stop()  # the gateway goes, and does not come back for a while
        _status, said = await healthz_until(port, lambda s, _b: s == 503)
        assert said["platforms"]["discord"] != "ok" and said["database"] == "ok", said
        await fake.start(discord_port)
        await healthz_until(port, lambda s, _b: s == 200, timeout=60)
    finally:
        await bot.stop()
