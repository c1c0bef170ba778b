"""Inline keyboards from the service's buttons: two to a row, and a hand's moves in pages
when there are more than fit comfortably on a phone (Mexican Train hands); a link to a
web page ("Watch", "Replay", "Standings") a URL button on a row of its own, last: it
opens the page in the person's browser and never comes back to the bot as a press."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core import Button
from bot.doors.buttons import PAGE as PAGE_KIND
from bot.doors.buttons import TELEGRAM

PAGE = 10  # move buttons on one page of a hand


def keyboard(
    buttons: tuple[Button, ...], link: tuple[str, str] | None = None
) -> InlineKeyboardMarkup | None:
    """The buttons, two to a row, and ``link`` (label, address) under them."""
    keys = [
        InlineKeyboardButton(b.label[:60], callback_data=data)
        for b in buttons
        if (data := TELEGRAM.encode(b))
    ]
    rows = [keys[i : i + 2] for i in range(0, len(keys), 2)]
    if link is not None:
        rows.append([InlineKeyboardButton(link[0][:60], url=link[1])])
    return InlineKeyboardMarkup(rows) if rows else None


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
