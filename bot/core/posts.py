"""What the doors keep in storage while they deliver, apart from the game service: which
message is each room's board (and which move it shows), which is a game's lobby, which
hand with moves went out, the rooms a tournament's tables were given, the results told,
and the send window every process shares.

The doors are given a :class:`Posts` (bot/__main__.py makes it beside the service); the
delivery asks it, never the service, so delivering never runs a command. A restarted
process reads the same rows: it edits the same board, and shows again what the last one
saved but never showed (``GameService.resume``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from bot.core.bounded import Bounded
from bot.core.model import Place, Post, TableTold
from storage.database import utcnow
from storage.store import Store

BOARD = "board"  # the kind of the room's post the board is
LOBBY = "lobby"  # the kind of the room's post a game's lobby is (Telegram edits it in place)
# The message id remembered for a board that ended a hand: that message stays as it is
# (the hand's picture) and the next board is posted anew, with nothing deleted.
RELEASED = ""
HAND = "hand"  # the move the latest hand with moves to make went out at (a restart checks it)
# A door opened a room for a tournament's table: the table's game is made there at once,
# by the timer of this kind (bot/core/tournament/tables.py), in whichever process fires it
# (one that stopped meanwhile leaves it to the next).
OPEN_TIMER = "table"
ROOM_IDS_KEPT = 20_000  # about 200 bytes each


class Posts:
    """The doors' memory of what they posted, in storage (every process shares it)."""

    def __init__(self, store: Store, clock: Callable[[], datetime] = utcnow) -> None:
        self._store = store
        self._clock = clock
        # a place: storage's room id, the most recently used kept (one forgotten is read)
        self._rooms: Bounded[tuple[str, str, str], int] = Bounded(ROOM_IDS_KEPT)

    async def room_id(self, place: Place) -> int:
        """Storage's id of the room at ``place`` (made on first sight; ids never change)."""
        key = (place.platform, place.community, place.room)
        found = self._rooms.get(key)
        if found is None:
            people, now = self._store.people, self._clock()
            community = await people.community(
                place.platform, place.community, now, place.community_name, place.locale
            )
            found = (await people.room(community.id, place.room, now)).id
            self._rooms.put(key, found)
        return found

    # ----- the board ---------------------------------------------------------------------

    async def board_post(self, place: Place) -> Post | None:
        """Where the room's board message is (None: not posted, or forgotten)."""
        return await self._find(place, BOARD)

    async def keep_board_post(
        self, place: Place, game_id: int, message_id: str, move_number: int | None = None
    ) -> None:
        """The room's board is now message ``message_id``, showing ``move_number``."""
        room_id = await self.room_id(place)
        await self._store.posts.keep(
            room_id, BOARD, game_id, message_id, self._clock(), move_number
        )

    async def board_shown(self, place: Place, move_number: int) -> None:
        """The room's board message shows move ``move_number`` now (edited in place): a
        restarted process that finds it behind the game shows the board again."""
        await self._store.posts.shown(await self.room_id(place), BOARD, move_number)

    async def drop_board_post(self, place: Place) -> None:
        await self._store.posts.drop(await self.room_id(place), BOARD)

    # ----- hands -------------------------------------------------------------------------

    async def hand_shown(self, place: Place, game_id: int, move_number: int) -> None:
        """A hand with moves to make went out at ``move_number`` (a restart that finds the
        board shown but not the hand sends the hand)."""
        room_id = await self.room_id(place)
        await self._store.posts.keep(room_id, HAND, game_id, "", self._clock(), move_number)

    async def hand_current(self, place: Place, game_id: int, move_number: int) -> bool:
        """Whether a hand with moves made at ``move_number`` still plays: False once a later
        move of the game is saved, by any process (a hand a restart made, overtaken by a
        press, would show tiles already played)."""
        plies = await self._store.games.plies(game_id)
        return plies is None or plies <= move_number

    # ----- lobbies -----------------------------------------------------------------------

    async def lobby_post(self, place: Place) -> Post | None:
        """Where the room's latest lobby message is (None: none with live buttons)."""
        return await self._find(place, LOBBY)

    async def keep_lobby_post(self, place: Place, game_id: int, message_id: str) -> None:
        """The room's lobby is now message ``message_id`` (a restart edits the same)."""
        room_id = await self.room_id(place)
        await self._store.posts.keep(room_id, LOBBY, game_id, message_id, self._clock(), None)

    async def drop_lobby_post(self, place: Place) -> None:
        await self._store.posts.drop(await self.room_id(place), LOBBY)

    # ----- a tournament's tables ---------------------------------------------------------

    async def table_opened(
        self, place: Place, tournament_id: int, round_number: int, table: int
    ) -> None:
        """The door opened ``place`` for a tournament's table: the service makes the
        table's game there at once (a timer due now: whichever process fires it, even
        after a restart)."""
        room_id = await self.room_id(place)
        args = [str(tournament_id), str(round_number), str(table)]
        await self._store.timers.set(room_id, OPEN_TIMER, self._clock(), payload={"args": args})

    async def table_told(self, told: TableTold) -> None:
        """A tournament table's result went out: a restart need not tell it again."""
        await self._store.tournaments.set_table(
            told.tournament_id, told.round, told.table, self._clock(), told=True
        )

    # ----- Telegram's shared count of a group's messages -----------------------------------

    async def take_send(
        self, chat: str, limit: int, period: float, now: float, sent_alone: Sequence[float] = ()
    ) -> tuple[float, tuple[float, ...]]:
        """Count a group message to ``chat`` in the sliding window every process shares:
        a wait of 0 if fewer than ``limit`` went in the ``period`` seconds before ``now``,
        else how long to wait (and nothing is counted); and the window's stamps after.
        ``sent_alone``: what this process sent while the count could not be asked."""
        return await self._store.sends.take(chat, limit, period, now, sent_alone)

    async def _find(self, place: Place, kind: str) -> Post | None:
        found = await self._store.posts.find(await self.room_id(place), kind)
        if found is None or found.game_id is None:
            return None
        return Post(found.game_id, found.message_id, found.move_number)
