"""People's names as the bot shows them: in pictures, board captions and messages.

>>> clean_name("Ana\\nMaría\\t\\u202e ", "Seat 1")
'Ana María'
>>> clean_name("\\x00\\u200b", "Seat 1")
'Seat 1'
"""

from __future__ import annotations

import re

LONGEST = 40  # characters: a seat's label in a picture holds about this many


def clean_name(name: str | None, fallback: str) -> str:
    """``name`` on one line with no control or invisible formatting characters (a
    newline in a name made every picture of its game fail), spaces collapsed, at most
    LONGEST characters; ``fallback`` when nothing is left."""
    text = "".join(c if c.isprintable() else " " for c in name or "")
    return " ".join(text.split())[:LONGEST].strip() or fallback


# a member picked from Discord's @ list arrives as text: "<@123>" (or "<@!123>")
MENTION = re.compile(r"<@!?(\d{1,20})>")


def searched(text: str) -> str:
    """What storage's people search is asked for ``text``: a typed Discord mention as
    ``user:<id>``, anything else as typed (an @username, a name, ``user:<id>``)."""
    mention = MENTION.fullmatch(text.strip())
    return f"user:{mention.group(1)}" if mention else text
