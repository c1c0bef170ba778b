"""Type as you speak (issue 33, 14): every command has one name a language (the one
Discord's menus show), accepted in any of them wherever commands are typed, with no name
shared by two commands; the texts and /help name commands in the reader's language; a
move's number typed alone plays that move for the player to move, and is the room's
talk for anyone else."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from bot.core import registry, texts
from bot.core.dispatch import ALIASES
from bot.core.model import Board, Command, Effect, Hand, Popup, Say
from lang import COMMAND_NAMED, LANGUAGES, tr
from storage.store import Store
from tests.core.driver import Room, boards, hands_for, private_to

NAMES = [spec.name for spec in registry.public()]
# what Telegram takes as a command (setMyCommands refuses the rest; "/mão" is read as "/m")
TELEGRAM_NAME = re.compile(r"[a-z0-9_]{1,32}")
# the doors' own words typed as commands: the console's (bot/doors/console/app.py) and
# Telegram's /start (bot/doors/telegram/app.py)
DOORS_OWN = {"as", "quit", "exit", "salir", "sair", "room", "sala", "start"}
# the names the issue asks for, as a Spanish or Portuguese player types them
SPOKEN = {
    "jugar": "play", "paso": "pass", "mano": "hand", "salgo": "open", "mão": "hand",
    "Jogar": "play", "ayuda": "help", "unirme": "join", "nueva": "new", "robar": "draw",
}  # fmt: skip


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", NAMES)
def test_each_commands_name_in_each_language_names_it(name: str, lang: str) -> None:
    called = registry.name_in(lang, name)
    assert TELEGRAM_NAME.fullmatch(called), called
    assert registry.command_named(called) == name
    assert registry.command_named(called.upper()) == name
    assert registry.command_named(name) == name  # the English name, in every language
    # the catalog entry Discord's menus are translated from is the one the texts use
    assert registry.COMMANDS[name].word == f"cmd:{name}"


def test_no_two_commands_share_a_name_in_any_language() -> None:
    owner: dict[str, str] = {}
    for name in NAMES:
        for called in registry.names_of(name):
            assert owner.setdefault(called, name) == name, (called, owner[called], name)
    assert not owner.keys() & DOORS_OWN, owner.keys() & DOORS_OWN
    # a word read as another word ("paso" is "pass" after /play) that is also a command's
    # name means the same thing
    for word, meaning in ALIASES.items():
        assert owner.get(word, meaning) == meaning, word


def test_the_names_players_say() -> None:
    for called, name in SPOKEN.items():
        assert registry.command_named(called) == name, called
    for word in ("timer", "number", "fly", "", "/play"):  # the service's own, and no name
        assert registry.command_named(word) is None, word


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("state", ["none", "lobby", "playing"])
def test_help_names_the_commands_in_the_persons_language(lang: str, state: str) -> None:
    said = texts.help_text(lang, state)
    named = set(COMMAND_NAMED.findall(said))
    assert named and named <= {registry.name_in(lang, n) for n in NAMES}, (named, said)
    if state == "playing":
        assert tr(lang, texts.HELP_NUMBER) in said


def test_texts_name_commands_in_their_language_and_leave_the_rest() -> None:
    assert "/nueva" in tr("es", texts.NO_GAME) and "/new" not in tr("es", texts.NO_GAME)
    assert "/new" in tr("en", texts.NO_GAME)
    assert tr("pt", texts.PLAY_WHAT).count("/jogar") == 2
    # what fills a placeholder is as it was typed; a link and the console's /quit are no
    # command's
    said = tr("es", texts.UNKNOWN_COMMAND, command="/join")
    assert "'/join'" in said and "/ayuda" in said
    assert tr("es", "see https://x.org/new, /quit and /newbot") == (
        "see https://x.org/new, /quit and /newbot"
    )


# ----- through the service -----------------------------------------------------------


def unknown(effects: list[Effect]) -> bool:
    head = tr("en", texts.UNKNOWN_COMMAND, command="").split("'")[0]
    return any(isinstance(e, Say) and e.text.startswith(head) for e in effects)


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_every_name_reaches_its_command_through_the_service(store: Store, lang: str) -> None:
    """Each command by its name in ``lang`` gets what its English name gets, in a room of
    its own (each reached as the first command there)."""
    for number, name in enumerate(NAMES):
        rooms = []
        for i, typed in enumerate((name, registry.name_in(lang, name))):
            room = await Room.open(store)
            room.place = replace(room.place, room=f"{lang}-{number}-{i}")
            rooms.append(await room.say("Ana", f"/{typed}", admin=True))
        english, spoken = rooms
        assert not unknown(spoken), (name, spoken)
        assert [type(e) for e in spoken] == [type(e) for e in english], name
        assert [e.text for e in spoken if isinstance(e, Say)] == [
            e.text for e in english if isinstance(e, Say)
        ], name


async def test_help_in_spanish_names_the_spanish_commands(store: Store) -> None:
    room = await Room.open(store)
    [helped] = private_to(await room.say("Ana", "/ayuda", locale="es"), "Ana")
    assert "/nueva" in helped.text and "/new " not in helped.text, helped.text


# ----- a move's number typed alone ----------------------------------------------------


async def game_of_two(store: Store, place: str = "mesa") -> tuple[Room, str, str, Hand]:
    """Ana and Beto at a game of draw, begun: the room, who is to move, who is not, and
    the hand (with its numbered moves) of the one to move."""
    room = await Room.open(store)
    room.place = replace(room.place, room=place)
    await room.say("Ana", "/new draw")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    latest = boards(room.log)[-1].move_number
    [(mover, hand)] = [
        (name, h)
        for name in ("Ana", "Beto")
        for h in hands_for(room.log, name)[-1:]
        if h.buttons and h.move_number == latest
    ]
    return room, mover, ("Beto" if mover == "Ana" else "Ana"), hand


async def test_the_player_to_moves_number_plays_the_move_listed_under_it(store: Store) -> None:
    room, mover, _other, hand = await game_of_two(store)
    twin, twin_mover, _, twin_hand = await game_of_two(store, "twin")  # the same deal
    assert (twin_mover, [b.label for b in twin_hand.buttons]) == (
        mover,
        [b.label for b in hand.buttons],
    )
    key = str(len(hand.buttons))  # the last listed: "3) 6-5 on 6-6"
    assert hand.buttons[-1].label.startswith(f"{key}) ")
    typed = await room.say(mover, f"number {key}")
    pressed = await twin.press(mover, twin_hand.buttons[-1])
    assert not private_to(typed, mover), private_to(typed, mover)
    [board] = boards(typed)
    assert board.move_number > hand.move_number
    assert board.story == boards(pressed)[0].story  # the same move as its button's


@pytest.mark.parametrize("typed", ["/play {key}", "/jugar {key}", "/jogar {key}"])
async def test_a_moves_number_after_play_plays_it(store: Store, typed: str) -> None:
    room, mover, _other, _hand = await game_of_two(store)
    effects = await room.say(mover, typed.format(key=1))
    assert not private_to(effects, mover) and boards(effects), effects


async def test_anybody_elses_number_is_the_rooms_talk(store: Store) -> None:
    room, mover, other, hand = await game_of_two(store)
    assert await room.say(other, "number 1") == []  # not their turn
    assert await room.say("Zoe", "number 1") == []  # no seat
    assert await room.say(other, f"number {len(hand.buttons) + 1}") == []
    # the player to move still has the turn: their number plays
    assert boards(await room.say(mover, "number 1"))


async def test_a_number_with_no_hand_in_play_is_the_rooms_talk(store: Store) -> None:
    room = await Room.open(store)
    assert await room.say("Ana", "number 1") == []  # no game
    await room.say("Ana", "/new draw")
    await room.say("Beto", "/join")
    assert await room.say("Ana", "number 1") == []  # the lobby
    assert await room.say("Beto", "number 2") == []


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_player_to_move_is_told_of_a_number_out_of_the_list(
    store: Store, lang: str
) -> None:
    room, mover, _other, hand = await game_of_two(store)
    for key in (str(len(hand.buttons) + 1), "0", "999"):
        effects = await room.say(mover, f"number {key}", locale=lang)
        [hint] = effects
        assert isinstance(hint, Popup) and hint.private is not None
        assert hint.text == tr(lang, texts.NO_SUCH_MOVE, number=key)
        assert f"/{registry.name_in(lang, 'hand')}" in hint.text
    assert not [e for e in room.log if isinstance(e, Board) and e.move_number > hand.move_number]


async def test_number_typed_as_a_command_is_no_command(store: Store) -> None:
    """The room's talk is read by the doors: "/number 1" typed is answered as what it is,
    no command (every typed command gets an answer)."""
    room, mover, _other, _hand = await game_of_two(store)
    typed = Command(room.place, room.person(mover), "number", ("1",))
    assert unknown(await room.service.handle(typed))
    said = Command(room.place, room.person(mover), "play", ("1",), talk=True)
    assert unknown(await room.service.handle(said))  # talk is only ever a number
