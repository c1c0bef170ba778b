"""The game service: commands in, effects out, no platform library in sight; the timers
it fires by itself; and the few questions the doors ask it (where a game is, the rooms of
a community, a person's legal moves, the house rules offered as they type).

One room's commands run one at a time (a lock per room in this process; across
processes the stored game's version refuses a lost race, and the command is tried again
on the fresh game). Every answer is text already in the reader's language.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator, Callable, Collection, Mapping
from contextlib import asynccontextmanager, suppress
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from bot.core import house_rules, standings, texts
from bot.core.damage import DAMAGE, set_aside, where
from bot.core.dispatch import dispatch
from bot.core.handlers.lobby import DEFAULT_PRESET
from bot.core.links import put_keys
from bot.core.model import Command, Effect, Hand, Offer, Person, Place, Popup
from bot.core.pages.web import WebPages
from bot.core.posts import BOARD, HAND, RELEASED
from bot.core.registry import spec_of
from bot.core.seats import seat_of, seats_from
from bot.core.session import SYSTEM, Desk, Refusal, Session, open_session
from bot.core.showing import command_for, keyed_moves, name_of
from bot.core.tournament.rounds import REOPEN
from engine.moves import Move
from engine.presets import preset_names
from engine.rules import Rules
from lang import language, tr
from storage.database import utcnow
from storage.errors import Conflict, DamagedGame, NotFound, StorageError, Unavailable
from storage.games import SET_ASIDE, GameRow
from storage.store import Store
from storage.timers import Timer

__all__ = ["GameService", "StorageError", "Unavailable"]

log = logging.getLogger(__name__)

TRIES = 3  # attempts at a command that lost a race with another process
# The test suite sets DOMINO_STRICT=1: an unexpected exception inside handle then fails
# the test instead of hiding behind "nothing changed" (production keeps answering).
STRICT = os.environ.get("DOMINO_STRICT") == "1"
SETTLE_EVERY = timedelta(hours=1)  # how often results never written are looked for
FIRED_KEPT = timedelta(days=1)  # fired timers' rows, kept a while for anyone looking into a game
# Told of every command handled: (platform, the registry's name of the command or
# "unknown", its outcome, seconds taken). The outcomes: ok, refused, stale (a press of an
# earlier moment), unavailable (the database away), error (nothing changed).
Observe = Callable[[str, str, str, float], None]
UNKNOWN = "unknown"  # the name of a command the registry does not have (never what was typed)


class GameService:
    """Every command of BOT.md, from the lobby to the game's end, and the timers; and the
    few questions the doors ask (no room lock: a look at storage)."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime] = utcnow,
        holder: str | None = None,
        seeds: Callable[[], int] = lambda: secrets.randbits(62),
        patient: bool = False,
        observe: Observe | None = None,
        links: Collection[str] = (),
    ) -> None:
        self.store = store
        # the platforms whose doors show links to the web pages (they have an address
        # people reach the pages at): their effects carry the pages' keys (bot/core/links.py)
        self.links = frozenset(links)
        self.observe = observe  # the operator's counters (bot/doors/ops), when kept
        self.clock = clock
        self.holder = holder or f"pid-{os.getpid()}-{secrets.token_hex(3)}"
        # each hand's deal from ``seeds`` (tests seed it); ``patient``: the rooms wait for
        # their people (the console's: no turn timer unless asked for, no idle end)
        self.desk = Desk(store, seeds, patient)
        self._locks = RoomLocks()  # one command at a time in each room of this process
        self._settled_at: datetime | None = None  # when unwritten results were last looked for
        self._expired_on: object = None  # the day results older than a year were last taken out
        # the web pages' questions (bot/core/pages/): the web door is given these alone
        self.pages = WebPages(store, clock, patient)

    # ----- commands in, effects out ------------------------------------------------------

    async def handle(self, command: Command) -> list[Effect]:
        """Answer ``command``; never raises: every failure becomes a popup."""
        own = language(command.person.locale or command.place.locale)
        started, outcome = time.perf_counter(), "error"
        try:
            effects = await self._handle(command)
            outcome = _outcome(effects)
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
            outcome = "unavailable"
            return [Popup(tr(own, texts.DATABASE_DOWN), private=command.person)]
        except StorageError as error:  # the type only: a message may quote a statement
            log.warning("command %s: storage failed: %s", command.action, type(error).__name__)
            return [Popup(tr(own, texts.NOTHING_CHANGED), private=command.person)]
        except Exception as error:
            if STRICT:
                raise
            # the type and where, not the message: an engine's may name a hand's tiles
            name = type(error).__name__
            log.error("command %s failed: %s at %s", command.action, name, where(error))
            return [Popup(tr(own, texts.NOTHING_CHANGED), private=command.person)]
        finally:
            self._observed(command, outcome, time.perf_counter() - started)

    def _observed(self, command: Command, outcome: str, seconds: float) -> None:
        if self.observe is None:
            return
        spec = spec_of(command.action)
        try:  # counting never changes an answer
            self.observe(command.place.platform, spec.name if spec else UNKNOWN, outcome, seconds)
        except Exception as error:
            log.warning("observing a command failed: %s", type(error).__name__)

    @staticmethod
    def _stale_press(command: Command, effects: list[Effect]) -> bool:
        """Whether ``command`` was a press of an earlier moment of a game, refused."""
        if command.game_id is None or command.person is SYSTEM or command.action == "hand":
            return False
        return any(isinstance(e, Popup) and e.stale for e in effects)

    async def _handle(self, command: Command) -> list[Effect]:
        """Under the room's lock, the command (:meth:`_tries`); what the room is told of
        a damaged game or settings set aside goes first, whatever became of it."""
        session = await open_session(command, self.desk, self.clock())
        async with self._locks.hold(session.room.id):
            effects = await self._tries(session)
        links = self.desk.links if command.place.platform in self.links else None
        effects = [*session.told, *effects]
        return await put_keys(links, command.place, session.community.id, effects, session.now)

    async def _tries(self, session: Session) -> list[Effect]:
        """The command, again on the game read afresh after a lost race (or a refusal
        made on the game as remembered, or a game found damaged and set aside)."""
        for _ in range(TRIES):
            session.effects, session.reported, session.trusted = [], [], False
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
            except DamagedGame as found:  # set aside: the command runs without it
                self.desk.forget_game(session.room.id)
                if found.status == SET_ASIDE:  # named again (/export 12)
                    return [session.popup(texts.SET_ASIDE_GAME, number=found.game_id)]
                await session.set_aside(found)
                session.fresh = True
                continue
            except BaseException:
                self.desk.forget_game(session.room.id)
                raise
        return [session.popup(texts.BUSY)]

    # ----- the service acting by itself --------------------------------------------------

    async def fire_due(self) -> AsyncIterator[tuple[Place, list[Effect]]]:
        """Fire the timers due now that no process holds (each is claimed first: one
        process fires it), yielding where each one's effects go, and the effects. Then, at
        the first call and hourly, the results of games that ended without them are
        written (:meth:`settle`); once a day a result a year old leaves the ratings, and
        the rows of timers fired a day before go."""
        now = self.clock()
        for timer in await self.store.timers.due(now):
            if not await self.store.timers.claim(timer, self.holder, self.clock()):
                continue  # another process has it
            if timer.payload is None:  # what it carries cannot be read: dropped, once
                log.warning(
                    "timer %s (room %s, %s) cannot be read: dropped",
                    timer.id,
                    timer.room_id,
                    timer.kind,
                )
                await self.store.timers.fired(timer.id, self.holder, self.clock())
                continue
            place = await self._place_of_room(timer.room_id)
            effects = await self.handle(_timer_command(timer, place))
            await self.store.timers.fired(timer.id, self.holder, self.clock())
            yield place, effects
        if self._settled_at is None or now - self._settled_at >= SETTLE_EVERY:
            await self.settle()  # at start, then hourly: not a query every second
            self._settled_at = now
        if self._expired_on != now.date():
            await self.store.results.expire(now)
            await self.store.timers.purge(now - FIRED_KEPT)
            self._expired_on = now.date()

    async def resume(self, platform: str) -> list[tuple[Place, list[Effect]]]:
        """After a restart: the board, and the hand of the person to move, of every game
        in play on ``platform`` whose board message does not show its latest move (the
        process stopped between saving a move and showing it); the hand alone where the
        board shows it but the hand with moves never went out. What was shown gets
        nothing: a second restart sends nothing again."""
        found: list[tuple[Place, list[Effect]]] = []
        for game_id in await self.store.games.playing_on(platform):
            try:
                row = await self.store.games.load(game_id)
                room_id, kind = row.room_id, await self._resumed(row)
            except DamagedGame as damaged:  # the room's session sets it aside, and tells
                room_id, kind = damaged.room_id, "resume"
            if kind is None:
                continue
            place = await self._place_of_room(room_id)
            command = Command(place, SYSTEM, "timer", (kind, ""), game_id=game_id)
            found.append((place, await self.handle(command)))
        for tournament in await self.store.tournaments.running_on(platform):
            place = await self._place_of_room(tournament.room_id)
            command = Command(place, SYSTEM, "timer", (REOPEN, str(tournament.id)))
            effects = await self.handle(command)
            if effects:
                found.append((place, effects))
        return found

    async def _resumed(self, row: GameRow) -> str | None:
        """What a restart shows again of ``row``: "resume" (the board and the hand),
        "resume_hand" (the hand alone), or None (nothing: both went out)."""
        posts = self.store.posts
        post = await posts.find(row.room_id, BOARD)
        if (
            post is None
            or post.game_id != row.id
            or post.move_number != row.plies
            or self._dealt_unseen(row, post.message_id)
        ):
            return "resume"
        # the board shows the move: the hand of the person to move may still not have gone
        # out (stopped between the two); it goes once, not at every restart
        hand = await posts.find(row.room_id, HAND)
        if hand is not None and hand.game_id == row.id and hand.move_number == row.plies:
            return None
        return "resume_hand"

    def _dealt_unseen(self, row: GameRow, message_id: str) -> bool:
        """The board shown is the last hand's end (kept as its picture) while a new hand
        is in play: dealt, with no move yet, so the move count did not change, and
        stopped before its board went out."""
        if message_id != RELEASED:
            return False
        game = self.desk.loaded(row, keep=False).game
        return game is not None and game.hand is not None

    async def settle(self) -> int:
        """Write the results of finished games that have none yet (a process stopped
        between saving the last move and writing them); how many."""
        done = 0
        for game_id in await self.store.results.unrecorded(limit=20):
            try:
                row = await self.store.games.load(game_id)
                loaded = self.desk.loaded(replace(row, status="playing"), keep=False)
            except DamagedGame as damaged:  # set aside: no longer looked for
                await set_aside(self.store, damaged, self.clock())
                continue
            room = await self.store.people.room_by_id(row.room_id)
            game = loaded.game
            if game is None or game.outcome is None or not standings.counted(loaded.seats):
                continue
            when = row.finished_at or self.clock()
            await standings.record_results(self.store, room.community_id, when, loaded, game)
            done += 1
        return done

    async def room_gone(self, place: Place) -> None:
        """The room was deleted, or the bot removed from it: its game ends without a
        result (under the room's lock) and its board post is forgotten."""
        await self._handle(Command(place, SYSTEM, "timer", ("gone", "")))
        _community, room = await self.desk.room(place, self.clock())
        await self.store.posts.drop(room.id, BOARD)

    # ----- questions of the doors (no room lock; storage failures are raised) ------------

    async def place_of_game(self, game_id: int, platform: str) -> Place | None:
        """Where game ``game_id`` is played, when that is on ``platform`` (the door
        asking: an id from one platform never names another's room); None if there is no
        such game there."""
        if not 0 < game_id < 2**63:  # (a number from outside, not a row's id)
            return None
        try:
            room_id = (await self.store.games.load(game_id)).room_id
        except NotFound:
            return None
        except DamagedGame as damaged:  # its room's session sets it aside, and tells
            room_id = damaged.room_id
        place = await self._place_of_room(room_id)
        return place if place.platform == platform else None

    async def language_of(self, place: Place) -> str:
        """The language ``place`` speaks: its room's setting, else its community's, else
        the one the door gave (a look only, as ``offers``)."""
        community, room = await self.desk.room(place, self.clock())
        return language(room.settings.language or community.locale or place.locale)

    async def rooms_in(self, platform: str, community: str) -> list[Place]:
        """The rooms of a community with a game in the lobby or in play."""
        found = await self.store.games.active_rooms(platform, community)
        return [Place(platform, community, room) for room in found]

    async def offers(self, place: Place, person: Person) -> tuple[Offer, ...]:
        """``person``'s legal moves now, as their hand's buttons offer them, for
        autocomplete (a look only: no lock, nothing written but a room first seen);
        () when it is not their turn or there is no game."""
        desk = self.desk
        community, room = await desk.room(place, self.clock())
        try:
            row = desk.rows.get(room.id) or await self.store.games.active_in(room.id)
            if row is None or row.status != "playing":
                return ()
            game = desk.loaded(row, keep=False).game
        except DamagedGame:  # a look only: the room's next command sets it aside
            return ()
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
        room_lang = room.settings.language or community.locale or place.locale
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
        command's other fields), from the rules in view (a look only, as ``offers``): the
        preset named with the room's house rules for it; none named, the game in the room,
        else the room's preset."""
        preset = house_rules.preset_named(complete, typed, given)
        _community, room = await self.desk.room(place, self.clock())
        rules: Rules | None = None
        if preset is None:
            with suppress(DamagedGame, *DAMAGE):  # the room's next command sets it aside
                row = self.desk.rows.get(room.id) or await self.store.games.active_in(room.id)
                if row is not None:
                    rules = Rules.from_record(row.snapshot["record"]["rules"])
        if rules is None:
            if preset is None or preset not in preset_names():
                preset = room.settings.preset or DEFAULT_PRESET
            rules = house_rules.room_rules(room.settings, preset)
        return house_rules.offered(complete, rules, typed, given, language(lang))

    async def _place_of_room(self, room_id: int) -> Place:
        room = await self.store.people.room_by_id(room_id)
        community = await self.store.people.community_by_id(room.community_id)
        return Place(community.platform, community.platform_id, room.platform_id)


