"""The fake Bot API driven by the real python-telegram-bot: if PTB is happy with its answers, the
bot's end-to-end tests exercise the same code paths as production."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web
from PIL import Image
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeChat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputMediaPhoto,
    InputTextMessageContent,
    Update,
)
from telegram.error import BadRequest, Conflict, Forbidden, RetryAfter
from telegram.ext import (
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

from tests.doors.telegram.fake_api import FakeTelegram

TOKEN = "123:TEST"
GROUP = -1001234567890


def png(width: int, height: int, color: str = "green") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, "PNG")
    return out.getvalue()


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(TOKEN, username="DominoTestBot") as fake:
        fake.group(GROUP, "Mesa 1")
        fake.user(11, "Ana")
        fake.user(22, "Beto", language_code="en")
        yield fake


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    async with Bot(TOKEN, base_url=tg.base_url, base_file_url=tg.base_file_url) as bot:
        yield bot


async def test_polling_application_runs_commands_and_buttons(tg: FakeTelegram) -> None:
    pressed: list[str] = []

    async def new_game(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Sentarse", callback_data="sit:1")]])
        await update.effective_chat.send_message("Partida nueva", reply_markup=keyboard)

    async def on_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None and query.data is not None
        pressed.append(query.data)
        await query.answer("Sentado", show_alert=True)

    app = (
        ApplicationBuilder()
        .token(TOKEN)
        .base_url(tg.base_url)
        .base_file_url(tg.base_file_url)
        .build()
    )
    app.add_handler(CommandHandler("new", new_game))
    app.add_handler(CallbackQueryHandler(on_button))
    await app.initialize()
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0.05, timeout=1)
    try:
        # Privacy mode: neither chatter nor another bot's command reaches this bot.
        tg.send_message(GROUP, 11, "hola a todos")
        tg.send_message(GROUP, 11, "/new@OtherBot")
        tg.send_message(GROUP, 11, "/new@DominoTestBot")
        await tg.wait_calls("sendMessage", 1)
        [sent] = tg.sent_to(GROUP)
        assert sent["text"] == "Partida nueva"
        assert sent["message_id"] == 1003  # per-chat ids, shared with the users' messages
        assert sent["from"]["username"] == "DominoTestBot"
        button = sent["reply_markup"]["inline_keyboard"][0][0]
        assert button == {"text": "Sentarse", "callback_data": "sit:1"}

        tg.press(GROUP, 22, sent["message_id"], "sit:1")
        [answer] = await tg.wait_for(tg.answered_callbacks)
        assert pressed == ["sit:1"]
        assert answer["text"] == "Sentado" and answer["show_alert"] is True
        assert len(tg.calls_to("sendMessage")) == 1
    finally:
        await app.updater.stop()
        await app.stop()
        await app.shutdown()
    assert not tg.pending_updates()  # PTB confirmed everything on the way out


async def test_get_updates_long_polls_and_confirms(tg: FakeTelegram, bot: Bot) -> None:
    poll = asyncio.create_task(bot.get_updates(timeout=3))
    await asyncio.sleep(0.1)
    started = asyncio.get_running_loop().time()
    tg.send_message(tg.private(11), 11, "/start")
    [update] = await poll
    assert asyncio.get_running_loop().time() - started < 1  # answered as soon as it arrived
    assert update.message is not None and update.message.text == "/start"
    assert update.message.entities[0].type == "bot_command"
    # Not confirmed yet: asked again it comes back; with a later offset it is gone.
    assert [u.update_id for u in await bot.get_updates()] == [update.update_id]
    assert await bot.get_updates(offset=update.update_id + 1) == ()
    assert not tg.pending_updates()
    # chat_member updates are opt-in, like in Telegram.
    tg.chat_member_update(GROUP, 11, "left", "member", member=22)
    assert await bot.get_updates() == ()
    tg.chat_member_update(GROUP, 11, "member", "left", member=22)
    [update] = await bot.get_updates(allowed_updates=["chat_member"])
    assert update.chat_member is not None
    assert update.chat_member.new_chat_member.status == "left"


async def test_photos_edits_and_not_modified(tg: FakeTelegram, bot: Bot) -> None:
    board = png(1600, 800)
    message = await bot.send_photo(GROUP, board, caption="<b>Mano</b> 1", parse_mode="HTML")
    assert message.caption == "Mano 1" and message.caption_entities[0].type == "bold"
    largest = message.photo[-1]
    assert (largest.width, largest.height) == (1280, 640)  # Telegram scales down big photos
    assert tg.file_bytes(largest.file_id) == board
    file = await bot.get_file(largest.file_id)
    assert await file.download_as_bytearray() == board

    new_board = png(64, 32, "white")
    edited = await bot.edit_message_media(
        InputMediaPhoto(new_board, caption="Mano 2"), chat_id=GROUP, message_id=message.message_id
    )
    assert isinstance(edited, type(message)) and edited.caption == "Mano 2"
    assert (edited.photo[-1].width, edited.photo[-1].height) == (64, 32)
    call = tg.calls_to("editMessageMedia")[-1]
    attach = call.params["media"]["media"]
    assert attach.startswith("attach://") and call.files[attach.removeprefix("attach://")]
    assert tg.sent_to(GROUP)[0]["caption"] == "Mano 2"
    assert tg.edits(GROUP, message.message_id)[0]["caption"] == "Mano 1"

    text = await bot.send_message(GROUP, "Turno de <i>Ana</i>", parse_mode="HTML")
    assert text.text == "Turno de Ana"
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_text(
            "Turno de <i>Ana</i>", chat_id=GROUP, message_id=text.message_id, parse_mode="HTML"
        )
    with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
        await bot.edit_message_text("x", chat_id=GROUP, message_id=99)
    with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
        await bot.send_message(GROUP, "1 < 2", parse_mode="HTML")
    assert await bot.delete_message(GROUP, text.message_id)
    assert tg.was_deleted(GROUP, text.message_id)
    with pytest.raises(BadRequest, match=r"(?i)message to delete not found"):
        await bot.delete_message(GROUP, text.message_id)


# PTB itself warns when it builds RetryAfter with an int, which is what the Bot API sends.
@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_faults_surface_as_ptb_errors(tg: FakeTelegram, bot: Bot) -> None:
    tg.fail("sendMessage", retry_after=1)
    with pytest.raises(RetryAfter):
        await bot.send_message(GROUP, "hola")
    assert tg.calls_to("sendMessage")[0].response == {
        "ok": False,
        "error_code": 429,
        "description": "Too Many Requests: retry after 1",
        "parameters": {"retry_after": 1},
    }
    assert (await bot.send_message(GROUP, "hola")).text == "hola"  # only `times` calls fail
    assert [c.injected for c in tg.calls_to("sendMessage")][-2:] == [True, False]

    with pytest.raises(Forbidden, match=r"(?i)can't initiate conversation"):
        await bot.send_message(11, "tus fichas")
    tg.send_message(tg.private(11), 11, "/start")
    assert (await bot.send_message(11, "tus fichas")).chat.type == "private"
    tg.block(11)
    with pytest.raises(Forbidden, match=r"(?i)blocked by the user"):
        await bot.send_message(11, "tus fichas")

    removed = tg.remove_bot(GROUP)
    assert removed["new_chat_member"]["status"] == "left"
    with pytest.raises(Forbidden, match=r"(?i)kicked from the supergroup chat"):
        await bot.send_message(GROUP, "hola")
    update = (await bot.get_updates())[-1]  # after Ana's /start
    assert update.my_chat_member is not None

    tg.slow("getMe", 0.3)
    started = asyncio.get_running_loop().time()
    await bot.get_me()
    assert asyncio.get_running_loop().time() - started >= 0.3
    tg.slow("getMe", 0)
    tg.slow("*", 0.2)  # every method
    started = asyncio.get_running_loop().time()
    await bot.get_chat(GROUP)
    assert asyncio.get_running_loop().time() - started >= 0.2
    tg.slow("*", 0)


async def test_raw_protocol(tg: FakeTelegram) -> None:
    async with aiohttp.ClientSession() as http:
        # A JSON body works like PTB's urlencoded one.
        async with http.post(
            f"{tg.base_url}{TOKEN}/sendMessage", json={"chat_id": GROUP, "text": "json"}
        ) as response:
            assert response.content_type == "application/json"
            body = await response.json()
            assert body["ok"] is True and body["result"]["text"] == "json"
        async with http.post(f"{tg.base_url}{TOKEN}/frobnicate") as response:
            assert response.status == 404
            assert await response.json() == {
                "ok": False,
                "error_code": 404,
                "description": "Not Found: method not found",
            }
        async with http.post(f"{tg.base_url}456:WRONG/getMe") as response:
            assert response.status == 401
            assert (await response.json())["description"] == "Unauthorized"


async def test_settings_members_and_inline_queries(tg: FakeTelegram, bot: Bot) -> None:
    me = await bot.get_me()
    assert me.username == "DominoTestBot" and me.supports_inline_queries
    assert me.can_read_all_group_messages is False
    await bot.set_my_commands([BotCommand("new", "Nueva partida")], language_code="es")
    await bot.set_my_commands([BotCommand("new", "New game")], scope=BotCommandScopeChat(GROUP))
    assert [c.description for c in await bot.get_my_commands(language_code="es")] == [
        "Nueva partida"
    ]
    assert await bot.get_my_commands() == ()
    assert await bot.set_my_description("Dominó")

    tg.set_admins(GROUP, [22, tg.bot_id])
    owner, admin = await bot.get_chat_administrators(GROUP)
    assert (owner.status, owner.user.id, admin.status) == ("creator", 22, "administrator")
    assert (await bot.get_chat_member(GROUP, 11)).status == "member"
    chat = await bot.get_chat(GROUP)
    assert chat.title == "Mesa 1"

    query = tg.inline_query(11, "partida")
    [update] = await bot.get_updates()
    assert update.inline_query is not None and update.inline_query.query == "partida"
    result = InlineQueryResultArticle("1", "Jugar", InputTextMessageContent("¡A jugar!"))
    assert await bot.answer_inline_query(query["id"], [result])
    assert tg.inline_answers[query["id"]]["results"][0]["title"] == "Jugar"
    with pytest.raises(BadRequest, match=r"(?i)query id is invalid"):
        await bot.answer_inline_query(query["id"], [result])


async def test_webhook_delivers_with_secret(tg: FakeTelegram, bot: Bot) -> None:
    received: list[tuple[str | None, dict[str, object]]] = []

    async def endpoint(request: web.Request) -> web.Response:
        received.append(
            (request.headers.get("X-Telegram-Bot-Api-Secret-Token"), await request.json())
        )
        return web.Response()

    app = web.Application()
    app.router.add_post("/hook", endpoint)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        url = f"http://127.0.0.1:{runner.addresses[0][1]}/hook"
        assert await bot.set_webhook(url, secret_token="s3cr3t")
        tg.send_message(GROUP, 11, "/new@DominoTestBot")
        [(secret, update)] = await tg.wait_for(lambda: received)
        assert secret == "s3cr3t"
        assert Update.de_json(update, bot).message.text == "/new@DominoTestBot"  # type: ignore[arg-type,union-attr]
        info = await bot.get_webhook_info()
        assert info.url == url and info.pending_update_count == 0
        with pytest.raises(Conflict):
            await bot.get_updates()
        assert await bot.delete_webhook()
        assert (await bot.get_webhook_info()).url == ""
    finally:
        await runner.cleanup()


async def test_url_buttons_as_telegram_takes_them(tg: FakeTelegram, bot: Bot) -> None:
    """A URL button opens its address in the user's client: the message keeps its text and
    url only (a callback_data beside it is dropped, as the Bot API reads url first), it
    can never be pressed as a callback, and an address Telegram refuses is a 400."""
    watch = InlineKeyboardButton("Watch", url="https://domino.example.org/g/abc")
    press = InlineKeyboardButton("Board", callback_data="c|1|board")
    sent = await bot.send_message(
        GROUP, "Board", reply_markup=InlineKeyboardMarkup([[press], [watch]])
    )
    keyboard = sent.reply_markup
    assert keyboard is not None
    assert keyboard.inline_keyboard[1][0].url == "https://domino.example.org/g/abc"
    stored = tg.sent_to(GROUP)[-1]["reply_markup"]["inline_keyboard"]
    assert stored[1] == [{"text": "Watch", "url": "https://domino.example.org/g/abc"}]
    both = {"text": "Watch", "url": "https://domino.example.org/g/abc", "callback_data": "c|1|x"}
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{tg.base_url}{TOKEN}/sendMessage",
            json={"chat_id": GROUP, "text": "x", "reply_markup": {"inline_keyboard": [[both]]}},
        ) as answer,
    ):
        result = (await answer.json())["result"]
    assert result["reply_markup"]["inline_keyboard"] == [[_without_data(both)]]
    with pytest.raises(ValueError, match="no button with callback_data"):
        tg.press(GROUP, 11, result["message_id"], "c|1|x")
    for wrong, why in (
        ("http://localhost:8080/g/abc", "Wrong HTTP URL"),
        ("http://domino/g/abc", "Wrong HTTP URL"),
        ("ftp://domino.example.org/g/abc", "Unsupported URL protocol"),
    ):
        bad = InlineKeyboardMarkup([[InlineKeyboardButton("Watch", url=wrong)]])
        with pytest.raises(BadRequest, match=f"(?i){why}"):
            await bot.send_message(GROUP, "x", reply_markup=bad)
        with pytest.raises(BadRequest, match=f"(?i){why}"):
            await bot.edit_message_text(
                "y", chat_id=GROUP, message_id=sent.message_id, reply_markup=bad
            )


def _without_data(button: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in button.items() if k != "callback_data"}
