"""Teams, the record of a new game, and the values each option takes."""

from __future__ import annotations

import pytest

from engine.errors import RulesError
from engine.game import Game
from engine.record import FORMAT, load, new_record
from engine.rules import (
    NOT_IN_FAMILY,
    OPTION_NAMES,
    PRESETS,
    Rules,
    option_bounds,
    option_choices,
    option_spec,
)
from engine.scoring import side_of, sides


@pytest.mark.parametrize("preset", [p for p in PRESETS if Rules.from_preset(p).partners])
def test_partners_sit_opposite(preset: str) -> None:
    rules = Rules.from_preset(preset)
    assert [rules.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [rules.partner_of(s) for s in range(4)] == [2, 3, 0, 1]
    assert rules.side_seats(4) == ((0, 2), (1, 3))


@pytest.mark.parametrize("preset", [p for p in PRESETS if not Rules.from_preset(p).partners])
def test_each_for_themselves(preset: str) -> None:
    rules = Rules.from_preset(preset)
    players = rules.min_players + 1
    assert [rules.side_of(s) for s in range(players)] == list(range(players))
    assert all(rules.partner_of(s) is None for s in range(players))
    assert rules.side_seats(players) == tuple((s,) for s in range(players))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_scoring_sides_are_the_rules_sides(preset: str) -> None:
    rules = Rules.from_preset(preset)
    players = rules.min_players
    assert sides(rules, players) == len(rules.side_seats(players))
    for side, seats in enumerate(rules.side_seats(players)):
        assert all(side_of(rules, s) == side == rules.side_of(s) for s in seats)
    assert len(Game(rules, players).scores) == len(rules.side_seats(players))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_new_record_loads_as_a_game_not_dealt(preset: str) -> None:
    rules = Rules.from_preset(preset, turn_timeout=30)
    names = [f"P{i}" for i in range(rules.min_players)]
    record = new_record(rules, names)
    assert record == {
        "format": FORMAT,
        "rules": {"preset": preset, "options": {"turn_timeout": 30}},
        "players": names,
        "hands": [],
    }
    game = load(record)
    assert (game.rules, game.players, game.hand_number) == (rules, len(names), 0)


def test_every_option_takes_bounds_or_choices() -> None:
    for name in OPTION_NAMES:
        try:
            low, high = option_bounds(name)
        except RulesError:
            choices = option_choices(name)
            assert choices
            for value in choices:
                option_spec(name).check(value)  # each choice is accepted
        else:
            assert low <= high
            with pytest.raises(RulesError):
                option_choices(name)


def test_bounds_and_choices_read_from_the_types() -> None:
    assert option_bounds("turn_timeout") == (15, 24 * 3600)
    assert option_bounds("target") == (1, 100_000)
    assert option_choices("set") == (6, 9, 12, 15, 18, 21)
    assert option_choices("redeal_doubles") == (None, 4, 5, 6, 7)
    assert option_choices("blocked_tie") == (
        "closer_wins",
        "closer_loses",
        "opener_team_wins",
        "nobody",
    )
    assert option_choices("auto_pass") == (False, True)
    with pytest.raises(RulesError):
        option_bounds("colour")
    with pytest.raises(RulesError):
        option_bounds("set")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"turn_timeout": 14}, "option turn_timeout must be a whole number from 15 to 86400"),
        ({"turn_timeout": None}, "option turn_timeout must be a whole number from 15 to 86400"),
        ({"target": True}, "option target must be a whole number from 1 to 100000"),
        ({"set": 7}, "option set cannot be 7; choose one of 6, 9, 12, 15, 18, 21"),
        ({"redeal_doubles": 3}, "option redeal_doubles cannot be 3; choose one of off, 4, 5, 6, 7"),
        ({"score_to": "both"}, "option score_to cannot be 'both'; choose one of loser, winner"),
        ({"auto_pass": 1}, "option auto_pass is true or false, not 1"),
        ({"colour": "red"}, "unknown option 'colour'"),
    ],
)
def test_refusals_keep_their_words(options: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError) as refused:
        Rules.from_preset("partnership", **options)
    assert str(refused.value) == message


def test_nullable_numbers_take_off() -> None:
    assert Rules.from_preset("partnership", hand_size=None).hand_size is None
    assert Rules.from_preset("mexican_train", rounds=None).rounds is None


@pytest.mark.parametrize("family", sorted(NOT_IN_FAMILY))
def test_an_option_the_family_does_not_read_is_refused(family: str) -> None:
    """RULES.md gives divisor games and Mexican Train their own opening and scoring: an
    option of the line games set there would change nothing at the table."""
    preset = next(p for p, o in PRESETS.items() if o.get("family") == family)
    base = Rules.from_preset(preset)
    for name in NOT_IN_FAMILY[family]:
        spec = option_spec(name)
        values = option_choices(name) if spec.bounds is None else (spec.bounds[0],)
        for value in values:
            if value == getattr(base, name):
                assert Rules.from_preset(preset, **{name: value}) == base
                continue
            with pytest.raises(RulesError, match=f"{name} does not apply"):
                Rules.from_preset(preset, **{name: value})


def test_a_refused_value_stays_refused_after_an_equal_valid_one() -> None:
    """Rules are cached by their options: True and 1 (and 1 and 1.0) are equal keys in
    Python, yet auto_pass=1 and target=1.0 must stay refused after auto_pass=True and
    target=1 were accepted (found by a test order under pytest-xdist)."""
    Rules.from_preset("partnership", auto_pass=True)
    Rules.from_preset("partnership", target=1)
    with pytest.raises(RulesError, match="auto_pass is true or false, not 1"):
        Rules.from_preset("partnership", auto_pass=1)
    with pytest.raises(RulesError, match="target must be a whole number"):
        Rules.from_preset("partnership", target=1.0)
