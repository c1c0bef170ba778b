"""The names a person may take where a door lets them choose one (the console's ``/as``,
``CONSOLE_NAME``): one line of printable text up to 40 characters, not a command, and not
a name the bot gives seats itself in any of its languages, nor one that reads like it: a
computer player's ("Computer 2 (easy)", "Computadora 2 (fácil)", "computador3") or an
empty seat's ("Seat 3", "Asiento 3"). Taking one would pass a person off as a computer.

>>> name_refusal("Ana María") is None
True
>>> name_refusal("COMPUTADORA 2 (fácil)") == RESERVED_NAME
True
>>> name_refusal("Computadoras del barrio") is None
True
"""

from __future__ import annotations

import re
import unicodedata

from bot.doors import texts
from lang import LANGUAGES, tr

LONGEST = 40  # characters: what a seat's label holds in a picture (bot/core/names.py)
RESERVED_NAME = texts.RESERVED_NAME
NOT_A_NAME = texts.NOT_A_NAME


def name_refusal(name: str) -> str | None:
    """Why ``name`` (spaces already collapsed) cannot be a person's: a catalog id with a
    ``{name}`` to fill; None when it can."""
    if (
        not name
        or len(name) > LONGEST
        or name.startswith(("/", "@", "user:"))
        or any(not c.isprintable() for c in name)
    ):
        return NOT_A_NAME
    if any(pattern.match(folded(name)) for pattern in _reserved()):
        return RESERVED_NAME
    return None


def folded(text: str) -> str:
    """``text`` as compared: caseless, without accents."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _reserved() -> list[re.Pattern[str]]:
    """What the bot's own names of seats begin with, in every language: a computer's word
    followed by nothing, a number, a space or a bracket; an empty seat's word and a number."""
    found = []
    for lang in LANGUAGES:
        computer = re.escape(folded(tr(lang, "Computer")))
        seat = re.escape(folded(tr(lang, "Seat {n}", n="")).strip())
        found.append(re.compile(rf"{computer}(?:$|[\s\d(#_.-])"))
        found.append(re.compile(rf"{seat}\s*#?\d+$"))
    return found
