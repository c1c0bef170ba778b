"""The fake Discord against the real discord.py 2.7: a client connects, syncs its commands,
answers slash commands, autocomplete and button presses, sends and edits messages with files,
meets closed DMs and a 429, shards, and resumes after its connection drops. The protocol
details discord.py does not exercise (zlib-stream frames, the interaction answer rules, error
shapes) are checked with raw aiohttp requests."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import re
import zlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from PIL import Image

from tests.doors.discord.fake_discord import FakeDiscord

GUILD = 1_180_000_000_000_000_000
CHANNEL = 1_180_000_000_000_000_100
THREAD = 1_180_000_000_000_000_200
ANA = 310_000_000_000_000_001
LUIS = 310_000_000_000_000_002
# two guilds on different shards of 2: (id >> 22) % 2
SHARD0_GUILD = 1000 << 22
SHARD1_GUILD = 1001 << 22


def png(size: int = 8) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (size, size), "green").save(out, "PNG")
    return out.getvalue()


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        server.guild(GUILD, "Dominó del barrio")
        server.text_channel(GUILD, CHANNEL, "partidas")
        server.thread(GUILD, CHANNEL, THREAD, "mesa-1")
        server.member(GUILD, ANA, "Ana")
        server.admin(GUILD, LUIS, "Luis")
        with server.patch_discord():
            yield server


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"domino:join:(?P<game>\d+)"
):
    """A persistent button: it works for any message carrying it, even after a restart."""

    def __init__(self, game: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Unirme", style=discord.ButtonStyle.primary, custom_id=f"domino:join:{game}"
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            content=f"{interaction.user.display_name} se unió a la partida {self.game}"
        )


class TableView(discord.ui.View):
    """The follow-up's view: the persistent join button and a points menu whose callback
    defers the update and then edits the message through @original."""

    def __init__(self, game: int) -> None:
        super().__init__(timeout=None)
        self.add_item(JoinButton(game))

    @discord.ui.select(
        custom_id="domino:points",
        placeholder="Puntos",
        options=[discord.SelectOption(label=str(n), value=str(n)) for n in (100, 150, 200)],
    )
    async def points(
        self, interaction: discord.Interaction, select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"A {select.values[0]} puntos")


class DominoBot:
    """A small bot: /domino new (defer, then a follow-up with a view and a picture),
    /domino join (autocomplete, ephemeral answer with a file) and /domino ping (answer, read
    and edit it through @original, an ephemeral follow-up deleted again)."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.tree = app_commands.CommandTree(client)
        self.seen: list[tuple[str, str]] = []  # (command, locale)
        group = app_commands.Group(name="domino", description="Partidas de dominó")

        @group.command(name="new", description="Nueva partida")
        @app_commands.describe(points="Puntos para ganar")
        async def new(interaction: discord.Interaction, points: int = 100) -> None:
            self.seen.append(("new", str(interaction.locale)))
            await interaction.response.defer()
            await interaction.followup.send(
                f"Partida a {points} puntos",
                view=TableView(7),
                file=discord.File(io.BytesIO(png()), "mesa.png"),
            )

        @group.command(name="join", description="Unirse a una partida")
        async def join(interaction: discord.Interaction, game: str) -> None:
            await interaction.response.send_message(
                f"Te uniste a {game}",
                ephemeral=True,
                file=discord.File(io.BytesIO(b"ficha"), "ficha.txt"),
            )

        @join.autocomplete("game")
        async def games(interaction: discord.Interaction, current: str) -> list[Any]:
            names = ["mesa 1", "mesa 2", "torneo"]
            return [app_commands.Choice(name=n, value=n) for n in names if current in n]

        @group.command(name="invite", description="Invitar a alguien")
        async def invite(interaction: discord.Interaction, player: discord.Member) -> None:
            admin = player.guild_permissions.manage_guild
            await interaction.response.send_message(f"{player.display_name} invitado ({admin})")

        @group.command(name="ping", description="¿Sigues ahí?")
        async def ping(interaction: discord.Interaction) -> None:
            self.seen.append(("ping", str(interaction.guild_id)))
            await interaction.response.send_message("pong")
            original = await interaction.original_response()
            await original.edit(content=f"{original.content}!")
            extra = await interaction.followup.send("solo para ti", ephemeral=True, wait=True)
            await extra.delete()

        self.tree.add_command(group)
        client.add_dynamic_items(JoinButton)


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord, client: discord.Client) -> AsyncIterator[None]:
    task = asyncio.create_task(client.start(fake.token))
    try:
        await fake.wait_for(lambda: client.is_ready() or task.done(), what="on_ready")
        if task.done():
            task.result()
        yield
    finally:
        await client.close()
        await asyncio.wait_for(task, 10)


