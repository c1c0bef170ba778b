"""The trust machine (tests/core/test_trust.py) knows every command of the registry: it
types each one people use, draws its words from the entry's options, and holds it to what
the entry says (where it may come from, what it needs, who may use it). A command added
to the registry, and nowhere else, is typed and held to its entry at once; what the model
keeps by hand names only commands and tournament actions the registry has."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import find
from hypothesis import strategies as st

from bot.core import registry
from bot.core.registry import COMMANDS, Choice, Kind, Needs, Option, Spec, Where, Who
from tests.core import test_trust
from tests.core.test_trust import TrustMachine
from tests.core.trust_commands import (
    COMMUNITY_WIDE,
    CONFIRMED_BY,
    ECHOED_TO_ROOM,
    LOOKING,
    NOT_AN_ACTION,
    PERSON_WIDE,
    TOURNAMENT_ADMINS,
    TOURNAMENT_PEOPLE,
    TOURNAMENT_RULINGS,
    TOURNAMENT_STEPS,
    Scene,
    draw_words,
    forged_commands,
    game_actions,
    internal,
    known,
    move_actions,
    not_commands,
    private_actions,
    tournament_action,
    tournament_actions,
    tournament_looks,
    tournament_organisers,
    tournament_words_for,
    typed_commands,
)
from tests.core.trust_model import PEOPLE, make_command, person


@pytest.fixture
def greet() -> Iterator[Spec]:
    """``greet [times] [mood]``: the creator's (or an admin's), for a game on the table,
    in the registry for the test only."""
    times = Option("times", "opt:times", "How often", Kind.NUMBER, low=1, high=3)
    mood = Option("mood", "opt:mood", "How", choices=lambda: (Choice("warmly", "warmly"),))
    spec = Spec(
        "greet", "cmd:greet", "Greet the table", who=Who.CREATOR, needs=Needs.GAME,
        options=(times, mood),
    )  # fmt: skip
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(COMMANDS, "greet", spec)
        yield spec


def test_the_model_knows_the_registrys_commands_and_no_other() -> None:
    people_use = {s.name for s in registry.public()}
    assert known() == people_use
    assert set(typed_commands()) == people_use | {"unknown"}
    assert set(forged_commands()) == people_use | set(internal()) | {"fly"}
    assert private_actions() == {s.name for s in registry.public() if s.where is Where.SEAT}
    assert move_actions() == registry.moves()
    assert not set(not_commands()) & people_use


def test_what_the_model_keeps_by_hand_names_registry_commands() -> None:
    kept = LOOKING | set(CONFIRMED_BY) | PERSON_WIDE | COMMUNITY_WIDE | ECHOED_TO_ROOM
    assert kept <= known(), f"not in the registry: {sorted(kept - known())}"
    assert set(test_trust.ARGS) <= known() | set(internal())


def test_every_action_of_the_tournament_is_known_to_the_model() -> None:
    actions = set(tournament_actions())
    assert actions == set(registry.TOURNAMENT_ACTIONS)
    classes = (tournament_looks(), TOURNAMENT_ADMINS, TOURNAMENT_PEOPLE, tournament_organisers())
    classified = [action for kind in classes for action in kind]
    assert len(classified) == len(set(classified)), "an action in two classes"
    assert set(classified) == actions
    assert TOURNAMENT_RULINGS.issubset(tournament_organisers())
    for name in actions:  # the model reads each action's other words as the service does
        for word in tournament_words_for(name):
            assert tournament_action(word.upper()) == registry.tournament_action(word) == name
    assert tournament_action(NOT_AN_ACTION) is None is registry.tournament_action(NOT_AN_ACTION)
    for steps in TOURNAMENT_STEPS.values():
        assert set(steps) <= actions


def words_of(spec: Spec) -> st.SearchStrategy[tuple[str, ...]]:
    """The words the machine types after ``spec``'s command (in a room with no game)."""

    @st.composite
    def drawn(draw: Any) -> tuple[str, ...]:
        return draw_words(SimpleNamespace(draw=draw), spec, Scene(None, PEOPLE))

    return drawn()


def test_a_command_added_to_the_registry_is_typed_with_its_options(greet: Spec) -> None:
    assert "greet" in known() and "greet" in typed_commands()
    assert "greet" in game_actions() and forged_commands().count("greet") == 3
    assert "greet" not in move_actions() | private_actions()
    assert find(words_of(greet), lambda words: "warmly" in words)
    for number in ("1", "3", "0", "4"):  # its bounds, and just outside them
        assert find(words_of(greet), lambda words, n=number: words[:1] == (n,))


def test_a_command_added_to_the_registry_is_held_to_its_entry(greet: Spec) -> None:
    machine = TrustMachine()
    try:
        machine.world(platforms=("console", "telegram"))
        place = machine.places["a1"]

        def why(name: str, *args: str, private: bool = False, game: int | None = None) -> Any:
            command = make_command(place, person(name, "a1"), "greet", args, game_id=game)
            return machine.must_not_change(command, private)

        assert why("ana", "2") == "a command for the room's game, with none there"
        machine.run(machine.service.handle(make_command(place, person("ana", "a1"), "new")))
        machine.refresh()
        game = machine.truths["a1"]
        assert game is not None
        assert why("ana", "2") is None  # the creator
        assert why("eva") is None  # an admin of the room
        assert why("beto") == "a command for the game's creator or an admin, by someone else"
        assert why("ana", game=game.id + 1) == (
            f"a command naming game {game.id + 1}, not this room's game"
        )
        assert why("ana", private=True, game=game.id) == (
            "a private command that is not a seat's own action"
        )
    finally:
        machine.teardown()
