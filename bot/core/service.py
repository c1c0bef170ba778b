"""The game service: commands in, effects out, no platform library in sight; and the few
questions the adapters ask it (where a room or game is, a person's legal moves, the
room's board post, the shared send window).

One room's commands run one at a time (a lock per room in this process; across
processes the stored game's version refuses a lost race, and the command is tried again
on the fresh game). Every answer is text already in the reader's language.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from bot.core import house_rules, standings, texts
from bot.core.dispatch import dispatch
from bot.core.handlers.lobby import DEFAULT_PRESET
from bot.core.model import Command, Effect, Hand, Offer, Person, Place, Popup, Post, TableTold
from bot.core.seats import seat_of, seats_from
from bot.core.session import SYSTEM, Desk, Refusal, open_session
from bot.core.showing import command_for, keyed_moves, name_of
from engine.moves import Move
from engine.presets import preset_names
from engine.rules import Rules
from lang import language, tr
from storage.database import utcnow
from storage.errors import Conflict, NotFound, StorageError, Unavailable
from storage.store import Store
from storage.timers import Timer

__all__ = ["GameService", "StorageError", "Unavailable"]

log = logging.getLogger(__name__)

TRIES = 3  # attempts at a command that lost a race with another process
# The test suite sets DOMINO_STRICT=1: an unexpected exception inside handle then fails
# the test instead of hiding behind "nothing changed" (production keeps answering).
STRICT = os.environ.get("DOMINO_STRICT") == "1"
BOARD = "board"  # the kind of the room's post the board is
LOBBY = "lobby"  # the kind of the room's post a game's lobby is (Telegram edits it in place)
HAND = "hand"  # the move the latest hand with moves to make went out at (a restart checks it)


class GameService:
    """Every command of BOT.md, from the lobby to the game's end, and the timers."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime] = utcnow,
        holder: str | None = None,
        seeds: Callable[[], int] = lambda: secrets.randbits(62),
    ) -> None:
        self.store = store
        self.clock = clock
        self.holder = holder or f"pid-{os.getpid()}-{secrets.token_hex(3)}"
        self.desk = Desk(store, seeds)  # each hand's deal from ``seeds`` (tests seed it)
        self._locks: dict[int, asyncio.Lock] = {}

    # ----- the door --------------------------------------------------------------------

    async def handle(self, command: Command) -> list[Effect]:
        """Answer ``command``; never raises: every failure becomes a popup."""
        own = language(command.person.locale or command.place.locale)
        try:
            effects = await self._handle(command)
            if self._stale_press(command, effects):
                # "Here is how things are now": the presser's hand as it is now, privately
                now = Command(
                    command.place,
                    command.person,
                    "hand",
                    game_id=command.game_id,
                    private=command.private,
                )
                effects += [e for e in await self._handle(now) if isinstance(e, Hand)]
            return effects
        except Unavailable:
            return [Popup(tr(own, texts.DATABASE_DOWN), private=command.person)]
        except StorageError as error:  # the type only: a message may quote a statement
            log.warning("command %s: storage failed: %s", command.action, type(error).__name__)
            return [Popup(tr(own, texts.NOTHING_CHANGED), private=command.person)]
        except Exception as error:
            if STRICT:
                raise
            # the type and where, not the message: an engine's may name a hand's tiles
            where = _where(error)
            log.error("command %s failed: %s at %s", command.action, type(error).__name__, where)
            return [Popup(tr(own, texts.NOTHING_CHANGED), private=command.person)]

    @staticmethod
    def _stale_press(command: Command, effects: list[Effect]) -> bool:
        """Whether ``command`` was a press of an earlier moment of a game, refused."""
        if command.game_id is None or command.person is SYSTEM or command.action == "hand":
            return False
        return any(isinstance(e, Popup) and e.stale for e in effects)

    async def _handle(self, command: Command) -> list[Effect]:
        """Under the room's lock: run the command, again on the game read afresh after a
        lost race (or a refusal made on the game as remembered)."""
        session = await open_session(command, self.desk, self.clock())
        lock = self._locks.setdefault(session.room.id, asyncio.Lock())
        async with lock:
            for _ in range(TRIES):
                session.effects, session.trusted = [], False
                session.held, session.seat = None, None
                try:
                    await dispatch(session)
                    return session.effects
                except Refusal as refusal:
                    self.desk.forget_game(session.room.id)  # it may hold unsaved changes
                    if session.trusted:  # refused on the game as remembered: read it again
                        session.fresh = True
                        continue
                    popup = session.popup(refusal.message, **refusal.params)
                    if refusal.message == texts.STALE:
                        popup = replace(popup, stale=True)
                    return [*session.effects, popup]
                except Conflict:  # another process moved: read the game again
                    self.desk.forget_game(session.room.id)
                    session.fresh = True
                    continue
                except BaseException:
                    self.desk.forget_game(session.room.id)
                    raise
        return [session.popup(texts.BUSY)]

    async def fire(self, timer: Timer, place: Place) -> list[Effect]:
        """Act on a due timer (already claimed by this process)."""
        version = str(timer.version if timer.version is not None else "")
        return await self.handle(
            Command(place, SYSTEM, "timer", (timer.kind, version), game_id=timer.game_id)
        )

    async def due_timers(self) -> list[Timer]:
        """The timers due now that no process has claimed yet."""
        return await self.store.timers.due(self.clock())

    async def fire_timer(self, timer: Timer) -> tuple[Place, list[Effect]] | None:
        """Claim ``timer`` for this process and act on it (None: another process has
        it); where its effects go, and the effects."""
        if not await self.store.timers.claim(timer.id, self.holder, self.clock()):
            return None
        place = await self.place_of_room(timer.room_id)
        effects = await self.fire(timer, place)
        await self.store.timers.fired(timer.id, self.holder, self.clock())
        return place, effects

    async def chores(self, fired_before: datetime) -> None:
        """Once a day: results a year old leave the ratings, and the rows of timers fired
        before ``fired_before`` go."""
        now = self.clock()
        await self.store.results.expire(now)
        await self.store.timers.purge(fired_before)

    async def resume(self, platform: str) -> list[tuple[Place, list[Effect]]]:
        """After a restart: the board, and the hand of the person to move, of every game
        in play on ``platform`` whose board message does not show its latest move (the
        process stopped between saving a move and showing it); the hand alone where the
        board shows it but the hand with moves never went out. What was shown gets
        nothing: a second restart sends nothing again."""
        found: list[tuple[Place, list[Effect]]] = []
        for row in await self.store.games.playing_on(platform):
            post = await self.store.posts.find(row.room_id, BOARD)
            kind = "resume"
            if post is not None and post.game_id == row.id and post.move_number == row.plies:
                # the board shows the move: the hand of the person to move may still not
                # have gone out (stopped between the two); it goes once, not at every restart
                hand = await self.store.posts.find(row.room_id, HAND)
                if hand is not None and hand.game_id == row.id and hand.move_number == row.plies:
                    continue
                kind = "resume_hand"
            place = await self.place_of_room(row.room_id)
            command = Command(place, SYSTEM, "timer", (kind, ""), game_id=row.id)
            found.append((place, await self.handle(command)))
        for tournament in await self.store.tournaments.running_on(platform):
            place = await self.place_of_room(tournament.room_id)
            command = Command(place, SYSTEM, "timer", ("tournament_reopen", str(tournament.id)))
            effects = await self.handle(command)
            if effects:
                found.append((place, effects))
        return found

    async def settle(self) -> int:
        """Write the results of finished games that have none yet (a process stopped
        between saving the last move and writing them); how many."""
        done = 0
        for game_id in await self.store.results.unrecorded(limit=20):
            row = await self.store.games.load(game_id)
            room = await self.store.people.room_by_id(row.room_id)
            loaded = self.desk.loaded(replace(row, status="playing"), keep=False)
            game = loaded.game
            if game is None or game.outcome is None or not standings.counted(loaded.seats):
                continue
            when = row.finished_at or self.clock()
            await standings.record_results(self.store, room.community_id, when, loaded, game)
            done += 1
        return done

    # ----- questions of the adapters (no room lock; storage failures are raised) ---------

    async def room_id(self, place: Place) -> int:
        """Storage's id of the room at ``place`` (created on first sight)."""
        _community, room = await self.desk.room(place, self.clock())
        return room.id

    async def place_of_room(self, room_id: int) -> Place:
        room = await self.store.people.room_by_id(room_id)
        community = await self.store.people.community_by_id(room.community_id)
        return Place(community.platform, community.platform_id, room.platform_id)

    async def place_of_game(self, game_id: int) -> Place | None:
        """Where game ``game_id`` is played; None if there is no such game."""
        try:
            row = await self.store.games.load(game_id)
        except NotFound:
            return None
        return await self.place_of_room(row.room_id)

    async def rooms_in(self, platform: str, community: str) -> list[Place]:
        """The rooms of a community with a game in the lobby or in play."""
        found = await self.store.games.active_rooms(platform, community)
        return [Place(platform, community, room) for room in found]

    async def room_gone(self, place: Place) -> None:
        """The room was deleted, or the bot removed from it: its game ends without a
        result (under the room's lock) and its board post is forgotten."""
        await self._handle(Command(place, SYSTEM, "timer", ("gone", "")))
        await self.drop_board_post(place)

    async def offers(self, place: Place, person: Person) -> tuple[Offer, ...]:
        """``person``'s legal moves now, as their hand's buttons offer them, for
        autocomplete (a look only: no lock, nothing written but a room first seen);
        () when it is not their turn or there is no game."""
        desk = self.desk
        community, room = await desk.room(place, self.clock())
        row = desk.rows.get(room.id) or await self.store.games.active_in(room.id)
        if row is None or row.status != "playing":
            return ()
        game = desk.loaded(row, keep=False).game
        if game is None or game.hand is None or game.to_move is None:
            return ()
        user = desk.users.get((place.platform, person.platform_id))
        if user is None:
            user = await self.store.people.find(place.platform, person.platform_id)
        seats = seats_from(row.seats)
        seat = seat_of(seats, user.id) if user is not None else None
        if user is None or seat != game.to_move or seats[seat].away:
            return ()
        # the language the hand's buttons speak to the person who asked for them
        room_lang = room.settings.get("language") or community.locale or place.locale
        lang = language(seats[seat].locale or user.locale or person.locale or room_lang)
        names = tuple(name_of(s, i, lang) for i, s in enumerate(seats[: game.players]))
        return tuple(
            Offer(_tile_of(move), _place_of(move), label, command_for(move))
            for label, move in keyed_moves(lang, game.legal_moves(), names)
        )

    async def rule_offers(
        self, place: Place, complete: str, typed: str, given: Mapping[str, Any], lang: str
    ) -> tuple[tuple[str, str], ...]:
        """(label, value) a field of house rules offers as the person types ``typed``
        (``complete``: "options", "option" or "value", bot/core/registry.py; ``given``: the
        command's other fields), from the rules in view (a look only, as ``offers``)."""
        preset = house_rules.preset_named(complete, typed, given)
        rules = await self.rules_in_view(place, preset)
        return house_rules.offered(complete, rules, typed, given, language(lang))

    async def rules_in_view(self, place: Place, preset: str | None = None) -> Rules:
        """The rules house rules are offered from: the preset named with the room's
        house rules for it; none named, the game in the room, else the room's preset."""
        _community, room = await self.desk.room(place, self.clock())
        if preset is None:
            row = self.desk.rows.get(room.id) or await self.store.games.active_in(room.id)
            if row is not None:
                return Rules.from_record(row.snapshot["record"]["rules"])
        if preset is None or preset not in preset_names():
            preset = room.settings.get("preset", DEFAULT_PRESET)
        return house_rules.room_rules(room.settings, preset)

    async def board_post(self, place: Place) -> Post | None:
        """Where the room's board message is (None: not posted, or forgotten)."""
        found = await self.store.posts.find(await self.room_id(place), BOARD)
        if found is None or found.game_id is None:
            return None
        return Post(found.game_id, found.message_id, found.move_number)

    async def keep_board_post(
        self, place: Place, game_id: int, message_id: str, move_number: int | None = None
    ) -> None:
        """The room's board is now message ``message_id``, showing ``move_number``."""
        room_id = await self.room_id(place)
        now = self.clock()
        await self.store.posts.keep(room_id, BOARD, game_id, message_id, now, move_number)

    async def board_shown(self, place: Place, move_number: int) -> None:
        """The room's board message shows move ``move_number`` now (edited in place): a
        restarted process that finds it behind the game shows the board again."""
        await self.store.posts.shown(await self.room_id(place), BOARD, move_number)

    async def drop_board_post(self, place: Place) -> None:
        await self.store.posts.drop(await self.room_id(place), BOARD)

    async def hand_shown(self, place: Place, game_id: int, move_number: int) -> None:
        """A hand with moves to make went out at ``move_number`` (a restart that finds the
        board shown but not the hand sends the hand)."""
        await self.store.posts.keep(
            await self.room_id(place), HAND, game_id, "", self.clock(), move_number
        )

    async def hand_current(self, place: Place, game_id: int, move_number: int) -> bool:
        """Whether a hand with moves made at ``move_number`` still plays: False once this
        process saved a later move of the game (a hand a restart made, overtaken by a
        press, would show tiles already played). A game it does not hold: True."""
        row = self.desk.rows.get(await self.room_id(place))
        return row is None or row.id != game_id or row.plies <= move_number

    async def lobby_post(self, place: Place) -> Post | None:
        """Where the room's latest lobby message is (None: none with live buttons)."""
        found = await self.store.posts.find(await self.room_id(place), LOBBY)
        if found is None or found.game_id is None:
            return None
        return Post(found.game_id, found.message_id, found.move_number)

    async def keep_lobby_post(self, place: Place, game_id: int, message_id: str) -> None:
        """The room's lobby is now message ``message_id`` (a restart edits the same)."""
        await self.store.posts.keep(
            await self.room_id(place), LOBBY, game_id, message_id, self.clock(), None
        )

    async def open_table(
        self, place: Place, tournament_id: int, round_number: int, table: int
    ) -> list[Effect]:
        """The adapter opened ``place`` for a tournament's table: its game, there."""
        args = (str(tournament_id), str(round_number), str(table))
        return await self.handle(Command(place, SYSTEM, "table", args))

    async def table_told(self, told: TableTold) -> None:
        """A tournament table's result went out: a restart need not tell it again."""
        await self.store.tournaments.set_table(
            told.tournament_id, told.round, told.table, self.clock(), told=True
        )

    async def drop_lobby_post(self, place: Place) -> None:
        await self.store.posts.drop(await self.room_id(place), LOBBY)

    async def take_send(self, chat: str, limit: int, period: float, now: float) -> float:
        """Count a group message to ``chat`` in the sliding window every process shares:
        0 if fewer than ``limit`` went in the ``period`` seconds before ``now``, else how
        long to wait (and nothing is counted)."""
        return await self.store.sends.take(chat, limit, period, now)


def _tile_of(move: Move) -> str:
    """The tile a move plays, as typed ("6-4"); a move of no tile by its word."""
    return str(move.tile) if move.tile is not None else move.action.value


def _place_of(move: Move) -> str | None:
    """Where a tile move goes, as typed after "on" ("6-6", "train:2"); None: nowhere
    to say."""
    text = move.action_text()
    return text.split(" on ", 1)[1] if " on " in text else None


def _where(error: BaseException) -> str:
    """The file and line an exception was raised at (for a log line without its message)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return "?"
    return f"{os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno}"
