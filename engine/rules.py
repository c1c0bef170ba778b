"""One rules configuration for every game, and the named presets of RULES.md.

>>> r = Rules.from_preset("partnership", target=200)
>>> r.target, r.partners, r.hand_size_for(4)
(200, True, 7)
>>> Rules.from_preset("all_fives").divisor
5
>>> Rules.from_preset("partnership", tens_scoring=True).target
40
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from functools import cache, lru_cache
from typing import Annotated, Any, Literal, get_type_hints

from engine.errors import RulesError
from engine.options import Between, OneOf, OptionSpec, spec_of
from engine.tiles import SET_SIZES, set_size

Family = Literal["partnership", "individual", "divisor", "train"]


@dataclass(frozen=True)
class Rules:
    """Every option of RULES.md as a field; build one with :meth:`Rules.preset`."""

    preset: str = "partnership"
    family: Family = "partnership"
    set: Annotated[int, OneOf(*SET_SIZES)] = 6
    min_players: int = 4
    max_players: int = 4
    hand_size: Annotated[int | None, Between(1, 50)] = None
    redeal_doubles: Annotated[int | None, OneOf(None, 4, 5, 6, 7)] = 5
    # Who opens the first hand, and with what.
    first_opener: Literal["highest_double", "draw"] = "highest_double"
    opener_plays_double: bool = True
    no_double: Literal["highest_tile", "redeal"] = "highest_tile"
    # Who opens the hands after the first.
    # ``choose``: the winning team's partners may claim the opening (Game.opener_choices,
    # Game.choose_opener); unclaimed, the ``winner`` rule's seat opens.
    next_opener: Literal[
        "winner", "choose", "rotate", "holder_of_highest_double", "last_player", "first_rule"
    ] = "winner"
    must_open_with_double: bool = False
    # How the partnership teams are made: as seated, or by drawing tiles (engine/teams.py).
    teams: Literal["agreed", "drawn_high", "drawn_high_low"] = "agreed"
    # Who cannot play, in a game with a boneyard: ``until_playable`` draws until a tile
    # fits, then plays it; ``one_then_pass`` draws one and plays it if it fits, else
    # passes; ``one_ends_turn`` is seed 003's own words ("roba del mazo y luego pasa su
    # turno sin jugar"): one tile is drawn and the turn passes whatever it is (also the
    # divisor games' rule, seed 004's "el palo").
    draw_rule: Literal["none", "until_playable", "one_then_pass", "one_ends_turn"] = "none"
    crosswise_doubles: bool = False  # fixed: divisor games, unless doubles_in_line
    doubles_in_line: bool = False  # divisor games: doubles in line (no halves, no flanks)
    divisor: Annotated[int | None, OneOf(None, 3, 5, 7, 9, 11)] = None
    # Hand end and scoring.
    blocked_tie: Literal["closer_wins", "closer_loses", "opener_team_wins", "nobody"] = (
        "closer_wins"
    )
    score_to: Literal["loser", "winner"] = "loser"
    points: Literal["losers", "all"] = "losers"
    blocked_both_score: bool = False
    tens_scoring: bool = False
    winner_subtracts_own: bool = False
    min_opening_score: Annotated[int, Between(0, 100_000)] = 0
    # Game end.
    target: Annotated[int | None, Between(1, 100_000)] = 100
    single_hand: bool = False
    instant_win_hand_points: Annotated[int | None, Between(1, 100_000)] = None
    hands: Annotated[int | None, Between(1, 1_000)] = None
    time_limit_minutes: Annotated[int, Between(0, 24 * 60)] = 0
    time_limit_ends: Literal["finish_hand", "immediately"] = "finish_hand"
    # Mexican Train.
    rounds: Annotated[int | None, Between(1, 1_000)] = (
        None  # None: one round per engine double, N-N down to 0-0
    )
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
    turn_timeout: Annotated[int, Between(15, 24 * 3600)] = 90
    max_timeouts: Annotated[int, Between(1, 100)] = 3

    @property
    def partners(self) -> bool:
        """Two teams of partners sitting opposite (partnership games)."""
        return self.family == "partnership"

    def side_of(self, seat: int) -> int:
        """The score-sheet column of a seat: its team in partnership games (seats 0 and 2
        are team 0, seats 1 and 3 team 1), else the seat itself."""
        return seat % 2 if self.partners else seat

    def partner_of(self, seat: int) -> int | None:
        """The seat opposite in partnership games; None when each plays for themselves."""
        return (seat + 2) % 4 if self.partners else None

    def side_seats(self, players: int) -> tuple[tuple[int, ...], ...]:
        """The seats of each side, side by side: ((0, 2), (1, 3)) in partnership games."""
        return _side_seats(self.partners, players)

    @property
    def number_option(self) -> str:
        """The option a bare number after ``/new`` sets: rounds in Mexican Train, else
        the target."""
        return "rounds" if self.family == "train" else "target"

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
            # each value with its type: 1 == True and 1 == 1.0 as keys, but auto_pass=1
            # and target=1.0 are refused where True and 1 are not
            key = tuple(sorted((option, (type(value), value)) for option, value in options.items()))
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
        if self.family == "divisor" and self.set == 6 and players > self.max_players:
            raise RulesError(
                f"{self.preset} on a double-6 set is played by {self.min_players} to"
                f" {self.max_players} players, not {players}; with more, choose set=9"
            )
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
        _check_in_effect(values.get("family", "partnership"), defaults, options)
        if values.get("tens_scoring") and "target" not in options:
            values["target"] = 40
        if values.get("family") == "divisor" and options.get("target") and "hands" not in options:
            # RULES.md: with a target, hands are played until a player reaches it
            values["hands"] = None
        if values.get("doubles_in_line"):
            values["crosswise_doubles"] = False  # RULES.md: no halves or flanks
        if values.get("family") == "divisor" and values.get("set") == 6:
            values["max_players"] = DIVISOR_DOUBLE_6_MAX_PLAYERS  # RULES.md: 2-4 on double-6
        if values.get("family") == "train":
            # penalty points: lowest total wins; positive scoring: highest wins
            values["score_to"] = "winner" if values.get("positive_scoring") else "loser"
        rules = replace(Rules(), preset=name, **values)
        _check_consistent(rules)
        return rules


# Every saved move exports its game's rules, and every loaded game builds them again: a
# room's rules are the same few values over and over, so both are worked out once.
@lru_cache(maxsize=1024)
def _preset_with(name: str, options: tuple[tuple[str, tuple[type, Any]], ...]) -> Rules:
    return Rules._build(name, PRESETS[name], {option: value for option, (_, value) in options})


def forget_cached() -> None:
    """Forgets the rules worked out before: a preset was added or changed."""
    _preset_with.cache_clear()
    _options_of.cache_clear()


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


DIVISOR_DOUBLE_6_MAX_PLAYERS = 4
_DEFAULTS = Rules()
"""Divisor games take 2-4 players on double-6 and 2-8 on larger sets (RULES.md)."""


def default_hand_size(family: str, top: int, players: int) -> int:
    """The hand-size tables of RULES.md."""
    if family == "partnership":
        # double-9 (Cuban dominoes): ten each, fifteen tiles sleep out of play
        return 10 if top == 9 else 7
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


# Every preset by name: the options it sets over the defaults of :class:`Rules`. The
# built-in ones, with their titles and descriptions, are registered by engine/presets.py
# (imported at the end of this module), each in one ``register_preset`` call.
PRESETS: dict[str, dict[str, Any]] = {}

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

# What each option accepts, read once from the types of the fields above.
_SPECS: dict[str, OptionSpec] = {
    name: spec_of(name, hint)
    for name, hint in get_type_hints(Rules, include_extras=True).items()
    if name in OPTION_NAMES
}


def option_spec(name: str) -> OptionSpec:
    if name not in _SPECS:
        raise RulesError(f"unknown option '{name}'")
    return _SPECS[name]


def option_bounds(name: str) -> tuple[int, int]:
    """The smallest and largest whole number the option ``name`` takes."""
    bounds = option_spec(name).bounds
    if bounds is None:
        raise RulesError(f"option {name} is not a number")
    return bounds


def option_choices(name: str) -> tuple[Any, ...]:
    """The values the option ``name`` takes, in order (None: "off"; flags: False, True)."""
    spec = option_spec(name)
    if spec.flag:
        return (False, True)
    if spec.choices is None:
        raise RulesError(f"option {name} is a number, not a choice")
    return spec.choices


def _check_option(key: str, value: Any) -> None:
    if key not in OPTION_NAMES:
        raise RulesError(f"unknown option '{key}'")
    _SPECS[key].check(value)


# Options the engine does not read in a family (RULES.md gives that family its own rule):
# set there to anything but the preset's value, they would be a house rule in the lobby
# that changes nothing at the table, so they are refused.
_OPENING = ("first_opener", "opener_plays_double", "no_double", "next_opener")
_LINE_SCORING = (
    "blocked_tie",
    "score_to",
    "points",
    "blocked_both_score",
    "tens_scoring",
    "winner_subtracts_own",
    "min_opening_score",
    "single_hand",
    "instant_win_hand_points",
)
NOT_IN_FAMILY: dict[str, frozenset[str]] = {
    # divisor games: the highest double opens every hand, the count scores, "el palo"
    "divisor": frozenset((*_OPENING, "must_open_with_double", "draw_rule", *_LINE_SCORING)),
    # Mexican Train: the engine double opens each round, penalty pips or positive scoring
    "train": frozenset((*_OPENING, "must_open_with_double", "redeal_doubles", *_LINE_SCORING)),
}


def _check_in_effect(family: str, defaults: Mapping[str, Any], options: Mapping[str, Any]) -> None:
    idle = NOT_IN_FAMILY.get(family, frozenset())
    for key, value in options.items():
        if key in idle and value != defaults.get(key, getattr(_DEFAULTS, key)):
            raise RulesError(f"the option {key} does not apply to {family} games")


def _check_consistent(rules: Rules) -> None:
    if not rules.partners and rules.teams != "agreed":
        raise RulesError(f"teams {rules.teams} needs teams (partnership games)")
    if not rules.partners and rules.next_opener == "choose":
        raise RulesError("next_opener choose needs teams (partnership games)")
    if rules.family != "divisor" and rules.doubles_in_line:
        raise RulesError("the option doubles_in_line belongs to divisor games")
    if rules.family == "train":
        _check_train(rules)
        _check_some_table_deals(rules)
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
    if not rules.partners and rules.blocked_tie in ("closer_loses", "opener_team_wins"):
        raise RulesError(f"blocked_tie {rules.blocked_tie} needs teams (partnership games)")
    if rules.blocked_both_score and (not rules.partners or rules.score_to != "loser"):
        raise RulesError("blocked_both_score needs partnership scoring with score_to = loser")
    if rules.family == "divisor" and rules.target is None and rules.hands is None:
        raise RulesError("a divisor game needs a number of hands or a target")
    if rules.family != "divisor" and rules.target is None and not rules.single_hand:
        raise RulesError("a game needs a target or single_hand")
    if rules.partners and rules.draw_rule != "none":
        raise RulesError("partnership games deal every tile: there is nothing to draw")
    _check_some_table_deals(rules)


def _check_some_table_deals(rules: Rules) -> None:
    """The rules deal at some number of players they allow (checked as a whole: a hand
    size that no table can be dealt is refused here, not at the deal)."""
    tiles = set_size(rules.set)
    counts = range(rules.min_players, rules.max_players + 1)
    if not any(rules.hand_size_for(players) * players <= tiles for players in counts):
        players = rules.min_players
        raise RulesError(
            f"a double-{rules.set} set has {tiles} tiles: not enough for {players} hands"
            f" of {rules.hand_size_for(players)}"
        )


def _check_train(rules: Rules) -> None:
    if rules.set not in (6, 9, 12, 15, 18):
        raise RulesError("Mexican Train is played with double-6, 9, 12, 15 or 18")
    if rules.divisor is not None or rules.hands is not None:
        raise RulesError("divisor options do not belong to Mexican Train")
    if rules.draw_rule != "until_playable":
        raise RulesError("Mexican Train has its own drawing rule")


# The built-in presets, registered once this module is complete.
import engine.presets  # noqa: E402, F401


@cache  # asked at every hand's end: 0.6 us to build, 0.1 us to look up
def _side_seats(partners: bool, players: int) -> tuple[tuple[int, ...], ...]:
    if partners:
        return tuple(tuple(range(side, players, 2)) for side in range(2))
    return tuple((seat,) for seat in range(players))
