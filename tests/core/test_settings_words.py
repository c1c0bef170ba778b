"""Room settings say what they did (issue 33, 11): a flag takes on or off and nothing else;
a setting named alone lists what it takes; the room's turn timeout is the one the lobby
and /rule show for its next game."""

from __future__ import annotations

import pytest

from bot.core.model import Say
from storage.store import Store
from tests.core.driver import Room


def private(effects: list) -> str:
    assert effects and all(isinstance(e, Say) and e.private for e in effects), effects
    return effects[0].text


async def test_numerals_take_on_or_off_only(store: Store) -> None:
    room = await Room.open(store)
    assert "numerals is on or off" in private(
        await room.say("Ana", "/settings numerals x", admin=True)
    )
    said = await room.say("Ana", "/settings numerals on", admin=True)
    assert "Tiles show numbers instead of pips now." in said[0].text


async def test_a_setting_named_alone_lists_what_it_takes(store: Store) -> None:
    room = await Room.open(store)
    assert "classic" in private(await room.say("Ana", "/settings theme", admin=True))
    assert "es, en, pt" in private(await room.say("Ana", "/settings language", admin=True))
    assert "15 to 86400" in private(await room.say("Ana", "/settings turn_timeout", admin=True))


async def test_the_rooms_turn_timeout_is_its_next_games(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/settings turn_timeout 600", admin=True)
    lobby = await room.say("Ana", "/new draw")
    shown = await room.say("Ana", "/rule turn_timeout")
    text = "\n".join(e.text for e in [*lobby, *shown] if isinstance(e, Say))
    assert "600" in text and "90" not in text.replace("600", ""), text


# (a room changing its language is told in the language it chose)
SETTINGS = [
    ("language en", {"es": "This room speaks English now."}),
    ("language es", {"en": "Esta sala habla español ahora."}),
    ("language pt", {"es": "Esta sala fala português agora."}),
    ("numerals on", {"es": "Las fichas muestran ahora números en vez de puntos."}),
    ("turn_timeout 600", {"es": "Cada turno tiene ahora 600 segundos."}),
]


@pytest.mark.parametrize(("typed", "told"), SETTINGS)
async def test_a_setting_changed_is_told_in_the_rooms_words(
    store: Store, typed: str, told: dict[str, str]
) -> None:
    """Issue 33, 13: "Ahora language es es" — a setting changed is told in words, with
    no setting's key or language code in another language's sentence."""
    for lang, words in told.items():
        room = await Room.open(store)
        await room.say("Ana", f"/settings language {lang}", admin=True)
        effects = await room.say("Ana", f"/settings {typed}", admin=True)
        said = " ".join(e.text for e in effects if isinstance(e, Say))
        assert words in said, said


def test_tiles_per_player_by_the_preset_is_said_in_words() -> None:
    """Issue 33, 13: "Fichas por jugador: no" — the preset's own number of tiles reads as
    what it is."""
    from bot.core import house_rules
    from engine.rules import Rules

    line = house_rules.option_line("es", Rules.from_preset("partnership"), "hand_size")
    assert line == "Fichas por jugador: según el número de jugadores", line
