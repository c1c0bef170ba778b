"""What a Telegram button carries: it fits in 64 bytes, reads back as it was sent, and
anything else (forged, cut, garbage) reads as nothing."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.core.model import Button
from bot.doors.buttons import COMMAND, TELEGRAM, Pressed
from bot.doors.buttons import PAGE as TURN
from bot.doors.telegram.keyboards import PAGE, hand_keyboard, keyboard

LIMIT = TELEGRAM.limit
encode, decode = TELEGRAM.encode, TELEGRAM.decode


def encode_page(game_id: int, move_number: int, page: int) -> str:
    return TELEGRAM.encode_numbered(TURN, game_id, move_number, page)


COMMANDS = [
    "play 6-4 on 6-6", "play 12-11 on train:7", "play 5-5 on mexican", "draw", "pass",
    "join", "add_ai normal", "begin fill", "next", "hand", "forget confirm",
]  # fmt: skip


@given(
    st.sampled_from(COMMANDS),
    st.none() | st.integers(0, 10**11),
    st.none() | st.integers(0, 10**5),
)
def test_a_button_reads_back_as_sent(command: str, game: int | None, move: int | None) -> None:
    data = encode(Button("label", command, game, move))
    assert data is not None and len(data.encode()) <= LIMIT
    assert decode(data) == Pressed(COMMAND, game, move, command)


@given(st.text(max_size=80))
def test_anything_else_reads_as_nothing_or_a_plain_press(data: str) -> None:
    pressed = decode(data)  # never raises
    if pressed is not None:
        assert data.startswith(("c|", "p|"))
        assert all(c.isalnum() or c in " -_:" for c in pressed.command)


def test_forged_and_cut_data_read_as_nothing() -> None:
    for data in ["", "c|1|2|", "c|x|2|play 6-4", "c|1|2|play 6-4; drop", "p|1|2|x", "p|-|2|1",
                 "z|1|2|hand", "c|1|2", "c|" + "9" * 40 + "|1|hand", None]:  # fmt: skip
        assert decode(data) is None, data


def test_a_button_too_long_is_left_out() -> None:
    long = Button("x", "play " + "6-4 on 6-6 " * 8, 1, 1)
    assert encode(long) is None
    assert keyboard((long,)) is None


def test_a_long_hand_comes_in_pages() -> None:
    buttons = tuple(Button(f"m{i}", f"play {i}-{i}", 5, 9) for i in range(PAGE * 2 + 3))
    first = hand_keyboard(buttons, 5, 9, 0).inline_keyboard
    last = hand_keyboard(buttons, 5, 9, 2).inline_keyboard
    assert sum(len(row) for row in first[:-1]) == PAGE and [b.text for b in first[-1]] == [
        "1/3",
        "▶",
    ]
    assert sum(len(row) for row in last[:-1]) == 3 and [b.text for b in last[-1]] == ["◀", "3/3"]
    assert decode(first[-1][-1].callback_data) == Pressed(TURN, 5, 9, index=1)
    assert decode(encode_page(5, 9, 1)) == Pressed(TURN, 5, 9, index=1)
