"""Teams made by drawing tiles (option ``teams = drawn_high | drawn_high_low``, RULES.md
"Teams"): at ``begin``, before the first deal, each of the four players draws a tile
(``engine.teams.draw_teams``); the seats are re-ordered so that partners sit opposite,
and the room is shown the tiles drawn and the teams they make."""

from __future__ import annotations

from bot.core.model import Say
from bot.core.seats import Seat
from bot.core.session import Session
from bot.core.showing import name_of
from engine.rules import Rules
from engine.teams import draw_teams
from lang import N_, tr

DRAWN = N_("Teams drawn ({how}): {draws}.")
HOW = {
    "drawn_high": N_("the two highest together"),
    "drawn_high_low": N_("the highest with the lowest"),
}
PARTNERS = N_("{team} play against {other}.")


def drawn_seats(session: Session, rules: Rules, seats: list[Seat]) -> list[Seat]:
    """``seats`` re-ordered by the draw of ``rules.teams`` (as they are with ``agreed``),
    and the room told who drew which tile and who plays with whom."""
    if not rules.partners or rules.teams == "agreed":
        return seats
    drawn = draw_teams(session.desk.seeds(), rules, len(seats))
    seated = [seats[old] for old in drawn.order]  # seated[new seat] = who sits there now
    lang = session.lang
    names = [name_of(seat, new, lang) for new, seat in enumerate(seated)]
    draws = ", ".join(f"{names[new]} {drawn.tiles[old]}" for new, old in enumerate(drawn.order))
    how = tr(lang, HOW[rules.teams])
    lines = [tr(lang, DRAWN, how=how, draws=draws)]
    team, other = (" / ".join(names[s] for s in side) for side in rules.side_seats(len(seated)))
    lines.append(tr(lang, PARTNERS, team=team, other=other))
    session.effects.append(Say("\n".join(lines)))
    return seated
