"""Every word the bot says and its pictures show, in Spanish, English and Portuguese,
from gettext catalogs (lang/locales/<lang>/LC_MESSAGES/messages.po, read with Babel).

Messages are written in English in the code as ``tr(lang, "Seat {seat} is free.",
seat=2)``; the English text is the message id. What counts something says it through
the catalogs' plural forms: ``trn(lang, "{n} game", "{n} games", n, n=n)``.
``python -m lang update`` adds the ids found in engine/, bot/ and render/ to every catalog
(untranslated); a test fails while any catalog lacks a translation or names other
placeholders than the id.
"""

from __future__ import annotations

import gettext
import re
import string
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

LANGUAGES = ("es", "en", "pt")
DEFAULT = "es"  # most of our players speak Spanish
LOCALES = Path(__file__).with_name("locales")
SOURCES = [Path(__file__).parents[1] / name for name in ("engine", "bot", "render")]
# tr(lang, message, ...); trn(lang, singular, plural, n, ...); N_(message) marks for later
KEYWORDS = {"tr": (2,), "trn": (2, 3), "N_": None, "NP_": (1, 2)}
Id = str | tuple[str, str]  # a message's id: its text, or its singular and plural
# A command a text names ("/join"): said in the text's language, as the catalog names it
# ("cmd:join": "unirme"), the name Discord's menus show and the doors accept (issue 33).
COMMAND_NAMED = re.compile(r"(?<![\w/])/([a-z_]+)\b")


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / "messages.po"


@lru_cache(maxsize=8)
def catalog(lang: str) -> dict[str, str]:
    path = po_path(lang)
    if not path.exists():
        return {}
    with path.open("rb") as file:
        found = read_po(file, locale=lang)
    texts = {
        m.id: m.string
        for m in found
        if m.id and isinstance(m.id, str) and m.string and isinstance(m.string, str)
    }
    for id_, forms in plurals(lang)[0].items():  # each form, to be checked as a text
        texts[id_[0]], texts[id_[1]] = forms[0], forms[-1]
    return texts


@lru_cache(maxsize=8)
def plurals(lang: str) -> tuple[dict[tuple[str, str], tuple[str, ...]], Callable[[int], int]]:
    """The catalog's messages with plural forms (complete ones only), and its rule: which
    form a number takes."""
    path = po_path(lang)
    if not path.exists():
        return {}, lambda n: int(n != 1)
    with path.open("rb") as file:
        found = read_po(file, locale=lang)
    forms = {
        (m.id[0], m.id[1]): tuple(m.string)
        for m in found
        if isinstance(m.id, (tuple, list)) and isinstance(m.string, (tuple, list))
        and m.string and all(m.string)
    }  # fmt: skip
    return forms, gettext.c2py(found.plural_expr)


@lru_cache(maxsize=256)
def language(lang: str | None) -> str:
    """A supported language for ``lang`` ("pt-BR" and "pt_BR" give "pt"), or the default."""
    if not lang:
        return DEFAULT
    short = lang.replace("_", "-").split("-")[0].lower()
    return short if short in LANGUAGES else DEFAULT


def tr(lang: str | None, message: str, **params: object) -> str:
    """``message`` in ``lang`` with ``params`` filled in; the commands it names, by their
    names in ``lang`` ("/join" in Spanish is "/unirme"; what ``params`` hold is left as
    it is)."""
    lang = language(lang)
    text = naming_commands(lang, catalog(lang).get(message) or message)
    return text.format(**params) if params else text


def command_name(lang: str | None, name: str) -> str:
    """Command ``name`` ("join") as people say it in ``lang`` ("unirme"): its catalog
    entry ``cmd:<name>``; the name itself where the catalog gives none (English)."""
    key = f"cmd:{name}"
    named = catalog(language(lang)).get(key)
    return named if named and named != key else name


@lru_cache(maxsize=4096)
def naming_commands(lang: str, text: str) -> str:
    """``text`` (a catalog's text, before its placeholders are filled) with each command
    it names ("/join") named in ``lang`` ("/unirme"); other words after a slash (a link,
    "/quit" of the console) are left as they are."""
    return COMMAND_NAMED.sub(lambda m: "/" + command_name(lang, m[1]), text)


def trn(lang: str | None, singular: str, plural: str, n: int, /, **params: object) -> str:
    """The form of ``singular``/``plural`` that ``n`` takes in ``lang``, with ``params``
    filled in (gettext's ngettext)."""
    forms, rule = plurals(language(lang))
    found = forms.get((singular, plural))
    chosen = found[min(rule(n), len(found) - 1)] if found else None
    text = naming_commands(language(lang), chosen or (singular if n == 1 else plural))
    return text.format(**params) if params else text


def N_(message: str) -> str:
    """Marks a message for the catalogs where it is defined, to translate later."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a message with a plural, defined apart from its ``trn`` call."""
    return singular, plural


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def messages_in_code() -> Iterator[tuple[str, str]]:
    """(message, where) for every message the code marks (both forms of a plural)."""
    for message, where in _marked():
        for text in (message,) if isinstance(message, str) else message:
            yield text, where


def _marked() -> Iterator[tuple[Id, str]]:
    for source in SOURCES:
        for filename, lineno, message, _comments, _context in extract_from_dir(
            str(source), method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            where = f"{source.name}/{filename}:{lineno}"
            if isinstance(message, str):
                yield message, where
            elif isinstance(message, tuple) and len(message) == 2 and all(message):
                yield (message[0], message[1]), where


def update() -> None:
    """Add every message of the code to each catalog (keeping translations made)."""
    ids = dict(_marked())
    for lang in LANGUAGES:
        path = po_path(lang)
        old: Catalog | None = None
        if path.exists():
            with path.open("rb") as file:
                old = read_po(file, locale=lang)
        new = Catalog(locale=lang, project="domino-bot")
        for message, where in sorted(ids.items(), key=lambda item: _key(item[0])):
            key = message if isinstance(message, str) else message[0]
            previous = old.get(key) if old is not None else None
            string = previous.string if previous is not None else None
            translated: str | tuple[str, ...] = (
                string if isinstance(string, str) else tuple(string) if string else ""
            )
            if isinstance(message, tuple) and isinstance(translated, str):
                translated = ("",) * new.num_plurals
            if lang == "en" and not (translated and all(translated)):
                translated = message
            new.add(message, translated, locations=[(where.split(":")[0], 0)])
        path.parent.mkdir(parents=True, exist_ok=True)
        written = path.with_suffix(".po.new")  # a catalog is never left half written
        with written.open("wb") as file:
            write_po(file, new, width=100, omit_header=False, no_location=True)
        written.replace(path)
    catalog.cache_clear()
    plurals.cache_clear()
    naming_commands.cache_clear()


def _key(message: Id) -> str:
    return message if isinstance(message, str) else message[0]
