"""The ``/domino`` slash command: one subcommand per command of BOT.md, with choices for
games and strengths and autocomplete for tiles, in Spanish, English and Portuguese.

Names and descriptions are written in English and translated from the catalogs
(``lang/``) by :class:`CatalogTranslator` when the tree is synced; Discord sends the
English names back whatever the player's language, so nothing needs reading back.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot import texts
from engine.rules import PRESETS
from lang import N_, tr

Run = Callable[[discord.Interaction[Any], str, tuple[str, ...]], Awaitable[None]]
Complete = Callable[[discord.Interaction[Any], str], Coroutine[Any, Any, list[Choice[str]]]]

# Discord's locales and our languages (others see the English names).
LOCALES = {"es-ES": "es", "es-419": "es", "en-US": "en", "en-GB": "en", "pt-BR": "pt"}

# The words of the command as players see them: catalog keys, whose English text is the
# base name Discord sends back.
NAMES = {
    "new": N_("cmd:new"), "join": N_("cmd:join"),
    "leave": N_("cmd:leave"), "add_ai": N_("cmd:add_ai"), "kick": N_("cmd:kick"),
    "begin": N_("cmd:begin"), "hand": N_("cmd:hand"), "play": N_("cmd:play"),
    "draw": N_("cmd:draw"), "pass": N_("cmd:pass"), "end": N_("cmd:end"),
    "next": N_("cmd:next"), "board": N_("cmd:board"), "score": N_("cmd:score"),
    "cancel": N_("cmd:cancel"), "top": N_("cmd:top"), "stats": N_("cmd:stats"),
    "rules": N_("cmd:rules"), "settings": N_("cmd:settings"), "export": N_("cmd:export"),
    "help": N_("cmd:help"), "forget": N_("cmd:forget"),
    "preset": N_("opt:preset"), "target": N_("opt:target"), "seat": N_("opt:seat"),
    "strength": N_("opt:strength"), "fill": N_("opt:fill"), "tile": N_("opt:tile"),
    "on": N_("opt:on"), "period": N_("opt:period"), "player": N_("opt:player"),
    "name": N_("opt:name"), "value": N_("opt:value"), "who": N_("opt:who"),
}  # fmt: skip

ABOUT = {
    "domino": N_("Dominoes in this channel"),
    "end": N_("End your turn (Mexican Train)"),
    "next": N_("Deal the next hand"),
    **texts.COMMAND_MENU,
}
OPTION_ABOUT = {
    "preset": N_("Which game"),
    "target": N_("Points to win (Mexican Train: rounds)"),
    "seat": N_("Seat number"),
    "strength": N_("How well the computer plays"),
    "fill": N_("Fill the empty seats with computer players"),
    "tile": N_("The tile, and where it goes: 6-4 on 6-6"),
    "on": N_("Where it goes: a tile at an open end, or a train"),
    "period": N_("Which period"),
    "player": N_("Whose record"),
    "who": N_("Or their name or @username"),
    "name": N_("Which setting"),
    "value": N_("Its new value"),
}
PERIODS = {"week": N_("this week"), "month": N_("this month"), "all": N_("all time")}
Seat = app_commands.Range[int, 1, 10]
SETTINGS = ("preset", "language", "theme", "turn_timeout", "numerals")


class CatalogTranslator(app_commands.Translator):
    """The command's names, descriptions and choices from the catalogs."""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        lang = LOCALES.get(locale.value)
        if lang is None:
            return None
        key = string.extras.get("key", string.message)
        text = tr(lang, key)
        return text if text != key or "key" not in string.extras else None


def _name(word: str) -> locale_str:
    return locale_str(word, key=NAMES[word])


def _about(text: str) -> locale_str:
    return locale_str(text)


def _presets() -> list[Choice[str]]:
    return [
        Choice(name=locale_str(texts.PRESET_NAMES[p]), value=p)
        for p in PRESETS
        if p in texts.PRESET_NAMES
    ]


def _strengths() -> list[Choice[str]]:
    return [Choice(name=locale_str(s), value=s) for s in texts.STRENGTHS]


def _periods() -> list[Choice[str]]:
    return [Choice(name=locale_str(text), value=value) for value, text in PERIODS.items()]


def _settings() -> list[Choice[str]]:
    return [Choice(name=name, value=name) for name in SETTINGS]


