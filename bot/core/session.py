"""One command on its way through the service, as its handler gets it: who did it, where,
in which languages, when, the effects gathered so far, and the room's game as loaded
(row, seats, rules, notes and the engine's game). The :class:`Desk` is what every
command works with and what the service keeps between commands."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from bot.core import texts
from bot.core.bounded import Bounded
from bot.core.damage import DAMAGE, damaged, set_aside
from bot.core.links import PageLinks
from bot.core.model import Command, Effect, Person, Place, Popup, Reply, Say
from bot.core.names import clean_name
from bot.core.reading import ReadingBudget
from bot.core.seats import Seat, seats_from
from engine.game import Game
from engine.record import load, resume
from engine.rules import Rules
from lang import language, tr
from storage.errors import DamagedGame
from storage.games import ACTIVE, GameRow
from storage.notes import GameNotes
from storage.people import Community, Room, User
from storage.store import Store

log = logging.getLogger(__name__)

ROOM_SECONDS = 30  # how long a room's settings are trusted from memory
# the most recently used kept in each process's memory (Desk)
COMMUNITIES_KEPT = 5_000
ROOMS_KEPT = 10_000
USERS_KEPT = 20_000
# Who the service itself acts as (timers, a room that is gone). Only commands made with
# this very object may be internal ones: a press or a forged button saying "timer" is not.
SYSTEM = Person("~system", "system", admin=True)


class Refusal(Exception):
    """A command that cannot be done: its message (an English id) goes back privately,
    and nothing it did is saved."""

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.params = params


@dataclass
class Loaded:
    """The room's game as loaded: its row, who sits where, its record and notes, the
    engine's game (None in the lobby) and its rules (read once, as the game has them)."""

    row: GameRow
    seats: list[Seat]
    record: dict[str, Any]
    notes: GameNotes
    game: Game | None
    rules: Rules


def game_of(row: GameRow, notes: GameNotes | None = None) -> Game | None:
    """The engine's game of ``row`` as stored (None in the lobby), resumed from its
    checkpoint (or, saved by an older version without one, replayed whole); ``notes``:
    the row's, when already read."""
    if row.status == "lobby":
        return None
    snapshot = row.snapshot
    point = snapshot.get("checkpoint")
    game = load(snapshot["record"]) if point is None else resume(snapshot["record"], point)
    game.started_at = (notes or row.notes).started_at
    return game


