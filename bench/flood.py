"""A member floods a group with /rules while a game is played (issue 32, 6): how long the
next move's board takes to appear, and where the answers went, at Telegram's limit of 20
messages a minute in a group (the real program against the fake Telegram of the tests).

    python bench/flood.py                 # 40 /rules, 20 messages a minute
    python bench/flood.py --count 10 --rate 60
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

if sys.path and sys.path[0].endswith("bench"):
    sys.path[0] = sys.path[0][: -len("bench")] or "."  # the repository, not bench/

from tests.doors.telegram.driver import GROUP, BotProcess, Table, buttons
from tests.doors.telegram.fake_api import FakeTelegram

ZOE = 2099  # in the group, not at the table


async def flood(count: int, rate: int) -> str:
    async with FakeTelegram() as tg:
        tg.group(GROUP, "Dominó del barrio")
        home = Path(tempfile.mkdtemp(prefix="bench-flood-"))
        process = await BotProcess(tg, home, TELEGRAM_GROUP_RATE=str(rate)).polling()
        try:
            table = Table(tg)
            table.person("Ana", 2001)
            table.person("Beto", 2002)
            await table.start_game("/new draw 100")
            name, hand = await tg.wait_for(table.newest_hand, timeout=120, what="a hand")
            tg.user(ZOE, "Zoe", "en")
            tg.open_private(ZOE)
            asked = len(tg.calls)
            for _ in range(count):
                tg.send_message(GROUP, ZOE, "/rules")
            await tg.wait_for(  # the bot has read them all: their answers begin
                lambda: sum(1 for c in tg.calls[asked:] if c.method == "sendMessage") >= 1,
                timeout=120,
                what="the first answer",
            )
            updates = table.board_updates()
            move = next(d for d in buttons(hand) if d.startswith(("m|", "c|")))
            pressed = time.monotonic()
            query = tg.press(hand["chat"]["id"], table.people[name], hand["message_id"], move)
            assert query
            await tg.wait_for(
                lambda: table.board_updates() > updates, timeout=900, what="the board"
            )
            delay = time.monotonic() - pressed
            answers = [c for c in tg.calls[asked:] if c.method == "sendMessage" and c.ok]
            in_group = sum(1 for c in answers if str(c.params.get("chat_id")) == str(GROUP))
            privately = sum(1 for c in answers if str(c.params.get("chat_id")) == str(ZOE))
        finally:
            await process.stop()
    return (
        f"{count} /rules at {rate} a minute: the next board {delay:.1f} s after the move; "
        f"answers by then: {in_group} in the group, {privately} to Zoe privately"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--rate", type=int, default=20)
    args = parser.parse_args(argv)
    print("flood:", asyncio.run(flood(args.count, args.rate)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
