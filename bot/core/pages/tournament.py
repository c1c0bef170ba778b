"""A tournament's page as JSON (``/t/<key>.json``): its standings with every tie-break,
each round's tables (status, live score, the key of each table's game page), the byes,
the crosstable and the judges' log. All of it is public in the tournament's room
already; nothing of a hand. docs/web.md names each field."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.core import texts
from bot.core.pages.game import when
from bot.core.tournament import words
from bot.core.tournament.model import Table
from bot.core.tournament.rounds import current
from bot.core.tournament.standings import TIEBREAKS
from bot.core.tournament.state import Event
from lang import tr
from storage.tournaments import LogRow


def tournament_page(
    event: Event,
    lang: str,
    now: datetime,
    live: dict[int, list[int]],
    game_keys: dict[int, str],
    logs: list[LogRow],
    people: dict[int, str],
) -> dict[str, Any]:
    """``event`` as its room sees it; ``live``: the score of each table in play by its
    game, ``game_keys``: the page key of each table's game, ``people``: the judges' and
    organiser's names by user id."""
    row, settings = event.row, event.settings
    lines = current(event)
    clock = row.clock or {}
    ends, paused = clock.get("ends_at"), clock.get("paused_at")
    stamp = now.timestamp()
    left = None
    if ends is not None:
        left = max(0.0, float(ends) - (float(paused) if paused is not None else stamp))
    return {
        "kind": "tournament",
        "lang": lang,
        "name": row.name,
        "status": row.status,
        "status_text": tr(lang, words.STATUS_NAMES.get(row.status, row.status)),
        "format": settings.format,
        "format_text": tr(lang, words.FORMAT_NAMES.get(settings.format, settings.format)),
        "preset": settings.preset,
        "title": texts.preset_name(lang, settings.preset),
        "target": settings.target,
        "round": event.round,
        "rounds": settings.rounds,
        "clock": {
            "minutes": settings.minutes,
            "seconds_left": left,
            "paused": paused is not None,
        },
        "tiebreaks": list(settings.tiebreaks),
        "entries": [
            {
                "id": e.id,
                "name": e.name,
                "members": [m.name for m in e.members if not m.pending],
                "status": e.status,
            }
            for e in event.entries
        ],
        "standings": [
            {
                "place": place,
                "entry": s.entry,
                "name": event.entry(s.entry).name,
                "played": s.played,
                "won": s.won,
                "points_for": s.points_for,
                "points_against": s.points_against,
                "penalties": s.penalties,
                "byes": s.byes,
                "difference": s.difference,
                "tiebreaks": {name: s.tiebreaks.get(name, 0.0) for name in TIEBREAKS},
            }
            for place, s in enumerate(lines, 1)
        ],
        "rounds_played": [
            {
                "round": number,
                "tables": [
                    _table(event, t, live.get(t.game_id or 0), game_keys.get(t.game_id or 0))
                    for t in event.round_tables(number)
                ],
                "byes": sorted(b.entry for b in event.byes if b.round == number),
            }
            for number in sorted({t.round for t in event.tables} | {b.round for b in event.byes})
        ],
        "crosstable": _crosstable(event),
        "log": [
            {
                "at": when(entry.at),
                "action": entry.action,
                "by": people.get(entry.by_user) if entry.by_user is not None else None,
                "round": entry.round,
                "table": entry.table_number,
                "entry": entry.entry_id,
                "points": entry.points,
                "reason": entry.reason,
            }
            for entry in logs
        ],
    }


def _table(event: Event, table: Table, live: list[int] | None, key: str | None) -> dict[str, Any]:
    score = list(table.score) if table.status == "done" or live is None else live
    return {
        "number": table.number,
        "sides": [list(side) for side in table.sides],
        "names": [event.side_name(side) for side in table.sides],
        "status": table.status,
        "score": score,
        "winner": table.winner,
        "ended_by": table.ended_by,
        "hands": table.hands,
        "game": key,
    }


def _crosstable(event: Event) -> list[dict[str, Any]]:
    """Each entry's rounds: whom it met, the points for and against, and how it went
    ("won", "lost", "drawn", "playing", "waiting"; "bye" for a round sat out)."""
    out = []
    for entry in event.entries:
        rounds: list[dict[str, Any]] = []
        for table in sorted(event.tables, key=lambda t: (t.round, t.number)):
            mine = next((s for s in (0, 1) if entry.id in table.sides[s]), None)
            if mine is None:
                continue
            how: str = table.status
            if table.status == "done":
                how = "drawn" if table.winner is None else "won" if table.winner == mine else "lost"
            rounds.append(
                {
                    "round": table.round,
                    "table": table.number,
                    "opponents": list(table.sides[1 - mine]),
                    "partners": [e for e in table.sides[mine] if e != entry.id],
                    "for": table.score[mine],
                    "against": table.score[1 - mine],
                    "result": how,
                }
            )
        rounds += [{"round": b.round, "result": "bye"} for b in event.byes if b.entry == entry.id]
        rounds.sort(key=lambda r: r["round"])
        out.append({"entry": entry.id, "name": entry.name, "rounds": rounds})
    return out
