"""A game's page as JSON (``/g/<key>.json``): what the room sees of it now, and its
finished hands move by move. Every position comes from the room's view
(:func:`~bot.core.pages.position.position`); the replay replays only hands already over
(the record's hand in play, which holds every hand's tiles, is cut off first).
docs/web.md names each field."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.core import house_rules, texts
from bot.core.bounded import Bounded
from bot.core.describe import describe_table
from bot.core.pages.position import outcome, position, result, tiles
from bot.core.seats import seats_from
from bot.core.session import game_of
from bot.core.showing import name_of
from engine.game import Game
from engine.record import load
from engine.rules import Rules
from engine.views import View, view_of
from storage.games import GameRow

REPLAYS_KEPT = 500  # games whose finished hands' replays are kept (they never change)


class Replays:
    """The replays of finished hands, kept by game and hands finished (a finished hand
    can still learn that the clock ran out before the next deal: that is in the key)."""

    def __init__(self) -> None:
        self._kept: Bounded[tuple[int, int, bool], list[dict[str, Any]]] = Bounded(REPLAYS_KEPT)

    def of(self, game_id: int, record: dict[str, Any], game: Game) -> list[dict[str, Any]]:
        key = (game_id, game.hands_finished, game.time_up)
        found = self._kept.get(key)
        if found is None:
            found = replay(record, game.hands_finished)
            self._kept.put(key, found)
        return found


def replay(record: dict[str, Any], finished: int) -> list[dict[str, Any]]:
    """The first ``finished`` hands of ``record`` (all over), each as its moves and the
    positions after the deal and after each move, as the room saw them, the last showing
    every hand left."""
    hands = list(record.get("hands") or [])[:finished]
    done = {k: v for k, v in record.items() if k != "unfinished"}
    done["hands"] = hands
    seen: dict[int, list[View]] = {}

    def watch(game: Game) -> None:
        view = view_of(game)
        seen.setdefault(view.hand_number, []).append(view)

    load(done, watch)
    out = []
    for number, views in sorted(seen.items()):
        last = views[-1]
        final = position(last)
        out.append(
            {
                "hand": number,
                "moves": [str(m) for m in last.history],
                "placements": final["placements"],
                "trains": final["trains"],
                "positions": [compact(position(v), final) for v in views],
                "revealed": [tiles(h) for h in last.revealed] if last.revealed else None,
                "result": result(last.result),
                "scores": list(last.scores),
            }
        )
    return out


def compact(shown: dict[str, Any], final: dict[str, Any]) -> dict[str, Any]:
    """A replay's position without what the hand's entry holds already: the tiles laid
    are the first ``placed`` of the hand's ``placements`` (each train's, the first
    ``train_lengths`` of its ``trains``), and position ``i`` follows the hand's first ``i``
    moves; so a hand's replay grows with its moves, not with their square. A position that is not
    such a beginning (none is) keeps its tiles."""
    out = {k: v for k, v in shown.items() if k not in ("moves", "placements", "trains")}
    placements, trains = shown["placements"], shown["trains"]
    if placements == final["placements"][: len(placements)]:
        out["placed"] = len(placements)
    else:
        out["placements"] = placements
    ends = final["trains"]
    prefix = len(trains) == len(ends) and all(
        t["tiles"] == f["tiles"][: len(t["tiles"])] for t, f in zip(trains, ends, strict=True)
    )
    if prefix:
        out["train_lengths"] = [len(t["tiles"]) for t in trains]
        out["train_ends"] = [{"ends": t["ends"], "marked": t["marked"]} for t in trains]
    else:
        out["trains"] = trains
    return out


def rules_of(rules: Rules, lang: str) -> dict[str, Any]:
    return {
        "preset": rules.preset,
        "title": texts.preset_name(lang, rules.preset),
        "summary": house_rules.rules_text(lang, rules),
        "house_rules": house_rules.house_lines(lang, rules),
        "target": rules.target,
        "partners": rules.partners,
    }


def game_page(
    row: GameRow,
    record: dict[str, Any],
    lang: str,
    now: datetime,
    replays: Replays,
) -> dict[str, Any]:
    """The game of ``row`` (its whole ``record``) as the room sees it at ``now``."""
    seats = seats_from(row.seats)
    notes = row.notes
    game = game_of(row, notes) if row.status != "lobby" else None
    rules = game.rules if game is not None else Rules.from_record(record["rules"])
    count = game.players if game is not None else len(seats)
    names = [name_of(s, i, lang) for i, s in enumerate(seats[:count])]
    page: dict[str, Any] = {
        "kind": "game",
        "lang": lang,
        "status": row.status,
        "rules": rules_of(rules, lang),
        "players": [
            {
                "seat": i,
                "name": names[i],
                "computer": s.bot if s.bot and s.user is None else None,
                "away": s.away,
                "side": rules.side_of(i) if rules.partners else i,
            }
            for i, s in enumerate(seats[:count])
        ],
        "created_at": when(row.created_at),
        "finished_at": when(row.finished_at),
        "moves": row.plies,
    }
    if game is None:
        return {**page, "table": None, "sides": [], "scores": [], "sheet": None, "hands": []}
    view = view_of(game)
    stamp = now.timestamp()
    game_clock = game.seconds_left(stamp) if rules.time_limit_minutes else None
    turn_due = notes.turn_due
    return {
        **page,
        "sides": texts.side_names(game, names),
        "scores": list(view.scores),
        "to_move": view.to_move,
        "clock": {
            "game_seconds_left": game_clock,
            "turn_seconds_left": max(0.0, turn_due - stamp) if turn_due is not None else None,
            "time_up": view.time_up,
        },
        "sheet": {
            "first": view.sheet_first,
            "rows": [list(r) for r in view.sheet],
            "adjustments": [
                {"side": a.side, "points": a.points, "reason": a.reason, "hand": a.hand}
                for a in view.adjustments
            ],
        },
        "table": position(view),
        "text": describe_table(view, names, lang, game_clock),
        "outcome": outcome(view.outcome),
        "hands": replays.of(row.id, record, game),
    }


def when(moment: datetime | None) -> str | None:
    """A stored moment (UTC) in ISO 8601 with its zone: "2026-11-28T00:40:00+00:00"."""
    if moment is None:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()
