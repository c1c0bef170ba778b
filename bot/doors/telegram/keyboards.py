"""Inline keyboards from the service's buttons: two to a row, and a hand's moves in pages
when there are more than fit comfortably on a phone (Mexican Train hands)."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core import Button
from bot.doors.buttons import PAGE as PAGE_KIND
from bot.doors.buttons import TELEGRAM

PAGE = 10  # move buttons on one page of a hand


def keyboard(buttons: tuple[Button, ...]) -> InlineKeyboardMarkup | None:
    keys = [
        InlineKeyboardButton(b.label[:60], callback_data=data)
        for b in buttons
        if (data := TELEGRAM.encode(b))
    ]
    if not keys:
        return None
    return InlineKeyboardMarkup([keys[i : i + 2] for i in range(0, len(keys), 2)])


def hand_keyboard(
    buttons: tuple[Button, ...], game_id: int, move_number: int, page: int = 0
) -> InlineKeyboardMarkup | None:
    """Page ``page`` of a hand's move buttons, with arrows to the others."""
    pages = max(1, -(-len(buttons) // PAGE))
    page = min(max(page, 0), pages - 1)
    shown = buttons[page * PAGE : (page + 1) * PAGE]
    markup = keyboard(shown)
    if pages == 1:
        return markup
    rows = list(markup.inline_keyboard) if markup else []
    arrows = []
    if page > 0:
        arrows.append(
            InlineKeyboardButton("◀", callback_data=_page(game_id, move_number, page - 1))
        )
    arrows.append(
        InlineKeyboardButton(f"{page + 1}/{pages}", callback_data=_page(game_id, move_number, page))
    )
    if page < pages - 1:
        arrows.append(
            InlineKeyboardButton("▶", callback_data=_page(game_id, move_number, page + 1))
        )
    return InlineKeyboardMarkup([*rows, arrows])


def _page(game_id: int, move_number: int, page: int) -> str:
    return TELEGRAM.encode_numbered(PAGE_KIND, game_id, move_number, page)
