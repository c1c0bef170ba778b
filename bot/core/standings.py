"""Results into storage when a game ends: each seat's place, points and partner, and
every hand's points (the leaderboard and records are read out of them: bot/core/handlers/
records.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.core.seats import Seat
from bot.core.session import Loaded
from engine.errors import DominoError
from engine.game import Game
from engine.rules import Rules
from storage.results import SeatResult
from storage.stats import Standing
from storage.store import Store

FAMILIES = {
    "partnership": "partnership",
    "individual": "line",
    "divisor": "divisor",
    "train": "train",
}


def counted(seats: Sequence[Seat]) -> bool:
    """Whether a game goes on the leaderboard: two people or more sat in it (BOT.md)."""
    return len({s.user for s in seats if s.user is not None}) >= 2


def family_of(rules: Rules) -> str:
    return FAMILIES[rules.family]


async def record_results(
    store: Store, community_id: int, now: datetime, loaded: Loaded, game: Game
) -> dict[int, tuple[float, float]]:
    """Write the finished game's results; rating changes by user id."""
    outcome = game.outcome
    assert outcome is not None
    scores = list(outcome.scores)
    rank = game.places()
    penalties = game.rules.score_to == "loser"
    seats = []
    for seat, info in enumerate(loaded.seats[: game.players]):
        side = game.side_of(seat)
        others = sum(scores) - scores[side]
        mate = game.rules.partner_of(seat)
        partner = loaded.seats[mate].user if mate is not None else None
        seats.append(
            SeatResult(
                seat=seat,
                user_id=info.user,
                bot=info.bot if info.user is None else None,
                team=side,
                rank=rank[side],
                won=side == outcome.winner,
                # under loser-scoring a side's own score is what it was made to write
                points_for=others if penalties else scores[side],
                points_against=scores[side] if penalties else others,
                partner_id=partner,
            )
        )
    # the hands before those the game holds are stored, each with its points
    stored = await store.games.hands(loaded.row.id, before=game.hands_before)
    results = [(tuple(h.points), h.winner) for h in stored]
    results += [(log.result.points, log.result.winner) for log in game.logs if log.result]
    hands = [
        [(points[game.side_of(s)], game.side_of(s) == winner) for s in range(game.players)]
        for points, winner in results
    ]
    changes = await store.results.record_game(
        loaded.row.id,
        community_id,
        game.rules.preset,
        family_of(game.rules),
        seats,
        hands,
        now,
    )
    return {c.user_id: (c.before, c.after) for c in changes}


# what /top names a family by (registry.BOARDS) and the families' own names
FAMILY_WORDS = {"partnership": "partnership", "individual": "line", "line": "line",
                "divisor": "divisor", "train": "train"}  # fmt: skip


async def leaderboard(
    store: Store,
    community_id: int,
    preset: str | None,
    since: datetime | None,
    room_preset: str,
    family: str | None = None,
) -> tuple[str, list[Standing]]:
    """The community's leaderboard with a rating column, and the family the ratings are
    of (the games counted are of that family, or of the preset named): the named
    family's; the named preset's family; with neither named, the family that rates most
    of the players listed (the room's own preset's family first on a tie), so that the
    picture shows the ratings there are."""
    if preset is not None:
        family = family_of(Rules.from_preset(preset))
        return family, await store.stats.leaderboard(community_id, preset, since, family)
    if family is not None:
        return family, await store.stats.leaderboard(community_id, None, since, family)
    try:
        first = family_of(Rules.from_preset(room_preset))
    except DominoError:
        first = "partnership"
    best: tuple[int, int, str, list[Standing]] | None = None
    for family in dict.fromkeys([first, *FAMILIES.values()]):
        found = await store.stats.leaderboard(community_id, None, since, family)
        rated = sum(1 for s in found if s.rating is not None)
        if best is None or (rated, len(found)) > best[:2]:
            best = (rated, len(found), family, found)
    assert best is not None
    return best[2], best[3]
