from __future__ import annotations

import pytest

from engine.errors import RulesError
from engine.rules import PRESETS, Rules, default_hand_size


def test_every_preset_builds() -> None:
    expected = {
        "partnership",
        "tournament_pr",
        "cuban",
        "block",
        "draw",
        "all_fives",
        "fido12",
        "fido18",
    }
    assert expected <= set(PRESETS)
    for name in expected:
        assert Rules.from_preset(name).preset == name


def test_divisor_presets() -> None:
    assert (Rules.from_preset("all_fives").set, Rules.from_preset("all_fives").divisor) == (6, 5)
    assert (Rules.from_preset("fido12").set, Rules.from_preset("fido12").divisor) == (12, 7)
    assert (Rules.from_preset("fido18").set, Rules.from_preset("fido18").divisor) == (18, 11)


def test_tournament_preset() -> None:
    r = Rules.from_preset("tournament_pr")
    assert (r.target, r.score_to, r.points, r.time_limit_minutes) == (200, "winner", "all", 40)
    assert (r.first_opener, r.next_opener, r.blocked_tie) == ("draw", "last_player", "nobody")


def test_options_override_and_round_trip() -> None:
    r = Rules.from_preset("partnership", target=200, blocked_tie="nobody")
    assert r.options() == {"target": 200, "blocked_tie": "nobody"}
    assert Rules.from_record({"preset": "partnership", "options": r.options()}) == r


def test_tens_scoring_moves_the_default_target_to_40() -> None:
    assert Rules.from_preset("partnership", tens_scoring=True).target == 40
    assert Rules.from_preset("partnership", tens_scoring=True, target=30).target == 30


@pytest.mark.parametrize(
    "preset, options, message",
    [
        ("chess", {}, "unknown preset"),
        ("partnership", {"colour": "red"}, "unknown option"),
        ("partnership", {"target": 0}, "whole number"),
        ("partnership", {"target": "100"}, "whole number"),
        ("partnership", {"redeal_doubles": 3}, "redeal_doubles"),
        ("partnership", {"tens_scoring": "yes"}, "true or false"),
        ("partnership", {"score_to": "both"}, "score_to"),
        ("partnership", {"divisor": 5}, "only divisor games"),
        ("block", {"blocked_tie": "closer_loses"}, "needs teams"),
        ("partnership", {"blocked_both_score": True, "score_to": "winner"}, "blocked_both_score"),
        ("partnership", {"draw_rule": "until_playable"}, "nothing to draw"),
        ("all_fives", {"divisor": 4}, "divisor"),
        ("all_fives", {"set": 7}, "set"),
        ("all_fives", {"hands": None}, "number of hands"),
        ("partnership", {"target": None}, "needs a target"),
    ],
)
def test_bad_options_are_refused_with_a_reason(preset: str, options: dict, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Rules.from_preset(preset, **options)


def test_hand_size_tables() -> None:
    assert default_hand_size("individual", 6, 2) == 7
    assert default_hand_size("individual", 6, 4) == 6
    assert [default_hand_size("divisor", 6, n) for n in (2, 3, 4)] == [7, 5, 5]
    assert [default_hand_size("divisor", 9, n) for n in (4, 5, 7)] == [9, 7, 6]
    assert [default_hand_size("divisor", 18, n) for n in (2, 6, 8)] == [12, 10, 8]
    assert Rules.from_preset("draw", hand_size=5).hand_size_for(4) == 5


def test_player_counts_are_checked() -> None:
    with pytest.raises(RulesError, match="4 players"):
        Rules.from_preset("partnership").check_players(3)
    with pytest.raises(RulesError, match="2 to 4"):
        Rules.from_preset("block").check_players(5)
    with pytest.raises(RulesError, match="not enough"):
        Rules.from_preset("draw", hand_size=8).check_players(4)
    Rules.from_preset("fido18").check_players(8)


def test_divisor_games_take_2_to_4_on_double_6_and_up_to_8_on_larger_sets() -> None:
    """RULES.md: 2-4 players on double-6 (more: the suggestion set=9), 2-8 on double-9
    and larger sets, with the hand-size table."""
    for preset in ("all_fives", "fido12"):
        on_six = Rules.from_preset(preset, set=6)
        assert (on_six.min_players, on_six.max_players) == (2, 4)
        assert [on_six.hand_size_for(n) for n in (2, 3, 4)] == [7, 5, 5]
        with pytest.raises(RulesError, match="choose set=9"):
            on_six.check_players(5)
    nine = Rules.from_preset("all_fives", set=9)
    assert nine.max_players == 8
    assert [nine.hand_size_for(n) for n in (2, 4, 5, 6, 7, 8)] == [9, 9, 7, 7, 6, 6]
    twelve = Rules.from_preset("fido12")
    assert [twelve.hand_size_for(n) for n in (2, 4, 5, 6, 7, 8)] == [12, 12, 10, 10, 8, 8]
    for n in range(2, 9):
        nine.check_players(n)
        twelve.check_players(n)
        Rules.from_preset("fido18").check_players(n)


def test_tournament_pr_has_no_redeal() -> None:
    assert Rules.from_preset("tournament_pr").redeal_doubles is None


def test_an_explicit_target_survives_tens_scoring_in_a_record() -> None:
    rules = Rules.from_preset("partnership", tens_scoring=True, target=100)
    again = Rules.from_record({"preset": "partnership", "options": rules.options()})
    assert again.target == 100 and again == rules
