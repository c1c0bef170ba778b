"""The one button codec: every kind of button reads back as it was sent on every platform
(a move's, whole in RECORD.md notation), nothing longer than the platform keeps is ever
sent, and anything else (forged, cut, another platform's, garbage) reads as nothing."""

from __future__ import annotations

import doctest

from hypothesis import given
from hypothesis import strategies as st

import bot.doors.buttons
from bot.core.model import Button
from bot.doors.buttons import COMMAND, DISCORD, MOVE, PAGE, SELECT, TELEGRAM, Codec, Pressed

CODECS = (TELEGRAM, DISCORD)
codecs = st.sampled_from(CODECS)
words = st.from_regex(r"[a-z_]{1,8}", fullmatch=True)
arguments = st.from_regex(r"[a-z0-9_:-]{1,12}", fullmatch=True)
commands = st.builds(lambda w, a: " ".join([w, *a]), words, st.lists(arguments, max_size=4))
numbers = st.none() | st.integers(0, 10**15 - 1)


def test_the_documented_examples_hold() -> None:
    assert doctest.testmod(bot.doors.buttons).failed == 0


@given(codecs, commands, numbers, numbers)
def test_a_command_button_reads_back_or_is_left_out(
    codec: Codec, command: str, game: int | None, move: int | None
) -> None:
    data = codec.encode(Button("label", command, game, move))
    fields = ("c", "-" if game is None else str(game), "-" if move is None else str(move))
    whole = codec.prefix + codec.separator.join((*fields, command))
    if not codec.fits(whole):  # too long for this platform: the button is not offered
        assert data is None
        return
    assert data == whole
    assert codec.decode(data) == Pressed(COMMAND, game, move, command)


@given(codecs, st.integers(0, 10**12), st.integers(0, 10**6), st.integers(0, 999))
def test_a_page_or_select_reads_back(codec: Codec, game: int, move: int, index: int) -> None:
    for kind in (PAGE, SELECT):
        if kind in codec.kinds:
            data = codec.encode_numbered(kind, game, move, index)
            assert codec.fits(data)
            assert codec.decode(data) == Pressed(kind, game, move, index=index)


def test_todays_formats_are_kept() -> None:
    button = Button("6-4", "play 6-4 on train:2", 12, 34)
    assert TELEGRAM.encode(button) == "c|12|34|play 6-4 on train:2"
    assert DISCORD.encode(button) == "dom:c:12:34:play 6-4 on train:2"
    assert TELEGRAM.encode(Button("Join", "join", 7)) == "c|7|-|join"
    assert DISCORD.encode(Button("Join", "join", 7)) == "dom:c:7:-:join"
    assert TELEGRAM.encode_numbered(PAGE, 5, 9, 1) == "p|5|9|1"
    assert DISCORD.encode_numbered(SELECT, 5, 9, 0) == "dom:s:5:9:0"


def test_the_size_limit_is_the_platforms() -> None:
    command = "play " + "6-4 " * 13 + "on 6-6"  # 63 characters
    assert TELEGRAM.encode(Button("x", command, 1, 1)) is None  # over 64 bytes with the rest
    assert DISCORD.decode(DISCORD.encode(Button("x", command, 1, 1))) is not None
    assert DISCORD.encode(Button("x", "play " + "6-4 " * 30, 1, 1)) is None
    # Telegram counts bytes: a character of two bytes counts twice
    assert not TELEGRAM.fits("c|1|1|" + "é" * 30) and DISCORD.fits("dom:c:1:1:" + "é" * 30)


def test_a_command_that_would_not_read_back_is_never_sent() -> None:
    for command in ("", "Play 6-4", "play 6-4; drop", "play  6-4", " hand", "hand\n", "jóin"):
        assert TELEGRAM.encode(Button("x", command)) is None, command
        assert DISCORD.encode(Button("x", command)) is None, command


def test_forged_cut_and_foreign_data_read_as_nothing() -> None:
    for data in ["", None, "c|1|2|", "c|x|2|play 6-4", "c|1|2|play 6-4; drop", "p|1|2|x",
                 "p|-|2|1", "z|1|2|hand", "c|1|2", "c|" + "9" * 40 + "|1|hand", "s|1|2|0",
                 "p|1|2|1000", "c|²|2|hand", "dom:c:1:2:hand", "c|1|2|" + "a" * 60]:  # fmt: skip
        assert TELEGRAM.decode(data) is None, data
    for data in ["dom:", "dom:c:1:2:", "dom:x:1:2:hand", "c|1|2|hand", "dom:c:1:2:HAND",
                 "dom:p:-:2:1", "dom:s:1:2:x", "dom:c:1:2:" + "a" * 91,
                 "dom:cc:1:2:3"]:  # fmt: skip
        assert DISCORD.decode(data) is None, data


