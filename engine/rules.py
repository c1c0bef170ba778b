"""One rules configuration for every game, and the named presets of RULES.md.

>>> r = Rules.from_preset("partnership", target=200)
>>> r.target, r.teams, r.hand_size_for(4)
(200, True, 7)
>>> Rules.from_preset("all_fives").divisor
5
>>> Rules.from_preset("partnership", tens_scoring=True).target
40
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any, Literal

from engine.errors import RulesError
from engine.tiles import SET_SIZES, set_size

Family = Literal["partnership", "individual", "divisor", "train"]


@dataclass(frozen=True)
class Rules:
    """Every option of RULES.md as a field; build one with :meth:`Rules.preset`."""

    preset: str = "partnership"
    family: Family = "partnership"
    set: int = 6
    min_players: int = 4
    max_players: int = 4
    hand_size: int | None = None
    redeal_doubles: int | None = 5
    # Who opens the first hand, and with what.
    first_opener: Literal["highest_double", "draw"] = "highest_double"
    opener_plays_double: bool = True
    no_double: Literal["highest_tile", "redeal"] = "highest_tile"
    # Who opens the hands after the first.
    next_opener: Literal[
        "winner", "rotate", "holder_of_highest_double", "last_player", "first_rule"
    ] = "winner"
    must_open_with_double: bool = False
    draw_rule: Literal["none", "until_playable", "one_then_pass", "one_ends_turn"] = "none"
    crosswise_doubles: bool = False
    divisor: int | None = None
    # Hand end and scoring.
    blocked_tie: Literal["closer_wins", "closer_loses", "opener_team_wins", "nobody"] = (
        "closer_wins"
    )
    score_to: Literal["loser", "winner"] = "loser"
    points: Literal["losers", "all"] = "losers"
    blocked_both_score: bool = False
    tens_scoring: bool = False
    winner_subtracts_own: bool = False
    min_opening_score: int = 0
    # Game end.
    target: int | None = 100
    single_hand: bool = False
    instant_win_hand_points: int | None = None
    hands: int | None = None
    time_limit_minutes: int = 0
    time_limit_ends: Literal["finish_hand", "immediately"] = "finish_hand"
    # Mexican Train.
    rounds: int | None = None  # None: one round per engine double, N-N down to 0-0
    engine_from: Literal["table", "holder"] = "table"
    marker_removed_by: Literal["owner", "anyone", "owner_plays_anywhere"] = "owner"
    no_marker_when_satisfying: bool = False
    satisfy_doubles: bool = True
    satisfy_order: Literal["oldest_first", "newest_first"] = "oldest_first"
    one_double_per_turn: bool = False
    first_turn_one_tile: bool = False
    forked_doubles: bool = False
    positive_scoring: bool = False
    # Turns.
    auto_pass: bool = True
    turn_timeout: int = 90
    max_timeouts: int = 3

    @property
    def teams(self) -> bool:
        return self.family == "partnership"

    @property
    def has_boneyard(self) -> bool:
        return self.draw_rule != "none"

    @staticmethod
    def from_preset(name: str = "partnership", **options: Any) -> Rules:
        """The preset ``name`` with ``options`` (RULES.md names) overriding its defaults."""
        if name not in PRESETS:
            known = ", ".join(sorted(PRESETS))
            raise RulesError(f"unknown preset '{name}'; the presets are {known}")
        try:
            key = tuple(sorted(options.items()))
            hash(key)
        except TypeError:  # an unhashable value: not a valid option anyway, _build says why
            return Rules._build(name, PRESETS[name], options)
        return _preset_with(name, key)

    @staticmethod
    def from_record(data: Mapping[str, Any]) -> Rules:
        """Rules from a record's ``{"preset": ..., "options": {...}}``."""
        if not isinstance(data, Mapping) or not isinstance(data.get("preset", "partnership"), str):
            raise RulesError("rules must be an object with a preset name and options")
        options = data.get("options") or {}
        if not isinstance(options, Mapping):
            raise RulesError("rules.options must be an object")
        return Rules.from_preset(data.get("preset", "partnership"), **options)

    def options(self) -> dict[str, Any]:
        """The options that differ from the preset's defaults (what a record stores)."""
        return dict(_options_of(self))

    def with_options(self, **options: Any) -> Rules:
        return Rules._build(self.preset, {**PRESETS[self.preset], **self.options()}, options)

    def hand_size_for(self, players: int) -> int:
        if self.hand_size is not None:
            return self.hand_size
        return default_hand_size(self.family, self.set, players)

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise RulesError(
                f"{self.preset} is played by {self.min_players} to {self.max_players} players,"
                f" not {players}"
                if self.min_players != self.max_players
                else f"{self.preset} is played by {self.min_players} players, not {players}"
            )
        if self.hand_size_for(players) * players > set_size(self.set):
            raise RulesError(
                f"a double-{self.set} set has {set_size(self.set)} tiles: not enough for"
                f" {players} hands of {self.hand_size_for(players)}"
            )

    @staticmethod
    def _build(name: str, defaults: Mapping[str, Any], options: Mapping[str, Any]) -> Rules:
        for key, value in options.items():
            _check_option(key, value)
        values = {**defaults, **options}
        if values.get("tens_scoring") and "target" not in options:
            values["target"] = 40
        if values.get("family") == "train":
            # penalty points: lowest total wins; positive scoring: highest wins
            values["score_to"] = "winner" if values.get("positive_scoring") else "loser"
        rules = replace(Rules(), preset=name, **values)
        _check_consistent(rules)
        return rules


