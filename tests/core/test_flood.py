"""A flood of reading commands (issue 32, 6): one person sending /rules forty times does
not hold up the game. Answers to the reading commands (rules, score, top, stats, help)
beyond a small budget per person per minute go to that person privately, and what is
still answered in the room waits behind the game's messages."""

from __future__ import annotations

from bot.core.model import Picture, Say
from bot.core.reading import READS_PER_MINUTE
from storage.store import Store
from tests.core.test_bound import a_game

READING = ("rules", "score", "help", "top", "stats")


def public(effects: list) -> list:
    return [e for e in effects if isinstance(e, Say | Picture) and e.private is None]


async def test_past_the_budget_reading_answers_go_to_the_person_alone(store: Store) -> None:
    room = await a_game(store)
    answered = [await room.say("Zoe", "/rules") for _ in range(40)]
    in_room = [a for a in answered if public(a)]
    assert len(in_room) == READS_PER_MINUTE
    for effects in answered[READS_PER_MINUTE:]:
        assert effects and all(e.private is not None and e.private.name == "Zoe" for e in effects)
    assert [e.text for e in answered[-1]] == [e.text for e in answered[0]]  # the same answer
    # public answers are set aside: the game's messages go before them
    assert all(e.aside for a in in_room for e in public(a))
    # another person's budget is their own; a minute on, Zoe's is whole again
    assert public(await room.say("Carla", "/score"))
    room.clock.advance(61)
    assert public(await room.say("Zoe", "/rules"))


async def test_every_reading_command_counts_against_one_budget(store: Store) -> None:
    room = await a_game(store)
    answers = [await room.say("Zoe", f"/{action}") for action in READING * 2]
    assert sum(1 for a in answers if public(a)) <= READS_PER_MINUTE
    # the game goes on whatever Zoe does: the players' moves are not reading commands
    assert not [a for a in answers if not a]


async def test_private_answers_cost_nothing_of_the_budget(store: Store) -> None:
    """/help answers the person alone: asking it often leaves the room's answers whole."""
    room = await a_game(store)
    for _ in range(10):
        assert not public(await room.say("Zoe", "/help"))
    assert all([public(await room.say("Zoe", "/rules")) for _ in range(READS_PER_MINUTE)])
