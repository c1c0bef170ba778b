"""What the room and the players are shown of a game: names at the table, the board, a
seat's hand and its move buttons, the lobby. Plain data for the adapters (pictures are
drawn at delivery, bot/doors/pictures.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core import house_rules, texts
from bot.core.describe import (
    describe_hand,
    describe_table,
    move_words,
    opening_draw_words,
    scored_words,
    seat_notes,
)
from bot.core.model import Board, Button, Hand, Link, Lobby, Person, Say, Table
from bot.core.names import clean_name
from bot.core.seats import Seat
from bot.core.session import Loaded, Session
from engine.game import Game
from engine.keys import move_keys
from engine.moves import Action, Move
from engine.views import View, view_of
from lang import language, tr
from storage.notes import RoomSettings


def name_of(seat: Seat, index: int, lang: str) -> str:
    """How seat ``index`` is called: the person's name, "Computer 2 (hard)", "Seat 3"."""
    if seat.name:
        return clean_name(seat.name, tr(lang, "Seat {n}", n=index + 1))
    if seat.bot:
        return tr(lang, "Computer {n} ({strength})", n=index + 1, strength=tr(lang, seat.bot))
    return tr(lang, "Seat {n}", n=index + 1)


def table_name(seat: Seat, index: int, lang: str) -> str:
    """How seat ``index`` is called on a picture: as :func:`name_of` says it, without a
    computer's strength (its tag, :func:`seat_tag`): "Computer 2"."""
    if seat.bot and not seat.name:
        return tr(lang, "Computer {n}", n=index + 1)
    return name_of(seat, index, lang)


def seat_tag(seat: Seat, lang: str) -> str:
    """A computer's strength in words ("hard"), drawn beside its name; "" for people."""
    return tr(lang, seat.bot) if seat.bot else ""


def names_of(loaded: Loaded, lang: str) -> tuple[str, ...]:
    """The names of the seats at the table (in the lobby: every seat)."""
    count = loaded.game.players if loaded.game is not None else len(loaded.seats)
    return tuple(name_of(s, i, lang) for i, s in enumerate(loaded.seats[:count]))


def person_of(seat: Seat) -> Person:
    """The person who sits in ``seat``, to write to or to call by name."""
    return Person(seat.pid or "", seat.name or "", seat.locale)


def command_for(move: Move) -> str:
    """What a button that makes ``move`` sends: "play 6-4 on 6-6", "draw"."""
    if move.action is Action.PLAY:
        return f"play {move.action_text()}"
    return move.action.value


def table_of(session: Session, loaded: Loaded, view: View, lang: str | None = None) -> Table:
    """The names and clocks a picture of the game shows, and the room's look; what each
    seat did last, read from the ``view`` the picture is of (every seat's and the room's
    tell the same history)."""
    return table_at(
        loaded.seats,
        loaded.game,
        loaded.notes.turn_due,
        session.room.settings,
        view,
        lang or session.lang,
        session.now.timestamp(),
    )


def table_at(
    seats: Sequence[Seat],
    game: Game | None,
    turn_due: float | None,
    settings: RoomSettings,
    view: View,
    lang: str,
    now: float | None,
) -> Table:
    """:func:`table_of` without a session (the web pages draw the room's board too); no
    ``now``: no clock (a position of the past)."""
    clock = turn = None
    if now is not None:
        if game is not None and game.rules.time_limit_minutes and game.started_at is not None:
            clock = game.seconds_left(now)
        turn = max(0.0, turn_due - now) if turn_due is not None else None
    count = game.players if game is not None else len(seats)
    seated = seats[:count]
    notes: tuple[str, ...] = ()
    scored = ""
    if game is not None and game.logs:
        names = tuple(name_of(s, i, lang) for i, s in enumerate(seated))
        notes = seat_notes(lang, view)
        scored = scored_words(lang, view, names)
    return Table(
        tuple(table_name(s, i, lang) for i, s in enumerate(seated)),
        turn_seconds=turn,
        clock_seconds=clock,
        lang=lang,
        theme=settings.theme or "classic",
        numerals=settings.numerals,
        tags=tuple(seat_tag(s, lang) for s in seated),
        notes=notes,
        scored=scored,
    )


def board_buttons(session: Session, loaded: Loaded) -> tuple[Button, ...]:
    """What the board offers: the hand and the board while a hand is played, the next
    hand between hands, nothing once the game is over."""
    game = loaded.game
    if game is None or game.outcome is not None:
        return ()
    lang, game_id = session.lang, loaded.row.id
    if game.hand is not None:
        return (
            Button(tr(lang, "My hand"), "hand", game_id),
            Button(tr(lang, "Board"), "board", game_id),
        )
    return (Button(tr(lang, "Next hand"), "next", game_id, game.ply),)


def game_link(session: Session, loaded: Loaded, over: bool) -> Link:
    """The game's web page, as the room's messages name it: "Watch" while it is played,
    "Replay" once it is over (its key is put on after the command: bot/core/links.py)."""
    return Link(tr(session.lang, texts.REPLAY if over else texts.WATCH), "game", loaded.row.id)


