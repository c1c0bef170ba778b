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
    ],
)
def test_a_bad_setting_is_one_line(monkeypatch, env: dict[str, str], said: str) -> None:
    monkeypatch.chdir("/")  # no .env
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SettingsError) as refused:
        load_settings()
    assert said in str(refused.value) and "\n" not in str(refused.value), refused.value


def test_good_values_are_read_as_meant(monkeypatch) -> None:
    monkeypatch.chdir("/")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    monkeypatch.setenv("CONSOLE_LANGUAGE", "EN")
    monkeypatch.setenv("CONSOLE_NAME", "  Ana   María ")
    settings = load_settings()
    assert (settings.log_level, settings.console_language, settings.console_name) == (
        "DEBUG", "en", "Ana María",
    )  # fmt: skip
