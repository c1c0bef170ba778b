"""House rules in the chat (issue 20, BOT.md ``new``, ``settings``, ``rules``): options set
by ``/new ... name=value``, by the creator's Rules buttons (``rule``) and by the room's
defaults (``settings options``), shown in the lobby in the room's language, in force in
the game, refused with the valid ones (changing nothing) when wrong; ``/rules`` said from
the rules in force. One test per option family, through the service as a room uses it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import update

from bot.core.model import Button, File, Lobby, Place, Popup, Reply, Say
from engine.option_texts import ABOUT
from engine.presets import preset_names
from engine.rules import Rules, option_choices, option_spec
from storage.schema import rooms
from storage.store import Store
from tests.core.driver import Room
from tests.core.test_service import play_out


def typed(value: Any) -> str:
    """A value as a person types it (on/off for flags and "off" options)."""
    return "on" if value is True else "off" if value in (False, None) else str(value)


def lobby(effects: list) -> str:
    found = [e for e in effects if isinstance(e, Lobby)]
    assert found, effects
    return found[-1].text


def refused(effects: list) -> str:
    assert [type(e) for e in effects] == [Popup] and effects[0].private, effects
    return effects[0].text


def said(effects: list) -> str:
    return "\n".join(e.text for e in effects if isinstance(e, Say))


async def stored_rules(store: Store) -> Rules:
    row = await store.games.active_in(1)
    assert row is not None
    return Rules.from_record(row.snapshot["record"]["rules"])


async def game_rules(room: Room) -> Rules:
    """The rules of the engine's game in play, as the service loads it."""
    row = await room.service.store.games.active_in(1)
    assert row is not None and row.status == "playing"
    game = room.service.desk.loaded(row, keep=False).game
    assert game is not None
    return game.rules


async def opened(room: Room, text: str, options: dict[str, Any]) -> str:
    """Ana opens ``text``: the lobby names each option with its description and value,
    and the stored game holds them; the lobby's text."""
    shown = lobby(await room.say("Ana", text))
    rules = await stored_rules(room.service.store)
    for name, value in options.items():
        assert getattr(rules, name) == value, name
        if name not in ("target", "rounds"):  # the headline says those
            assert f"{name}={typed(value)}" in shown, (name, shown)
            assert ABOUT[name].rstrip(".") in shown, (name, shown)
    return shown


async def begun(room: Room, options: dict[str, Any], people: int = 1) -> Rules:
    """The game begins (computers fill the table): its engine rules hold ``options``."""
    for name in ("Beto", "Carla", "Dani")[: people - 1]:
        await room.say(name, "/join")
    await room.say("Ana", "/begin fill")
    rules = await game_rules(room)
    for name, value in options.items():
        assert getattr(rules, name) == value, name
    return rules


async def test_partnership_options(store: Store) -> None:
    room = await Room.open(store)
    options = {
        "target": 200,
        "blocked_tie": "nobody",
        "redeal_doubles": 4,
        "must_open_with_double": True,
        "instant_win_hand_points": 50,
    }
    shown = await opened(
        room,
        "/new partnership 200 blocked_tie=nobody redeal_doubles=4 must_open_with_double=yes"
        " instant_win_hand_points=50",
        options,
    )
    assert "To 200 points" in shown and "reaches 200 loses" in shown  # score_to = loser
    await begun(room, options)


async def test_block_and_draw_options(store: Store) -> None:
    room = await Room.open(store)
    options = {
        "target": 150,
        "draw_rule": "one_then_pass",
        "winner_subtracts_own": True,
        "min_opening_score": 15,
        "no_double": "redeal",
    }
    shown = await opened(
        room,
        "/new draw 150 draw_rule=one_then_pass winner_subtracts_own=sí min_opening_score=15"
        " no_double=redeal",
        options,
    )
    assert "To 150 points: the first to reach them wins." in shown
    await begun(room, options, people=2)


async def test_divisor_options(store: Store) -> None:
    room = await Room.open(store)
    options = {"target": 150, "set": 9, "doubles_in_line": True, "divisor": 3}
    shown = await opened(room, "/new all_fives 150 set=9 doubles_in_line=on divisor=3", options)
    # the number after a divisor preset is a target: hands until someone reaches it
    assert "To 150 points: hands are played until someone reaches them" in shown
    assert "2 to 8 players" in shown  # double-9 seats more
    rules = await begun(room, options, people=2)
    assert rules.hands is None
    await room.say("Ana", "/cancel")
    shown = lobby(await room.say("Ana", "/new all_fives 150 hands=3"))  # both: whichever first
    assert "To 150 points" in shown and "hands=3" in shown


