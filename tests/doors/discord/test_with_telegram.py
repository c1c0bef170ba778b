"""One process serving Discord and Telegram at once (both tokens in .env): each platform's
commands are answered on it, and each timer's effects go to the platform of its room."""

from __future__ import annotations

from pathlib import Path

from tests.doors.discord.driver import CHANNEL, GUILD, BotProcess, custom_ids
from tests.doors.discord.driver import Table as DiscordTable
from tests.doors.discord.fake_discord import FakeDiscord
from tests.doors.telegram.driver import GROUP
from tests.doors.telegram.driver import Table as TelegramTable
from tests.doors.telegram.driver import buttons as telegram_buttons
from tests.doors.telegram.fake_api import FakeTelegram


async def test_one_process_serves_both_platforms_and_their_timers(tmp_path: Path) -> None:
    async with FakeDiscord() as discord, FakeTelegram() as telegram:
        discord.guild(GUILD, "Dominó del barrio", locale="en-US")
        discord.text_channel(GUILD, CHANNEL, "dominoes")
        telegram.group(GROUP, "Dominó del barrio")
        process = BotProcess(
            discord,
            tmp_path,
            TELEGRAM_TOKEN=telegram.token,
            TELEGRAM_BASE_URL=telegram.base_url,
            TELEGRAM_BASE_FILE_URL=telegram.base_file_url,
            TELEGRAM_POLL_TIMEOUT="1",
            TELEGRAM_GROUP_RATE="6000",
        )
        await process.start()
        try:
            await telegram.wait_calls("getUpdates", timeout=30)
            there = TelegramTable(telegram)
            there.person("Ana", 601)
            there.person("Beto", 602)
            here = DiscordTable(discord)
            here.person("Carla", 603)
            here.person("Dani", 604)
            await there.start_game("/new draw 500")
            await here.start_game({"preset": "draw", "target": 500})
            # a hand played out on each; nobody presses "Next hand": the timers deal
            await there.play_out(until_hand_end=True)
            await here.play_out(until_hand_end=True)
            dealt_there = await telegram.wait_for(
                lambda: any(d.endswith("|hand") for d in telegram_buttons(there.board() or {})),
                timeout=30,
                what="the next Telegram hand, dealt by its timer",
            )
            dealt_here = await discord.wait_for(
                lambda: any(c.endswith(":hand") for c in custom_ids(here.board() or {})),
                timeout=30,
                what="the next Discord hand, dealt by its timer",
            )
            assert dealt_there and dealt_here
            await a_telegram_user_cannot_reach_the_discord_game(process, telegram)
        finally:
            await process.stop()
        assert "Traceback" not in process.log(), process.log()


async def a_telegram_user_cannot_reach_the_discord_game(
    process: BotProcess, telegram: FakeTelegram
) -> None:
    """Issue 32, 3: data from one platform never names another platform's room or person.
    A Telegram user asks for the hand of the Discord game (the deep link, and a forged
    press in their private chat): "no such game", and nobody is stored for Discord with
    their Telegram id or handle."""
    [discord_game] = process.query(
        "SELECT games.id FROM games JOIN rooms ON rooms.id = games.room_id "
        "JOIN communities ON communities.id = rooms.community_id "
        "WHERE communities.platform = 'discord' ORDER BY games.id DESC LIMIT 1"
    )
    game_id = discord_game["id"]
    eve = telegram.user(605, "Eve", "en", username="carla")
    before = len(telegram.sent_to(605))
    telegram.send_message(605, eve, f"/start h{game_id}")
    answered = await telegram.wait_for(
        lambda: telegram.sent_to(605)[before:], what="an answer to the deep link"
    )
    assert "over or gone" in answered[-1]["text"], answered
    said = len(telegram.sent_to(605))
    answers = len(telegram.calls_to("answerCallbackQuery"))
    telegram.press(605, eve, answered[-1]["message_id"], f"c|{game_id}|-|hand", strict=False)
    await telegram.wait_for(
        lambda: len(telegram.calls_to("answerCallbackQuery")) > answers, what="the press answered"
    )
    stored = process.query("SELECT platform, handle FROM users WHERE platform_id = '605'")
    assert [tuple(r) for r in stored] in ([], [("telegram", "carla")]), [tuple(r) for r in stored]
    # Discord's own Carla is still the only Carla there
    assert [r["platform_id"] for r in process.query(
        "SELECT platform_id FROM users WHERE platform = 'discord' AND handle = 'carla'"
    )] in ([], ["603"])  # fmt: skip
    assert len(telegram.sent_to(605)) >= said  # (the press is answered by a popup)
    for call in telegram.calls_to("answerCallbackQuery")[-1:]:
        assert "over or gone" in (call.params.get("text") or ""), call.params
