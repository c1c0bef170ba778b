"""The service acting by itself (the internal ``timer`` command): warnings, automatic
moves and takeovers, next hands, expired lobbies and idle games, the game clock, a game
shown again after a restart, a room that is gone, a tournament's table given its game."""

from __future__ import annotations

from bot.core import opening, texts
from bot.core.describe import move_words
from bot.core.model import TurnCall
from bot.core.posts import OPEN_TIMER
from bot.core.progress import close, computer_move, next_hand, progress
from bot.core.registry import handles
from bot.core.session import Loaded, Session
from bot.core.showing import board_as_it_is, hand_for, name_of, names_of, person_of
from bot.core.tournament import commands as tournament
from bot.core.tournament import tables
from bot.core.tournament.rounds import REOPEN, ROUND_TIMER
from lang import tr


@handles("timer")
async def timer(session: Session) -> None:
    """A timer of the room's game fell due (or the service acts for a restart or a room gone)."""
    kind, version, *more = session.args
    if kind == OPEN_TIMER:  # a door opened this room for a tournament's table
        await tables.open_table(session, more)
        return
    if kind == ROUND_TIMER:  # a tournament's break is over: its next round
        await tournament.round_timer(session)
        return
    if kind == tournament.CLOSE_TIMER:  # registration closes at the time set
        await tournament.close_timer(session)
        return
    if kind == REOPEN:  # a restart: a round's tables that never got their room
        await tournament.reopen_tables(session)
        return
    loaded = await session.active()
    if kind == "gone":  # the room was deleted, or the bot removed from it
        if loaded is not None:
            await close(session, loaded, texts.CANCELLED, name=session.person.name)
        return
    if loaded is None or loaded.row.id != session.command.game_id:
        return  # the game ended meanwhile
    game = loaded.game
    if kind == "resume" and game is not None:
        session.effects.append(opening.noticed(session, loaded, board_as_it_is(session, loaded)))
        if opening.choosing(loaded) is not None:  # the choosing partners' buttons again
            opening.hands(session, loaded, fresh_hand=False)
        elif game.to_move is not None:
            hand_for(session, loaded, game.to_move)
    elif kind == "resume_hand" and game is not None:  # the board was shown, the hand not
        mover = game.to_move
        if opening.choosing(loaded) is None and mover is not None and loaded.seats[mover].human:
            hand_for(session, loaded, mover)
    elif kind == tables.GRACE_TIMER and game is None:
        session.effects += await tables.grace_over(session, loaded)
    elif kind == "lobby" and game is None:
        await close(session, loaded, texts.LOBBY_EXPIRED)
    elif kind == "idle":
        await close(session, loaded, texts.IDLE_ENDED)
    elif kind == "next_hand" and game is not None and game.hand is None and not game.outcome:
        await next_hand(session, loaded)
    elif kind == opening.TIMER and game is not None:
        if opening.time_up(session, loaded):  # nobody claimed: the default opener opens
            await progress(session, loaded)
    elif kind == "clock" and game is not None:
        game.expire_clock()
        session.say(texts.CLOCK_UP)
        await progress(session, loaded)
    elif kind in ("turn", "warning") and game is not None:
        if version != str(loaded.row.version):
            return  # a move was made since: this timer is stale
        if kind == "warning":
            warn(session, loaded)
        else:
            await timeout_move(session, loaded)


def warn(session: Session, loaded: Loaded) -> None:
    """ "Ana, 30 seconds left", calling the person to move by name."""
    game = loaded.game
    assert game is not None and game.to_move is not None
    seat = loaded.seats[game.to_move]
    now = session.now.timestamp()
    due = loaded.notes.turn_due
    left = max(0, round((now if due is None else due) - now))
    name = name_of(seat, game.to_move, session.lang)
    text = tr(session.lang, texts.HURRY, name=name, seconds=left)
    session.effects.append(TurnCall(text, mention=(person_of(seat),), game_id=loaded.row.id))


async def timeout_move(session: Session, loaded: Loaded) -> None:
    """The turn ran out: a move is made for the seat (a computer takes it over after too
    many)."""
    game = loaded.game
    assert game is not None
    seat = game.to_move
    if seat is None or game.hand is None:
        return
    info = loaded.seats[seat]
    if info.bot:  # a computer sat in meanwhile (a judge's substitute): it plays
        await progress(session, loaded)
        return
    legal = game.legal_moves()
    move = legal[0] if len(legal) == 1 else await computer_move(loaded, seat, "normal")
    info.timeouts += 1
    lang = session.lang
    name = name_of(info, seat, lang)
    session.say(texts.TIMED_OUT, name=name, move=move_words(lang, move, names_of(loaded, lang)))
    if info.timeouts >= loaded.rules.max_timeouts and info.user is not None:
        if tables.of_table(loaded) is not None:  # the judges decide (or substitutes=on)
            session.effects += await tables.walked_out(session, loaded, seat)
        else:
            info.bot = "normal"
            session.say(texts.TAKEN_OVER, name=name)
    game.apply(move)
    await progress(session, loaded, made=[move])
