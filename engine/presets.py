"""The named presets with their titles and descriptions (catalog ids), and each option's
description: what a menu, ``/rules`` or ``/new`` show about a game.

A preset is one :func:`register_preset` call plus its catalog texts: every command that
offers presets reads :func:`preset_names` when it is asked, so a preset registered at run
time is offered at once.

>>> "mexican_train" in preset_names()
True
>>> preset_about("fido12")
'Fido with the double-12 set: like all fives, scoring multiples of 7.'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import rules as _rules
from engine.catalog import N_
from engine.errors import RulesError

_TITLES: dict[str, str] = {}
_ABOUT: dict[str, str] = {}


def register_preset(name: str, options: Mapping[str, Any], title: str, about: str) -> None:
    """Adds (or replaces) the preset ``name``: ``options`` over the line defaults, like
    the entries of :data:`engine.rules.PRESETS`; ``title`` and ``about`` are catalog ids.

    The options are checked at once: a preset that cannot be played is refused.
    """
    previous = _rules.PRESETS.get(name)
    _rules.PRESETS[name] = dict(options)
    _rules.forget_cached()
    try:
        _rules.Rules.from_preset(name)
    except RulesError:
        if previous is None:
            del _rules.PRESETS[name]
        else:
            _rules.PRESETS[name] = previous
        _rules.forget_cached()
        raise
    _TITLES[name] = title
    _ABOUT[name] = about


def known(name: str) -> bool:
    return name in _rules.PRESETS


def preset_names() -> dict[str, str]:
    """Every preset's name and its title's catalog id, in the order they were registered."""
    return {name: _TITLES.get(name, name) for name in _rules.PRESETS}


def preset_about(name: str) -> str:
    """The catalog id of the preset's description."""
    if name not in _rules.PRESETS:
        raise RulesError(f"unknown preset '{name}'")
    return _ABOUT.get(name, "")


def option_about(option: str) -> str:
    """The catalog id of an option's description (every option of RULES.md has one)."""
    from engine.option_texts import ABOUT

    if option not in ABOUT:
        raise RulesError(f"unknown option '{option}'")
    return ABOUT[option]


# ----- the built-in presets (RULES.md), each one entry -----------------------------------

_EACH_FOR_THEMSELVES: dict[str, Any] = {
    "family": "individual",
    "min_players": 2,
    "redeal_doubles": None,
    "opener_plays_double": False,
    "next_opener": "first_rule",
    "blocked_tie": "nobody",
    "score_to": "winner",
}
_DIVISOR: dict[str, Any] = {
    "family": "divisor",
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

register_preset(
    "partnership",
    {"next_opener": "choose"},  # seed 000: the winning partners agree who opens
    N_("partnership dominoes"),
    N_(
        "Four players in two teams, partners opposite, seven tiles each, no boneyard. The 6-6 "
        "opens the first hand; each later hand is opened by a partner of the team that won the "
        "last one. The team that loses a hand writes its own pips (a blocked hand goes to the "
        "team with fewer pips); the team that reaches the target loses."
    ),
)
register_preset(
    "tournament_pr",
    {
        "first_opener": "draw",
        "opener_plays_double": False,
        "redeal_doubles": None,  # seed 001 lists no redeal for many doubles
        "next_opener": "last_player",
        "blocked_tie": "nobody",
        "score_to": "winner",
        "points": "all",
        "target": 200,
        "time_limit_minutes": 40,
    },
    N_("Puerto Rico tournament"),
    N_(
        "Puerto Rico tournament rules: partnership play to 200 with a game clock; when time is up,"
        " the hand in play decides."
    ),
)
register_preset(
    "cuban",
    {
        # docs/rules-decisions.md, "Cuban dominoes": seed 000's partnership game on the
        # double-9 set (ten tiles each by the hand-size table), the winners writing the
        # points and winning at the target as the Cuban tables play it
        "set": 9,
        "next_opener": "choose",
        "score_to": "winner",
    },
    N_("Cuban dominoes"),
    N_(
        "Cuban dominoes: the double-9 set, four players in two teams, partners opposite, ten "
        "tiles each; the other fifteen sleep out of play and nobody draws. The highest double "
        "dealt opens the first hand; each later hand is opened by a partner of the team that won "
        "the last one. The team that wins a hand writes the losers' pips (a blocked hand goes to "
        "the team with fewer pips); the first team to reach the target wins."
    ),
)
register_preset(
    "block",
    {**_EACH_FOR_THEMSELVES},
    N_("block dominoes"),
    N_(
        "Two to four players, each for themselves; the remaining tiles stay out. Who cannot play "
        "passes. The player who goes out scores the others' pips."
    ),
)
register_preset(
    "draw",
    {**_EACH_FOR_THEMSELVES, "draw_rule": "until_playable"},
    N_("draw dominoes"),
    N_(
        "Two to four players; who cannot play draws from the boneyard until they can. The player "
        "who goes out scores the others' pips."
    ),
)
register_preset(
    "all_fives",
    {**_DIVISOR, "set": 6, "divisor": 5},
    N_("all fives"),
    N_(
        "All fives: every double lies crosswise and opens four ways. After each play, if the open "
        "ends add up to a multiple of 5, the player scores that many fifths."
    ),
)
register_preset(
    "fido12",
    {**_DIVISOR, "set": 12, "divisor": 7},
    N_("fido 12"),
    N_("Fido with the double-12 set: like all fives, scoring multiples of 7."),
)
register_preset(
    "fido18",
    {**_DIVISOR, "set": 18, "divisor": 11},
    N_("fido 18"),
    N_("Fido with the double-18 set: like all fives, scoring multiples of 11."),
)
register_preset(
    "mexican_train",
    {
        "family": "train",
        "set": 12,
        "min_players": 2,
        "max_players": 8,
        "redeal_doubles": None,
        "draw_rule": "until_playable",
        "blocked_tie": "nobody",
        "score_to": "loser",
        "target": None,
    },
    N_("Mexican Train"),
    N_(
        "Mexican Train: 13 rounds from the double-12 engine down. Build your own train, the "
        "Mexican train, and any train with a marker. A double must be satisfied. Fewest pips over "
        "all rounds wins."
    ),
)
