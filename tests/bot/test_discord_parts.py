"""The Discord front end's parts that need no server: what a component carries (it fits
in 100 characters, reads back as sent, and anything else reads as nothing), how a hand's
moves are laid out, the /domino command's translations, and the settings."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands
from hypothesis import given
from hypothesis import strategies as st

from bot.config import Settings
from bot.discord.commands import CatalogTranslator, domino_command
from bot.discord.components import BUTTONS, OPTIONS, buttons_view, hand_view
from bot.discord.custom_ids import LIMIT, Pressed, decode, encode, encode_numbered, is_ours
from bot.model import Button

COMMANDS = [
    "play 6-4 on 6-6", "play 12-11 on train:7", "play 5-5 on mexican", "draw", "pass",
    "join", "add_ai normal", "begin fill", "next", "hand", "forget confirm",
    "play 18-12 on 18-18 flank",
]  # fmt: skip


@given(
    st.sampled_from(COMMANDS),
    st.none() | st.integers(0, 10**14),
    st.none() | st.integers(0, 10**6),
)
def test_a_button_reads_back_as_sent(command: str, game: int | None, move: int | None) -> None:
    data = encode(Button("label", command, game, move))
    assert data is not None and len(data) <= LIMIT and is_ours(data)
    assert decode(data) == Pressed("c", game, move, command)


@given(st.integers(0, 10**14), st.integers(0, 10**6), st.integers(0, 999))
def test_selects_and_pages_read_back(game: int, move: int, index: int) -> None:
    for kind in ("s", "p"):
        data = encode_numbered(kind, game, move, index)
        assert is_ours(data) and decode(data) == Pressed(kind, game, move, index=index)


@given(st.text(max_size=120))
def test_anything_else_reads_as_nothing_or_as_a_harmless_command(data: str) -> None:
    pressed = decode(data)
    if pressed is not None:  # only what this bot's form allows: the service judges the rest
        assert data.startswith("dom:") and len(data) <= LIMIT
        assert pressed.kind in "csp"
        assert all(c.isalnum() or c in " _:-" for c in pressed.command)


@pytest.mark.parametrize(
    "data",
    [
        "", "dom:", "dom:c", "dom:c:1:2", "dom:x:1:2:join", "dom:c:a:2:join", "dom:c:1:2:",
        "dom:c:1:2:JOIN", "dom:c:1:2:join;drop", "dom:s:1:2:x", "dom:s:-:2:1", "dom:p:1:-:0",
        "dom:c:1:2:" + "a" * 100, "garbage", "domino:c:1:2:join", "dom:c:1:2:join\n",
    ],
)  # fmt: skip
def test_forged_ids_read_as_nothing(data: str) -> None:
    assert decode(data) is None


def test_a_button_too_long_is_left_out() -> None:
    long = Button("x", "play " + "6-4 " * 30, 1, 2)
    assert encode(long) is None
    assert buttons_view((long,)) is None


def _custom_ids(view: discord.ui.View) -> list[str]:
    return [getattr(item, "custom_id", "") for item in view.children]


async def test_small_hands_are_buttons_and_large_ones_menus_in_pages() -> None:
    moves = tuple(Button(f"{i}) {i}-0", f"play {i}-0", 7, 30) for i in range(BUTTONS))
    view = hand_view(moves, 7, 30)
    assert view is not None and view.is_finished()  # nothing kept in memory
    assert all(isinstance(i, discord.ui.Button) for i in view.children)
    assert len(view.children) == BUTTONS and max(i.row or 0 for i in view.children) < 5

    many = tuple(Button(f"{i}) x", f"play {i}-{i} on train:{i % 8}", 7, 30) for i in range(130))
    first = hand_view(many, 7, 30)
    assert first is not None
    selects = [i for i in first.children if isinstance(i, discord.ui.Select)]
    pages = [i for i in first.children if isinstance(i, discord.ui.Button)]
    assert len(selects) == 4 and all(len(s.options) <= OPTIONS for s in selects)
    assert [p.label for p in pages] == ["1/2", "2/2"] and pages[0].disabled
    second = hand_view(many, 7, 30, page=1)
    assert second is not None
    menus = [i for i in second.children if isinstance(i, discord.ui.Select)]
    shown = [o.value for menu in menus for o in menu.options]
    assert shown == [b.command for b in many[100:]]
    assert all(len(c) <= LIMIT and decode(c) for c in _custom_ids(first) + _custom_ids(second))
    assert len(first.to_components()) <= 5


async def test_the_command_is_translated_for_spanish_and_portuguese_players() -> None:
    async def run(*_: object) -> None: ...

    async def complete(_interaction: object, _current: str) -> list[app_commands.Choice[str]]:
        return []

    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    tree.add_command(domino_command(run, complete, complete))
    await tree.set_translator(CatalogTranslator())
    translator = tree.translator
    assert translator is not None
    [domino] = [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]
    assert domino["name"] == "domino" and domino["dm_permission"] is False
    subs = {o["name"]: o for o in domino["options"]}
    assert len(subs) <= 25
    new = subs["new"]
    assert new["name_localizations"]["es-ES"] == "nueva"
    assert new["name_localizations"]["es-419"] == "nueva"
    assert new["name_localizations"]["pt-BR"] == "nova"
    assert new["description_localizations"]["es-419"].startswith("Abr")
    preset = next(o for o in new["options"] if o["name"] == "preset")
    assert preset["name_localizations"]["es-ES"] == "juego"
    choices = {c["value"]: c for c in preset["choices"]}
    assert choices["partnership"]["name_localizations"]["es-419"] == "dominó en parejas"
    play = subs["play"]
    tile = next(o for o in play["options"] if o["name"] == "tile")
    assert tile["autocomplete"] and tile["required"]
    names = [n for o in domino["options"] for n in o.get("name_localizations", {}).values()]
    assert all(n == n.lower() and " " not in n and len(n) <= 32 for n in names)


@pytest.mark.parametrize(
    ("env", "wrong"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "below"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "one"}, "numbers"),
        ({"DISCORD_GUILD_IDS": "12,abc"}, "numbers"),
        ({"SHARD_COUNT": "0"}, "greater"),
    ],
)
def test_broken_shard_settings_are_refused(monkeypatch, env: dict[str, str], wrong: str) -> None:
    from bot.config import SettingsError, load_settings

    monkeypatch.chdir("/")  # no .env
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SettingsError, match=wrong):
        load_settings()


def test_shard_settings_read(monkeypatch) -> None:
    monkeypatch.chdir("/")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "2, 3")
    monkeypatch.setenv("DISCORD_GUILD_IDS", "")
    settings = Settings()
    assert settings.shard_count == 4 and settings.shard_id_list() == [2, 3]
    assert settings.guild_id_list() == []
    monkeypatch.setenv("SHARD_COUNT", "")
    monkeypatch.delenv("SHARD_IDS")
    assert Settings().shard_count is None
