"""A game's notes and a room's settings: what the service keeps beside a game's record
and about a room, as typed values with their own versioned JSON form.

A game's notes (``snapshot["meta"]``) and a room's settings (``rooms.settings``) are JSON
in the database; everywhere else they are these dataclasses, read and written only here.
Each JSON form carries its version (``"v"``); a form without one was written before
versions were kept, with the same names (and, for a room's house rules, one flat set of
options for every preset), and reads as version 1 does. A name added later within a
version (a game's ``ready``, a room's ``hand_pause``) is absent from rows written before
it, which read as its default.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

NOTES_VERSION = 1
SETTINGS_VERSION = 1


@dataclass(frozen=True)
class TableRef:
    """The tournament, round and table a game is played for."""

    tournament: int
    round: int
    table: int


@dataclass(frozen=True)
class Choosing:
    """The team that won the last hand chooses who opens hand ``hand``, until ``until``
    (epoch seconds)."""

    hand: int
    until: float


@dataclass
class GameNotes:
    """What the service notes of a game beside its record."""

    creator: int | None = None  # the user who opened it (they may begin, cancel...)
    started_at: float | None = None  # epoch seconds the game clock counts from
    turn_due: float | None = None  # when the turn of the person to move runs out
    last_ply: int | None = None  # the moves made, when the board was last told them
    hand_over_at: float | None = None  # when the last hand ended (next deals after a pause)
    table: TableRef | None = None  # a tournament's table
    absent: list[int] = field(default_factory=list)  # a table's seats still kept
    walked_out: list[int] = field(default_factory=list)  # a table's seats the judges were told of
    choosing: Choosing | None = None  # the winning team choosing who opens
    # the seats whose person pressed Next since the last hand ended (stored with the game:
    # every process counts the same presses; cleared at each hand's end and deal)
    ready: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"v": NOTES_VERSION}
        for name in ("creator", "started_at", "turn_due", "last_ply", "hand_over_at"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.table is not None:
            t = self.table
            out["tournament"] = {"id": t.tournament, "round": t.round, "table": t.table}
        if self.absent:
            out["absent"] = list(self.absent)
        if self.walked_out:
            out["walked_out"] = list(self.walked_out)
        if self.choosing is not None:
            out["choosing"] = {"hand": self.choosing.hand, "until": self.choosing.until}
        if self.ready:
            out["ready"] = list(self.ready)
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any] | None) -> GameNotes:
        data = data or {}
        table = data.get("tournament")
        choosing = data.get("choosing")
        return GameNotes(
            creator=_int(data.get("creator")),
            started_at=_float(data.get("started_at")),
            turn_due=_float(data.get("turn_due")),
            last_ply=_int(data.get("last_ply")),
            hand_over_at=_float(data.get("hand_over_at")),
            table=TableRef(int(table["id"]), int(table["round"]), int(table["table"]))
            if isinstance(table, Mapping)
            else None,
            absent=[int(seat) for seat in data.get("absent") or ()],
            walked_out=[int(seat) for seat in data.get("walked_out") or ()],
            choosing=Choosing(int(choosing["hand"]), float(choosing["until"]))
            if isinstance(choosing, Mapping)
            else None,
            ready=[int(seat) for seat in data.get("ready") or ()],
        )


@dataclass(frozen=True)
class RoomSettings:
    """What a room's admins chose (``/settings``); None: the default."""

    language: str | None = None
    preset: str | None = None  # the game /new opens when none is named
    theme: str | None = None
    turn_timeout: int | None = None  # seconds
    hand_pause: int | None = None  # seconds a hand's end stays before the next deal
    numerals: bool = False  # numbers as numerals on every set, not pips
    # the house rules new games of each preset start from: preset -> {option: value}
    house: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # an older version's one set of options for every preset
    house_for_all: Mapping[str, Any] = field(default_factory=dict)
    # settings found damaged (not JSON, or not of this shape), as they were stored: kept
    # for the operator while the defaults apply (docs/deploy.md)
    set_aside: str | None = None

    def changed(self, **changes: Any) -> RoomSettings:
        """These settings with ``changes`` (a None value: back to the default)."""
        defaults = RoomSettings()
        values = {
            name: getattr(defaults, name) if value is None else value
            for name, value in changes.items()
        }
        if "house" in changes:  # written again: the older flat form is gone with it
            values["house_for_all"] = {}
        return replace(self, **values)

    def shown(self) -> dict[str, Any]:
        """The settings that are not the default, by name (house rules apart)."""
        defaults = RoomSettings()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name not in ("house", "house_for_all", "set_aside")
            and getattr(self, f.name) != getattr(defaults, f.name)
        }

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"v": SETTINGS_VERSION, **self.shown()}
        if self.house:
            out["options"] = {p: dict(o) for p, o in self.house.items()}
        elif self.house_for_all:
            out["options"] = dict(self.house_for_all)
        if self.set_aside is not None:
            out["set_aside"] = self.set_aside
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any] | None) -> RoomSettings:
        data = data or {}
        options = data.get("options")
        house: dict[str, dict[str, Any]] = {}
        for_all: dict[str, Any] = {}
        if isinstance(options, Mapping) and options:
            if any(isinstance(v, Mapping) for v in options.values()):
                house = {p: dict(o) for p, o in options.items() if isinstance(o, Mapping) and o}
            else:  # the older flat form: the same options for every preset
                for_all = dict(options)
        timeout = data.get("turn_timeout")
        pause = data.get("hand_pause")
        return RoomSettings(
            language=_text(data.get("language")),
            preset=_text(data.get("preset")),
            theme=_text(data.get("theme")),
            turn_timeout=int(timeout) if timeout is not None else None,
            hand_pause=int(pause) if pause is not None else None,
            numerals=bool(data.get("numerals", False)),
            house=house,
            house_for_all=for_all,
            set_aside=_text(data.get("set_aside")),
        )

    @staticmethod
    def read(text: str | None) -> RoomSettings | None:
        """The settings stored as ``text`` (JSON); None when they cannot be read: not
        JSON, not an object, or a value of the wrong kind."""
        try:
            data = json.loads(text) if text is not None else {}
            if not isinstance(data, Mapping):
                return None
            settings = RoomSettings.from_json(data)
        except (ValueError, TypeError, LookupError, AttributeError):
            return None
        kinds = {"language": str, "preset": str, "theme": str, "numerals": bool}
        if any(k in data and not isinstance(data[k], t) for k, t in kinds.items()):
            return None  # a number where a name goes: read back, it would be another
        return settings


def _int(value: Any) -> int | None:
    return int(value) if value is not None else None


def _float(value: Any) -> float | None:
    return float(value) if value is not None else None


def _text(value: Any) -> str | None:
    return str(value) if value is not None else None
