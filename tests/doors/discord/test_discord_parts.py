"""The Discord front end's parts that need no server: what a component carries (it fits
in 100 characters, reads back as sent, and anything else reads as nothing), how a hand's
moves are laid out, the /domino command built from the registry and its translations,
autocomplete from the person's legal moves, and the settings."""

from __future__ import annotations

import re
from dataclasses import replace
from types import SimpleNamespace

import discord
import pytest
from discord import app_commands
from hypothesis import given
from hypothesis import strategies as st

from bot.core import registry
from bot.core.model import Board, Button, Command, Effect, Hand, Offer, Person, Place, Post, Table
from bot.core.registry import Kind
from bot.doors import pictures
from bot.doors.buttons import DISCORD, Pressed
from bot.doors.config import Settings
from bot.doors.discord.app import DiscordBot
from bot.doors.discord.commands import CatalogTranslator, alone_commands, args_of, domino_command
from bot.doors.discord.components import BUTTONS, OPTIONS, buttons_view, hand_view, is_ours
from bot.doors.discord.delivery import (
    DM_RETRY_SECONDS,
    DiscordDelivery,
    _with_mentions,
    mentioning,
    plain,
)
from bot.doors.discord.places import person_of

LIMIT = DISCORD.limit
encode, decode, encode_numbered = DISCORD.encode, DISCORD.decode, DISCORD.encode_numbered
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


async def _synced() -> dict:
    """The /domino command as the bot syncs it: built from the registry, translated."""
    return (await _all_synced())["domino"]


async def _all_synced() -> dict[str, dict]:
    """Every command the bot syncs (/domino, and those that stand alone), by name."""

    async def run(*_: object) -> None: ...

    async def complete(*_: object) -> list[app_commands.Choice[str]]:
        return []

    tree = app_commands.CommandTree(discord.Client(intents=discord.Intents.none()))
    tree.add_command(domino_command(run, complete))
    for command in alone_commands(run, complete):
        tree.add_command(command)
    await tree.set_translator(CatalogTranslator())
    translator = tree.translator
    assert translator is not None
    payloads = [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]
    return {p["name"]: p for p in payloads}


async def test_the_command_is_translated_for_spanish_and_portuguese_players() -> None:
    domino = await _synced()
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


# the option types of Discord's API
SUBCOMMAND, STRING, INTEGER, BOOLEAN, USER = 1, 3, 4, 5, 6
TYPES = {Kind.TEXT: STRING, Kind.NUMBER: INTEGER, Kind.FLAG: BOOLEAN, Kind.PERSON: USER}


async def test_the_command_is_the_registry() -> None:
    synced = await _all_synced()
    domino = synced["domino"]
    subs = {o["name"]: o for o in domino["options"]}
    assert list(subs) == [spec.name for spec in registry.public() if not spec.alone]
    alone = [spec.name for spec in registry.public() if spec.alone]
    assert sorted(synced) == sorted(["domino", *alone])
    for name in alone:  # a command of its own, in servers only
        assert synced[name]["dm_permission"] is False
        subs[name] = dict(synced[name], type=SUBCOMMAND)
    for spec in registry.public():
        sub = subs[spec.name]
        assert sub["type"] == SUBCOMMAND and sub["description"] == spec.about
        options = {o["name"]: o for o in sub.get("options", [])}
        assert list(options) == sorted(
            (o.name for o in spec.options), key=lambda n: not options[n]["required"]
        )
        for option in spec.options:
            sent = options[option.name]
            assert sent["type"] == TYPES[option.kind], (spec.name, option.name)
            assert sent["description"] == option.about
            assert sent["required"] == option.required
            assert sent.get("min_value") == option.low and sent.get("max_value") == option.high
            assert sent.get("max_length") == option.length
            choices = option.choices() if option.choices else ()
            # Discord lists at most 25 choices: more (the tournament's actions) are
            # offered as one types
            listed = choices if len(choices) <= 25 else ()
            typed = bool(option.complete or (choices and not listed))
            assert bool(sent.get("autocomplete")) == typed
            assert [(c["value"], c["name"]) for c in sent.get("choices", [])] == [
                (c.value, c.label) for c in listed
            ]