def _words(*values: object) -> tuple[str, ...]:
    """The command's arguments as a player would type them after the command."""
    words: list[str] = []
    for value in values:
        if value is None or value is False:
            continue
        words += str(value).split()
    return tuple(words)


def stats_args(player: discord.abc.Snowflake | None, typed: str | None) -> tuple[str, ...]:
    """What /domino stats asks about: the person picked in the user option, by their id
    (the service reads ``user:<id>``), else the name or @username typed, as typed."""
    if player is not None:
        return (f"user:{player.id}",)
    return _words(typed)


def _subcommand(group: app_commands.Group, word: str) -> Callable[[Any], Any]:
    return group.command(name=_name(word), description=_about(ABOUT[word]))


def _options(*words: str) -> Callable[[Any], Any]:
    """The options' localized names and descriptions."""

    def decorate(function: Any) -> Any:
        function = app_commands.rename(**{w: _name(w) for w in words})(function)
        return app_commands.describe(**{w: _about(OPTION_ABOUT[w]) for w in words})(function)

    return decorate


def domino_command(run: Run, tiles: Complete, places: Complete) -> app_commands.Group:
    """``/domino`` and its subcommands; each one runs ``run(interaction, action, args)``."""
    group = app_commands.Group(name="domino", description=_about(ABOUT["domino"]), guild_only=True)

    @_subcommand(group, "new")
    @_options("preset", "target")
    @app_commands.choices(preset=_presets())
    async def new(
        i: discord.Interaction[Any],
        preset: str | None = None,
        target: app_commands.Range[int, 1, 10000] | None = None,
    ) -> None:
        await run(i, "new", _words(preset, target))

    @_subcommand(group, "join")
    @_options("seat")
    async def join(i: discord.Interaction[Any], seat: Seat | None = None) -> None:
        await run(i, "join", _words(seat))

    @_subcommand(group, "add_ai")
    @_options("strength")
    @app_commands.choices(strength=_strengths())
    async def add_ai(i: discord.Interaction[Any], strength: str | None = None) -> None:
        await run(i, "add_ai", _words(strength))

    @_subcommand(group, "kick")
    @_options("seat")
    async def kick(i: discord.Interaction[Any], seat: Seat) -> None:
        await run(i, "kick", _words(seat))

    @_subcommand(group, "begin")
    @_options("fill")
    async def begin(i: discord.Interaction[Any], fill: bool = False) -> None:
        await run(i, "begin", ("fill",) if fill else ())

    @_subcommand(group, "play")
    @_options("tile", "on")
    @app_commands.autocomplete(tile=tiles, on=places)
    async def play(
        i: discord.Interaction[Any],
        tile: app_commands.Range[str, 1, 60],
        on: app_commands.Range[str, 1, 30] | None = None,
    ) -> None:
        await run(i, "play", _words(tile, f"on {on}" if on else None))

    @_subcommand(group, "top")
    @_options("preset", "period")
    @app_commands.choices(preset=_presets(), period=_periods())
    async def top(
        i: discord.Interaction[Any], preset: str | None = None, period: str | None = None
    ) -> None:
        await run(i, "top", _words(preset, period))

    @_subcommand(group, "stats")
    @_options("player", "who")
    async def stats(
        i: discord.Interaction[Any],
        player: discord.User | None = None,
        who: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        await run(i, "stats", stats_args(player, who))

    @_subcommand(group, "rules")
    @_options("preset")
    @app_commands.choices(preset=_presets())
    async def rules(i: discord.Interaction[Any], preset: str | None = None) -> None:
        await run(i, "rules", _words(preset))

    @_subcommand(group, "settings")
    @_options("name", "value")
    @app_commands.choices(name=_settings())
    async def settings(
        i: discord.Interaction[Any],
        name: str | None = None,
        value: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        await run(i, "settings", _words(name, value))

    for word in (
        "leave", "hand", "draw", "pass", "end", "next", "board", "score", "cancel",
        "export", "help", "forget",
    ):  # fmt: skip
        group.add_command(_plain(word, run))
    return group


def _plain(word: str, run: Run) -> app_commands.Command[Any, Any, None]:
    """A subcommand without options."""

    async def callback(interaction: discord.Interaction[Any]) -> None:
        await run(interaction, word, ())

    about = _about(ABOUT[word])
    return app_commands.Command(name=_name(word), description=about, callback=callback)
