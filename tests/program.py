"""The real program (``python -m bot``) as the end-to-end tests run it: in its own
directory (its own SQLite file, no .env), its output in ``bot.log`` there.

It logs at DEBUG, where the libraries write the most (every request's URL), and each
time it stops the log is read for the tokens and the webhook secret it was given: none
may appear, whole, anywhere in it."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

SECRETS = ("TELEGRAM_TOKEN", "DISCORD_TOKEN", "TELEGRAM_WEBHOOK_SECRET")
# how bot/__main__.py starts a log record
RECORD = re.compile(r"^(DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.]+: ")


class Program:
    def __init__(self, home: Path, **env: str) -> None:
        self.home = home
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None
        self.secrets: dict[str, set[str]] = {}  # name: values the log must never show

    def launch(self, platform_env: dict[str, str]) -> None:
        """Start it with the platform's settings, then the test's own (``env``)."""
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{self.home / 'bot.sqlite3'}",
            "LOG_LEVEL": "DEBUG",
            **platform_env,
            **self.env,
        }
        for name in SECRETS:
            if env.get(name):
                self.secrets.setdefault(name, set()).add(env[name])
        log = (self.home / "bot.log").open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot"], cwd=self.home, env=env, stdout=log, stderr=log
        )

    def kill(self) -> None:
        """SIGKILL: no goodbye, as a crash or a power cut."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)
        self.assert_no_secrets()

    async def stop(self) -> int:
        """SIGTERM, as systemd stops it; SIGKILL after 15 s."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            for _ in range(300):
                if self.process.poll() is not None:
                    break
                await asyncio.sleep(0.05)
            else:
                self.process.kill()
        status = self.process.wait(timeout=30)
        self.assert_no_secrets()
        return status

    def assert_no_secrets(self) -> None:
        log = self.log()
        shown = [name for name, values in self.secrets.items() if any(v in log for v in values)]
        assert not shown, f"the log shows {', '.join(shown)}"

    def log(self) -> str:
        path = self.home / "bot.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def tracebacks(self) -> list[str]:
        """The tracebacks in the log but those of DEBUG records (where the libraries
        show the detail of what they handled, such as a webhook request without the
        secret): each from its first line to the next record."""
        found: list[list[str]] = []
        level = ""  # of the record the lines belong to
        inside = False
        for line in self.log().splitlines():
            if record := RECORD.match(line):
                level, inside = record.group(1), False
            elif line.startswith("Traceback (most recent call last)"):
                inside = level != "DEBUG"
                if inside:
                    found.append([])
            if inside:
                found[-1].append(line)
        return ["\n".join(lines) for lines in found]
