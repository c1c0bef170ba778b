"""The few words a picture carries (message ids of the gettext catalogs in lang/)."""

from __future__ import annotations

from lang import LANGUAGES, N_, tr

__all__ = ["LANGUAGES", "word"]

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
    "time_up": N_("Time is up"),
    "game_over": N_("Game over"),
    "tiles": N_("tiles"),
}


def word(key: str, lang: str = "es") -> str:
    """The label ``key`` in ``lang`` (Spanish for an unknown language)."""
    return tr(lang, _WORDS[key])