def dealt(session: Session, loaded: Loaded, message: str, **params: Any) -> Say:
    """``message`` for the room on a deal ("Hand 2."), and where the hand's opener was
    drawn, after it, who drew which tile and who opens: the room can check it."""
    lang = session.lang
    lines = [tr(lang, message, **params)]
    if loaded.game is not None:
        drawn = opening_draw_words(lang, view_of(loaded.game), names_of(loaded, lang))
        lines += [drawn] if drawn else []
    return Say("\n".join(lines))


def board_after(
    session: Session, loaded: Loaded, view: View, story: Sequence[str], final: bool
) -> Board:
    """The room's board after moves (``view``, the room's), told with ``story`` (every
    move just made)."""
    game = loaded.game
    assert game is not None
    return Board(
        loaded.row.id,
        game.ply,
        view,
        table_of(session, loaded, view),
        "\n".join(story),
        board_buttons(session, loaded),
        final=final,
        hand_end=game.hand is None,
        story=tuple(story),
        link=game_link(session, loaded, final),
    )


def board_as_it_is(session: Session, loaded: Loaded, repost: bool = False) -> Board:
    """The room's board of the game as it stands, described in words (``/board``, and
    after a restart)."""
    game = loaded.game
    assert game is not None
    view = view_of(game)
    table = table_of(session, loaded, view)
    return Board(
        loaded.row.id,
        game.ply,
        view,
        table,
        describe_table(view, names_of(loaded, session.lang), session.lang, table.clock_seconds),
        board_buttons(session, loaded),
        final=game.outcome is not None,
        repost=repost,
        hand_end=game.hand is None,
        link=game_link(session, loaded, game.outcome is not None),
    )


def keyed_moves(lang: str, moves: Sequence[Move], names: Sequence[str]) -> list[tuple[str, Move]]:
    """Legal moves with their labels as a hand's buttons (and autocomplete) say them:
    "a) 6-4 on 6-6 (left)", the key matching the one under the tile in the picture."""
    return [(f"{key}) {move_words(lang, move, names)}", move) for key, move in move_keys(moves)]


def hand_for(session: Session, loaded: Loaded, seat: int, person: Person | None = None) -> None:
    """Seat ``seat``'s hand and move buttons, privately to its person (or to ``person``,
    who asked for it); nothing between hands, or for a seat nobody plays."""
    game = loaded.game
    assert game is not None
    info = loaded.seats[seat]
    if game.hand is None or (person is None and not info.human):
        return
    lang = language(info.locale or (session.own if person is not None else session.lang))
    view = view_of(game, seat)
    names = names_of(loaded, lang)
    buttons = tuple(
        Button(label, command_for(move), loaded.row.id, game.ply, str(move))
        for label, move in keyed_moves(lang, view.legal_moves, names)
    )
    session.effects.append(
        Hand(
            person or person_of(info),
            loaded.row.id,
            game.ply,
            view,
            table_of(session, loaded, view, lang),
            describe_hand(view, names, lang),
            buttons,
            asked=person is not None,
        )
    )


def lobby_of(session: Session, loaded: Loaded, opened: bool = False) -> Lobby:
    """The lobby: who sits where (and in which team), whether it can begin, and the
    buttons to join, add a computer, begin and cancel."""
    lang, rules = session.lang, loaded.rules
    preset = texts.preset_name(lang, rules.preset)
    lines = [tr(lang, texts.LOBBY_OPEN if opened else texts.LOBBY, preset=preset)]
    lines.append(house_rules.count_line(lang, rules))  # what the number after it means
    for i, seat in enumerate(loaded.seats):
        who = name_of(seat, i, lang) if not seat.empty else tr(lang, "free")
        team = ""
        if rules.partners and getattr(rules, "teams", "agreed") == "agreed":  # else drawn
            team = " · " + tr(lang, "team {team}", team="AB"[rules.side_of(i)])
        lines.append(f"{i + 1}. {who}{team}")
    seated = sum(1 for s in loaded.seats if not s.empty)
    absent = loaded.notes.absent
    if loaded.notes.table is not None and absent:  # a tournament's table: seats kept
        waited = ", ".join(name_of(loaded.seats[i], i, lang) for i in absent)
        lines.append(tr(lang, texts.TABLE_WAITS, names=waited))
    elif seated >= rules.min_players:
        lines.append(tr(lang, texts.LOBBY_READY))
    elif rules.min_players == rules.max_players:
        lines.append(tr(lang, texts.LOBBY_NEEDS_EXACTLY, n=rules.min_players))
    else:
        lines.append(tr(lang, texts.LOBBY_NEEDS, least=rules.min_players, most=rules.max_players))
    house = house_rules.house_lines(lang, rules)  # every rule in force unlike the preset's
    if house:
        lines += [tr(lang, texts.HOUSE_RULES), *house]
    game_id = loaded.row.id
    buttons: tuple[Button, ...] = (
        Button(tr(lang, "Join"), "join", game_id),
        Button(tr(lang, "Add computer"), "add_ai normal", game_id),
        Button(tr(lang, "Begin"), "begin fill", game_id),
        Button(tr(lang, "Rules"), "rule", game_id),  # the creator's menu of house rules
        Button(tr(lang, "Cancel"), "cancel", game_id),
    )
    if loaded.notes.table is not None:  # a tournament's table: its players only take seats
        buttons = buttons[:1]
    return Lobby("\n".join(lines), buttons=buttons, game_id=game_id)