def plain_client() -> discord.Client:
    return discord.Client(intents=discord.Intents(guilds=True), guild_ready_timeout=0.05)


async def test_ready_sync_slash_followup_and_press(fake: FakeDiscord) -> None:
    client = plain_client()
    bot = DominoBot(client)
    async with running(fake, client):
        # READY and GUILD_CREATE arrived
        guild = client.get_guild(GUILD)
        assert guild is not None and guild.name == "Dominó del barrio"
        assert guild.get_channel(CHANNEL) is not None and guild.get_thread(THREAD) is not None
        assert guild.me is not None and guild.me.guild_permissions.send_messages
        assert client.user is not None and client.user.id == fake.bot_id
        assert fake.identified[0]["intents"] == discord.Intents(guilds=True).value
        assert "shard" not in fake.identified[0]

        synced = await bot.tree.sync()
        assert [c.name for c in synced] == ["domino"]
        assert fake.calls_to("PUT", rf"/applications/{fake.application_id}/commands$")
        [domino] = fake.commands()
        assert [o["name"] for o in domino["options"]] == ["new", "join", "invite", "ping"]

        interaction = fake.slash(GUILD, CHANNEL, ANA, "domino", "new", {"points": 150})
        iid = int(interaction["id"])
        [message] = await fake.wait_for(
            lambda: [m for m in fake.interaction_messages(iid) if m["attachments"]],
            what="the follow-up",
        )
        assert bot.seen == [("new", "es-ES")]
        [answer] = fake.interaction_responses(iid)
        assert answer["type"] == 5 and not answer["ephemeral"]
        # the first follow-up after defer() is the deferred answer itself
        assert message["id"] == answer["message_id"]
        assert message["content"] == "Partida a 150 puntos"
        assert message["flags"] == 0 and message["edited_timestamp"] is None
        [picture] = message["attachments"]
        assert picture["filename"] == "mesa.png" and picture["width"] == 8
        assert fake.file_bytes(picture["id"]) == png()
        controls = {c["custom_id"]: c for row in message["components"] for c in row["components"]}
        assert controls["domino:join:7"]["type"] == 2
        assert [o["value"] for o in controls["domino:points"]["options"]] == ["100", "150", "200"]
        assert fake.messages(CHANNEL)[-1]["id"] == message["id"]

        press = fake.press(GUILD, CHANNEL, LUIS, int(message["id"]), "domino:join:7")
        updated = await fake.wait_for(
            lambda: (m := fake.message(int(message["id"]))) and "se unió" in m["content"] and m,
            what="the button's edit",
        )
        assert updated["content"] == "Luis se unió a la partida 7"
        assert updated["attachments"][0]["id"] == picture["id"]
        assert fake.interaction_responses(int(press["id"]))[0]["type"] == 7

        pick = fake.press(GUILD, CHANNEL, ANA, int(message["id"]), "domino:points", ["200"])
        await fake.wait_for(
            lambda: (fake.message(int(message["id"])) or {}).get("content") == "A 200 puntos",
            what="the select's edit",
        )
        assert fake.interaction_responses(int(pick["id"]))[0]["type"] == 6
        with pytest.raises(ValueError):
            fake.press(GUILD, CHANNEL, ANA, int(message["id"]), "domino:points", ["7"])
        assert fake.gateway_queries[0] == {"v": "10", "encoding": "json", "compress": "zlib-stream"}


