"""A board's caption holds 1,024 characters on Telegram: a longer room's story (an
eight-player first round of Mexican Train told whole) goes first as texts of its own, in
whole lines, and nothing of it is cut off (issue 21: moves never dropped)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.doors.telegram.delivery import CAPTION, TEXT, split_caption

LINES = st.lists(st.text(st.characters(blacklist_characters="\n"), max_size=300), max_size=60)


@given(LINES)
def test_every_line_is_sent_once_in_order_within_the_limits(lines: list[str]) -> None:
    text = "\n".join(lines)
    head, caption = split_caption(text)
    assert len(caption) <= CAPTION and all(len(part) <= TEXT for part in head)
    assert "\n".join([*head, caption]) == text
    if len(text) <= CAPTION:
        assert head == [] and caption == text


def test_a_line_longer_than_a_caption_is_told_in_two_parts() -> None:
    head, caption = split_caption("y" * 3000)
    assert len(caption) == CAPTION and caption.startswith("…")
    assert (head[0].rstrip("…") + caption.lstrip("…")) == "y" * 3000