async def test_a_preset_registered_at_run_time_is_offered() -> None:
    from engine.presets import register_preset
    from engine.rules import PRESETS

    try:
        register_preset("quick_block", {**PRESETS["block"], "target": 50}, "quick block", "-")
        domino = await _synced()
    finally:
        PRESETS.pop("quick_block", None)
    for sub in domino["options"]:
        for option in sub.get("options", []):
            if option["name"] == "preset":
                assert option["choices"][-1]["value"] == "quick_block", sub["name"]


def test_options_read_as_the_words_typed_after_the_command() -> None:
    play, begin, new = (registry.COMMANDS[n] for n in ("play", "begin", "new"))
    assert args_of(play, {"tile": "6-4", "on": "train:2"}) == ("6-4", "on", "train:2")
    assert args_of(play, {"tile": "6-4 on 6-6", "on": None}) == ("6-4", "on", "6-6")
    assert args_of(begin, {"fill": True}) == ("fill",)
    assert args_of(begin, {"fill": False}) == ()
    assert args_of(new, {"preset": None, "target": 30}) == ("30",)


class _Offering:
    """The service's look at a person's legal moves; any command run is recorded."""

    def __init__(self, offers: tuple[Offer, ...]) -> None:
        self.offers_asked: list[tuple[Place, Person]] = []
        self.commands: list[Command] = []
        self._offers = offers

    async def offers(self, place: Place, person: Person) -> tuple[Offer, ...]:
        self.offers_asked.append((place, person))
        return self._offers

    async def handle(self, command: Command) -> list[Effect]:
        self.commands.append(command)
        return []


OFFERS = (
    Offer("6-4", "6-6", "1) 6-4 on 6-6", "play 6-4 on 6-6"),
    Offer("6-4", "4-4", "2) 6-4 on 4-4", "play 6-4 on 4-4"),
    Offer("5-5", None, "3) 5-5", "play 5-5"),
    Offer("draw", None, "4) Draw", "draw"),
)


async def test_autocomplete_answers_from_the_legal_moves_without_running_a_command() -> None:
    service = _Offering(OFFERS)
    bot = DiscordBot.__new__(DiscordBot)
    bot.service = service  # type: ignore[assignment]
    tile, on = registry.COMMANDS["play"].options
    asking = _Interaction(guild_id=1190)
    choices = await bot.complete(asking, tile, "6")  # type: ignore[arg-type]
    assert [(c.name, c.value) for c in choices] == [
        ("1) 6-4 on 6-6", "6-4 on 6-6"),
        ("2) 6-4 on 4-4", "6-4 on 4-4"),
    ]
    everything = await bot.complete(asking, tile, "")  # type: ignore[arg-type]
    assert [c.value for c in everything] == ["6-4 on 6-6", "6-4 on 4-4", "5-5"]  # no draw
    asking.namespace = SimpleNamespace(tile="6-4")
    places = await bot.complete(asking, on, "")  # type: ignore[arg-type]
    assert [c.value for c in places] == ["6-6", "4-4"]
    asking.namespace = SimpleNamespace(tile="5-5")
    assert await bot.complete(asking, on, "") == []  # type: ignore[arg-type]
    assert service.commands == [] and len(service.offers_asked) == 4
    place, person = service.offers_asked[0]
    assert (place.room, person.platform_id) == ("555", "4242")
    # in a direct message there is no room to look in
    assert await bot.complete(_Interaction(guild_id=None), tile, "") == []  # type: ignore[arg-type]


def test_the_platform_is_asked_about_admins_only_for_the_commands_that_ask() -> None:
    interaction = _Interaction(guild_id=1190)
    interaction.permissions = SimpleNamespace(manage_guild=True, manage_channels=False)
    for spec in registry.public():
        person = person_of(interaction, spec.name)  # type: ignore[arg-type]
        assert person.admin == registry.asks_admin(spec.name), spec.name