async def test_autocomplete_and_ephemeral_answer(fake: FakeDiscord) -> None:
    client = plain_client()
    bot = DominoBot(client)
    async with running(fake, client):
        bot.tree.copy_global_to(guild=discord.Object(GUILD))
        await bot.tree.sync(guild=discord.Object(GUILD))
        assert fake.commands(GUILD) and not fake.commands()

        typed = fake.autocomplete(GUILD, CHANNEL, ANA, "domino", "game", "mesa", "join")
        [answer] = await fake.wait_for(lambda: fake.interaction_responses(int(typed["id"])))
        assert answer["type"] == 8
        assert [c["value"] for c in answer["data"]["choices"]] == ["mesa 1", "mesa 2"]

        used = fake.slash(GUILD, THREAD, ANA, "domino", "join", {"game": "mesa 2"})
        [reply] = await fake.wait_for(lambda: fake.interaction_messages(int(used["id"])))
        assert reply["content"] == "Te uniste a mesa 2" and reply["flags"] & 64
        assert reply["attachments"][0]["filename"] == "ficha.txt"
        assert fake.interaction_responses(int(used["id"]))[0]["files"] == ["ficha.txt"]
        assert fake.messages(THREAD) == []  # ephemeral: not in the channel's history

        invited = fake.slash(GUILD, CHANNEL, ANA, "domino", "invite", {"player": LUIS})
        [invitation] = await fake.wait_for(lambda: fake.interaction_messages(int(invited["id"])))
        assert invitation["content"] == "Luis invitado (True)"
        with pytest.raises(ValueError):
            fake.slash(GUILD, CHANNEL, ANA, "domino", "invite")  # a required option is missing

        pinged = fake.slash(GUILD, CHANNEL, LUIS, "domino", "ping")
        iid = int(pinged["id"])
        await fake.wait_for(lambda: fake.calls_to("DELETE", r"/webhooks/"), what="the delete")
        [answer] = fake.interaction_messages(iid)
        assert answer["content"] == "pong!" and answer["edited_timestamp"] is not None
        assert answer["type"] == 20 and answer["interaction_metadata"]["name"] == "domino ping"
        assert [m["content"] for m in fake.messages(CHANNEL)] == ["Luis invitado (True)", "pong!"]

        with pytest.raises(LookupError):
            fake.slash(GUILD, CHANNEL, ANA, "domino", "nope")


async def test_edit_with_new_attachment_and_history(fake: FakeDiscord) -> None:
    client = plain_client()
    async with running(fake, client):
        channel = client.get_channel(CHANNEL)
        assert isinstance(channel, discord.TextChannel)
        sent = await channel.send("Mano 1", file=discord.File(io.BytesIO(b"1-2 2-2"), "mano.txt"))
        edited = await sent.edit(
            content="Mano 1 (final)",
            attachments=[*sent.attachments, discord.File(io.BytesIO(png(4)), "tablero.png")],
        )
        assert [a.filename for a in edited.attachments] == ["mano.txt", "tablero.png"]
        assert edited.edited_at is not None
        [stored] = fake.messages(CHANNEL)
        assert stored["content"] == "Mano 1 (final)"
        assert [a["size"] for a in stored["attachments"]] == [7, len(png(4))]
        assert stored["attachments"][1]["content_type"] == "image/png"

        dropped = await edited.edit(attachments=[edited.attachments[1]])
        assert [a.filename for a in dropped.attachments] == ["tablero.png"]
        assert [m.content async for m in channel.history(limit=5)] == ["Mano 1 (final)"]
        await channel.typing()
        await dropped.delete()
        assert fake.messages(CHANNEL) == [] and fake.was_deleted(dropped.id)


async def test_a_message_notifies_whom_allowed_mentions_lets_it(fake: FakeDiscord) -> None:
    client = plain_client()
    async with running(fake, client):
        channel = client.get_channel(CHANNEL)
        assert isinstance(channel, discord.TextChannel)
        text = f"@everyone <@{ANA}> <@{LUIS}>"
        everyone = await channel.send(text)  # the library's default: everyone and users
        assert everyone.mention_everyone and {u.id for u in everyone.mentions} == {ANA, LUIS}
        only_ana = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(ANA)])
        sent = await channel.send(text, allowed_mentions=only_ana)
        assert not sent.mention_everyone and [u.id for u in sent.mentions] == [ANA]
        edited = await sent.edit(content=text, allowed_mentions=discord.AllowedMentions.none())
        assert not edited.mention_everyone and edited.mentions == []
        [call] = [c for c in fake.calls if c.method == "PATCH"]
        assert call.json["allowed_mentions"] == {"parse": []}
        # both every user and a list of them: Discord refuses the message
        raw = {"content": text, "allowed_mentions": {"parse": ["users"], "users": [str(ANA)]}}
        with pytest.raises(discord.HTTPException) as refused:
            params = discord.http.MultipartParameters(raw, None, None)
            await client.http.send_message(CHANNEL, params=params)
        assert refused.value.status == 400