class ReentrantLock:
    """An asyncio lock the task holding it may take again: a table opened under the
    tournament's lock may end its game at once (computers alone), and the game's end
    takes the tournament's lock to write the table's result."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._depth = 0

    async def __aenter__(self) -> None:
        task = asyncio.current_task()
        if self._owner is not task or task is None:
            await self._lock.acquire()
            self._owner = task
        self._depth += 1

    async def __aexit__(self, *_: object) -> None:
        self._depth -= 1
        if self._depth == 0:
            self._owner = None
            self._lock.release()


@dataclass
class Desk:
    """What every command works with: the store, the source of each hand's deal, and
    what this process remembers between commands (who and where: three fewer queries a
    command; the games as last saved, so a move does not replay its game)."""

    store: Store
    seeds: Callable[[], int]
    # the rooms wait for their people (the console: one screen, people step away): a turn
    # has a timer only where the room or the game asks for one, and no game ends idle
    patient: bool = False
    # what was read of the people and places that came by, most recently used kept (issue
    # 32, 8: a process serving many groups never grows for ever; one forgotten is read
    # again): about 1 KB a room or a person, so some 40 MB at most
    communities: Bounded[tuple[str, str], Community] = field(
        default_factory=lambda: Bounded(COMMUNITIES_KEPT)
    )
    rooms: Bounded[tuple[int, str], tuple[Room, datetime]] = field(
        default_factory=lambda: Bounded(ROOMS_KEPT)
    )
    users: Bounded[tuple[str, str], User] = field(default_factory=lambda: Bounded(USERS_KEPT))
    handles: Bounded[tuple[str, str], str | None] = field(
        default_factory=lambda: Bounded(USERS_KEPT)
    )
    games: dict[int, tuple[int, Game]] = field(default_factory=dict)  # id: (version, game)
    rows: dict[int, GameRow] = field(default_factory=dict)  # room id: its active game's row
    # a community's tournament is changed by one command at a time in this process (its
    # tables play in rooms of their own, each under its room's lock); taken after a room's
    # lock, never before. Other processes: the tournament row's version.
    tournament_locks: dict[int, ReentrantLock] = field(default_factory=dict)
    # each person's public answers to reading commands in each room, this last minute
    reading: ReadingBudget = field(default_factory=ReadingBudget)
    # the web pages' keys put on the effects (bot/core/links.py), as last read
    links: PageLinks = field(init=False)

    def __post_init__(self) -> None:
        self.links = PageLinks(self.store)

    def tournament_lock(self, community_id: int) -> ReentrantLock:
        return self.tournament_locks.setdefault(community_id, ReentrantLock())

    def loaded(self, row: GameRow, keep: bool = True) -> Loaded:
        """``row`` with its game, from memory when this process holds that very version
        (``keep``: remember the game read, for the next command). A row that cannot be
        read (its notes, seats or record damaged) raises :class:`DamagedGame`."""
        try:
            return self._loaded(row, keep)
        except DAMAGE as error:
            raise damaged(row.id, row.room_id, row.status, error) from None

    def _loaded(self, row: GameRow, keep: bool) -> Loaded:
        snapshot, notes = row.snapshot, row.notes
        game: Game | None = None
        if row.status != "lobby":
            cached = self.games.get(row.id)
            if cached is not None and cached[0] == row.version:
                game = cached[1]
            else:
                game = game_of(row, notes)
                assert game is not None
                if keep:
                    self.games[row.id] = (row.version, game)
        record = snapshot["record"]
        rules = game.rules if game is not None else Rules.from_record(record["rules"])
        seats = seats_from(row.seats)
        if len(seats) < (game.players if game is not None else rules.min_players):
            raise ValueError("fewer seats than players")
        return Loaded(row, seats, record, notes, game, rules)

    def remember(self, room_id: int, row: GameRow | None) -> None:
        """``row`` is the room's game as saved (forgotten once it is over)."""
        if row is not None and row.status in ACTIVE:
            self.rows[room_id] = row
        else:
            self.forget_game(room_id)

    def forget_game(self, room_id: int) -> None:
        row = self.rows.pop(room_id, None)
        if row is not None:
            self.games.pop(row.id, None)

    async def room(self, place: Place, now: datetime) -> tuple[Community, Room]:
        """The community and room at ``place``, created on first sight, from memory when
        recent (another process may change a room's settings)."""
        people = self.store.people
        key = (place.platform, place.community)
        community = self.communities.get(key)
        if community is None:
            community = await people.community(
                place.platform, place.community, now, place.community_name, place.locale
            )
            self.communities.put(key, community)
        cached = self.rooms.get((community.id, place.room))
        if cached is None or now - cached[1] > timedelta(seconds=ROOM_SECONDS):
            room = await people.room(community.id, place.room, now)
            if room.repaired:  # this reading set them aside: logged once, told once
                log.warning("room %s: its settings cannot be read; set aside, defaults", room.id)
            self.rooms.put((community.id, place.room), (replace(room, repaired=False), now))
        else:
            room = cached[0]
        return community, room

    def room_changed(self, community_id: int, room: Room, now: datetime) -> None:
        """``room`` as this process just wrote it (its settings)."""
        self.rooms.put((community_id, room.platform_id), (room, now))

    def forget_user(self, platform: str, platform_id: str) -> None:
        """The user was forgotten: read them afresh when next seen."""
        self.users.pop((platform, platform_id), None)

    async def user(self, platform: str, person: Person, now: datetime) -> User:
        """The stored user of ``person``, written when first seen or when their name or
        @username changed. The service itself is nobody to remember."""
        if person is SYSTEM:
            return User(0, platform, SYSTEM.platform_id, SYSTEM.name, None, False)
        key = (platform, person.platform_id)
        user = self.users.get(key)
        if user is None or user.name != person.name or self.handles.get(key) != person.handle:
            user = await self.store.people.user(
                platform, person.platform_id, person.name, now, handle=person.handle
            )
            self.users.put(key, user)
            self.handles.put(key, person.handle)
        return user