def test_a_channels_moderator_administers_the_channel_not_the_servers_tournament() -> None:
    """Manage Channels, which a channel's overwrites may give, makes a room's admin
    (settings, kicking); the tournament is the server's: Manage Server alone (issue 31)."""
    interaction = _Interaction(guild_id=1190)
    interaction.permissions = SimpleNamespace(manage_guild=False, manage_channels=True)
    assert person_of(interaction, "settings").admin  # type: ignore[arg-type]
    assert not person_of(interaction, "tournament").admin  # type: ignore[arg-type]
    interaction.permissions = SimpleNamespace(manage_guild=True, manage_channels=False)
    assert person_of(interaction, "tournament").admin  # type: ignore[arg-type]


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
    from bot.doors.config import SettingsError, load_settings

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


# ----- every press bound to its place ---------------------------------------------------

GAME_ROOM = Place("discord", "1190000000000000000", "1190000000000000100")


class _Response:
    def __init__(self) -> None:
        self.deferred = False

    async def defer(self, **_: object) -> None:
        self.deferred = True

    def is_done(self) -> bool:
        return self.deferred

    async def send_message(self, *_: object, **__: object) -> None: ...


class _Interaction:
    """What the adapter reads of a discord.Interaction: a press in a channel of the test
    guild, or (``guild_id=None``) in the presser's direct messages."""

    def __init__(
        self,
        guild_id: int | None,
        channel_id: int = 555,
        name: str = "Ana",
        ephemeral: bool = False,
        locale: str = "en-US",
    ) -> None:
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.guild = None
        self.guild_locale = None
        self.locale = SimpleNamespace(value=locale)
        self.user = SimpleNamespace(id=4242, display_name=name, name="ana_99")
        self.permissions = SimpleNamespace(manage_guild=False, manage_channels=False)
        self.message = SimpleNamespace(flags=SimpleNamespace(ephemeral=ephemeral))
        self.response = _Response()
        self.namespace = SimpleNamespace()  # the options given so far (autocomplete)
        self.edited: list[object] = []

    async def edit_original_response(self, **changes: object) -> None:
        self.edited.append(changes)


class _Service:
    """The service as the adapter sees it: commands recorded, answered with ``answer``."""

    def __init__(self, answer: list[Effect] | None = None) -> None:
        self.commands: list[Command] = []
        self.answer = answer or []

    async def handle(self, command: Command) -> list[Effect]:
        self.commands.append(command)
        return self.answer

    async def place_of_game(self, game_id: int, platform: str) -> Place | None:
        return GAME_ROOM if game_id == 7 and platform == GAME_ROOM.platform else None


class _Delivery:
    def __init__(self) -> None:
        self.said: list[str] = []
        self.delivered: list[tuple[Place, list[Effect]]] = []

    async def ephemeral(self, _interaction: object, text: str, *_: object, **__: object) -> None:
        self.said.append(text)

    async def deliver(self, place: Place, effects: list[Effect], _: object = None) -> None:
        self.delivered.append((place, effects))

    def asked_for_hand(self, _hand: Hand) -> None: ...


def _adapter(service: _Service) -> tuple[DiscordBot, _Delivery]:
    bot = DiscordBot.__new__(DiscordBot)  # no client: only the press handling is used
    delivery = _Delivery()
    bot.service = service  # type: ignore[assignment]
    bot.delivery = delivery  # type: ignore[assignment]
    return bot, delivery


@pytest.mark.parametrize(
    "command", ["join", "new", "begin fill", "cancel", "export", "rules", "top", "next",
                "kick 2", "settings language en", "play 6-4 on 6-6", "hand"],
)  # fmt: skip
async def test_a_press_in_a_direct_message_is_private_to_the_game_it_names(command: str) -> None:
    service = _Service()
    bot, _ = _adapter(service)
    await bot.on_component(_Interaction(guild_id=None), f"dom:c:7:-:{command}", ())
    [sent] = service.commands
    assert sent.private and sent.game_id == 7 and sent.place == GAME_ROOM
    assert (sent.action, *sent.args) == tuple(command.split())


