"""The log at every level (issue 32, 4 and 5; BOT.md: "no token or secret in any log line
at any level", "nobody but the owner ever sees a hand, in any ... log line"), read as an
attacker with the log file would: at DEBUG, a whole game's private hands are not in it
(the libraries' wire logs stay above DEBUG unless LOG_WIRE=on asks for them, documented as
holding hands); in webhook mode the secret the bot made itself is not in it, and its
listener answers on 127.0.0.1 only unless told otherwise."""

from __future__ import annotations

import socket
from pathlib import Path

from tests.doors.telegram.driver import BotProcess, Table
from tests.doors.telegram.fake_api import FakeTelegram

HAND_WORDS = ("Your tiles", "You can play")  # a private hand's caption


async def test_a_debug_log_holds_no_private_hand(tg: FakeTelegram, tmp_path: Path) -> None:
    process = await BotProcess(tg, tmp_path, LOG_LEVEL="DEBUG").polling()
    try:
        table = Table(tg)
        table.person("Ana", 1301)
        table.person("Beto", 1302)
        await table.start_game("/new draw 30")
        assert await table.play_out(limit=6) >= 3
        hands = [c for c in tg.calls_to("sendPhoto") if str(c.params.get("chat_id")) == "1301"]
        assert hands and "Your tiles" in (hands[-1].params.get("caption") or "")
    finally:
        await process.stop()
    log = process.log()
    assert "DEBUG" in log  # it did log at DEBUG
    for words in HAND_WORDS:
        assert words not in log, [line for line in log.splitlines() if words in line][:3]


async def test_the_wire_log_is_there_when_asked_for(tg: FakeTelegram, tmp_path: Path) -> None:
    """LOG_WIRE=on: the libraries' requests are logged (docs/deploy.md says they hold
    hands); the tokens stay hidden all the same (BotProcess.stop reads the log for them)."""
    process = await BotProcess(tg, tmp_path, LOG_LEVEL="DEBUG", LOG_WIRE="on").polling()
    try:
        table = Table(tg)
        table.person("Ana", 1311)
        table.person("Beto", 1312)
        await table.start_game("/new draw 30")
    finally:
        await process.stop()
    assert "sendMessage" in process.log() or "sendPhoto" in process.log()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening_on(port: int) -> list[str]:
    """The local addresses with a socket listening on ``port`` (Linux: /proc/net/tcp)."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            local, state = line.split()[1], line.split()[3]
            address, hex_port = local.rsplit(":", 1)
            if state == "0A" and int(hex_port, 16) == port:  # 0A: LISTEN
                found.append(address)
    return found


async def test_a_webhook_secret_made_by_the_bot_is_never_logged(
    tg: FakeTelegram, tmp_path: Path
) -> None:
    port = free_port()
    process = BotProcess(
        tg,
        tmp_path,
        LOG_LEVEL="DEBUG",
        TELEGRAM_WEBHOOK_URL=f"http://127.0.0.1:{port}/tg",
        TELEGRAM_WEBHOOK_PORT=str(port),
        TELEGRAM_WEBHOOK_PATH="tg",
    )  # no TELEGRAM_WEBHOOK_SECRET: the bot makes one; no TELEGRAM_WEBHOOK_LISTEN
    process.start()
    try:
        hooks = await tg.wait_calls("setWebhook", timeout=30)
        secret = hooks[-1].params["secret_token"]
        assert len(secret) >= 32
        await tg.wait_for(lambda: listening_on(port), what="the webhook's listener")
        # on the loopback interface alone (0100007F: 127.0.0.1), not on every interface
        assert listening_on(port) == ["0100007F"], listening_on(port)
    finally:
        await process.stop()
    assert secret not in process.log()
