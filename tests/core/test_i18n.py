"""Every message the code says is in every catalog, translated, with the same
placeholders; and a room talks its language."""

from __future__ import annotations

import re

import pytest

from lang import LANGUAGES, catalog, language, messages_in_code, placeholders, tr
from tests.core.driver import Room


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated(lang: str) -> None:
    found = catalog(lang)
    missing = sorted({m for m, _ in messages_in_code() if not found.get(m)})
    assert not missing, f"{lang} lacks {len(missing)}: {missing[:5]} (python -m lang update)"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_their_placeholders(lang: str) -> None:
    wrong = [m for m, t in catalog(lang).items() if placeholders(m) != placeholders(t)]
    assert not wrong, wrong[:5]


# English words that crept into the Spanish and Portuguese words (issue 33, 4: "por
# forfeit"); a command's own keywords ("/tournament forfeit <mesa>") stay as typed
ENGLISH = re.compile(r"(?<![/\w])(forfeit|penalty|award|standings|round|walkover)(?![\w=<])")
COMMAND = re.compile(r"\{\w+\}|/\w+(?: [a-z_]+)*|(?:· |: |, )[a-z_]+(?= <| ·|$)")


@pytest.mark.parametrize("lang", ["es", "pt"])
def test_no_english_word_in_another_languages_words(lang: str) -> None:
    found = {t: ENGLISH.findall(COMMAND.sub("", t)) for t in catalog(lang).values()}
    assert not {t: w for t, w in found.items() if w}


def test_languages_fall_back_to_spanish() -> None:
    assert language("pt-BR") == "pt" and language("en_US") == "en"
    assert language("fr") == "es" and language(None) == "es"
    assert tr("pt", "Seat {n}", n=2) != tr("en", "Seat {n}", n=2)


async def test_a_room_speaks_its_language(store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/settings language pt", admin=True)
    effects = await room.say("Ana", "/new")
    assert tr("pt", "New game of {preset}. Who plays?", preset="x").split()[0] in effects[0].text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_message_is_in_a_catalog_twice(lang: str) -> None:
    """Two entries of one msgid: the catalog keeps one of them, silently (two merged
    branches each added "none", of a timer and of tiles)."""
    from collections import Counter
    from pathlib import Path

    import lang as catalogs

    text = (Path(catalogs.__file__).parent / f"locales/{lang}/LC_MESSAGES/messages.po").read_text()
    ids = re.findall(r'^msgctxt "(.*)"\nmsgid "(.*)"$|^msgid "(.*)"$', text, re.M)
    twice = [i for i, n in Counter(ids).items() if n > 1 and any(i)]
    assert not twice, twice
