"""Presets and options as the menus see them: titles, descriptions, run-time presets."""

from __future__ import annotations

import pytest

from engine.errors import RulesError
from engine.players import STRENGTHS, make_player
from engine.presets import known, option_about, preset_about, preset_names, register_preset
from engine.rules import OPTION_NAMES, PRESETS, Rules


def test_every_built_in_preset_has_a_title_and_a_description() -> None:
    names = preset_names()
    assert list(names) == list(PRESETS)
    for name, title in names.items():
        assert title and title != name
        assert preset_about(name)


def test_every_option_has_a_description() -> None:
    for name in OPTION_NAMES:
        assert option_about(name)
    with pytest.raises(RulesError):
        option_about("colour")


def test_a_preset_registered_at_run_time_is_playable_at_once() -> None:
    Rules.from_preset("partnership")  # fills the caches before the preset exists
    try:
        register_preset("quick_block", {**PRESETS["block"], "target": 50}, "quick", "short")
        assert known("quick_block")
        assert list(preset_names())[-1] == "quick_block"
        assert preset_names()["quick_block"] == "quick"
        assert preset_about("quick_block") == "short"
        rules = Rules.from_preset("quick_block")
        assert (rules.family, rules.target) == ("individual", 50)
    finally:
        PRESETS.pop("quick_block", None)


def test_a_preset_that_cannot_be_played_is_refused() -> None:
    with pytest.raises(RulesError):
        register_preset("broken", {"family": "divisor"}, "broken", "no divisor")
    assert not known("broken")
    assert "broken" not in preset_names()


def test_number_option() -> None:
    assert Rules.from_preset("mexican_train").number_option == "rounds"
    assert Rules.from_preset("all_fives").number_option == "target"


def test_strengths_make_players() -> None:
    assert STRENGTHS == ("easy", "normal", "hard")
    for strength in STRENGTHS:
        assert hasattr(make_player(strength), "choose")
