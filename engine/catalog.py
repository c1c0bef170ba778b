"""The marker for catalog ids written in the engine (preset titles, descriptions, options).

The engine translates nothing: it names a text by its English id, marked with :func:`N_`
so that ``python -m lang update`` finds it, and the bot looks the id up in the player's
language.
"""

from __future__ import annotations


def N_(message: str) -> str:
    """Marks ``message`` as a catalog id; returns it unchanged."""
    return message