async def test_dm_to_closed_dms_is_forbidden(fake: FakeDiscord) -> None:
    fake.close_dms(ANA)
    client = plain_client()
    async with running(fake, client):
        ana = await client.fetch_user(ANA)
        with pytest.raises(discord.Forbidden) as refused:
            await ana.send("Tu turno")
        assert refused.value.code == 50007 and refused.value.status == 403
        luis = await client.fetch_user(LUIS)
        await luis.send("Tu turno")
        assert [m["content"] for m in fake.dm_messages(LUIS)] == ["Tu turno"]
        with pytest.raises(discord.NotFound) as unknown:
            await client.fetch_user(999)
        assert unknown.value.code == 10013


async def test_rate_limit_is_retried_by_discord_py(fake: FakeDiscord) -> None:
    client = plain_client()
    async with running(fake, client):
        channel = client.get_channel(CHANNEL)
        assert isinstance(channel, discord.TextChannel)
        fake.fail("POST", rf"/channels/{CHANNEL}/messages$", retry_after=0.3)
        message = await channel.send("después de esperar")
        calls = fake.calls_to("POST", rf"/channels/{CHANNEL}/messages$")
        assert [c.status for c in calls] == [429, 200]
        assert calls[0].response["retry_after"] == 0.3
        assert [m["id"] for m in fake.messages(CHANNEL)] == [str(message.id)]


@pytest.mark.parametrize("shard_count", [2, None], ids=["given", "from-gateway-bot"])
async def test_auto_sharded_client_identifies_each_shard(
    fake: FakeDiscord, shard_count: int | None
) -> None:
    fake.recommended_shards = 2
    fake.guild(SHARD0_GUILD, "Par")
    fake.text_channel(SHARD0_GUILD, SHARD0_GUILD + 1, "general")
    fake.guild(SHARD1_GUILD, "Impar")
    fake.text_channel(SHARD1_GUILD, SHARD1_GUILD + 1, "general")
    fake.member(SHARD1_GUILD, ANA, "Ana")

    class Sharded(discord.AutoShardedClient):
        async def before_identify_hook(
            self, shard_id: int | None, *, initial: bool = False
        ) -> None:
            return None  # no 5 s pause between shards

    client = Sharded(
        shard_count=shard_count, intents=discord.Intents(guilds=True), guild_ready_timeout=0.05
    )
    bot = DominoBot(client)
    async with running(fake, client):
        assert sorted(i["shard"] for i in fake.identified) == [[0, 2], [1, 2]]
        asked = fake.calls_to("GET", r"^/gateway/bot$")
        assert len(asked) == (0 if shard_count else 1)
        assert sorted(fake.connected_shards()) == [(0, 2), (1, 2)]
        odd, even = client.get_guild(SHARD1_GUILD), client.get_guild(SHARD0_GUILD)
        assert odd is not None and odd.shard_id == 1
        assert even is not None and even.shard_id == 0
        await bot.tree.sync()
        used = fake.slash(SHARD1_GUILD, SHARD1_GUILD + 1, ANA, "domino", "ping")
        await fake.wait_for(lambda: fake.interaction_responses(int(used["id"])))
        assert bot.seen == [("ping", str(SHARD1_GUILD))]


