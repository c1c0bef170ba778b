"""The few words a picture carries (message ids of the gettext catalogs in lang/)."""

from __future__ import annotations

from engine.goal import goal_of
from engine.rules import Rules
from lang import LANGUAGES, N_, NP_, tr, trn

__all__ = ["LANGUAGES", "game_over_text", "goal_text", "numbers_hands", "passes_text", "word"]

_WORDS: dict[str, str] = {
    "boneyard": N_("Boneyard"),
    "count": N_("Count"),
    "scored": N_("scores"),
    "to_move": N_("To play"),
    "team": N_("Team"),
    "hand": N_("Hand"),
    "round": N_("Round"),
    "game_clock": N_("Clock"),
    "points": N_("Points"),
    "total": N_("Total"),
    "domino": N_("Domino!"),
    "blocked": N_("Blocked"),
    "void": N_("Void hand"),
    "tie": N_("Tie"),
    "wins": N_("wins"),
    "your_hand": N_("Your hand"),
    "playable": N_("playable"),
    "mexican": N_("Mexican"),
    "engine": N_("Engine"),
    "player": N_("Player"),
    "games": N_("Games"),
    "won": N_("Won"),
    "rating": N_("Rating"),
    "leaderboard": N_("Leaderboard"),
    "score_sheet": N_("Score sheet"),
    "penalty": N_("Penalty"),
    "award": N_("Award"),
    "time_up": N_("Time is up"),
    "game_over": N_("Game over"),
    "tiles": N_("tiles"),
    "opening_draw": N_("Opening draw"),
}


PASSES = NP_("passed {n} time", "passed {n} times")
GAME_OVER = N_("Game over: {side} wins!")  # the bot's own words for it, too


def passes_text(n: int, lang: str = "es") -> str:
    """How often a seat passed in this hand: "pasó 2 veces"."""
    return trn(lang, PASSES[0], PASSES[1], n, n=n)


def game_over_text(side: str, lang: str = "es") -> str:
    """Who won the game: "Se acabó la partida: ¡gana Equipo Ana / Carla!"."""
    return tr(lang, GAME_OVER, side=side)


def word(key: str, lang: str = "es") -> str:
    """The label ``key`` in ``lang`` (Spanish for an unknown language)."""
    return tr(lang, _WORDS[key])


# What a game is played to (the goal's head) and which way its score counts, as the board,
# the score sheet and the service's words say it (the service reads it here: this module
# draws nothing).


def numbers_hands(rules: Rules) -> bool:
    """Whether the goal says which hand is played: "round 3 of 13", "1 hand" (else it
    is a target: "to 100")."""
    return rules.target is None or rules.single_hand or rules.family == "train"


def goal_text(rules: Rules, number: int, lang: str = "es") -> str:
    """The target and which way it counts: "a 100: pierde quien llega" (score_to =
    loser), "a 200: gana quien llega", "ronda 3 de 13: menos puntos gana", "1 mano"
    (``number``: the hand or round being played, from 1)."""
    head, params, way = goal_of(rules, number)
    words = tr(lang, head, **params)
    return words if way is None else f"{words}: {tr(lang, way)}"