class RoomLocks:
    """A lock per room while a command holds it or waits for it, and none after: kept
    only in use, so as many as the commands running at once (issue 32, 8)."""

    def __init__(self) -> None:
        self._locks: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}  # room: the commands holding or waiting

    @asynccontextmanager
    async def hold(self, room_id: int) -> AsyncIterator[None]:
        lock = self._locks.setdefault(room_id, asyncio.Lock())
        self._users[room_id] = self._users.get(room_id, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._users[room_id] -= 1
            if not self._users[room_id]:
                del self._users[room_id], self._locks[room_id]

    def __len__(self) -> int:
        return len(self._locks)


def _outcome(effects: list[Effect]) -> str:
    """How a command ended, from its effects: a popup is a refusal (the only popups the
    session makes), stale when it says the press was of an earlier moment."""
    popups = [e for e in effects if isinstance(e, Popup)]
    if any(p.stale for p in popups):
        return "stale"
    return "refused" if popups else "ok"


def _timer_command(timer: Timer, place: Place) -> Command:
    """The internal command a due timer runs: ``timer <kind> <version> [<args>...]`` (a
    tournament table's timer carries the table it opens, bot/core/posts.py)."""
    version = str(timer.version if timer.version is not None else "")
    more = tuple(str(a) for a in (timer.payload or {}).get("args", ()))
    return Command(place, SYSTEM, "timer", (timer.kind, version, *more), game_id=timer.game_id)


def _tile_of(move: Move) -> str:
    """The tile a move plays, as typed ("6-4"); a move of no tile by its word."""
    return str(move.tile) if move.tile is not None else move.action.value


def _place_of(move: Move) -> str | None:
    """Where a tile move goes, as typed after "on" ("6-6", "train:2"); None: nowhere
    to say."""
    text = move.action_text()
    return text.split(" on ", 1)[1] if " on " in text else None
