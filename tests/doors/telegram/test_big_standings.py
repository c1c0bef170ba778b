"""A big event's standings reach a Telegram group (issue 31, 9): Telegram refuses a photo
over 10,000 pixels of width and height (at 224 entries a row each, the group got no
standings at all); the picture holds the top rows, its caption what fits, and the whole
table follows as a document. Through the real python-telegram-bot against the fake."""

from __future__ import annotations

import csv
import io
from types import SimpleNamespace
from typing import Any

from telegram import Bot

from bot.core.model import Effect, File, Picture, Place
from bot.core.tournament import rounds
from bot.doors.pictures import picture_png
from bot.doors.telegram.delivery import TelegramPlatform
from tests.core.tournament.test_big_event import big_event
from tests.doors.telegram.driver import GROUP
from tests.doors.telegram.fake_api import FakeTelegram


async def test_the_standings_of_two_thousand_entries_reach_the_group(tg: FakeTelegram) -> None:
    session: Any = SimpleNamespace(
        lang="en", room=SimpleNamespace(settings=SimpleNamespace(theme=None))
    )
    effects: list[Effect] = rounds.standings_effects(session, big_event(2000, played=4))
    place = Place("telegram", str(GROUP), str(GROUP))
    async with Bot(tg.token, base_url=tg.base_url, base_file_url=tg.base_file_url) as bot:
        platform = TelegramPlatform(bot, tg.username, None)  # type: ignore[arg-type]
        for effect in effects:
            if isinstance(effect, Picture):
                await platform.picture(place, effect, await picture_png(effect), None)
            else:
                assert isinstance(effect, File)
                await platform.file(place, effect, None)
    [photo, document] = tg.sent_to(GROUP)
    assert photo["photo"] and photo["caption"].startswith("Copa Náutico · standings after round 4")
    assert photo["caption"].endswith("more: the whole standings are in standings.csv.")
    assert document["document"]["file_name"] == "standings.csv"
    table = tg.file_bytes(document["document"]["file_id"]).decode()
    assert len(list(csv.reader(io.StringIO(table)))) == 2001