@given(codecs, st.text(max_size=120))
def test_garbage_reads_as_nothing_or_a_plain_press(codec: Codec, data: str) -> None:
    pressed = codec.decode(data)  # never raises
    if pressed is not None:
        assert data.startswith(codec.prefix) and pressed.kind in codec.kinds
        assert all(c.isascii() and (c.isalnum() or c in " -_:") for c in pressed.command)
        # and the bot could have sent it
        if pressed.kind == COMMAND:
            again = Button("x", pressed.command, pressed.game_id, pressed.move_number)
            assert codec.decode(codec.encode(again)) == pressed
        if pressed.kind == MOVE:
            again = Button("x", "play", pressed.game_id, pressed.move_number, pressed.move)
            assert codec.decode(codec.encode(again)) == pressed


def test_the_templates_match_what_is_sent() -> None:
    import re

    sent = DISCORD.encode(Button("x", "play 6-4 on 6-6", 1, 2))
    assert sent is not None and re.fullmatch(DISCORD.template("cp"), sent)
    assert re.fullmatch(DISCORD.template("s"), DISCORD.encode_numbered(SELECT, 1, 2, 0))
    assert not re.fullmatch(DISCORD.template("cp"), "other:c:1:2:hand")
    chose = Pressed(SELECT, 1, 2, index=0)
    assert DISCORD.chosen(chose, "play 6-4 on 6-6") == Pressed(COMMAND, 1, 2, "play 6-4 on 6-6")
    assert DISCORD.chosen(chose, "drop;") is None
    moved = DISCORD.encode(Button("x", "play 6-4 on 6-6", 1, 2, "0: 6-4 on 6-6"))
    assert moved is not None and re.fullmatch(DISCORD.template("mcp"), moved)


# every move the engine writes: a tile, on a tile (a side of a double), on a train
numbers_on_tiles = st.integers(0, 18)
tiles = st.builds(lambda a, b: f"{a}-{b}", numbers_on_tiles, numbers_on_tiles)
places = (
    st.none()
    | tiles
    | st.builds(lambda t, s: f"{t} {s}", tiles, st.sampled_from(["half", "flank"]))
    | st.builds(lambda n: f"train:{n}", st.integers(0, 9))
    | st.just("mexican")
)
plays = st.builds(lambda t, on: t if on is None else f"{t} on {on}", tiles, places)
moves = st.builds(
    lambda seat, what: f"{seat}: {what}",
    st.integers(0, 9),
    plays | st.sampled_from(["pass", "draw", "end"]),
)


@given(codecs, moves, st.integers(0, 10**12), st.integers(0, 10**6))
def test_a_move_button_carries_the_move_whole(
    codec: Codec, move: str, game: int, number: int
) -> None:
    """The move in RECORD.md notation, read back as itself for the core to read once; on
    a select menu too (Discord)."""
    data = codec.encode(Button("label", "play whatever it says", game, number, move))
    assert data is not None and codec.fits(data)
    assert codec.decode(data) == Pressed(MOVE, game, number, "play", move=move)
    if SELECT in codec.kinds:
        chose = Pressed(SELECT, game, number, index=0)
        assert codec.chosen(chose, codec.option(Button("x", "y", game, number, move))) == (
            Pressed(MOVE, game, number, "play", move=move)
        )


def test_a_move_that_is_not_one_is_never_sent_nor_read() -> None:
    for move in ("", "6-4", "1:6-4", "1: 6-4 on", "1: 6-4 on 6-6 left", "1: play 6-4", "x: draw",
                 "1: 6-4; drop", "1: 6-4 on train:x", "123: pass"):  # fmt: skip
        assert TELEGRAM.encode(Button("x", "play 6-4", 1, 2, move)) is None, move
        assert TELEGRAM.decode(f"m|1|2|{move}") is None, move
        assert DISCORD.decode(f"dom:m:1:2:{move}") is None, move
    # a move is of a game, at a moment: a press that names neither is nobody's
    assert TELEGRAM.decode("m|-|2|1: pass") is None and TELEGRAM.decode("m|1|-|1: pass") is None
