"""What a door tells the one delivery core (bot/doors/delivery.py) about its platform: how
a message is posted, edited and deleted there, how a person is reached privately, what a
closed chat looks like.

Each kind of effect has its method here, named after it (``Picture`` → ``picture``);
the delivery core calls the method of the effect's kind, so a new kind of effect is its
value in bot/core/model.py and one method here, with a default for the doors that do not
know it yet. "To this person only" (a Discord answer only they see, a Telegram private
chat, the console's own lines) is each platform's way of answering ``private_text``,
``hand``, ``picture`` and ``file`` for a person; the delivery core never asks where.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection
from typing import Generic, TypeVar

from bot.core import Board, Effect, File, Hand, Lobby, Person, Picture, Place, Say

# What a platform keeps of the update that caused the effects (Discord's interaction, to
# answer the person who acted), or nothing.
Origin = TypeVar("Origin")


class Platform(ABC, Generic[Origin]):
    """A platform's primitives. Each posting method returns the id of the message posted
    in the room (None when nothing was posted there), which the core counts toward the
    board's burial; the private ones say whether the person could be reached."""

    name: str  # "telegram", "discord": for the logs
    buried: int  # messages after the board that push it out of view
    numbered: bool  # message ids count up through a chat (see Depth)
    private_lanes: bool  # each person's private effects go out in a lane of their own
    # a hand that reaches its person privately calls them there: "Ana, your turn" joins the
    # board's text instead of a message of its own (not where the room sees every hand)
    notifies_privately: bool = True
    # the characters a room's text holds (a longer list goes as several texts) and what
    # calling a person may add to it besides their name (a name the text lacks goes in
    # front, or becomes a platform's mention)
    text_limit: int = 4096
    mention_room: int = 1

    def room_key(self, place: Place) -> str:
        """Where messages are counted toward the board's burial (a chat, a channel)."""
        return place.room

    def draws(self, place: Place) -> bool:
        """Whether pictures of ``place`` are wanted here (the console shows the room you
        are in, and only what is said of the others)."""
        return True

    # ----- the board -----------------------------------------------------------------

    @abstractmethod
    async def post_board(self, place: Place, board: Board, png: bytes) -> str:
        """Post the board at the bottom of the room; its message id."""

    @abstractmethod
    async def edit_board(self, place: Place, message_id: str, board: Board, png: bytes) -> bool:
        """Show ``board`` in the message ``message_id``; False when that message is gone
        (then it is posted anew). "Not modified" is True."""

    async def delete(self, place: Place, message_id: str) -> None:
        """Delete a message of the room; one that is too old or gone stays (no error). A
        platform that cannot delete leaves it."""

    async def before_board(self, place: Place, board: Board) -> None:
        """Before a board goes out (Discord closes the game's lobby)."""

    async def after_board(self, place: Place, board: Board) -> None:
        """After a board went out (Discord tidies a finished game's lobby away)."""

    # ----- text ----------------------------------------------------------------------

    @abstractmethod
    async def room_text(self, place: Place, say: Say, origin: Origin | None) -> str | None:
        """A text for the room (a turn call, a summary...), calling ``say.mention``."""

    async def lobby(self, place: Place, lobby: Lobby, origin: Origin | None) -> str | None:
        """A game's lobby; a newer one of the same game may replace it (Discord)."""
        return await self.room_text(place, lobby, origin)

    @abstractmethod
    async def private_text(
        self, place: Place, person: Person, say: Say, origin: Origin | None
    ) -> bool:
        """A text for ``person`` only (a Reply, a Popup of a typed command); False when
        their private messages are closed."""

    async def ask_to_open(self, place: Place, person: Person, game_id: int | None) -> str | None:
        """Tell ``person`` in the room how to open their private messages (called once
        per game and person). ``game_id`` None: a private answer outside a game failed. A
        platform whose private messages are never closed has nobody to tell."""
        return None

    # ----- pictures and files --------------------------------------------------------

    @abstractmethod
    async def hand(self, place: Place, hand: Hand, png: bytes, origin: Origin | None) -> bool:
        """The hand to its person privately; False when it did not reach them."""

    async def bare_hand(self, hand: Hand) -> None:
        """``hand`` went out (its latest message to its person) after a move overtook it:
        its buttons go at once, as they no longer play. Nothing where a hand has none."""

    @abstractmethod
    async def picture(
        self, place: Place, picture: Picture, png: bytes, origin: Origin | None
    ) -> str | None:
        """A leaderboard, to the room or privately (``picture.private``)."""

    @abstractmethod
    async def file(self, place: Place, file: File, origin: Origin | None) -> str | None:
        """A file, to the room or privately (``file.private``)."""

    # ----- tournament tables ---------------------------------------------------------

    async def open_room(self, place: Place, title: str, key: str) -> Place | None:
        """A new room under ``place`` for a tournament table, called ``title`` (a Discord
        thread, a Telegram forum topic, a console room; ``key``, "r1-t2", names it where
        the platform lets the bot name it); None when there can be none."""
        return None

    def link(self, place: Place) -> str:
        """How a message in another room points at the room ``place`` ("" for none)."""
        return ""

    # ----- around the effects --------------------------------------------------------

    async def delivered(self, origin: Origin) -> None:
        """Every effect of the update ``origin`` went out (Discord takes away its
        "thinking..." when nothing answered the person who acted)."""

    async def shut_out(self, place: Place, error: Exception, origin: Origin | None) -> bool:
        """Whether ``error`` says the room does not take the bot's messages (then it was
        dealt with here: logged, the person who acted told); else it goes on to the
        outbox, which logs it (or tries again when the database was away)."""
        return False

    def unreachable(self, effects: list[Effect]) -> Collection[str]:
        """People known not to take private messages in the games of ``effects`` (their
        turn calls stay in the room)."""
        return ()
