"""Every command of the registry has its handler, and every handler is a command's."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import bot.core.handlers
from bot.core import texts
from bot.core.handlers.room import setting
from bot.core.registry import (
    COMMANDS,
    SETTINGS,
    TOURNAMENT_ACTIONS,
    Needs,
    Where,
    Who,
    moves,
    public,
    tournament_action,
)
from bot.core.session import Refusal
from bot.core.tournament.commands import HANDLERS as ACTION_HANDLERS

HANDLERS = Path(bot.core.handlers.__file__).parent
# the tournament's handlers live with the rest of the tournament (issue 22)
HANDLER_DIRS = (HANDLERS, HANDLERS.parent / "tournament")


def decorated() -> dict[str, tuple[str, str]]:
    """Each ``@handles("name")`` written in bot/core/handlers/ and bot/tournament/: name ->
    (module, function)."""
    found: dict[str, tuple[str, str]] = {}
    for path in sorted(p for folder in HANDLER_DIRS for p in folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.AsyncFunctionDef | ast.FunctionDef):
                continue
            for decorator in node.decorator_list:
                if (
                    isinstance(decorator, ast.Call)
                    and isinstance(decorator.func, ast.Name)
                    and decorator.func.id == "handles"
                ):
                    name = ast.literal_eval(decorator.args[0])
                    assert name not in found, f"two handlers of {name}"
                    found[name] = (f"bot.core.{path.parent.name}.{path.stem}", node.name)
    return found


def test_every_command_has_its_handler_and_every_handler_a_command() -> None:
    written = decorated()
    assert set(written) == set(COMMANDS)
    for name, (module, function) in written.items():
        assert COMMANDS[name].handler is getattr(importlib.import_module(module), function), name


def test_the_lists_derived_from_the_registry() -> None:
    assert moves() == {"play", "draw", "pass", "end", "next", "open"}
    private = {s.name for s in COMMANDS.values() if s.where is Where.SEAT}
    assert private == {"play", "draw", "pass", "end", "hand", "open"}
    assert "timer" not in {s.name for s in public()}
    assert all(s.where is not Where.INTERNAL for s in public())


def test_every_setting_offered_is_one_the_service_knows() -> None:
    for name in SETTINGS:
        try:
            setting(name, "?")
        except Refusal as refusal:
            assert refusal.message != texts.UNKNOWN_SETTING, name


def test_a_seat_or_a_creator_is_asked_of_a_game_on_the_table() -> None:
    """The dispatch checks a seat or the creator in the game it loaded: such commands
    need one; moves and seat commands need it in play."""
    for spec in COMMANDS.values():
        if spec.who in (Who.SEATED, Who.CREATOR):
            assert spec.needs is not Needs.NOTHING, spec.name
        if spec.move or spec.where is Where.SEAT:
            assert spec.needs is Needs.PLAYING and spec.who is Who.SEATED, spec.name


def test_every_tournament_action_has_its_handler_and_its_words() -> None:
    """The actions of /tournament are written once (the registry): Discord offers each,
    each has its handler, and each word for one names it."""
    assert set(ACTION_HANDLERS) == set(TOURNAMENT_ACTIONS)
    [what] = [o for o in COMMANDS["tournament"].options if o.name == "what"]
    assert what.choices is not None
    assert [c.value for c in what.choices()] == list(TOURNAMENT_ACTIONS)
    for name, action in TOURNAMENT_ACTIONS.items():
        assert tournament_action(name.upper()) == name
        assert all(tournament_action(word) == name for word in action.also)
    assert tournament_action("knockout") is None
