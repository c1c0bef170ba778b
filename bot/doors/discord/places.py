"""Discord's channels and members as the service's places and persons.

A text channel or a thread is a room; the server is its community.
"""

from __future__ import annotations

from typing import Any

import discord

from bot import core
from bot.core import Person, Place

PLATFORM = "discord"
NAME = 100  # the longest display name kept (Discord's own limit is 32; data may say more)
LOCALE = 8  # the longest locale kept (storage's column)


def place_of(interaction: discord.Interaction[Any]) -> Place | None:
    """The room of an interaction in a server; None in a direct message."""
    if interaction.guild_id is None or interaction.channel_id is None:
        return None
    guild = interaction.guild
    locale = interaction.guild_locale
    return Place(
        PLATFORM,
        str(interaction.guild_id),
        str(interaction.channel_id),
        guild.name if guild is not None else None,
        locale.value if locale is not None else None,
    )


def room_place(guild_id: int, channel_id: int) -> Place:
    return Place(PLATFORM, str(guild_id), str(channel_id))


def person_of(interaction: discord.Interaction[Any], command: str = "") -> Person:
    """Who acted, running ``command``; for a command that asks (``core.asks_admin``),
    whether they administer the room: Manage Server, or Manage Channels there. A command
    of the whole community (``core.community_admins``: the tournament) asks Manage Server
    alone, which a channel's overwrites cannot give."""
    user = interaction.user
    admin = False
    if interaction.guild_id is not None and core.asks_admin(command):
        permissions = interaction.permissions
        admin = permissions.manage_guild or (
            permissions.manage_channels and not core.community_admins(command)
        )
    return Person(
        str(user.id),
        (user.display_name or str(user.id))[:NAME],
        interaction.locale.value[:LOCALE],
        admin,
        handle=user.name[:NAME] or None,
    )