async def test_a_move_press_sends_the_move_whole_from_a_button_or_a_menu() -> None:
    service = _Service()
    bot, _ = _adapter(service)
    await bot.on_component(_Interaction(guild_id=None), "dom:m:7:30:1: 6-4 on 6-6", ())
    await bot.on_component(_Interaction(guild_id=None), "dom:s:7:30:0", ("1: 5-5 on 5-6",))
    await bot.on_component(_Interaction(guild_id=None), "dom:s:7:30:0", ("play 5-5",))
    moved, chosen, typed = service.commands
    assert (moved.action, moved.args, moved.move) == ("play", (), "1: 6-4 on 6-6")
    assert (chosen.action, chosen.args, chosen.move) == ("play", (), "1: 5-5 on 5-6")
    assert (typed.action, typed.args, typed.move) == ("play", ("5-5",), None)  # an older menu
    assert all(c.private and c.game_id == 7 and c.move_number == 30 for c in service.commands)


async def test_a_press_in_a_channel_acts_in_that_channel_whatever_game_it_names() -> None:
    service = _Service()
    bot, _ = _adapter(service)
    await bot.on_component(_Interaction(guild_id=1190, channel_id=555), "dom:c:7:-:join", ())
    [sent] = service.commands
    assert not sent.private and sent.game_id == 7
    assert (sent.place.community, sent.place.room) == ("1190", "555")  # not the game's room


async def test_a_direct_message_press_naming_no_game_acts_nowhere() -> None:
    service = _Service()
    bot, delivery = _adapter(service)
    for custom_id in ("dom:c:-:-:new", "dom:c:99:-:join"):  # no game, a game that is not
        await bot.on_component(_Interaction(guild_id=None), custom_id, ())
    assert service.commands == [] and len(delivery.said) == 2


async def test_pages_turn_only_on_the_pressers_own_hand() -> None:
    service = _Service()
    bot, delivery = _adapter(service)
    # on a message of the room (the board): refused before the service hears of it
    room_press = _Interaction(guild_id=1190)
    await bot.on_component(room_press, "dom:p:7:30:1", ())
    assert service.commands == [] and delivery.said and room_press.edited == []
    # in a direct message: the presser's hand, asked for privately, for the game named
    await bot.on_component(_Interaction(guild_id=None), "dom:p:7:30:1", ())
    # on an ephemeral answer in the channel (their "My hand"): the channel's room
    await bot.on_component(_Interaction(guild_id=1190, ephemeral=True), "dom:p:7:30:1", ())
    dm, ephemeral = service.commands
    assert (dm.action, dm.private, dm.game_id, dm.place) == ("hand", True, 7, GAME_ROOM)
    assert (ephemeral.action, ephemeral.private, ephemeral.place.room) == ("hand", False, "555")


# ----- names, mentions, markdown ---------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["**Ana**", "@everyone", "@here", "<@123>", "<@!320000000000000101>", "<@&77>", "<#55>",
     "__x__ ~~y~~ ||z|| `c`", "> quoted", "# Big", "-# small", "[link](https://x.y)", "back\\"],
)  # fmt: skip
def test_a_name_shows_as_typed_and_calls_nobody(name: str) -> None:
    shown = plain(f"{name} plays 6-4")
    assert "6-4" in shown
    # nothing left that Discord reads as markup: every markdown character or mention is
    # escaped (a backslash before it) or broken (a zero-width space in @everyone)
    unescaped = re.sub(r"\\.", "", shown)
    assert not re.search(r"[*_~|`\\]|\[.*\]\(|<[@#](?!\u200b)|@(everyone|here)", unescaped), shown
    assert not re.search(r"(?m)^[>#-]", shown), shown
    # and read back, it is the name as typed
    assert re.sub(r"\\(.)", r"\1", shown).replace("\u200b", "") == f"{name} plays 6-4"


