"""This process's counters for Prometheus, in a registry of its own (not the library's
global one: each program, and each test, has its own).

Every label value comes from a closed set: the platforms of the doors, the registry's
command names or "unknown" (the service names a command, never what was typed), the
outcomes below. A person typing cannot make a new time series."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Iterator, Mapping

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.doors import retry
from bot.doors.ops.health import Door, Watch

log = logging.getLogger(__name__)
# How a command ended (bot/core/service.py): answered; refused (a popup saying why);
# stale (a press of an earlier moment); the database away; failed (nothing changed)
OUTCOMES = ("ok", "refused", "stale", "unavailable", "error")
PLATFORMS = ("console", "telegram", "discord", "web")
OTHER = "other"  # a platform or outcome not in the lists above (none today)
RETRIED = ("telegram", "discord")  # the platforms whose calls can be tried again
STATUSES = ("lobby", "playing")  # the games counted as active
GAMES_SECONDS = 2.0  # how long counting the games may take at a scrape


class Metrics:
    """The counters, the histogram and the gauges of ``/metrics``."""

    def __init__(self) -> None:
        self.registry = registry = CollectorRegistry()
        self.commands = Counter(
            "domino_commands",
            "Commands handled, by platform, the registry's command name and outcome",
            ("platform", "command", "outcome"),
            registry=registry,
        )
        self.seconds = Histogram(
            "domino_command_seconds",
            "Seconds the service took to answer a command",
            ("platform",),
            registry=registry,
        )
        self.games = Gauge(
            "domino_games_active",
            "Games in the lobby or in play, in the database (all processes), by status",
            ("status",),
            registry=registry,
        )
        self.pending = Gauge(
            "domino_deliveries_pending",
            "Effects this process has queued for a platform and not yet sent",
            ("platform",),
            registry=registry,
        )
        self.viewers = Gauge(
            "domino_web_viewers",
            "Live pages (Server-Sent Events streams) open on this process's web door",
            registry=registry,
        )
        registry.register(RetriesCollector())

    def count_viewers(self, count: Callable[[], int]) -> None:
        """``domino_web_viewers`` reads ``count()`` at each scrape (the web door's open
        streams: the web door knows no Prometheus)."""
        self.viewers.set_function(count)

    def observe(self, platform: str, command: str, outcome: str, seconds: float) -> None:
        """The service's hook: one command handled (GameService(observe=...))."""
        platform = platform if platform in PLATFORMS else OTHER
        outcome = outcome if outcome in OUTCOMES else OTHER
        self.commands.labels(platform, command, outcome).inc()
        self.seconds.labels(platform).observe(seconds)

    async def scrape(self, watch: Watch) -> bytes:
        """The text format, with the gauges read now: the games from the database (the
        last count kept if it does not answer in time), each door's queue."""
        await self._count_games(watch)
        self._count_pending(watch.doors)
        return generate_latest(self.registry)

    async def _count_games(self, watch: Watch) -> None:
        try:
            counted = await asyncio.wait_for(watch.games(), GAMES_SECONDS)
        except Exception as error:  # (TimeoutError, StorageError): the last count stays
            log.info("ops: the games were not counted: %s", type(error).__name__)
            return
        for status in STATUSES:
            self.games.labels(status).set(counted.get(status, 0))

    def _count_pending(self, doors: Mapping[str, Door]) -> None:
        for name, door in doors.items():
            try:
                self.pending.labels(name).set(door.pending())
            except Exception as error:
                log.info("ops: %s's queue was not counted: %s", name, type(error).__name__)


class RetriesCollector(Collector):
    """``domino_platform_retries_total``: the tries again of every platform call in this
    process (bot/doors/retry.py counts them), read at each scrape."""

    def collect(self) -> Iterator[Metric]:
        family = CounterMetricFamily(
            "domino_platform_retries",
            "Platform calls tried again after an error (a 429, the network), by platform",
            labels=("platform",),
        )
        for platform, count in sorted(_retries(RETRIED).items()):
            family.add_metric((platform,), count)
        yield family


def _retries(platforms: Iterable[str]) -> dict[str, int]:
    """Each platform's count (0 for one never retried), anything else as "other"."""
    counts = dict.fromkeys(platforms, 0)
    for platform, count in retry.RETRIES.items():
        key = platform if platform in counts else OTHER
        counts[key] = counts.get(key, 0) + count
    return counts
