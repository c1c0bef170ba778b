"""Between two hands: Next pressed. The hand's end stays on the table for the room's pause
(bot/core/progress.py, ``hand_pause``, a stored ``next_hand`` timer); the next hand is
dealt when it ends or when every person seated has pressed Next (computers are always
ready), whichever comes first, and never sooner than ``NEXT_PAUSE_SECONDS`` after the
hand's end (a double press cannot deal hand after hand unseen).

Each press is remembered with the game (``GameNotes.ready``, saved with its version: two
processes count the same presses) and said once in the room ("Ana is ready for the next
hand (1/2)"); a press made early, or twice, is remembered, never refused. A press while a
hand is played is refused in words and changes nothing."""

from __future__ import annotations

import math
from datetime import timedelta

from bot.core import texts
from bot.core.progress import IDLE_HOURS, NEXT_PAUSE_SECONDS, hand_pause, next_hand
from bot.core.saving import save
from bot.core.session import Loaded, Refusal, Session
from bot.core.showing import name_of
from storage.timers import TimerPlan


async def press_next(session: Session) -> None:
    """The person's seat presses Next: remembered, and the next hand dealt once everyone
    is ready (at once, or a moment after the hand's end)."""
    loaded, game = session.loaded, session.game
    if game.outcome is not None:
        raise Refusal(texts.GAME_OVER)
    if game.hand is not None:
        # a press for the hand that ended comes after its deal (the printed "Next hand"
        # typed late): that hand is dealt, and nobody played in it yet (computers may
        # have); else no hand has ended
        if not any(loaded.seats[m.seat].human for m in game.hand.moves):
            raise Refusal(texts.ALREADY_DEALT, number=game.hand_number)
        raise Refusal(texts.NO_HAND_OVER)
    seat, notes = session.my_seat, loaded.notes
    people = waited_for(loaded)
    now = session.now.timestamp()
    ended = notes.hand_over_at or 0.0
    if seat in notes.ready:  # pressed before: nothing changes (said to them alone)
        due = ended + (0 if set(people) <= set(notes.ready) else hand_pause(session))
        left = max(due, ended + NEXT_PAUSE_SECONDS) - now
        raise Refusal(
            texts.READY_ALREADY,
            ready=len(notes.ready),
            people=len(people),
            seconds=max(1, math.ceil(left)),
        )
    notes.ready = sorted({*notes.ready, seat})
    people = waited_for(loaded)
    if not set(people) <= set(notes.ready):
        await save(session, loaded, timers=renewed(session))
        name = name_of(loaded.seats[seat], seat, session.lang)
        session.say(texts.READY, name=name, ready=len(notes.ready), people=len(people))
        return
    await all_ready(session, loaded)


async def someone_left(session: Session, loaded: Loaded) -> None:
    """Between hands a person stood up (a computer sits in: always ready). The hand's
    end, the pause and the presses stay as they were; when everyone still waited for has
    pressed, the next hand comes as after the last press."""
    if set(waited_for(loaded)) <= set(loaded.notes.ready):
        await all_ready(session, loaded)
    else:
        await save(session, loaded, timers=renewed(session))


async def all_ready(session: Session, loaded: Loaded) -> None:
    """Everyone waited for is ready: the next hand now, or a moment after the hand's end
    when that moment is not over yet (a stored timer)."""
    left = (loaded.notes.hand_over_at or 0.0) + NEXT_PAUSE_SECONDS - session.now.timestamp()
    if left <= 0:
        await next_hand(session, loaded)
        return
    at = session.now + timedelta(seconds=left)
    plan = renewed(session)
    plan = TimerPlan(("next_hand", *plan.cancel), (("next_hand", at, {}), *plan.set))
    await save(session, loaded, timers=plan)
    session.say(texts.ALL_READY, seconds=max(1, math.ceil(left)))


def waited_for(loaded: Loaded) -> list[int]:
    """The seats whose Next is waited for: each person playing their seat (a computer,
    or one playing for someone away, is always ready), and any seat that pressed."""
    game = loaded.game
    assert game is not None
    seats = loaded.seats[: game.players]
    return sorted({i for i, s in enumerate(seats) if s.human} | set(loaded.notes.ready))


def renewed(session: Session) -> TimerPlan:
    """A person acted: the game's idle timer starts again (as after a move)."""
    return TimerPlan(("idle",), (("idle", session.now + timedelta(hours=IDLE_HOURS), {}),))
