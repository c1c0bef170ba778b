"""WEB_HOST, WEB_PORT and PUBLIC_URL (issue 34): read from the environment, checked at
start with one clear line when wrong."""

from __future__ import annotations

import pytest

from bot.doors.config import SettingsError, load_settings


def read(monkeypatch: pytest.MonkeyPatch, **env: str):  # type: ignore[no-untyped-def]
    monkeypatch.chdir("/")  # no .env
    for key in ("WEB_HOST", "WEB_PORT", "PUBLIC_URL"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return load_settings()


def test_the_defaults_serve_on_this_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = read(monkeypatch)
    assert (settings.web_host, settings.web_port, settings.public_url) == ("127.0.0.1", 8080, "")
    assert settings.web_base() == "http://127.0.0.1:8080"


@pytest.mark.parametrize("off", ["off", "OFF", "0", "no"])
def test_web_port_off_serves_no_pages(monkeypatch: pytest.MonkeyPatch, off: str) -> None:
    assert read(monkeypatch, WEB_PORT=off).web_port is None


def test_public_url_makes_the_links(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = read(monkeypatch, WEB_PORT="9000", PUBLIC_URL="https://domino.example.org/club/")
    assert settings.web_port == 9000
    assert settings.web_base() == "https://domino.example.org/club"


@pytest.mark.parametrize(
    ("env", "wrong"),
    [
        ({"WEB_PORT": "70000"}, "WEB_PORT: is a port from 1 to 65535, or off"),
        ({"WEB_PORT": "http"}, "WEB_PORT: is a port"),
        ({"PUBLIC_URL": "domino.example.org"}, "PUBLIC_URL: is the address people reach"),
        ({"PUBLIC_URL": "ftp://domino.example.org"}, "PUBLIC_URL"),
        ({"PUBLIC_URL": "https://user:pw@domino.example.org"}, "PUBLIC_URL"),
        ({"PUBLIC_URL": "https://domino.example.org/?a=1"}, "PUBLIC_URL"),
        ({"PUBLIC_URL": "https://domino.example.org:99999"}, "PUBLIC_URL"),
    ],
)
def test_wrong_web_settings_stop_the_program_with_one_line(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], wrong: str
) -> None:
    with pytest.raises(SettingsError, match=wrong) as refused:
        read(monkeypatch, **env)
    assert "\n" not in str(refused.value) and "pw" not in str(refused.value)
