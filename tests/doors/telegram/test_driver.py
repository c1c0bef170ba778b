"""The leak detector of the end-to-end tests finds a leak when there is one."""

from __future__ import annotations

from tests.doors.telegram.driver import GROUP, leaked_tiles
from tests.doors.telegram.fake_api import Call, FakeTelegram

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


def photo(chat_id: int, caption: str, name: str, **params) -> Call:
    sent = call("sendPhoto", chat_id=chat_id, caption=caption, **params)
    sent.file_names = {"photo": name}
    return sent


def test_a_hand_from_before_a_move_arriving_after_it_is_no_leak() -> None:
    tg = FakeTelegram()
    tg.calls += [
        photo(GROUP, "Hand 1.", "board-1-0.png", reply_markup=PLAYING),
        photo(GROUP, "Ana plays 6-4", "board-1-1.png", reply_markup=PLAYING),
        photo(101, "Your tiles: 6-4 5-5", "hand-1-0.png"),  # late: from before the move
        photo(101, "Your tiles: 5-5", "hand-1-1.png"),
    ]
    assert leaked_tiles(tg) == []
    tg.calls.insert(2, call("sendMessage", chat_id=GROUP, text="Ana still holds 5-5"))
    assert leaked_tiles(tg) == [("Ana still holds 5-5", "5-5")]
