"""Buttons and select menus for Discord messages, from the service's buttons.

A message's components are sent in a view that is stopped before it leaves: nothing is
kept in memory per message. Presses come back through two dynamic items whose templates
match every custom id this bot sends (``bot.doors.buttons.DISCORD``), so a button keeps working
after a restart, in any process of the bot. A button's style is its command's
(``core.style_of``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot import core
from bot.core import Button, Style
from bot.doors.buttons import COMMAND, DISCORD, MOVE, PAGE, SELECT

if TYPE_CHECKING:
    from bot.doors.discord.app import DiscordBot

ROW = 5  # buttons in a row
BUTTONS = 20  # a hand's moves shown as buttons; more go into select menus
OPTIONS = 25  # options in one select menu
SELECTS = 4  # select menus on a page (the fifth row holds the page buttons)
LABEL = 80  # Discord's limit on a button's label
OPTION_LABEL = 100
STYLES = {
    Style.PRIMARY: discord.ButtonStyle.primary,
    Style.SECONDARY: discord.ButtonStyle.secondary,
    Style.DANGER: discord.ButtonStyle.danger,
}
# what the dynamic items answer to: buttons (moves, commands, pages) and select menus of moves
BUTTON_TEMPLATE = DISCORD.template(MOVE + COMMAND + PAGE)
SELECT_TEMPLATE = DISCORD.template(SELECT)


def is_ours(custom_id: str) -> bool:
    """Whether one of the dynamic items answers to ``custom_id``."""
    return any(re.fullmatch(t, custom_id) for t in (BUTTON_TEMPLATE, SELECT_TEMPLATE))


def _sealed(view: discord.ui.View) -> discord.ui.View:
    # A view left running is kept by discord.py until it times out, and its removal
    # unregisters the dynamic items' templates: stopped, it only carries the components.
    view.stop()
    return view


def buttons_view(
    buttons: tuple[Button, ...], link: tuple[str, str] | None = None
) -> discord.ui.View | None:
    """Up to 25 buttons, five to a row, and ``link`` (label, address) a link button after
    them (it opens the page in the browser: no custom id, never an interaction); None
    when there are none (a view of none removes a message's components)."""
    keys = [(b, data) for b in buttons if (data := DISCORD.encode(b))][
        : ROW * 5 - (link is not None)
    ]
    if not keys and link is None:
        return None
    view = discord.ui.View(timeout=None)
    for i, (button, data) in enumerate(keys):
        view.add_item(
            discord.ui.Button(
                label=button.label[:LABEL],
                custom_id=data,
                style=STYLES[core.style_of(button.command)],
                row=i // ROW,
            )
        )
    if link is not None:
        label, url = link
        view.add_item(discord.ui.Button(label=label[:LABEL], url=url, row=len(keys) // ROW))
    return _sealed(view)


def hand_view(
    buttons: tuple[Button, ...], game_id: int, move_number: int, page: int = 0
) -> discord.ui.View | None:
    """A hand's moves: buttons when they fit, else select menus of 25, in pages of 100."""
    if len(buttons) <= BUTTONS:
        return buttons_view(buttons)
    per_page = OPTIONS * SELECTS
    pages = -(-len(buttons) // per_page)
    page = min(max(page, 0), pages - 1)
    shown = buttons[page * per_page : (page + 1) * per_page]
    view = discord.ui.View(timeout=None)
    for row, start in enumerate(range(0, len(shown), OPTIONS)):
        chunk = shown[start : start + OPTIONS]
        index = page * SELECTS + row
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=DISCORD.encode_numbered(SELECT, game_id, move_number, index),
            placeholder=f"{chunk[0].label[:40]} …"[:150],
            options=[
                discord.SelectOption(label=b.label[:OPTION_LABEL], value=DISCORD.option(b))
                for b in chunk
            ],
            row=row,
        )
        view.add_item(select)
    if pages > 1:
        for target in range(pages):
            view.add_item(
                discord.ui.Button(
                    label=f"{target + 1}/{pages}",
                    custom_id=DISCORD.encode_numbered(PAGE, game_id, move_number, target),
                    style=discord.ButtonStyle.primary
                    if target == page
                    else discord.ButtonStyle.secondary,
                    row=SELECTS,
                    disabled=target == page,
                )
            )
    return _sealed(view)


def _bot(interaction: discord.Interaction[Any]) -> DiscordBot:
    bot: DiscordBot = interaction.client.domino
    return bot


def data_of(interaction: discord.Interaction[Any]) -> dict[str, Any]:
    """The interaction's raw data (discord.py types it as a union of typed dicts)."""
    return dict(interaction.data or {})


class PressedButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    """Any button this bot sent: a command, or a page of a hand's moves."""

    def __init__(self, item: discord.ui.Button[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> PressedButton:
        return cls(discord.ui.Button(custom_id=getattr(item, "custom_id", None)))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _bot(interaction).on_component(interaction, self.item.custom_id or "", ())


class PickedMove(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """A hand's select menu of moves."""

    def __init__(self, item: discord.ui.Select[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any
    ) -> PickedMove:
        return cls(discord.ui.Select(custom_id=getattr(item, "custom_id", "")))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = tuple(str(v) for v in data_of(interaction).get("values", ()))
        await _bot(interaction).on_component(interaction, self.item.custom_id, values)


DYNAMIC_ITEMS = (PressedButton, PickedMove)
