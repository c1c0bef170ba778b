"""Bad settings get one clear line (issue 33, 12): a log level, the console's language or
its person's name that cannot be are refused at start, naming what can be."""

from __future__ import annotations

import pytest

from bot.doors.config import SettingsError, load_settings


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL: is one of DEBUG, INFO, WARNING, ERROR, CRITICAL"),
        ({"CONSOLE_LANGUAGE": "xx"}, "CONSOLE_LANGUAGE: is one of es, en, pt"),
        ({"CONSOLE_NAME": "/as"}, "CONSOLE_NAME: is a person's name"),
        ({"CONSOLE_NAME": "x" * 41}, "CONSOLE_NAME: is a person's name"),
        ({"CONSOLE_NAME": "Computadora 2 (fácil)"}, "CONSOLE_NAME: is a person's name"),
        ({"TELEGRAM_TOKEN": "abc"}, "TELEGRAM_TOKEN: is the token BotFather gave the bot"),
        ({"TELEGRAM_TOKEN": "   "}, "TELEGRAM_TOKEN: is the token BotFather gave the bot"),
        ({"TELEGRAM_TOKEN": "987654:"}, "TELEGRAM_TOKEN: is the token BotFather gave the bot"),
        ({"TELEGRAM_TOKEN": "bot987654:ZZF-x"}, "TELEGRAM_TOKEN: is the token BotFather"),
        ({"TELEGRAM_TOKEN": "987654:ZZF x"}, "TELEGRAM_TOKEN: is the token BotFather gave the bot"),
        ({"TELEGRAM_TOKEN": '"987654:ZZF-secret"'}, "TELEGRAM_TOKEN: is the token BotFather"),
        ({"DISCORD_TOKEN": "  "}, "DISCORD_TOKEN: is the bot's token from the Developer Portal"),
        ({"DISCORD_TOKEN": "MTA0 NTk2.x.y"}, "DISCORD_TOKEN: is the bot's token"),
        ({"DISCORD_TOKEN": "MTA0NTk2.x.yñ"}, "DISCORD_TOKEN: is the bot's token"),
    ],
)
def test_a_bad_setting_is_one_line(monkeypatch, env: dict[str, str], said: str) -> None:
    monkeypatch.chdir("/")  # no .env
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SettingsError) as refused:
        load_settings()
    assert said in str(refused.value) and "\n" not in str(refused.value), refused.value
    for key in ("TELEGRAM_TOKEN", "DISCORD_TOKEN"):  # a token: its last four at most
        token = env.get(key, "").strip()
        assert len(token) <= 4 or token[:-4] not in str(refused.value), refused.value


def test_tokens_of_every_shape_they_come_in_are_taken(monkeypatch) -> None:
    monkeypatch.chdir("/")
    monkeypatch.setenv("TELEGRAM_TOKEN", " 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw \n")
    monkeypatch.setenv("DISCORD_TOKEN", "MTA0NTk2.FAKE.discord-test_token")
    settings = load_settings()
    assert settings.telegram_token == "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
    assert settings.discord_token == "MTA0NTk2.FAKE.discord-test_token"
    monkeypatch.setenv("TELEGRAM_TOKEN", "")  # unset: no Telegram, no Discord
    monkeypatch.setenv("DISCORD_TOKEN", "")
    assert (load_settings().telegram_token, load_settings().discord_token) == ("", "")


def test_good_values_are_read_as_meant(monkeypatch) -> None:
    monkeypatch.chdir("/")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    monkeypatch.setenv("CONSOLE_LANGUAGE", "EN")
    monkeypatch.setenv("CONSOLE_NAME", "  Ana   María ")
    settings = load_settings()
    assert (settings.log_level, settings.console_language, settings.console_name) == (
        "DEBUG", "en", "Ana María",
    )  # fmt: skip
