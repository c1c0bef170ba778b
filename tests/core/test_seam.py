"""The seam between the core and its doors stays narrow (issue 30, 2): commands in,
effects out, plus a few read-only questions; the web pages' questions are a separate
read-only object, the one thing of the core the web door is given."""

from __future__ import annotations

import inspect

from bot.core import GameService, WebPages


def _public(cls: type) -> set[str]:
    return {
        name
        for name, member in inspect.getmembers(cls)
        if not name.startswith("_") and callable(member)
    }


def test_the_service_keeps_at_most_ten_public_methods() -> None:
    found = _public(GameService)
    assert len(found) <= 10, sorted(found)
    assert "handle" in found


def test_the_web_pages_only_read() -> None:
    """Nothing of WebPages takes a command or sends an effect: its methods are a key's
    page, a page's key, or when a page changes (watch)."""
    assert _public(WebPages) == {
        *("key", "key_of", "game", "tournament", "community"),
        *("board", "hand", "step", "standings_csv"),  # the HTML pages: pictures, CSV
        "watch",  # the live stream
    }
