"""The real program (``python -m bot``) as the end-to-end tests run it: in its own
directory (its own SQLite file, no .env), its output in ``bot.log`` there."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path


class Program:
    def __init__(self, home: Path, **env: str) -> None:
        self.home = home
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None

    def launch(self, platform_env: dict[str, str]) -> None:
        """Start it with the platform's settings, then the test's own (``env``)."""
        env = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{self.home / 'bot.sqlite3'}",
            "LOG_LEVEL": "WARNING",
            **platform_env,
            **self.env,
        }
        log = (self.home / "bot.log").open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot"], cwd=self.home, env=env, stdout=log, stderr=log
        )

    def kill(self) -> None:
        """SIGKILL: no goodbye, as a crash or a power cut."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

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
        return self.process.wait(timeout=30)

    def log(self) -> str:
        path = self.home / "bot.log"
        return path.read_text(errors="replace") if path.exists() else ""