async def test_mexican_train_options(store: Store) -> None:
    room = await Room.open(store)
    options = {
        "rounds": 3,
        "marker_removed_by": "anyone",
        "first_turn_one_tile": True,
        "positive_scoring": True,
        "engine_from": "holder",
    }
    shown = await opened(
        room,
        "/new mexican_train 3 marker_removed_by=anyone first_turn_one_tile=true"
        " positive_scoring=sim engine_from=holder",
        options,
    )
    assert "3 rounds; the highest total wins." in shown
    await begun(room, options, people=2)


async def test_turn_options(store: Store) -> None:
    room = await Room.open(store)
    options = {"turn_timeout": 30, "max_timeouts": 1, "auto_pass": False}
    await opened(room, "/new block turn_timeout=30 max_timeouts=1 auto_pass=off", options)
    await room.say("Beto", "/join")
    effects = await room.say("Ana", "/begin")
    assert "(30 s)" in said(effects)  # the turn call gives the game's own time
    rules = await game_rules(room)
    assert (rules.turn_timeout, rules.max_timeouts, rules.auto_pass) == (30, 1, False)


async def test_wrong_options_are_answered_with_the_valid_ones_and_change_nothing(
    store: Store,
) -> None:
    room = await Room.open(store)
    text = refused(await room.say("Ana", "/new partnership blocked_tie=maybe"))
    assert "'maybe'" in text and all(v in text for v in option_choices("blocked_tie"))
    text = refused(await room.say("Ana", "/new partnership draw_rule=one_then_pass"))
    # the options of partnership, not the ones of draw games
    assert "blocked_tie" in text and "redeal_doubles" in text and "draw_rule," not in text
    text = refused(await room.say("Ana", "/new block redeal_doubles=3"))
    assert all(typed(v) in text for v in option_choices("redeal_doubles"))
    text = refused(await room.say("Ana", "/new draw target=0"))
    low, high = option_spec("target").bounds or (0, 0)
    assert f"from {low} to {high}" in text
    refused(await room.say("Ana", "/new partnership ²"))  # a digit, but not a number
    refused(await room.say("Ana", "/new partnership target=²"))
    text = refused(await room.say("Ana", "/new partnership blocked_tie nobody"))
    assert "name=value" in text
    # each alone fits, together the engine refuses them: both are named
    text = refused(await room.say("Ana", "/new partnership score_to=winner blocked_both_score=on"))
    assert "score_to=winner" in text and "blocked_both_score=on" in text
    text = refused(await room.say("Ana", "/new mexican_train set=21"))
    assert "set=21" in text and "12" in text
    assert await store.games.active_in(1) is None


async def test_room_defaults_per_preset(store: Store) -> None:
    room = await Room.open(store)
    refused(await room.say("Beto", "/settings options partnership blocked_tie=nobody"))
    text = refused(
        await room.say("Ana", "/settings options partnership blocked_tie=nobody 150", admin=True)
    )
    assert "name=value" in text  # "150" is not an option: nothing stored
    assert not (await store.people.room_by_id(1)).settings.house
    changed = await room.say(
        "Ana", "/settings options partnership blocked_tie=nobody target=150", admin=True
    )
    assert "blocked_tie=nobody" in said(changed)
    refused(await room.say("Ana", "/settings options partnership blocked_tie=never", admin=True))
    shown = said(await room.say("Beto", "/settings"))
    assert "blocked_tie=nobody" in shown and "target=150" in shown
    # new games of that preset start from them; another preset does not
    text = await opened(room, "/new partnership", {"blocked_tie": "nobody", "target": 150})
    assert "To 150 points" in text
    await room.say("Ana", "/cancel")
    await room.say("Ana", "/new partnership blocked_tie=closer_loses")
    assert (await stored_rules(store)).blocked_tie == "closer_loses"  # typed wins
    await room.say("Ana", "/cancel")
    await room.say("Ana", "/new draw")
    assert (await stored_rules(store)).options() == {}  # another preset's are its own
    await room.say("Ana", "/cancel")
    await room.say("Ana", "/settings options partnership reset", admin=True)
    assert "blocked_tie" not in said(await room.say("Beto", "/settings"))
    await room.say("Ana", "/new partnership")
    assert (await stored_rules(store)).options() == {}


