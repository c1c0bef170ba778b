"""Every word the bot says and its pictures show, in Spanish, English and Portuguese,
from gettext catalogs (lang/locales/<lang>/LC_MESSAGES/messages.po, read with Babel).

Messages are written in English in the code as ``tr(lang, "Seat {seat} is free.",
seat=2)``; the English text is the message id. ``python -m lang update`` adds the ids
found in engine/, bot/ and render/ to every catalog (untranslated); a test fails while any
catalog lacks a translation or names other placeholders than the id.
"""

from __future__ import annotations

import string
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

LANGUAGES = ("es", "en", "pt")
DEFAULT = "es"  # most of our players speak Spanish
LOCALES = Path(__file__).with_name("locales")
SOURCES = [Path(__file__).parents[1] / name for name in ("engine", "bot", "render")]
KEYWORDS = {"tr": (2,), "N_": None}  # tr(lang, message, ...); N_(message) marks for later


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / "messages.po"


@lru_cache(maxsize=8)
def catalog(lang: str) -> dict[str, str]:
    path = po_path(lang)
    if not path.exists():
        return {}
    with path.open("rb") as file:
        found = read_po(file, locale=lang)
    return {
        m.id: m.string
        for m in found
        if m.id and isinstance(m.id, str) and m.string and isinstance(m.string, str)
    }


@lru_cache(maxsize=256)
def language(lang: str | None) -> str:
    """A supported language for ``lang`` ("pt-BR" and "pt_BR" give "pt"), or the default."""
    if not lang:
        return DEFAULT
    short = lang.replace("_", "-").split("-")[0].lower()
    return short if short in LANGUAGES else DEFAULT


def tr(lang: str | None, message: str, **params: object) -> str:
    """``message`` in ``lang`` with ``params`` filled in."""
    text = catalog(language(lang)).get(message) or message
    return text.format(**params) if params else text


def N_(message: str) -> str:
    """Marks a message for the catalogs where it is defined, to translate later."""
    return message


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def messages_in_code() -> Iterator[tuple[str, str]]:
    """(message, where) for every message the code marks."""
    for source in SOURCES:
        for filename, lineno, message, _comments, _context in extract_from_dir(
            str(source), method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            if isinstance(message, str):
                yield message, f"{source.name}/{filename}:{lineno}"


def update() -> None:
    """Add every message of the code to each catalog (keeping translations made)."""
    ids = dict(messages_in_code())
    for lang in LANGUAGES:
        path = po_path(lang)
        old: Catalog | None = None
        if path.exists():
            with path.open("rb") as file:
                old = read_po(file, locale=lang)
        new = Catalog(locale=lang, project="domino-bot")
        for message, where in sorted(ids.items()):
            previous = old.get(message) if old is not None else None
            translated = previous.string if previous is not None else ""
            if lang == "en" and not translated:
                translated = message
            new.add(message, translated, locations=[(where.split(":")[0], 0)])
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as file:
            write_po(file, new, width=100, omit_header=False, no_location=True)
    catalog.cache_clear()
