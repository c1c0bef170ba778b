"""From a command to its handler, by the registry: is it a command at all, may it come
from where it came, is its game on the table (and the one it names, at the move it
names), may this person use it. The handlers then do only their own work."""

from __future__ import annotations

from dataclasses import replace

import bot.core.handlers  # noqa: F401  (attaches every handler to its registry entry)
from bot.core import texts
from bot.core.reactions import react
from bot.core.reading import answered, any_public
from bot.core.registry import COMMANDS, Needs, Where, Who, command_named
from bot.core.seats import seat_of
from bot.core.session import SYSTEM, Refusal, Session

# Words players type in Spanish or Portuguese, read as the commands' own words.
ALIASES = {
    "en": "on", "em": "on", "sobre": "on", "mexicano": "mexican",
    "facil": "easy", "fácil": "easy", "dificil": "hard", "difícil": "hard",
    "semana": "week", "mes": "month", "mês": "month", "todo": "all", "tudo": "all",
    "paso": "pass", "pase": "pass", "passo": "pass", "robo": "draw", "robar": "draw",
    "comprar": "draw", "mitad": "half", "metade": "half", "costado": "flank", "flanco": "flank",
    "llenar": "fill", "preencher": "fill",
}  # fmt: skip
# Dashes people type between a tile's numbers ("6–3" from a phone's keyboard), read as "-".
DASHES = str.maketrans(dict.fromkeys("‐‑‒–—―−﹘﹣－", "-"))
# The refusal to a person who may not use a command, by who may.
DENIED = {
    Who.SEATED: texts.NOT_SEATED,
    Who.CREATOR: texts.CREATOR_ONLY,
    Who.ADMIN: texts.ROOM_ADMINS_ONLY,
}


async def dispatch(session: Session) -> None:
    """Run the command's handler, or refuse it (raises :class:`Refusal`)."""
    command = session.command
    args = tuple(ALIASES.get(a.lower(), a) for a in map(plain_dashes, command.args))
    # a command by its name in any language ("/jugar" is "/play")
    action = command_named(command.action) or command.action
    if args != command.args or action != command.action:
        command = session.command = replace(command, action=action, args=args)
    spec = COMMANDS.get(action)
    internal = spec is not None and spec.where is Where.INTERNAL
    # the room's talk is read by the doors, never typed as a command ("/number")
    typed_talk = spec is not None and (spec.where is Where.CHAT) != command.talk
    if (
        spec is None
        or spec.handler is None
        or (internal and command.person is not SYSTEM)
        or typed_talk
    ):
        raise Refusal(texts.UNKNOWN_COMMAND, command=action)
    # from a private chat or a direct message, only a seat's own actions for the game the
    # press names; every other command acts on a room and is accepted only there
    if command.private and (spec.where is not Where.SEAT or command.game_id is None):
        raise Refusal(texts.ROOM_ONLY)
    if spec.needs is not Needs.NOTHING:
        loaded = await session.active(trusting=spec.move)
        if loaded is None:
            raise Refusal(texts.NO_GAME)
        if command.game_id is not None and command.game_id != loaded.row.id:
            raise Refusal(texts.STALE)
        if spec.needs is Needs.PLAYING and loaded.game is None:
            raise Refusal(texts.NOT_BEGUN)
        game, number = loaded.game, command.move_number
        if spec.move and number is not None and game is not None and number != game.ply:
            raise Refusal(texts.STALE)  # made against another moment of the game
        session.held = loaded
    if not allowed(session, spec.who):
        raise Refusal(spec.denied or DENIED[spec.who])
    await spec.handler(session)
    if spec.reading and not command.private and any_public(session.effects):
        # a few answers a minute in the room for each person, set aside behind the
        # game's messages; past that, for the person alone (bot/core/reading.py)
        key = (session.room.id, command.person.platform_id)
        in_room = session.desk.reading.take(key, session.now)
        session.effects = answered(session.effects, command.person, in_room)
    await react(session)


def plain_dashes(text: str) -> str:
    """``text`` with every typographic dash as "-" (how moves are written)."""
    return text.translate(DASHES)


def allowed(session: Session, who: Who) -> bool:
    """Whether the person may use a command for ``who`` (noting their seat)."""
    if who is Who.ANYONE:
        return True
    person = session.person
    if who is Who.ADMIN:  # anyone may look; only admins change
        return person.admin or not session.args
    loaded = session.loaded
    if who is Who.CREATOR:
        return loaded.notes.creator == session.user.id or person.admin
    session.seat = seat_of(loaded.seats, session.user.id)
    return session.seat is not None