@dataclass
class Session:
    """One command: who, where, the languages, the time, the effects gathered, and (once
    the dispatch loaded it) the room's game and the person's seat in it."""

    command: Command
    community: Community
    room: Room
    user: User
    lang: str  # the room's language
    own: str  # the person's language (private messages)
    now: datetime
    desk: Desk
    effects: list[Effect] = field(default_factory=list)
    # what the command reported as it went, for the reactions (bot/core/reactions.py)
    reported: list[Any] = field(default_factory=list)
    # what the room is told whatever becomes of the command, before its effects: a game
    # or settings found damaged and set aside (issue 33, 7)
    told: list[Effect] = field(default_factory=list)
    fresh: bool = False  # read the game from storage even if this process holds it
    trusted: bool = False  # the game came from memory, unread
    held: Loaded | None = None  # the room's game, when the command needs one
    seat: int | None = None  # the person's seat, when the command is a seat's

    @property
    def person(self) -> Person:
        return self.command.person

    @property
    def args(self) -> tuple[str, ...]:
        return self.command.args

    @property
    def store(self) -> Store:
        return self.desk.store

    @property
    def loaded(self) -> Loaded:
        """The room's game (the dispatch loaded it: the command's spec needs it)."""
        assert self.held is not None, f"the registry says {self.command.action} needs no game"
        return self.held

    @property
    def my_seat(self) -> int:
        """The person's seat (the dispatch checked it: the command is a seat's)."""
        assert self.seat is not None, f"the registry says {self.command.action} is no seat's"
        return self.seat

    @property
    def game(self) -> Game:
        """The engine's game (the dispatch checked it is in play)."""
        game = self.loaded.game
        assert game is not None, f"the registry says {self.command.action} needs no game in play"
        return game

    def say(self, message: str, **params: Any) -> None:
        """Words for the room, in its language."""
        self.effects.append(Say(tr(self.lang, message, **params)))

    def tell(self, message: str, **params: Any) -> None:
        """Words only the person who acted sees, in their language."""
        self.effects.append(Reply(tr(self.own, message, **params), private=self.person))

    async def set_aside(self, found: DamagedGame) -> None:
        """Set a game that cannot be read aside (bot/core/damage.py); the room is told,
        once, by the command that did it."""
        self.desk.forget_game(self.room.id)
        self.desk.forget_game(found.room_id)  # (a tournament's table, read from elsewhere)
        if await set_aside(self.store, found, self.now):
            self.told.append(Say(tr(self.lang, texts.GAME_SET_ASIDE, number=found.game_id)))

    def popup(self, message: str, **params: Any) -> Popup:
        """A short notice to the person who acted (a refusal)."""
        return Popup(tr(self.own, message, **params), private=self.person)

    async def active(self, trusting: bool = False) -> Loaded | None:
        """The room's game in the lobby or in play. ``trusting`` (a move): as this
        process last saw it, unread; if another process moved meanwhile, the save finds
        a newer version, or the move is refused on the old state, and the command runs
        again with the game read afresh."""
        desk = self.desk
        row = None
        if trusting and not self.fresh:
            row = desk.rows.get(self.room.id)
            self.trusted = row is not None
        if row is None:
            row = await self.store.games.active_in(self.room.id)
            desk.remember(self.room.id, row)
        return desk.loaded(row) if row is not None else None


async def open_session(command: Command, desk: Desk, now: datetime) -> Session:
    """The session of ``command``: its person's name cleaned, the room and the user
    (created on first sight), and the languages."""
    place, person = command.place, command.person
    name = clean_name(person.name, person.platform_id[-8:] or "?")
    if name != person.name:
        command = replace(command, person=replace(person, name=name))
    community, room = await desk.room(place, now)
    user = await desk.user(place.platform, command.person, now)
    lang = language(room.settings.language or community.locale or place.locale)
    own = language(user.locale or command.person.locale or lang)
    session = Session(command, community, room, user, lang, own, now, desk)
    if room.repaired:
        session.told.append(Say(tr(lang, texts.SETTINGS_SET_ASIDE)))
    return session
