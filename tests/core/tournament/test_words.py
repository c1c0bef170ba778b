"""What the tournament says takes one minute and one round in the singular, in every
language (a one-minute round clock, a one-round event, a restart a minute before the
next round)."""

from __future__ import annotations

import re

import pytest

from bot.core.tournament import words
from lang import tr

WRONG = re.compile(r"\b1 (minutes|rounds|minutos|rondas|rodadas)\b")


@pytest.mark.parametrize("lang", ["en", "es", "pt"])
@pytest.mark.parametrize("n", [1, 2, 40])
def test_counts_agree_with_their_number(lang: str, n: int) -> None:
    said = [
        tr(lang, words.OPENED, name="Copa", rounds=words.rounds(lang, n), format="swiss",
           preset="tournament_pr", target=200, minutes=words.minutes(lang, n)),
        tr(lang, words.CLOCK_LINE, minutes=words.minutes(lang, n)),
        tr(lang, words.NEXT_ROUND_IN, round=2, minutes=words.minutes(lang, n)),
        tr(lang, words.RESUMED, round=2, minutes=words.minutes(lang, n)),
        tr(lang, words.EXTENDED, round=2, minutes=words.minutes(lang, n)),
    ]  # fmt: skip
    for text in said:
        assert not WRONG.search(text), text
        assert f"{n} " in text, text
    if n == 1:
        assert (
            words.minutes(lang, 1) == {"en": "1 minute", "es": "1 minuto", "pt": "1 minuto"}[lang]
        )
    else:
        assert words.rounds(lang, n).endswith(("rounds", "rondas", "rodadas"))
