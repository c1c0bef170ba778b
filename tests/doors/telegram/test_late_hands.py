"""A hand sent late (issue 32, 9), against the fake Telegram's 429s: the private chat's
hand message was refused twice ("Too Many Requests", retried after the second each time
asked) and the move it offered was made meanwhile (by another process, from the same
hand asked for again): once it is out, its buttons go at once. A hand that goes out in
its moment keeps them."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest
from PIL import Image
from telegram import Bot

from bot.core.model import Button, Hand, Person, Place
from bot.doors import pictures
from bot.doors.delivery import Delivery
from bot.doors.telegram.delivery import telegram_delivery
from tests.doors.telegram.fake_api import FakeTelegram
from tests.doors.telegram.test_tables import FakePosts

ANA = Person("701", "Ana", "en")
ROOM = Place("telegram", "-100777", "-100777")


class MovingPosts(FakePosts):
    """The game's moves: a hand offered before the latest is no longer current."""

    plies = 3

    async def hand_current(self, place: Place, game_id: int, move_number: int) -> bool:
        return self.plies <= move_number


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        fake.user(701, "Ana", "en")
        fake.open_private(701)
        yield fake


async def png(_: object) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8)).save(out, format="PNG")
    return out.getvalue()


def hand(move: int) -> Hand:
    button = Button("6-4", "play 6-4", 1, move, move="0: 6-4")
    return Hand(ANA, 1, move, None, None, "Your tiles: 6-4", (button,))  # type: ignore[arg-type]


async def test_a_hand_that_went_out_after_a_move_loses_its_buttons(
    tg: FakeTelegram, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pictures, "hand_png", png)
    posts = MovingPosts()
    bot = Bot(tg.token, base_url=tg.base_url, base_file_url=tg.base_file_url)
    async with bot:
        delivery: Delivery[None] = telegram_delivery(bot, posts, tg.username)  # type: ignore[arg-type]
        tg.fail("sendPhoto", 429, times=2, retry_after=1, chat_id=701)
        await delivery.deliver(ROOM, [hand(3)])  # queued: it goes out in the background
        await tg.wait_for(
            lambda: any(c.status == 429 for c in tg.calls_to("sendPhoto")), what="a 429"
        )
        posts.plies = 4  # the move is made while the hand waits
        await delivery.idle()
        [sent] = [c for c in tg.calls_to("sendPhoto") if c.ok]
        message_id = sent.result["message_id"]
        assert sent.params.get("reply_markup")  # it went out with the buttons of move 3
        assert not tg.message(701, message_id).get("reply_markup")  # and lost them at once
        # a hand in its moment keeps them
        await delivery.deliver(ROOM, [replace(hand(4), text="Your tiles: 6-4 5-5")])
        await delivery.idle()
        latest = [c for c in tg.calls_to("sendPhoto") if c.ok][-1]
        assert tg.message(701, latest.result["message_id"]).get("reply_markup")
