"""What the options of ``/domino play`` offer as the person types: their legal moves now,
as the service offers them (``GameService.offers``: a look at the game, no command run,
no room locked), matched against what they typed.

``tile`` offers each tile they may play, with where it goes when it has a choice ("6-4
on 6-6", as they would type it); ``on`` offers where the tile already chosen may go.

The house rules of ``/domino new``, ``/domino settings options`` and ``/domino rule``
offer the options of the preset and their values, as the engine takes them
(``GameService.rule_offers``: the service reads what the person typed against the
rules in view).
"""

from __future__ import annotations

from discord.app_commands import Choice

from bot.core import Offer, Option

CHOICES = 25  # Discord's limit on autocomplete choices
LENGTH = 100  # Discord's limit on a choice's name and value


def offered(option: Option, offers: tuple[Offer, ...], typed: str, tile: str) -> list[Choice[str]]:
    """The choices for ``option`` (its ``complete``: "tile" or "on") when ``typed`` is in
    it and the ``tile`` option holds ``tile``."""
    typed = typed.strip().lower()
    plays = [o for o in offers if _is_play(o)]
    found: list[Choice[str]] = []
    if option.complete == "tile":
        for offer in plays:
            value = tile_value(offer)
            if typed in value or typed in offer.label.lower():
                found.append(Choice(name=offer.label[:LENGTH], value=value[:LENGTH]))
    elif option.complete == "on":
        tile = tile.strip()
        for offer in plays:
            where = offer.on or ""
            chosen = not tile or tile in (offer.tile, tile_value(offer))
            new = all(c.value != where for c in found)
            if where and chosen and typed in where and new:
                found.append(Choice(name=where[:LENGTH], value=where[:LENGTH]))
    return found[:CHOICES]


def tile_value(offer: Offer) -> str:
    """What the ``tile`` option holds for ``offer``: the tile, and where when it has a
    choice."""
    return offer.tile if offer.on is None else f"{offer.tile} on {offer.on}"


def _is_play(offer: Offer) -> bool:
    """A tile to play (the person's offers also hold drawing, passing, ending the turn)."""
    return offer.command.split(" ", 1)[0] == "play"


# ----- house rules --------------------------------------------------------------------

HOUSE_RULES = ("options", "option", "value")  # the ``complete`` kinds of house rules


def rule_choices(offers: tuple[tuple[str, str], ...]) -> list[Choice[str]]:
    """The house rules the service offers (``GameService.rule_offers``: label, value) as
    Discord's choices."""
    return [Choice(name=label[:LENGTH], value=value) for label, value in offers][:CHOICES]
