"""What follows a move: the forced moves and the computer players' moves up to the next
person's turn, the end of a hand and of the game, the timers, the save, and what the room
and the players are told. Also a game closed without a result, and the next hand."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.core import house_rules, opening, standings, texts
from bot.core.describe import Told, story_lines
from bot.core.model import Say, TurnCall
from bot.core.saving import save
from bot.core.session import SYSTEM, Loaded, Session
from bot.core.showing import (
    board_after,
    dealt,
    game_link,
    hand_for,
    name_of,
    names_of,
    person_of,
)
from engine.ai.hard import decision_seconds
from engine.game import Game
from engine.limit import stop_at_limit
from engine.line import LineHand
from engine.moves import Action, Move
from engine.outcome import CountScore
from engine.players import make_player
from engine.rules import Rules
from engine.views import View, view_of
from lang import tr
from storage.errors import StorageError
from storage.timers import ALL, TimerPlan


@dataclass(frozen=True)
class GameEnded:
    """Reported when a game ends with its result written (bot/core/reactions.py)."""

    loaded: Loaded


IDLE_HOURS = 24  # a game nobody touches ends itself
# The pause between hands: a hand's end stays on the table this long (a room's
# /settings hand_pause, within HAND_PAUSE_BOUNDS) unless every person seated presses
# Next sooner (bot/core/between_hands.py): long enough to read every hand revealed.
NEXT_HAND_SECONDS = 20
HAND_PAUSE_BOUNDS = (5, 120)
NEXT_PAUSE_SECONDS = 3  # even with everyone ready, no deal sooner than this after a hand ends
# A game ends after this many hands (rounds in Mexican Train) with the standings as they
# are, whatever its target: nothing runs forever (docs/bot.md).
MAX_HANDS = 100
WARNING_SHARE = 3  # the warning comes when a third of the turn is left

log = logging.getLogger(__name__)


async def progress(
    session: Session,
    loaded: Loaded,
    made: list[Move] | None = None,
    status: str | None = None,
    fresh_hand: bool = False,
    clock: datetime | None = None,
) -> None:
    """Make the forced moves and the computer players' moves up to the next person's
    turn (or the end of the hand), save, and tell everyone."""
    game = loaded.game
    assert game is not None
    nobody = not any(s.human for s in loaded.seats[: game.players])
    if game.outcome is None and nobody and loaded.notes.table is None:
        # nobody left to play for: computer players alone would play on forever (a
        # tournament's table plays on: its round clock ends it, and its result counts)
        await close(session, loaded, texts.NOBODY_LEFT)
        return
    made = list(made or [])
    # every move the room is told, with what it scored (the one made before: now)
    told: list[Told] = [(m, None) for m in made[:-1]]
    told += [(m, score_of(game, m)) for m in made[-1:]]
    # the winning team choosing who opens (next_opener = choose): nobody plays meanwhile
    choosing = game.hand is not None and opening.hold(session, loaded, fresh_hand)
    while game.hand is not None and not choosing:
        forced = game.forced_move()
        if forced is not None:
            game.apply(forced)
            made.append(forced)
            told.append((forced, score_of(game, forced)))
            continue
        seat = game.to_move
        assert seat is not None
        if not loaded.seats[seat].bot:
            break
        move = await computer_move(loaded, seat)
        game.apply(move)
        made.append(move)
        told.append((move, score_of(game, move)))
    hand_over = game.hand is None
    tied_at_limit = False
    if hand_over and game.outcome is None and game.hand_number >= MAX_HANDS:
        tied_at_limit = not stop_at_limit(game)
    game_over = game.outcome is not None
    notes = loaded.notes
    notes.turn_due = None
    new_status = "finished" if game_over else "cancelled" if tied_at_limit else status
    notes.last_ply = game.ply
    if hand_over:
        notes.hand_over_at = session.now.timestamp()
        notes.ready = []  # the presses of Next count from this hand's end
    elif not choosing:
        seconds = turn_seconds(session, loaded)
        notes.turn_due = None if seconds is None else session.now.timestamp() + seconds
    plan = timer_plan(session, loaded, hand_over, game_over or tied_at_limit, clock)
    await save(session, loaded, status=new_status, timers=plan)
    lang = session.lang
    names = names_of(loaded, lang)
    # every move told, none dropped: one line per turn, and each score by the count
    view = view_of(game)  # the room's, once for this update (each hand is its seat's)
    story = story_lines(lang, told, names)
    board = board_after(session, loaded, view, story, game_over or tied_at_limit)
    session.effects.append(opening.noticed(session, loaded, board))
    if hand_over:
        result = game.logs[-1].result
        lines = [texts.hand_summary(lang, game, result, names)]
        if not (game_over or tied_at_limit):  # how long the hand's end stays, and how to skip
            lines.append(tr(lang, texts.NEXT_HAND_IN, seconds=hand_pause(session)))
        session.effects.append(Say("\n".join(line for line in lines if line)))
    if game_over and game.outcome is not None and game.outcome.reason == "limit":
        session.say(texts.LIMIT_REACHED, hands=MAX_HANDS)
    if tied_at_limit:
        session.say(texts.LIMIT_TIED, hands=MAX_HANDS)
        return
    if game_over:
        await finish(session, loaded)
        return
    if choosing:  # each partner's hand with "I open"; the partners called
        if fresh_hand:
            opening.hands(session, loaded)
            session.effects.append(opening.call(session, loaded))
        return
    if fresh_hand:
        for s, info in enumerate(loaded.seats):
            if info.human and s != game.to_move:
                hand_for(session, loaded, s)
    if not hand_over:
        to_move = game.to_move
        assert to_move is not None
        hand_for(session, loaded, to_move)
        info = loaded.seats[to_move]
        name, seconds = name_of(info, to_move, lang), turn_seconds(session, loaded)
        text = tr(lang, texts.YOUR_TURN if seconds else texts.YOUR_TURN_UNTIMED,
                  name=name, seconds=seconds)  # fmt: skip
        session.effects.append(TurnCall(text, mention=(person_of(info),), game_id=loaded.row.id))


def score_of(game: Game, move: Move) -> CountScore | None:
    """What ``move``, just made, scored by the count (divisor games), as the engine says."""
    if move.action is not Action.PLAY or not game.logs:
        return None
    state = game.logs[-1].state
    score = state.last_score() if isinstance(state, LineHand) else None
    return score if score is not None and score.seat == move.seat else None


async def computer_move(loaded: Loaded, seat: int, strength: str | None = None) -> Move:
    """The move of the seat's computer player (or one of ``strength``, playing for a
    person whose time ran out); a hard one thinks off the event loop."""
    game = loaded.game
    assert game is not None
    strength = strength or loaded.seats[seat].bot or "normal"
    seed = game.ply * 8 + seat
    view = view_of(game, seat)
    if strength == "hard":
        # a search of up to its budget: off the event loop, so other rooms go on
        return await asyncio.to_thread(hard_move, view, seed)
    return make_player(strength, seed=seed).choose(view)  # well under a millisecond


def hard_move(view: View, seed: int) -> Move:
    """The hard player's move, cut short at the time the engine gives such a decision
    (the engine reads no clock: the deadline is made here, on the thread that thinks)."""
    deadline = time.perf_counter() + decision_seconds(view)
    player = make_player("hard", seed, out_of_time=lambda: time.perf_counter() > deadline)
    return player.choose(view)


def turn_seconds(session: Session, loaded: Loaded) -> int | None:
    """How long a turn of the game lasts (None: it waits for its person)."""
    return turn_time(session, loaded.rules)


def turn_time(session: Session, rules: Rules) -> int | None:
    """How long a turn lasts under ``rules`` in this room (None: it waits for its
    person; :func:`~bot.core.house_rules.turn_time_in`)."""
    return house_rules.turn_time_in(rules, session.room.settings, session.desk.patient)


def hand_pause(session: Session) -> int:
    """How long a hand's end stays before the next deal: the room's setting, else the
    default."""
    setting = session.room.settings.hand_pause
    return setting if setting is not None else NEXT_HAND_SECONDS


def timer_plan(
    session: Session,
    loaded: Loaded,
    hand_over: bool,
    game_over: bool,
    clock: datetime | None,
) -> TimerPlan:
    """The room's timers after this save (stamped with the version it creates)."""
    if game_over:
        return TimerPlan(cancel=(ALL,))
    now = session.now
    cancel = ["turn", "warning", "next_hand", "lobby", opening.TIMER]
    sets: list[tuple[str, datetime, dict[str, Any]]] = []
    if session.person is not SYSTEM:
        # only people's actions keep a game alive: computer players and timers alone
        # leave its idle timer running
        cancel.append("idle")
        if not session.desk.patient:  # (the console's games wait for their people)
            sets.append(("idle", now + timedelta(hours=IDLE_HOURS), {}))
    if clock is not None:
        sets.append(("clock", clock, {}))
    if hand_over:
        sets.append(("next_hand", now + timedelta(seconds=hand_pause(session)), {}))
        return TimerPlan(tuple(cancel), tuple(sets))
    game = loaded.game
    assert game is not None
    mark = opening.choosing(loaded)
    if mark is not None:  # no turn runs while the team chooses who opens
        sets.append((opening.TIMER, opening.ends_at(session, mark), {}))
        return TimerPlan(tuple(cancel), tuple(sets))
    timeout = turn_seconds(session, loaded)
    if timeout is None:  # no timer: the turn waits for its person
        return TimerPlan(tuple(cancel), tuple(sets))
    payload = {"seat": game.to_move}
    sets.append(("turn", now + timedelta(seconds=timeout), payload))
    warn = now + timedelta(seconds=timeout - timeout // WARNING_SHARE)
    sets.append(("warning", warn, payload))
    return TimerPlan(tuple(cancel), tuple(sets))


async def begin_game(session: Session, loaded: Loaded, clock: datetime | None) -> None:
    """Deal the first hand to the seats as they are; the game clock runs out at
    ``clock`` (a tournament table: the round's clock)."""
    rules = loaded.rules
    game = Game(rules, sum(1 for s in loaded.seats if not s.empty))
    game.started_at = session.now.timestamp()
    if clock is not None and rules.time_limit_minutes:
        # the engine's clock runs from the start for the rule's minutes: a round's clock
        # may have fewer left (a table that began late), so the game starts that much earlier
        left = (clock - session.now).total_seconds()
        game.started_at -= rules.time_limit_minutes * 60 - max(0.0, left)
    game.start_hand(seed=session.desk.seeds())
    loaded.game = game
    loaded.notes.started_at = game.started_at
    preset = texts.preset_name(session.lang, rules.preset)
    session.effects.append(dealt(session, loaded, texts.BEGUN, preset=preset))
    await progress(session, loaded, status="playing", fresh_hand=True, clock=clock)


async def next_hand(session: Session, loaded: Loaded) -> None:
    """Deal the next hand (between hands only: the callers check) and play up to a
    person's turn."""
    game = loaded.game
    assert game is not None and game.hand is None and game.outcome is None
    loaded.notes.ready = []
    game.start_hand(seed=session.desk.seeds())
    session.effects.append(dealt(session, loaded, texts.NEW_HAND, number=game.hand_number))
    await progress(session, loaded, fresh_hand=True)


async def close(session: Session, loaded: Loaded, message: str, **params: Any) -> None:
    """End the game without a result (its timers with it) and say ``message``."""
    await save(
        session, loaded, status="cancelled", keep_game=False, timers=TimerPlan(cancel=(ALL,))
    )
    session.say(message, **params)


async def finish(session: Session, loaded: Loaded) -> None:
    """The game is over (and saved so): write its results and ratings, and say how it
    ended. Results that fail to be written now are written by GameService.settle."""
    game = loaded.game
    assert game is not None and game.outcome is not None
    changes: dict[int, tuple[float, float]] = {}
    counted = standings.counted(loaded.seats)
    if counted:
        try:
            changes = await standings.record_results(
                session.store, session.community.id, session.now, loaded, game
            )
        except StorageError as error:
            log.warning("results of game %s left for later: %s", loaded.row.id, error)
    lang = session.lang
    summary = texts.game_summary(lang, game, names_of(loaded, lang), changes, loaded.seats)
    if not counted:
        summary += "\n" + tr(lang, texts.NOT_COUNTED)
    session.effects.append(Say(summary, link=game_link(session, loaded, over=True)))
    session.reported.append(GameEnded(loaded))  # (a tournament's table: its result)
