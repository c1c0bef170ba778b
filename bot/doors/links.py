"""The addresses of the web pages the effects link to (issue 34): a door's base (where
people reach the pages: PUBLIC_URL; the console, the address its own pages are served
at) and the page's key the core put on the effect's :class:`~bot.core.Link`."""

from __future__ import annotations

from bot.core import Link

PATHS = {"game": "g", "tournament": "t", "community": "c"}  # docs/web.md


def page_url(base: str, link: Link | None) -> str | None:
    """The address ``link`` leads to from ``base``; None when there is nothing to link
    (no base, no link, or a link the core gave no key)."""
    if not base or link is None or not link.key or link.kind not in PATHS:
        return None
    return f"{base.rstrip('/')}/{PATHS[link.kind]}/{link.key}"


def labelled(base: str, link: Link | None) -> tuple[str, str] | None:
    """``(label, address)`` of ``link`` from ``base``, when it has one."""
    url = page_url(base, link)
    return (link.label, url) if url is not None and link is not None else None