def test_a_name_on_its_own_line_stays_plain() -> None:
    shown = plain("Hand 2.\n# Ana\n> Beto")
    assert shown.split("\n")[1:] == ["\\# Ana", "\\> Beto"]


def test_a_message_calls_only_the_people_it_names() -> None:
    ana = Person("320000000000000101", "**Ana** @everyone")
    text = _with_mentions(plain(f"{ana.name}, your turn."), (ana,))
    assert text == "<@320000000000000101>, your turn."
    allowed = mentioning((ana,)).to_dict()
    assert allowed == {"parse": [], "users": [320000000000000101]}
    assert mentioning().to_dict() == {"parse": [], "users": []}


def test_a_person_is_cut_to_fit_and_has_their_handle() -> None:
    interaction = _Interaction(guild_id=1190, name="A" * 300, locale="x" * 20)
    person = person_of(interaction)  # type: ignore[arg-type]
    assert len(person.name) == 100 and person.locale == "x" * 8 and person.handle == "ana_99"


def test_stats_asks_about_the_user_picked_or_the_name_typed() -> None:
    stats = registry.COMMANDS["stats"]

    def stats_args(player: discord.Object | None, who: str | None) -> tuple[str, ...]:
        return args_of(stats, {"player": player, "who": who})

    assert stats_args(discord.Object(320000000000000101), None) == ("user:320000000000000101",)
    assert stats_args(discord.Object(320000000000000101), "Beto") == ("user:320000000000000101",)
    assert stats_args(None, "@beto_99") == ("@beto_99",)
    assert stats_args(None, None) == ()


# ----- direct messages closed --------------------------------------------------------------


class _Closed(discord.Forbidden):
    def __init__(self) -> None:
        super().__init__(
            SimpleNamespace(status=403, reason="Forbidden"),  # type: ignore[arg-type]
            {"code": 50007, "message": "Cannot send messages to this user"},
        )


class _Channel:
    """A channel or DM: what is sent to it, a DM refusing with 50007 while ``closed``."""

    def __init__(self, closed: bool = False) -> None:
        self.closed = closed
        self.sent: list[dict[str, object]] = []
        self.id = 555

    async def send(self, content: str = "", **options: object) -> object:
        if self.closed:
            self.sent.append({"refused": content})
            raise _Closed()
        self.sent.append({"content": content, **options})
        return self.get_partial_message(900 + len(self.sent))

    def get_partial_message(self, message_id: int) -> object:
        channel = self

        class Message:
            id = message_id

            async def edit(self, **options: object) -> None:
                channel.sent.append({"edited": message_id, **options})

            async def delete(self) -> None: ...

        return Message()


class _Client:
    def __init__(self) -> None:
        self.dm = _Channel(closed=True)
        self.room = _Channel()

    async def create_dm(self, _user: object) -> _Channel:
        return self.dm

    def get_partial_messageable(self, _channel_id: int) -> _Channel:
        return self.room


class _Posts:
    """The service's memory of the room's board message."""

    def __init__(self) -> None:
        self.kept: list[tuple[object, ...]] = []
        self.shown_at: list[tuple[Place, int]] = []
        self.post: Post | None = None

    async def board_post(self, place: Place) -> Post | None:
        return self.post

    async def keep_board_post(
        self, place: Place, game_id: int, message_id: str, move_number: int | None = None
    ) -> None:
        self.kept.append((place, game_id, message_id, move_number))
        self.post = Post(game_id, message_id, move_number)

    async def board_shown(self, place: Place, move_number: int) -> None:
        self.shown_at.append((place, move_number))

    async def hand_shown(self, place: Place, game_id: int, move_number: int) -> None:
        return None

    async def hand_current(self, place: Place, game_id: int, move_number: int) -> bool:
        # the game's moves so far: a hand offered before the last is no longer current
        return self.plies <= move_number

    plies = 0


def _delivery(monkeypatch: pytest.MonkeyPatch) -> tuple[DiscordDelivery, _Client, _Posts]:
    async def png(_: object) -> bytes:
        return b"png"

    monkeypatch.setattr(pictures, "hand_png", png)
    monkeypatch.setattr(pictures, "board_png", png)
    client, posts = _Client(), _Posts()
    return DiscordDelivery(client, posts), client, posts  # type: ignore[arg-type]