async def test_dropped_connection_resumes(fake: FakeDiscord) -> None:
    client = plain_client()
    bot = DominoBot(client)
    resumed: list[None] = []

    @client.event
    async def on_resumed() -> None:
        resumed.append(None)

    async with running(fake, client):
        await bot.tree.sync()
        session = fake.identified[-1]
        await fake.drop(code=4000)
        # missed while disconnected: replayed on RESUME
        fake.delete_channel(THREAD)
        await fake.wait_for(lambda: resumed, what="on_resumed")
        assert len(fake.identified) == 1 and len(fake.resumed) == 1
        assert fake.resumed[0]["session_id"] and fake.resumed[0]["token"] == session["token"]
        assert client.get_channel(THREAD) is None

        await fake.drop(code=None)  # abruptly: no close frame
        await fake.wait_for(lambda: len(resumed) == 2, what="the second resume")
        used = fake.slash(GUILD, CHANNEL, ANA, "domino", "ping")
        await fake.wait_for(lambda: fake.interaction_responses(int(used["id"])))
        assert len(fake.identified) == 1


async def test_reconnect_request_and_invalidated_session(fake: FakeDiscord) -> None:
    class Quick(discord.Client):
        async def before_identify_hook(
            self, shard_id: int | None, *, initial: bool = False
        ) -> None:
            return None  # no 5 s pause before identifying again

    client = Quick(intents=discord.Intents(guilds=True), guild_ready_timeout=0.05)
    resumed: list[None] = []

    @client.event
    async def on_resumed() -> None:
        resumed.append(None)

    async with running(fake, client):
        fake.request_reconnect()
        await fake.wait_for(lambda: resumed, what="RESUME after RECONNECT")
        fake.invalidate_session()
        await fake.wait_for(
            lambda: len(fake.identified) == 2 and fake.connected_shards() == [None],
            what="a new IDENTIFY",
        )
        assert len(fake.resumed) == 1
        await fake.wait_for(lambda: client.get_guild(GUILD), what="GUILD_CREATE again")


async def test_fetch_routes(fake: FakeDiscord) -> None:
    client = plain_client()
    async with running(fake, client):
        guild = await client.fetch_guild(GUILD)
        assert guild.name == "Dominó del barrio" and guild.approximate_member_count == 3
        luis = await guild.fetch_member(LUIS)
        assert luis.guild_permissions.manage_guild and luis.guild_permissions.manage_channels
        ana = await guild.fetch_member(ANA)
        assert not ana.guild_permissions.manage_guild
        channels = await guild.fetch_channels()
        assert [c.name for c in channels] == ["partidas"]
        thread = await client.fetch_channel(THREAD)
        assert isinstance(thread, discord.Thread) and thread.parent_id == CHANNEL
        info = await client.application_info()
        assert info.id == fake.application_id
        channel = client.get_channel(CHANNEL)
        assert isinstance(channel, discord.TextChannel)
        sent = await channel.send("¿Quién juega?")
        fetched = await channel.fetch_message(sent.id)
        assert fetched.content == "¿Quién juega?" and fetched.author.id == fake.bot_id
        with pytest.raises(discord.NotFound) as missing:
            await channel.fetch_message(1)
        assert missing.value.code == 10008
        fake.lock_channel(CHANNEL)
        with pytest.raises(discord.Forbidden) as locked:
            await channel.send("no puedo")
        assert locked.value.code == 50013


async def test_live_events_and_message_content_intent(fake: FakeDiscord) -> None:
    intents = discord.Intents(guilds=True, members=True, guild_messages=True)
    client = discord.Client(intents=intents, guild_ready_timeout=0.05)
    seen: list[discord.Message] = []
    updated: list[discord.Member] = []

    @client.event
    async def on_message(message: discord.Message) -> None:
        seen.append(message)

    @client.event
    async def on_member_update(before: discord.Member, after: discord.Member) -> None:
        updated.append(after)

    async with running(fake, client):
        guild = client.get_guild(GUILD)
        assert guild is not None and guild.member_count == 3 and len(guild.members) == 3
        fake.text_channel(GUILD, CHANNEL + 1, "charla")
        fake.thread(GUILD, CHANNEL + 1, THREAD + 1, "mesa-2")
        await fake.wait_for(lambda: guild.get_thread(THREAD + 1), what="THREAD_CREATE")
        assert guild.get_channel(CHANNEL + 1) is not None
        fake.delete_channel(CHANNEL + 1)
        await fake.wait_for(lambda: guild.get_channel(CHANNEL + 1) is None, what="CHANNEL_DELETE")

        role = fake.role(GUILD, 4242, "Campeones", 0)
        fake.update_member(GUILD, ANA, roles=[int(role["id"])], nick="Anita")
        [ana] = await fake.wait_for(lambda: updated, what="GUILD_MEMBER_UPDATE")
        assert ana.nick == "Anita" and [r.name for r in ana.roles[1:]] == ["Campeones"]

        fake.post(CHANNEL, ANA, "hola a todos")
        fake.post(CHANNEL, ANA, f"<@{fake.bot_id}> hola bot")
        await fake.wait_for(lambda: len(seen) == 2, what="two MESSAGE_CREATE")
        # no MESSAGE_CONTENT intent: only messages mentioning the bot keep their content
        assert [m.content for m in seen] == ["", f"<@{fake.bot_id}> hola bot"]


