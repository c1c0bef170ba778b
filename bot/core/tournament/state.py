"""A tournament read from storage as the plain values of bot/core/tournament/model.py, and
written back: storage keeps rows and JSON, the rest of the tournament code sees values."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from bot.core.tournament.model import Bye, Entry, Member, Penalty, Settings, Table
from bot.core.tournament.standings import TIEBREAKS
from storage.store import Store


@dataclass
class Event:
    """One tournament as loaded: its row (storage's), settings, entries, tables of every
    round, byes and the judges' penalties."""

    row: Any
    settings: Settings
    entries: list[Entry]
    tables: list[Table]
    byes: list[Bye]
    penalties: list[Penalty]
    _by_id: dict[int, Entry] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def id(self) -> int:
        return int(self.row.id)

    @property
    def round(self) -> int:
        return int(self.row.round)

    def entry(self, entry_id: int) -> Entry:
        """The entry numbered ``entry_id`` (looked up by number: a big event's lists and
        standings name every entry)."""
        if len(self._by_id) != len(self.entries):
            self._by_id = {e.id: e for e in self.entries}
        return self._by_id[entry_id]

    def entry_named(self, text: str) -> Entry | None:
        """The entry called ``text`` (any case), or numbered so in the list."""
        wanted = text.strip().casefold()
        for entry in self.entries:
            if entry.name.casefold() == wanted:
                return entry
        if wanted.isdecimal():
            number = int(wanted)
            return next((e for e in self.entries if e.id == number), None)
        return None

    def entry_of_user(self, user_id: int) -> Entry | None:
        """The entry the person is in (not one they are only invited to)."""
        return next(
            (
                e
                for e in self.entries
                if any(m.user == user_id and not m.pending for m in e.members)
            ),
            None,
        )

    def invitations_of(self, user_id: int) -> list[Entry]:
        """The pairs the person is invited to and has not accepted."""
        return [e for e in self.entries if any(m.user == user_id and m.pending for m in e.members)]

    def round_tables(self, number: int | None = None) -> list[Table]:
        wanted = self.round if number is None else number
        return sorted((t for t in self.tables if t.round == wanted), key=lambda t: t.number)

    def table(self, number_of_round: int, number: int) -> Table:
        """Table ``number`` of round ``number_of_round``."""
        return next(t for t in self.tables if t.round == number_of_round and t.number == number)

    def side_name(self, side: tuple[int, ...]) -> str:
        return " / ".join(self.entry(e).name for e in side)


def settings_of(data: dict[str, Any]) -> Settings:
    known = {f.name for f in fields(Settings)}
    values = {k: v for k, v in data.items() if k in known}
    if "tiebreaks" in values:  # a list in JSON; names this version does not know are left out
        values["tiebreaks"] = tuple(t for t in values["tiebreaks"] if t in TIEBREAKS)
    return Settings(**values)


def settings_json(settings: Settings) -> dict[str, Any]:
    return asdict(settings)


def members_json(members: tuple[Member, ...]) -> list[dict[str, Any]]:
    return [
        {k: v for k, v in asdict(m).items() if v is not None and v is not False} for m in members
    ]


def members_of(data: list[dict[str, Any]]) -> tuple[Member, ...]:
    return tuple(
        Member(d.get("name", "?"), d.get("user"), d.get("bot"), d.get("pending") is True)
        for d in data
    )


def entry_of(row: Any) -> Entry:
    return Entry(row.id, row.name, members_of(row.members), row.status, bool(row.late))


def table_of(row: Any) -> Table:
    a, b = row.sides
    return Table(
        round=row.round,
        number=row.number,
        sides=(tuple(a), tuple(b)),
        status=row.status,
        score=(row.score_a or 0, row.score_b or 0),
        winner=row.winner,
        ended_by=row.ended_by,
        hands=row.hands or 0,
        room_id=row.room_id,
        game_id=row.game_id,
        told=row.told,
    )


def penalties_of(logs: list[Any]) -> list[Penalty]:
    """The judges' points the standings count apart: those of a team with no table to
    write them on (an award: a penalty given back). Those written on a table's sheet
    are in its score already."""
    return [
        Penalty(
            log.round or 0,
            log.entry_id,
            (log.points or 0) * (1 if log.action == "penalty" else -1),
            log.reason or "",
        )
        for log in logs
        if log.action in ("penalty", "award")
        and log.entry_id is not None
        and log.table_number is None
    ]


async def load_id(store: Store, tournament_id: int) -> Event:
    return await load(store, await store.tournaments.load(tournament_id))


async def load(store: Store, row: Any) -> Event:
    repo = store.tournaments
    entries = [entry_of(e) for e in await repo.entries(row.id)]
    tables = [table_of(t) for t in await repo.tables(row.id)]
    byes = [Bye(b.round, b.entry_id) for b in await repo.byes(row.id)]
    penalties = penalties_of(await repo.logs(row.id))
    return Event(row, settings_of(row.settings), entries, tables, byes, penalties)