async def _deliver(delivery: DiscordDelivery, effect: Effect) -> None:
    await delivery.deliver(GAME_ROOM, [effect])
    await delivery.idle()


def _hand(game: int, move: int) -> Hand:
    beto = Person("320000000000000102", "Beto", "en")
    return Hand(beto, game, move, None, None, "Your tiles: 6-4", ())  # type: ignore[arg-type]


async def test_closed_direct_messages_are_not_tried_again_in_that_game(monkeypatch) -> None:
    delivery, client, _ = _delivery(monkeypatch)
    now = [1000.0]
    delivery.discord.clock = lambda: now[0]
    for move in range(1, 6):  # five turns of Beto's
        await _deliver(delivery, _hand(7, move))
    assert len(client.dm.sent) == 1  # one refusal, not one a turn
    told = [m for m in client.room.sent if "My hand" in str(m.get("content"))]
    assert len(told) == 1  # called once to press My hand
    # Beto presses My hand at once: no new try yet (each refusal is an invalid request)
    delivery.discord.asked_for_hand(_hand(7, 6))
    await _deliver(delivery, _hand(7, 7))
    assert len(client.dm.sent) == 1
    # he opened his direct messages and presses My hand a while later: the next hand is
    # tried by direct message, and goes there
    client.dm.closed = False
    now[0] += DM_RETRY_SECONDS
    delivery.discord.asked_for_hand(_hand(7, 8))
    await _deliver(delivery, _hand(7, 9))
    assert client.dm.sent[-1]["content"] == "Your tiles: 6-4"
    # another game tries once again from the start
    client.dm.closed = True
    await _deliver(delivery, _hand(8, 1))
    assert len(client.dm.sent) == 3


async def test_every_board_shown_is_recorded_with_its_move_number(monkeypatch) -> None:
    delivery, client, posts = _delivery(monkeypatch)
    table = Table(("Ana", "**Beto**"))
    for move in (4, 5):
        await _deliver(delivery, Board(7, move, None, table, "**Beto** plays 6-4"))  # type: ignore[arg-type]
    assert posts.shown_at == [(GAME_ROOM, 5)]  # the first was posted: kept with its move
    posted, edited = client.room.sent
    assert "edited" in edited and posts.kept == [(GAME_ROOM, 7, "901", 4)]
    for sent in (posted, edited):
        assert sent["content"] == "\\*\\*Beto\\*\\* plays 6-4"
        allowed = sent["allowed_mentions"]
        assert isinstance(allowed, discord.AllowedMentions)
        assert allowed.to_dict() == {"parse": [], "users": []}


async def test_a_direct_message_hand_that_went_out_after_a_move_loses_its_buttons(
    monkeypatch,
) -> None:
    """Issue 32, 9: discord.py held the direct message back (a 429 it retried itself) and
    Beto played meanwhile from the hand he asked for: once the message is out, its
    buttons go at once (the message edited with no view)."""
    delivery, client, posts = _delivery(monkeypatch)
    client.dm.closed = False
    button = Button("6-4", "play", 7, 3, move="6-4")
    late = replace(_hand(7, 3), buttons=(button,))
    sending = client.dm.send

    async def held_back(content: str = "", **options: object) -> object:
        posts.plies = 4  # the move was made while the message waited
        return await sending(content, **options)

    client.dm.send = held_back  # type: ignore[method-assign]
    await _deliver(delivery, late)
    [sent, edited] = client.dm.sent
    assert sent["content"] == "Your tiles: 6-4" and sent["view"] is not None
    assert edited == {"edited": 901, "view": None}
    # a hand that goes out in its moment keeps its buttons
    client.dm.send = sending  # type: ignore[method-assign]
    await _deliver(delivery, replace(_hand(7, 5), buttons=(button,)))
    assert "edited" not in client.dm.sent[-1]
