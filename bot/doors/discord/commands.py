"""The ``/domino`` slash command, derived from the command registry (bot/core/registry.py): one
subcommand per public command, each with its options (their kinds, bounds, lengths, and
choices as the registry gives them when the tree is built), in Spanish, English and
Portuguese.

discord.py reads a command's options from its callback's signature; each subcommand's
callback is one generic function given the signature its options describe
(``__signature__``), then named, described, offered choices and autocomplete through
app_commands' own decorators. Names and descriptions are written in English and
translated from the catalogs (``lang/``) by :class:`CatalogTranslator` when the tree is
synced; Discord sends the English names back whatever the player's language, so nothing
needs reading back.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot import core
from bot.core import Kind, Option, Spec
from bot.doors.discord.autocomplete import CHOICES, LENGTH
from lang import N_, tr

Run = Callable[[discord.Interaction[Any], str, tuple[str, ...]], Awaitable[None]]
# what to offer for ``option`` (one with ``complete``) as the person types ``current``
Complete = Callable[[discord.Interaction[Any], Option, str], Coroutine[Any, Any, list[Choice[str]]]]

# Discord's locales and our languages (others see the English names).
LOCALES = {"es-ES": "es", "es-419": "es", "en-US": "en", "en-GB": "en", "pt-BR": "pt"}
ABOUT = N_("Dominoes in this channel")


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


def domino_command(run: Run, complete: Complete) -> app_commands.Group:
    """``/domino`` and a subcommand for each public command of the registry; each one runs
    ``run(interaction, command, args)`` with its options as the words a player would type
    after the command."""
    group = app_commands.Group(name="domino", description=locale_str(ABOUT), guild_only=True)
    # Discord takes at most 25 subcommands in a group (discord.py refuses the 26th): the
    # registry's public commands are 24 in it (issue 20 added rule and open); a command
    # that stands alone (/tournament) is a command of its own
    for spec in core.public_commands():
        if not spec.alone:
            group.add_command(subcommand(spec, run, complete))
    return group


def alone_commands(run: Run, complete: Complete) -> list[app_commands.Command[Any, Any, None]]:
    """The registry's commands that stand alone on Discord (``/tournament``)."""
    found = []
    for spec in core.public_commands():
        if spec.alone:
            command = subcommand(spec, run, complete)
            command.guild_only = True
            found.append(command)
    return found


def subcommand(spec: Spec, run: Run, complete: Complete) -> app_commands.Command[Any, Any, None]:
    async def callback(interaction: discord.Interaction[Any], **values: Any) -> None:
        await run(interaction, spec.name, args_of(spec, values))

    first = inspect.Parameter(
        "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
    )
    # keyword-only: a required option may follow an optional one, as in the registry
    callback.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [first, *(_parameter(option) for option in spec.options)]
    )
    options = spec.options
    if options:
        app_commands.rename(**{o.name: locale_str(o.name, key=o.word) for o in options})(callback)
        app_commands.describe(**{o.name: locale_str(o.about) for o in options})(callback)
    listed = [o for o in options if o.choices is not None]
    offered = {o.name: _choices(o) for o in listed if len(_choices(o)) <= CHOICES}
    if offered:
        app_commands.choices(**offered)(callback)
    completed = {o.name: _completer(o, complete) for o in options if o.complete}
    # more choices than Discord lists (the tournament's actions): offered as one types
    completed |= {o.name: _from_list(o) for o in listed if o.name not in offered}
    if completed:
        app_commands.autocomplete(**completed)(callback)
    return app_commands.Command(
        name=locale_str(spec.name, key=spec.word),
        description=locale_str(spec.about),
        callback=callback,
    )


def _parameter(option: Option) -> inspect.Parameter:
    """The callback's parameter for ``option``: its type says the option's kind and
    bounds; a default makes it optional."""
    annotation: Any
    default: Any = None
    if option.kind is Kind.NUMBER:
        annotation = app_commands.Range[int, option.low, option.high]
    elif option.kind is Kind.FLAG:
        annotation, default = bool, False
    elif option.kind is Kind.PERSON:
        annotation = discord.User
    elif option.length is not None:
        annotation = app_commands.Range[str, 1, option.length]
    else:
        annotation = str
    if option.required:
        default = inspect.Parameter.empty
    return inspect.Parameter(
        option.name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default
    )


def _choices(option: Option) -> list[Choice[str]]:
    assert option.choices is not None
    return [Choice(name=locale_str(c.label), value=c.value) for c in option.choices()]


def _from_list(
    option: Option,
) -> Callable[[discord.Interaction[Any], str], Coroutine[Any, Any, list[Choice[str]]]]:
    """The option's choices that match what the person typed (by name or by its words in
    their language), at most as many as Discord shows; the service refuses anything else
    typed, as it does in the other doors."""

    async def offered(interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        lang = LOCALES.get(interaction.locale.value, "en")
        typed = current.strip().lower()
        assert option.choices is not None
        found = []
        for choice in option.choices():
            label = tr(lang, choice.label)
            if typed in choice.value.lower() or typed in label.lower():
                found.append(Choice(name=f"{choice.value}: {label}"[:LENGTH], value=choice.value))
        return found[:CHOICES]

    return offered


def _completer(
    option: Option, complete: Complete
) -> Callable[[discord.Interaction[Any], str], Coroutine[Any, Any, list[Choice[str]]]]:
    async def offered(interaction: discord.Interaction[Any], current: str) -> list[Choice[str]]:
        return await complete(interaction, option, current)

    return offered


def args_of(spec: Spec, values: Mapping[str, Any]) -> tuple[str, ...]:
    """The command's arguments as a player would type them after the command: each option
    given, in the registry's order (a flag as its name, a value after its prefix: "on
    6-6"). A person picked (``user:<id>``, which the service reads) is the whole answer:
    the other options are other ways of naming them."""
    for option in spec.options:
        person = values.get(option.name)
        if option.kind is Kind.PERSON and isinstance(person, discord.abc.Snowflake):
            return (f"user:{person.id}",)
    words: list[str] = []
    for option in spec.options:
        value = values.get(option.name)
        if value is None or value is False:
            continue
        if option.kind is Kind.FLAG:
            words.append(option.name)
            continue
        if option.prefix:
            words.append(option.prefix)
        words += str(value).split()
    return tuple(words)
