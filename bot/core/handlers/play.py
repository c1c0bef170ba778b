"""A seat's moves: a tile, a draw, a pass, the end of a turn (resolved by the engine, its
refusals said in the player's words), and the next hand."""

from __future__ import annotations

from bot.core import opening, texts
from bot.core.between_hands import press_next
from bot.core.describe import move_words
from bot.core.model import Button, Reply
from bot.core.progress import progress
from bot.core.registry import handles
from bot.core.seats import seat_of
from bot.core.session import Refusal, Session
from bot.core.showing import command_for, name_of, names_of
from engine.errors import (
    Ambiguous,
    CannotNow,
    DoesNotFit,
    EmptyMove,
    GameOver,
    InvalidMove,
    NoSuchKey,
    NotYourTile,
    NotYourTurn,
)
from engine.moves import Move
from engine.resolve import confirm, resolve
from lang import tr

# What a seat is told when the move its own command names cannot be made now.
CANNOT = {"draw": texts.CANNOT_DRAW, "pass": texts.CANNOT_PASS, "end": texts.CANNOT_END}


@handles("play")
async def play(session: Session) -> None:
    """Play the tile typed, where it is said to go (or where it alone fits); or make the
    move a pressed button carries."""
    await make(session, " ".join(session.args))


@handles("draw")
async def draw(session: Session) -> None:
    """Draw from the boneyard."""
    await make(session, "draw")


@handles("pass")
async def pass_(session: Session) -> None:
    """Pass, when no tile can be played."""
    await make(session, "pass")


@handles("end")
async def end(session: Session) -> None:
    """End the turn (Mexican Train)."""
    await make(session, "end")


@handles("number")
async def number(session: Session) -> None:
    """A move's number typed alone in the room ("2", as the hand lists "2) 6-5 on 6-6"):
    that move, for the player to move, who is told if it names none. Typed by anybody
    else, or with no hand being played, it is the room's talk: nothing is said."""
    loaded = await session.active()  # read afresh: silence must not come from a stale turn
    game = loaded.game if loaded is not None else None
    seat = seat_of(loaded.seats, session.user.id) if loaded is not None else None
    if game is None or game.hand is None or seat is None or game.hand.to_move != seat:
        return
    session.held, session.seat = loaded, seat
    await make(session, session.args[0] if session.args else "")


async def make(session: Session, text: str) -> None:
    """Make the move ``text`` names for the person's seat, and what follows it."""
    loaded, seat = session.loaded, session.my_seat
    if loaded.seats[seat].away:
        raise Refusal(texts.AWAY)
    move = resolved(session, text, session.command.move)
    session.game.apply(move)
    loaded.seats[seat].timeouts = 0
    await progress(session, loaded, made=[move])


def resolved(session: Session, text: str, whole: str | None = None) -> Move:
    """The one legal move ``text`` names for the person's seat, or the move ``whole``
    is (a pressed button's, in RECORD.md notation: the engine reads it here, once; the
    dispatch checked already that it was pressed at the game's moment); the engine's
    refusal in the player's words otherwise (and, when the tile fits in several places,
    those places as buttons)."""
    loaded, game, seat = session.loaded, session.game, session.my_seat
    typed = text.strip() if whole is None else whole
    try:
        if whole is not None:
            return confirm(game, seat, Move.parse(whole))
        return resolve(game, seat, text)
    except GameOver as error:
        raise Refusal(texts.GAME_OVER if error.finished else texts.BETWEEN_HANDS) from None
    except NotYourTurn as error:
        claim_first = opening.first_claim(session)
        if claim_first is not None:  # the team is choosing who opens: claim it first
            raise Refusal(claim_first) from None
        to_move = error.to_move if error.to_move is not None else 0
        name = name_of(loaded.seats[to_move], to_move, session.lang)
        raise Refusal(texts.NOT_YOUR_TURN, name=name) from None
    except EmptyMove:
        raise Refusal(texts.PLAY_WHAT) from None
    except NoSuchKey as error:
        raise Refusal(texts.NO_SUCH_MOVE, number=error.key) from None
    except InvalidMove:
        raise Refusal(texts.BAD_MOVE, text=typed) from None
    except CannotNow as error:
        action = str(error.action)
        if session.command.action == action:  # /draw, /pass, /end
            raise Refusal(CANNOT.get(action, texts.CANNOT_DO), text=typed) from None
        raise Refusal(texts.CANNOT_DO, text=typed) from None
    except NotYourTile as error:
        raise Refusal(texts.NOT_YOUR_TILE, tile=error.tile) from None
    except DoesNotFit as error:
        names = names_of(loaded, session.own)
        legal = ", ".join(move_words(session.own, m, names) for m in error.legal) or "-"
        raise Refusal(texts.DOES_NOT_FIT, tile=error.tile, moves=legal) from None
    except Ambiguous as error:
        names = names_of(loaded, session.own)
        buttons = tuple(
            Button(
                move_words(session.own, m, names), command_for(m), loaded.row.id, game.ply, str(m)
            )
            for m in error.candidates
        )
        where = tr(session.own, texts.WHERE, tile=error.tile)
        session.effects.append(Reply(where, private=session.person, buttons=buttons))
        raise Refusal(texts.CHOOSE_ONE) from None


@handles("open")
async def open_(session: Session) -> None:
    """Claim the opening of the hand, while the team that won the last one chooses."""
    opening.claim(session)
    await progress(session, session.loaded)


@handles("next")
async def next_(session: Session) -> None:
    """Ready for the next hand: dealt once everyone seated is, or when the pause ends."""
    await press_next(session)
