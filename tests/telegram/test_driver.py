"""The leak detector of the end-to-end tests finds a leak when there is one."""

from __future__ import annotations

from tests.telegram.driver import GROUP, leaked_tiles
from tests.telegram.fake_api import Call, FakeTelegram

OK = {"ok": True, "result": {}}
PLAYING = {"inline_keyboard": [[{"text": "My hand", "callback_data": "c|1|-|hand"}]]}


def call(method: str, **params) -> Call:
    return Call(method, params, {}, 0.0, OK)


def test_a_tile_named_in_the_group_while_still_in_a_hand_is_a_leak() -> None:
    tg = FakeTelegram()
    tg.calls += [
        call("sendPhoto", chat_id=GROUP, caption="Hand 1.", reply_markup=PLAYING),
        call("sendPhoto", chat_id=101, caption="Your tiles: 6-4 5-5"),
        call(
            "editMessageMedia",
            chat_id=GROUP,
            media={"caption": "Ana plays 6-4"},
            reply_markup=PLAYING,
        ),
        call("sendMessage", chat_id=GROUP, text="Ana still holds 5-5"),
        call("sendPhoto", chat_id=101, caption="Your tiles: 5-5"),
    ]
    assert leaked_tiles(tg) == [("Ana still holds 5-5", "5-5")]  # 6-4 was played: public
    tg.calls.insert(3, call("editMessageMedia", chat_id=GROUP, media={}, reply_markup=None))
    assert leaked_tiles(tg) == []  # the hand was over: every tile is shown then