# Every saved move exports its game's rules, and every loaded game builds them again: a
# room's rules are the same few values over and over, so both are worked out once.
@lru_cache(maxsize=1024)
def _preset_with(name: str, options: tuple[tuple[str, Any], ...]) -> Rules:
    return Rules._build(name, PRESETS[name], dict(options))


@lru_cache(maxsize=1024)
def _options_of(rules: Rules) -> tuple[tuple[str, Any], ...]:
    base = Rules.from_preset(rules.preset)
    options = {
        field.name: getattr(rules, field.name)
        for field in fields(Rules)
        if field.name in OPTION_NAMES and getattr(rules, field.name) != getattr(base, field.name)
    }
    if rules.tens_scoring:
        options["target"] = rules.target  # tens_scoring alone would imply target 40
    if rules.family == "train":
        options.pop("score_to", None)  # follows positive_scoring
    return tuple(options.items())


def default_hand_size(family: str, top: int, players: int) -> int:
    """The hand-size tables of RULES.md."""
    if family == "partnership":
        return 7
    if family == "individual":
        return 7 if players == 2 else 6
    if family == "train":
        if top == 6:
            return 5 if players <= 4 else 4 if players <= 6 else 3
        if top == 9:
            return 10 if players <= 4 else 8 if players <= 6 else 6
        if top == 12:
            return 15 if players <= 4 else 12 if players <= 6 else 11
        return 15 if players <= 6 else 12
    if family == "divisor":
        if top == 6:
            return 7 if players == 2 else 5
        if top == 9:
            return 9 if players <= 4 else 7 if players <= 6 else 6
        return 12 if players <= 4 else 10 if players <= 6 else 8
    raise RulesError(f"no hand-size table for {family}")


_LINE_BASE: dict[str, Any] = {}

PRESETS: dict[str, dict[str, Any]] = {
    "partnership": {**_LINE_BASE},
    "tournament_pr": {
        "first_opener": "draw",
        "opener_plays_double": False,
        "next_opener": "last_player",
        "blocked_tie": "nobody",
        "score_to": "winner",
        "points": "all",
        "target": 200,
        "time_limit_minutes": 40,
    },
    "block": {
        "family": "individual",
        "min_players": 2,
        "redeal_doubles": None,
        "opener_plays_double": False,
        "next_opener": "first_rule",
        "blocked_tie": "nobody",
        "score_to": "winner",
    },
    "draw": {
        "family": "individual",
        "min_players": 2,
        "redeal_doubles": None,
        "opener_plays_double": False,
        "next_opener": "first_rule",
        "draw_rule": "until_playable",
        "blocked_tie": "nobody",
        "score_to": "winner",
    },
}
for _name, _top, _divisor in (("all_fives", 6, 5), ("fido12", 12, 7), ("fido18", 18, 11)):
    PRESETS[_name] = {
        "family": "divisor",
        "set": _top,
        "divisor": _divisor,
        "min_players": 2,
        "max_players": 8,
        "redeal_doubles": None,
        "no_double": "redeal",
        "next_opener": "first_rule",
        "draw_rule": "one_ends_turn",
        "crosswise_doubles": True,
        "blocked_tie": "nobody",
        "score_to": "winner",
        "target": None,
        "hands": 1,
    }

PRESETS["mexican_train"] = {
    "family": "train",
    "set": 12,
    "min_players": 2,
    "max_players": 8,
    "redeal_doubles": None,
    "draw_rule": "until_playable",
    "blocked_tie": "nobody",
    "score_to": "loser",
    "target": None,
}

_TRAIN_ONLY = (
    "rounds",
    "engine_from",
    "marker_removed_by",
    "no_marker_when_satisfying",
    "satisfy_doubles",
    "satisfy_order",
    "one_double_per_turn",
    "first_turn_one_tile",
    "forked_doubles",
    "positive_scoring",
)

