""" "Ana, your turn" (a :class:`~bot.core.model.TurnCall`) folded into the board's text when
Ana's hand reached her privately.

The private message with the hand is what notifies her; a message of its own in the room
for every turn would bury the board (and on Telegram, spend a group's 20 messages a
minute). Whoever's hand does not reach them privately is still called in the room.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from bot.core import Board, Effect, Hand, TurnCall


def fold_turn_calls(effects: list[Effect], unreachable: Collection[str] = ()) -> list[Effect]:
    """``effects`` with the turn calls of people whose hands go to them privately joined
    to the last board; ``unreachable`` names people known not to take private messages."""
    boards = [i for i, e in enumerate(effects) if isinstance(e, Board)]
    if not boards:
        return effects
    notified = {
        e.person.platform_id
        for e in effects
        if isinstance(e, Hand) and e.buttons and e.person.platform_id not in unreachable
    }
    folded = [
        e
        for e in effects
        if isinstance(e, TurnCall)
        and e.mention
        and all(p.platform_id in notified for p in e.mention)
    ]
    if not folded:
        return effects
    last = boards[-1]
    board = effects[last]
    assert isinstance(board, Board)
    text = "\n".join([board.text, *(e.text for e in folded)]).strip()
    kept = [e for e in effects if not any(e is f for f in folded)]
    return [replace(board, text=text) if e is board else e for e in kept]