# ---- the protocol without discord.py


async def _receive(ws: aiohttp.ClientWebSocketResponse, inflate: Any) -> dict[str, Any]:
    buffer = b""
    while True:
        msg = await asyncio.wait_for(ws.receive(), 5)
        assert msg.type is aiohttp.WSMsgType.BINARY, msg
        buffer += msg.data
        if buffer.endswith(b"\x00\x00\xff\xff"):
            return json.loads(inflate.decompress(buffer))


async def test_raw_gateway_and_interaction_rules(fake: FakeDiscord) -> None:
    fake.interaction_deadline = 0.2
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession() as http:
        url = f"{fake.gateway_url}?v=10&encoding=json&compress=zlib-stream"
        async with http.ws_connect(url) as ws:
            inflate = zlib.decompressobj()
            hello = await _receive(ws, inflate)
            assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] == 41250
            await ws.send_json({"op": 1, "d": None})
            assert (await _receive(ws, inflate))["op"] == 11
            identify = {"token": fake.token, "intents": 1, "properties": {}}
            await ws.send_json({"op": 2, "d": identify})
            ready = await _receive(ws, inflate)
            assert (ready["t"], ready["s"]) == ("READY", 1)
            assert ready["d"]["guilds"] == [{"id": str(GUILD), "unavailable": True}]
            created = await _receive(ws, inflate)
            assert (created["t"], created["s"]) == ("GUILD_CREATE", 2)
            assert created["d"]["member_count"] == 3 and len(created["d"]["members"]) == 1

            api = fake.api_base
            command = {"name": "domino", "description": "Dominó", "options": []}
            async with http.put(
                f"{api}/applications/{fake.application_id}/commands",
                json=[command],
                headers=headers,
            ) as answer:
                assert answer.headers["Content-Type"] == "application/json"
                assert answer.headers["X-RateLimit-Bucket"]
                [stored] = await answer.json()
                assert stored["id"] and stored["application_id"] == str(fake.application_id)

            payload = fake.slash(GUILD, CHANNEL, ANA, "domino")
            event = await _receive(ws, inflate)
            assert event["t"] == "INTERACTION_CREATE" and event["d"] == payload
            assert payload["member"]["permissions"] and payload["guild_locale"] == "es-ES"
            callback = f"{api}/interactions/{payload['id']}/{payload['token']}/callback"
            body = {"type": 4, "data": {"content": "hola", "flags": 64}}
            async with http.post(callback, json=body, params={"with_response": "true"}) as answer:
                assert answer.status == 200
                result = await answer.json()
                assert result["interaction"]["response_message_ephemeral"] is True
                assert result["resource"]["message"]["content"] == "hola"
            async with http.post(callback, json=body) as answer:
                assert answer.status == 400
                assert await answer.json() == {
                    "message": "Interaction has already been acknowledged.",
                    "code": 40060,
                }

            async with http.ws_connect(url) as intruder:
                await _receive(intruder, zlib.decompressobj())  # HELLO
                await intruder.send_json({"op": 2, "d": {**identify, "token": "wrong"}})
                closing = await asyncio.wait_for(intruder.receive(), 5)
                assert (closing.type, closing.data) == (aiohttp.WSMsgType.CLOSE, 4004)

            late = fake.slash(GUILD, CHANNEL, ANA, "domino")
            await asyncio.sleep(0.25)
            callback = f"{api}/interactions/{late['id']}/{late['token']}/callback"
            async with http.post(callback, json={"type": 5}) as answer:
                assert (answer.status, await answer.json()) == (
                    404,
                    {"message": "Unknown interaction", "code": 10062},
                )

        fake.slow(r"^/gateway$", 0.1)
        started = asyncio.get_running_loop().time()
        async with http.get(f"{fake.api_base}/gateway") as answer:
            assert await answer.json() == {"url": fake.gateway_url}
        assert asyncio.get_running_loop().time() - started >= 0.1
        async with http.get(f"{fake.api_base}/nothing/here", headers=headers) as answer:
            assert answer.status == 404
            assert await answer.json() == {"message": "404: Not Found", "code": 0}
        async with http.get(
            f"{fake.api_base}/users/@me", headers={"Authorization": "Bot wrong"}
        ) as answer:
            assert answer.status == 401
            assert await answer.json() == {"message": "401: Unauthorized", "code": 0}
        fake.fail("GET", r"^/users/@me$", retry_after=2.5)
        async with http.get(f"{fake.api_base}/users/@me", headers=headers) as answer:
            assert answer.status == 429
            assert answer.headers["Via"] == "1.1 google"
            assert answer.headers["Retry-After"] == "3"
            assert answer.headers["X-RateLimit-Remaining"] == "0"
            assert answer.headers["X-RateLimit-Scope"] == "user"
            assert await answer.json() == {
                "message": "You are being rate limited.",
                "retry_after": 2.5,
                "global": False,
            }
        too_long = {"content": "x" * 2001}
        async with http.post(
            f"{fake.api_base}/channels/{CHANNEL}/messages", json=too_long, headers=headers
        ) as answer:
            error = await answer.json()
            assert (answer.status, error["code"]) == (400, 50035)
            assert error["errors"]["content"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"


async def test_link_buttons_as_discord_takes_them(fake: FakeDiscord) -> None:
    """A link button (style 5) carries a url of http, https or discord and no custom_id;
    any other button no url; a link button never comes back as an interaction."""
    headers = {"Authorization": f"Bot {fake.token}"}
    url = f"{fake.api_base}/channels/{CHANNEL}/messages"

    def row(*buttons: dict[str, Any]) -> dict[str, Any]:
        return {"content": "board", "components": [{"type": 1, "components": list(buttons)}]}

    watch = {"type": 2, "style": 5, "label": "Watch", "url": "https://domino.example.org/g/k"}
    press = {"type": 2, "style": 2, "label": "Board", "custom_id": "dom:c:1:board"}
    async with aiohttp.ClientSession() as http:
        async with http.post(url, json=row(press, watch), headers=headers) as answer:
            assert answer.status == 200, await answer.json()
            sent = await answer.json()
        wrong = [
            ({**watch, "custom_id": "dom:c:1:watch"}, "custom_id"),
            ({k: v for k, v in watch.items() if k != "url"}, "url"),
            ({**watch, "url": "ftp://domino.example.org/g/k"}, "url"),
            ({**watch, "url": "https://x.org/" + "a" * 600}, "url"),
            ({**press, "url": "https://domino.example.org/g/k"}, "url"),
        ]
        for button, field in wrong:
            async with http.post(url, json=row(button), headers=headers) as answer:
                error = await answer.json()
                assert (answer.status, error["code"]) == (400, 50035), button
                assert field in error["errors"]["components"]["0"]["components"]["0"], error
    stored = fake.message(int(sent["id"]))
    assert stored is not None
    kinds = [c.get("custom_id") for r in stored["components"] for c in r["components"]]
    assert kinds == ["dom:c:1:board", None]
    with pytest.raises(LookupError):  # a link button has no custom id to press
        fake.press(GUILD, CHANNEL, ANA, int(sent["id"]), "https://domino.example.org/g/k")


async def test_discord_py_sends_a_link_button_without_a_custom_id(fake: FakeDiscord) -> None:
    client = discord.Client(intents=discord.Intents.none())
    async with client:
        await client.login(fake.token)
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="Watch", url="https://domino.example.org/g/k"))
        view.stop()
        message = await client.get_partial_messageable(CHANNEL).send("board", view=view)
    found = fake.message(message.id)
    assert found is not None
    [stored] = [c for r in found["components"] for c in r["components"]]
    assert stored["style"] == 5 and "custom_id" not in stored
    assert stored["url"] == "https://domino.example.org/g/k"
