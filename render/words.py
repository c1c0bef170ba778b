"""The few words a picture carries, in Spanish, English and Portuguese.

(The bot's messages live in gettext catalogs; a picture needs only these labels, and
keeping them here lets ``python -m render`` work without the bot.)
"""

from __future__ import annotations

LANGUAGES = ("es", "en", "pt")

_WORDS: dict[str, tuple[str, str, str]] = {
    # key: (es, en, pt)
    "boneyard": ("Pozo", "Boneyard", "Monte"),
    "count": ("Cuenta", "Count", "Contagem"),
    "scored": ("anota", "scores", "marca"),
    "to_move": ("Juega", "To play", "Joga"),
    "team": ("Equipo", "Team", "Equipe"),
    "hand": ("Mano", "Hand", "Mão"),
    "round": ("Ronda", "Round", "Rodada"),
    "game_clock": ("Reloj", "Clock", "Relógio"),
    "points": ("Puntos", "Points", "Pontos"),
    "total": ("Total", "Total", "Total"),
    "domino": ("¡Dominó!", "Domino!", "Dominó!"),
    "blocked": ("Tranque", "Blocked", "Fechado"),
    "void": ("Mano nula", "Void hand", "Mão anulada"),
    "tie": ("Empate", "Tie", "Empate"),
    "wins": ("gana", "wins", "vence"),
    "your_hand": ("Tu mano", "Your hand", "Sua mão"),
    "playable": ("se puede jugar", "playable", "jogável"),
    "mexican": ("Mexicano", "Mexican", "Mexicano"),
    "engine": ("Máquina", "Engine", "Locomotiva"),
    "player": ("Jugador", "Player", "Jogador"),
    "games": ("Partidas", "Games", "Partidas"),
    "won": ("Ganadas", "Won", "Vitórias"),
    "rating": ("Nivel", "Rating", "Nível"),
    "leaderboard": ("Clasificación", "Leaderboard", "Classificação"),
    "score_sheet": ("Anotación", "Score sheet", "Placar"),
    "time_up": ("Se acabó el tiempo", "Time is up", "Tempo esgotado"),
    "game_over": ("Fin de la partida", "Game over", "Fim da partida"),
    "tiles": ("fichas", "tiles", "pedras"),
}


def word(key: str, lang: str = "es") -> str:
    """The label ``key`` in ``lang`` (Spanish for an unknown language)."""
    es, en, pt = _WORDS[key]
    return {"en": en, "pt": pt}.get(lang, es)
