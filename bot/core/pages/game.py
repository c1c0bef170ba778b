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
from bot.core.describe import describe_table, move_words
from bot.core.model import Board
from bot.core.pages.position import outcome, position, result, tiles
from bot.core.seats import seats_from
from bot.core.session import game_of
from bot.core.showing import name_of, table_at
from engine.game import Game
from engine.record import load
from engine.rules import Rules
from engine.views import View, view_of
from storage.games import GameRow
from storage.notes import RoomSettings

REPLAYS_KEPT = 500  # games whose finished hands' replays are kept (they never change)
# games whose finished hands' views are kept, for the pictures of a replay's steps: a
# long game's views weigh megabytes, and one replay is looked at by a few at a time
VIEWS_KEPT = 16


class Replays:
    """The replays of finished hands, kept by game and hands finished (a finished hand
    can still learn that the clock ran out before the next deal: that is in the key):
    as JSON (:meth:`of`), and as the room's views, to draw (:meth:`views`)."""

    def __init__(self) -> None:
        self._kept: Bounded[tuple[int, int, bool], list[dict[str, Any]]] = Bounded(REPLAYS_KEPT)
        self._views: Bounded[tuple[int, int, bool], dict[int, list[View]]] = Bounded(VIEWS_KEPT)

    def of(self, game_id: int, record: dict[str, Any], game: Game) -> list[dict[str, Any]]:
        key = (game_id, game.hands_finished, game.time_up)
        found = self._kept.get(key)
        if found is None:
            found = [hand_replay(n, v) for n, v in self.views(game_id, record, game).items()]
            self._kept.put(key, found)
        return found

    def views(self, game_id: int, record: dict[str, Any], game: Game) -> dict[int, list[View]]:
        """Each finished hand's views (the room's) by its number: after the deal, then
        after each move."""
        key = (game_id, game.hands_finished, game.time_up)
        found = self._views.get(key)
        if found is None:
            found = replay_views(record, game.hands_finished)
            self._views.put(key, found)
        return found


def replay_views(record: dict[str, Any], finished: int) -> dict[int, list[View]]:
    """The room's views of the first ``finished`` hands of ``record`` (all over), by
    hand: after the deal and after each move, the last showing every hand left. The
    record's hand in play (``unfinished``) is cut off first: it is never replayed."""
    hands = list(record.get("hands") or [])[:finished]
    done = {k: v for k, v in record.items() if k != "unfinished"}
    done["hands"] = hands
    seen: dict[int, list[View]] = {}

    def watch(game: Game) -> None:
        view = view_of(game)
        seen.setdefault(view.hand_number, []).append(view)

    load(done, watch)
    return dict(sorted(seen.items()))


def replay(record: dict[str, Any], finished: int) -> list[dict[str, Any]]:
    """The first ``finished`` hands of ``record`` (all over), each as its moves and the
    positions after the deal and after each move, as the room saw them, the last showing
    every hand left."""
    return [hand_replay(n, v) for n, v in replay_views(record, finished).items()]


def hand_replay(number: int, views: list[View]) -> dict[str, Any]:
    """Finished hand ``number`` from its views (docs/web.md, ``/g/<key>/hands/<n>.json``)."""
    last = views[-1]
    final = position(last)
    return {
        "hand": number,
        "moves": [str(m) for m in last.history],
        "placements": final["placements"],
        "trains": final["trains"],
        "positions": [compact(position(v), final) for v in views],
        "revealed": [tiles(h) for h in last.revealed] if last.revealed else None,
        "result": result(last.result),
        "scores": list(last.scores),
    }


def hand_line(hand: dict[str, Any], address: str) -> dict[str, Any]:
    """A finished hand as the game's page lists it: its number, how many moves, how it
    ended, the totals after it and where its replay is."""
    return {
        "hand": hand["hand"],
        "moves": len(hand["moves"]),
        "result": hand["result"],
        "scores": hand["scores"],
        "address": address,
    }


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


def rules_of(rules: Rules, lang: str, untimed: bool = False) -> dict[str, Any]:
    """The rules in force, as ``/rules`` says them (``untimed``: the room gives turns no
    timer)."""
    return {
        "preset": rules.preset,
        "title": texts.preset_name(lang, rules.preset),
        "summary": house_rules.rules_text(lang, rules, untimed),
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
    address: str = "",
    settings: RoomSettings | None = None,
    patient: bool = False,
) -> dict[str, Any]:
    """The game of ``row`` (its whole ``record``) as the room sees it at ``now``;
    ``address``: the page's own (``/g/<key>``), its hands' replays under it;
    ``settings`` and ``patient``: its room's, to say its turns' timer as ``/rules`` does."""
    seats = seats_from(row.seats)
    notes = row.notes
    game = game_of(row, notes) if row.status != "lobby" else None
    rules = game.rules if game is not None else Rules.from_record(record["rules"])
    count = game.players if game is not None else len(seats)
    names = [name_of(s, i, lang) for i, s in enumerate(seats[:count])]
    untimed = house_rules.turn_time_in(rules, settings or RoomSettings(), patient) is None
    page: dict[str, Any] = {
        "kind": "game",
        "lang": lang,
        "status": row.status,
        "rules": rules_of(rules, lang, untimed),
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
        "hands": [
            hand_line(h, f"{address}/hands/{h['hand']}.json")
            for h in replays.of(row.id, record, game)
        ],
    }


def when(moment: datetime | None) -> str | None:
    """A stored moment (UTC) in ISO 8601 with its zone: "2026-11-28T00:40:00+00:00"."""
    if moment is None:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).isoformat()


def board_now(row: GameRow, settings: RoomSettings, lang: str, now: datetime) -> Board | None:
    """The room's board of the game of ``row`` at ``now``, as the room gets it (its view,
    names, clocks and look), described in words; None in the lobby."""
    notes = row.notes
    game = game_of(row, notes) if row.status != "lobby" else None
    if game is None:
        return None
    view = view_of(game)
    seats = seats_from(row.seats)
    table = table_at(seats, game, notes.turn_due, settings, view, lang, now.timestamp())
    names = [name_of(s, i, lang) for i, s in enumerate(seats[: game.players])]
    text = describe_table(view, names, lang, table.clock_seconds)
    return Board(row.id, game.ply, view, table, text)


def step_board(row: GameRow, game: Game, settings: RoomSettings, lang: str, view: View) -> Board:
    """A position of a finished hand of ``game`` (``view``, the room's) as the room's
    board drew it, without clocks; described in words."""
    seats = seats_from(row.seats)
    table = table_at(seats, game, None, settings, view, lang, None)
    names = [name_of(s, i, lang) for i, s in enumerate(seats[: view.players])]
    return Board(row.id, view.ply, view, table, describe_table(view, names, lang))


def said(row: GameRow, view: View, lang: str) -> list[str]:
    """The moves of ``view``'s hand as the room is told them: "Ana: 6-4 on 6-6"."""
    seats = seats_from(row.seats)
    names = [name_of(s, i, lang) for i, s in enumerate(seats[: view.players])]
    return [
        f"{names[m.seat] if m.seat < len(names) else m.seat}: {move_words(lang, m, names)}"
        for m in view.history
    ]
