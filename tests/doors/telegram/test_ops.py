"""The operator's /healthz of the real program on Telegram (issue 34): "ok" while it takes
its updates, 503 naming Telegram while getUpdates fails, "ok" again once Telegram
answers; a call tried again after a 429 is counted in /metrics."""

from __future__ import annotations

from pathlib import Path

from tests.doors.telegram.driver import BotProcess, Table
from tests.doors.telegram.fake_api import FakeTelegram
from tests.doors.test_ops_program import free_port, healthz_until, metrics_until


async def test_healthz_follows_telegram(tg: FakeTelegram, tmp_path: Path) -> None:
    port = free_port()
    bot = await BotProcess(tg, tmp_path, OPS_PORT=str(port)).polling()
    try:
        _status, said = await healthz_until(port, lambda s, _b: s == 200)
        assert said == {"status": "ok", "database": "ok", "platforms": {"telegram": "ok"}}
        tg.fail("getUpdates", status=502, times=10_000, description="Bad Gateway")
        _status, said = await healthz_until(port, lambda s, _b: s == 503)
        assert said["platforms"] == {"telegram": "getUpdates failing"}
        assert said["database"] == "ok"
        tg.calm()
        await healthz_until(port, lambda s, _b: s == 200)

        # a send refused with a 429 is tried again, and counted
        table = Table(tg)
        table.person("Ana", 301)
        tg.fail("sendMessage", status=429, times=1, retry_after=1)
        await table.say("Ana", "/help")
        await tg.wait_for(
            lambda: [c.status for c in tg.calls_to("sendMessage")] == [429, 200],
            what="the answer, once tried again",
        )
        text = await metrics_until(port, 'domino_platform_retries_total{platform="telegram"} 1.0')
        assert 'domino_commands_total{command="help",outcome="ok",platform="telegram"} 1.0' in text
    finally:
        await bot.stop()
    assert not bot.tracebacks(), bot.tracebacks()