# The fields a player or a record may set (the rest are fixed by the preset).
_FIXED = {"preset", "family", "min_players", "max_players", "crosswise_doubles"}
OPTION_NAMES = frozenset(f.name for f in fields(Rules)) - _FIXED

_CHOICES: dict[str, tuple[Any, ...]] = {
    "set": SET_SIZES,
    "redeal_doubles": (None, 4, 5, 6, 7),
    "first_opener": ("highest_double", "draw"),
    "no_double": ("highest_tile", "redeal"),
    "next_opener": ("winner", "rotate", "holder_of_highest_double", "last_player", "first_rule"),
    "draw_rule": ("none", "until_playable", "one_then_pass", "one_ends_turn"),
    "divisor": (None, 3, 5, 7, 9, 11),
    "blocked_tie": ("closer_wins", "closer_loses", "opener_team_wins", "nobody"),
    "score_to": ("loser", "winner"),
    "points": ("losers", "all"),
    "time_limit_ends": ("finish_hand", "immediately"),
    "engine_from": ("table", "holder"),
    "marker_removed_by": ("owner", "anyone", "owner_plays_anywhere"),
    "satisfy_order": ("oldest_first", "newest_first"),
}
_BOOLS = {
    "opener_plays_double",
    "must_open_with_double",
    "blocked_both_score",
    "tens_scoring",
    "winner_subtracts_own",
    "single_hand",
    "auto_pass",
    "no_marker_when_satisfying",
    "satisfy_doubles",
    "one_double_per_turn",
    "first_turn_one_tile",
    "forked_doubles",
    "positive_scoring",
}
# name -> (smallest, largest, None allowed)
_NUMBERS: dict[str, tuple[int, int, bool]] = {
    "hand_size": (1, 50, True),
    "target": (1, 100_000, True),
    "instant_win_hand_points": (1, 100_000, True),
    "min_opening_score": (0, 100_000, False),
    "hands": (1, 1_000, True),
    "rounds": (1, 1_000, True),
    "time_limit_minutes": (0, 24 * 60, False),
    "turn_timeout": (15, 24 * 3600, False),
    "max_timeouts": (1, 100, False),
}


def _check_option(key: str, value: Any) -> None:
    if key not in OPTION_NAMES:
        raise RulesError(f"unknown option '{key}'")
    if key in _CHOICES:
        if value not in _CHOICES[key] or isinstance(value, bool):
            allowed = ", ".join("off" if c is None else str(c) for c in _CHOICES[key])
            raise RulesError(f"option {key} cannot be {value!r}; choose one of {allowed}")
    elif key in _BOOLS:
        if not isinstance(value, bool):
            raise RulesError(f"option {key} is true or false, not {value!r}")
    else:
        low, high, nullable = _NUMBERS[key]
        if value is None and nullable:
            return
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RulesError(f"option {key} must be a whole number from {low} to {high}")


def _check_consistent(rules: Rules) -> None:
    if rules.family == "train":
        _check_train(rules)
        return
    defaults = Rules()
    for name in _TRAIN_ONLY:
        if getattr(rules, name) != getattr(defaults, name):
            raise RulesError(f"the option {name} belongs to Mexican Train")
    if rules.family == "divisor" and rules.divisor is None:
        raise RulesError("divisor games need a divisor")
    if rules.family != "divisor" and rules.divisor is not None:
        raise RulesError("only divisor games (all_fives, fido12, fido18) have a divisor")
    if rules.family != "divisor" and rules.hands is not None:
        raise RulesError("the option hands belongs to divisor games")
    if not rules.teams and rules.blocked_tie in ("closer_loses", "opener_team_wins"):
        raise RulesError(f"blocked_tie {rules.blocked_tie} needs teams (partnership games)")
    if rules.blocked_both_score and (not rules.teams or rules.score_to != "loser"):
        raise RulesError("blocked_both_score needs partnership scoring with score_to = loser")
    if rules.family == "divisor" and rules.target is None and rules.hands is None:
        raise RulesError("a divisor game needs a number of hands or a target")
    if rules.family != "divisor" and rules.target is None and not rules.single_hand:
        raise RulesError("a game needs a target or single_hand")
    if rules.teams and rules.draw_rule != "none":
        raise RulesError("partnership games deal every tile: there is nothing to draw")


def _check_train(rules: Rules) -> None:
    if rules.set not in (6, 9, 12, 15, 18):
        raise RulesError("Mexican Train is played with double-6, 9, 12, 15 or 18")
    if rules.divisor is not None or rules.hands is not None:
        raise RulesError("divisor options do not belong to Mexican Train")
    if rules.draw_rule != "until_playable":
        raise RulesError("Mexican Train has its own drawing rule")