async def test_an_older_rooms_flat_options_are_read(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/help")  # the room exists
    older = {"options": {"blocked_tie": "nobody"}}  # as an older version wrote them
    await store.database.run(lambda db: db.execute(update(rooms).values(settings=older)))
    room.service.desk.rooms.clear()
    await room.say("Ana", "/new partnership")
    assert (await stored_rules(store)).blocked_tie == "nobody"


def buttons_of(effects: list) -> dict[str, Button]:
    """The buttons of the menu answered, by the command they send."""
    found = [e for e in effects if isinstance(e, Say) and e.buttons]
    assert found, effects
    return {b.command: b for b in found[-1].buttons}


async def test_the_creators_rules_buttons(store: Store) -> None:
    room = await Room.open(store)
    first = await room.say("Ana", "/new partnership")
    rules_button = next(b for b in buttons_of(first).values() if b.command == "rule")
    refused(await room.press("Beto", rules_button))  # only the creator
    menu = await room.press("Ana", rules_button)
    assert [type(e) for e in menu] == [Reply] and menu[0].private  # hers alone
    options = buttons_of(menu)
    assert "rule blocked_tie" in options and "rule draw_rule" not in options
    values = buttons_of(await room.press("Ana", options["rule blocked_tie"]))
    assert set(values) >= {f"rule blocked_tie {v}" for v in option_choices("blocked_tie")}
    assert all(len(f"c|1|-|{c}".encode()) <= 64 for c in [*options, *values])  # Telegram
    shown = lobby(await room.press("Ana", values["rule blocked_tie nobody"]))
    assert "blocked_tie=nobody" in shown
    assert (await stored_rules(store)).blocked_tie == "nobody"
    # typed, and checked by the engine
    refused(await room.say("Ana", "/rule score_to maybe"))
    shown = lobby(await room.say("Ana", "/rule teams drawn_high"))
    assert "teams=drawn_high" in shown
    assert "team A" not in shown  # drawn teams are not the seats'
    await room.say("Ana", "/rule target 150")
    assert (await stored_rules(store)).options() == {
        "blocked_tie": "nobody",
        "teams": "drawn_high",
        "target": 150,
    }
    await room.say("Ana", "/begin fill")
    refused(await room.say("Ana", "/rule blocked_tie closer_wins"))  # the game is on


async def test_the_rules_menu_is_in_the_room_on_telegram(store: Store) -> None:
    """Where a door's private answers go elsewhere (Telegram's private chat, where a press
    acts only for a seat: the door says so in the command), the menu is the room's."""
    room = await Room.open(store)
    room.place = Place("telegram", "-100", "-100", "Casa", "en")
    await room.say("Ana", "/new draw")
    menu = await room.say("Ana", "/rule", private_in_room=False)
    assert [type(e) for e in menu] == [Say] and menu[0].private is None
    assert "rule draw_rule" in buttons_of(menu)


async def test_a_rule_that_changes_the_table_resizes_the_seats(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new all_fives")
    shown = lobby(await room.say("Ana", "/rule set 9"))
    assert "8. " in shown
    for name in ("Beto", "Carla", "Dani", "Eva"):
        await room.say(name, "/join")
    text = refused(await room.say("Ana", "/rule set 6"))
    assert "seat 5" in text
    assert (await stored_rules(store)).set == 9


async def test_rules_are_said_from_the_rules_in_force(store: Store) -> None:
    room = await Room.open(store)
    text = said(await room.say("Ana", "/rules partnership"))
    assert "the team that reaches 100 loses" in text  # score_to = loser (seed 000)
    assert "score_to=loser" in text
    text = said(await room.say("Ana", "/rules tournament_pr"))
    assert "To 200 points: the first to reach them wins." in text
    await room.say("Ana", "/new partnership 50 score_to=winner")
    text = said(await room.say("Beto", "/rules"))
    assert "To 50 points: the first to reach them wins." in text and "(score_to=winner) ✱" in text
    room.place = Place("console", "otra", "sala", "Casa", "es")
    text = said(await room.say("Ana", "/rules partnership"))
    assert "la pareja que llega a 100 pierde" in text


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
async def test_every_rule_that_differs_is_shown(store: Store, data: st.DataObject) -> None:
    """For any preset and options the engine takes, the lobby and /rules name each
    option that differs from the preset."""
    from bot.core.house_rules import settable

    preset = data.draw(st.sampled_from(sorted(preset_names())))
    names = data.draw(st.lists(st.sampled_from(settable(preset)), max_size=4, unique=True))
    chosen = {}
    for name in names:
        spec = option_spec(name)
        if spec.bounds is not None:
            low, high = spec.bounds
            chosen[name] = data.draw(st.integers(max(low, 1), min(high, 500)))
        else:
            chosen[name] = data.draw(st.sampled_from(option_choices(name)))
    room = await Room.open(store)
    room.place = Place("console", "local", f"mesa-{data.draw(st.integers(0, 10**9))}", "C", "en")
    words = " ".join(f"{n}={typed(v)}" for n, v in chosen.items())
    effects = await room.say("Ana", f"/new {preset} {words}")
    if not [e for e in effects if isinstance(e, Lobby)]:
        assert [type(e) for e in effects] == [Popup]  # the engine refused the combination
        return
    shown = lobby(effects)
    rules_said = said(await room.say("Ana", "/rules"))
    row = await store.games.active_in(await room.room_id())
    assert row is not None
    rules = Rules.from_record(row.snapshot["record"]["rules"])
    for name, value in rules.options().items():
        assert f"{name}={typed(value)}" in rules_said, (name, rules_said)
        if name != rules.number_option and (name, value) != ("hands", None):
            assert f"{name}={typed(value)}" in shown, (name, shown)
        elif not (rules.single_hand and name == "target"):  # (one hand decides: no target)
            # said by the headline: what the game counts
            assert str(value) in shown or value in (None, True, False), (name, shown)
    await room.say("Ana", "/cancel")


async def test_the_options_are_in_the_record_and_it_replays(store: Store, tmp_path: Path) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new partnership 200 blocked_tie=nobody")
    await room.say("Ana", "/begin fill")
    await play_out(room, ["Ana"])
    files = [e for e in await room.say("Beto", "/export") if isinstance(e, File)]
    record = json.loads(files[0].data)
    assert record["rules"] == {
        "preset": "partnership",
        "options": {"target": 200, "blocked_tie": "nobody"},
    }
    path = tmp_path / "game.json"
    path.write_bytes(files[0].data)
    replayed = subprocess.run(
        [sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True
    )
    assert replayed.returncode == 0, replayed.stderr


async def test_what_a_field_of_house_rules_offers_as_it_is_typed(store: Store) -> None:
    """Discord's autocomplete of ``/domino new options``, ``settings`` and ``rule``."""
    room = await Room.open(store)

    async def offers(complete: str, typed: str, **given: str) -> list[str]:
        found = await room.service.rule_offers(room.place, complete, typed, given, "en")
        return [value for _label, value in found]

    assert await offers("options", "blocked_t", preset="partnership") == ["blocked_tie="]
    assert await offers("options", "redeal_doubles=4 blocked_tie=no", preset="partnership") == [
        "redeal_doubles=4 blocked_tie=nobody"
    ]
    assert await offers("options", "draw_r", preset="draw") == ["draw_rule="]
    assert await offers("options", "draw_r", preset="partnership") == []
    assert "mexican_train marker_removed_by=" in await offers(
        "options", "mexican_train marker", name="options"
    )
    assert await offers("options", "e", name="language") == []  # another setting's value
    await room.say("Ana", "/new draw")  # ``rule`` offers the lobby's game's options
    assert "draw_rule" in await offers("option", "draw")
    assert await offers("value", "", option="draw_rule") == [
        typed(v) for v in option_choices("draw_rule")
    ]


def test_every_rules_button_fits_telegrams_64_bytes() -> None:
    """The menus of every preset, for a game id of 12 digits: each button's data fits."""
    from bot.core.handlers.room import options_menu, values_menu
    from bot.core.house_rules import settable
    from bot.doors.buttons import TELEGRAM

    game = 10**11
    for preset in preset_names():
        rules = Rules.from_preset(preset)
        pages = [options_menu("es", rules, game, page)[1] for page in range(3)]
        for name in settable(preset):
            pages.append(values_menu("pt", rules, name, game)[1])
        for buttons in pages:
            assert 0 < len(buttons) <= 25  # Discord's most on one message
            for button in buttons:
                assert TELEGRAM.encode(button) is not None, button
