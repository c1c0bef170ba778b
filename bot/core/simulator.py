"""A whole tournament through the real service and a temporary database, computer
players at every seat and a simulated clock: for tests, and for organisers who want to
see what a format and a clock give. Every table plays a hand per ``hand_minutes`` of the
simulated clock, all tables at once, as in a hall."""

from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.core.model import Command, Effect, Elsewhere, OpenTables, Person, Place, TableTold
from bot.core.posts import Posts
from bot.core.service import GameService
from bot.core.tournament.commands import entry_size
from bot.core.tournament.model import FORMATS
from bot.core.tournament.rounds import current
from bot.core.tournament.state import Event, load
from storage.store import Store

__all__ = ["FORMATS", "Plan", "Simulator", "simulate"]

START = datetime(2026, 5, 31, 11, 0, tzinfo=UTC)  # seed 001: the tournament began at 11:00
ORGANISER = Person("sim-organiser", "Organiser", "en", admin=True)
HALL = Place("console", "simulator", "hall", "Simulator", "en")
MAX_STEPS = 20_000


@dataclass(frozen=True)
class Plan:
    teams: int
    rounds: int
    format: str = "swiss"
    preset: str = "tournament_pr"
    target: int = 200
    minutes: int = 40
    seed: int = 1
    hand_minutes: float = 4.0  # how long a hand takes at a table, on the simulated clock
    strength: str = "normal"


class Simulator:
    def __init__(self, plan: Plan, store: Store) -> None:
        self.plan = plan
        self.store = store
        self.now = START
        seeds = random.Random(plan.seed)
        self.service = GameService(
            store, clock=lambda: self.now, holder="simulator", seeds=lambda: seeds.randrange(2**62)
        )
        # what a door keeps: here, the tables' rooms and the results told
        self.posts = Posts(store, clock=lambda: self.now)
        self.said: list[str] = []
        self.tournament: int | None = None

    async def command(self, *words: str, place: Place = HALL) -> None:
        effects = await self.service.handle(Command(place, ORGANISER, "tournament", words))
        await self.deliver(place, effects)

    async def deliver(self, place: Place, effects: list[Effect]) -> None:
        """What a door does with the effects that matter here: rooms for tables (their
        games made at once, by their timers), effects for other rooms; the rest is text
        nobody reads (kept for errors)."""
        for effect in effects:
            if isinstance(effect, OpenTables):
                for table in effect.tables:
                    room = Place("console", "simulator", f"r{effect.round}t{table.number}")
                    await self.posts.table_opened(
                        room, effect.tournament_id, effect.round, table.number
                    )
                await self.fire()
            elif isinstance(effect, Elsewhere):
                await self.deliver(effect.place, list(effect.effects))
            elif isinstance(effect, TableTold):
                await self.posts.table_told(effect)
            elif hasattr(effect, "text"):
                self.said.append(str(effect.text))

    async def fire(self) -> None:
        """The timers due now, their effects delivered."""
        async for fired in self.service.fire_due():
            await self.deliver(*fired)

    async def run(self) -> Event:
        plan = self.plan
        await self.command(
            "new", "Simulated", f"rounds={plan.rounds}", f"format={plan.format}",
            f"preset={plan.preset}", f"target={plan.target}", f"minutes={plan.minutes}",
            "checkin=off",
        )  # fmt: skip
        event = await self.event()
        size = entry_size(event.settings)
        for n in range(1, plan.teams + 1):
            name = f"{'Player' if size == 1 else 'Team'} {n}"
            await self.command("register", name, *[plan.strength] * size)
        await self.command("close")
        await self.command("start")
        step = timedelta(minutes=plan.hand_minutes)
        for _ in range(MAX_STEPS):
            event = await self.event()
            if event.row.status in ("finished", "cancelled"):
                return event
            self.now += step
            await self.fire()
        raise RuntimeError("the simulated tournament did not end: " + " | ".join(self.said[-5:]))

    async def event(self) -> Event:
        repo = self.store.tournaments
        if self.tournament is None:
            community = await self.store.people.community(
                HALL.platform, HALL.community, self.now, HALL.community_name, HALL.locale
            )
            row = await repo.active_in_community(community.id)
            if row is None:
                raise RuntimeError("no tournament was opened: " + " | ".join(self.said[-5:]))
            self.tournament = row.id
        return await load(self.store, await repo.load(self.tournament))


def summary(event: Event) -> dict[str, Any]:
    """The issue's JSON: the format, the teams, every round's tables and byes, and the
    standings."""
    solo = entry_size(event.settings) == 1
    names = [e.name for e in event.entries]
    out_rounds = []
    for number in range(1, event.round + 1):
        tables = []
        for t in event.round_tables(number):
            sides = [event.side_name(side) for side in t.sides]
            tables.append(
                {
                    "table": t.number,
                    "teams": sides,
                    "score": list(t.score),
                    "winner": None if t.winner is None else sides[t.winner],
                    "ended_by": t.ended_by,
                    "hands": t.hands,
                }
            )
        byes = [event.entry(b.entry).name for b in event.byes if b.round == number]
        out_rounds.append({"round": number, "tables": tables, "byes": byes})
    standings = [
        {
            "team": event.entry(s.entry).name,
            "played": s.played,
            "won": s.won,
            "points_for": s.points_for,
            "points_against": s.points_against,
            "penalties": s.penalties,
            "byes": s.byes,
            "tiebreaks": dict(s.tiebreaks),
        }
        for s in current(event)
    ]
    key = "players" if solo else "teams"
    return {"format": event.settings.format, key: names, "rounds": out_rounds,
            "standings": standings, "tiebreaks": list(event.settings.tiebreaks)}  # fmt: skip


async def simulate(plan: Plan, url: str | None = None) -> dict[str, Any]:
    """Run ``plan`` on a temporary SQLite database (or ``url``); the summary."""
    with tempfile.TemporaryDirectory(prefix="domino-sim-") as tmp:
        store = await Store.open(url or f"sqlite:///{Path(tmp) / 'sim.sqlite3'}")
        try:
            event = await Simulator(plan, store).run()
            return summary(event)
        finally:
            await store.close()
