"""Results of finished games, and the ratings they feed.

A game is written once (writing it again changes nothing). Ratings use OpenSkill's
Plackett-Luce model per community and game family: partnership games rate the two teams,
the other families rank every player. Computer players take part with a fixed rating
for their strength and are never rated themselves. Each game moves the ratings of its
players at once; a result older than a year leaves the rating: :meth:`expire` marks it
and replays only that community and family's remaining year of results.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, and_, delete, func, insert, select, update

from storage.database import Database, first, rows
from storage.schema import game_results, game_seats, games, hand_results, ratings

WINDOW = timedelta(days=365)
MODEL = PlackettLuce()
BOTS = {"easy": (18.0, 2.0), "normal": (25.0, 2.0), "hard": (30.0, 2.0)}  # (mu, sigma)
MIN_HUMANS = 2  # a game with fewer humans leaves no rating behind


@dataclass(frozen=True)
class SeatResult:
    seat: int
    user_id: int | None  # None: a computer player
    bot: str | None
    team: int  # the side: a team in partnership games, else the seat
    rank: int  # 1 for the winners, then 2, 3 ...
    won: bool
    points_for: int
    points_against: int
    partner_id: int | None = None


@dataclass(frozen=True)
class RatingChange:
    user_id: int
    family: str
    before: float  # the conservative number (mu - 3 sigma)
    after: float


def conservative(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


class ResultRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    async def record_game(
        self,
        game_id: int,
        community_id: int,
        preset: str,
        family: str,
        seats: Sequence[SeatResult],
        hands: Sequence[Sequence[tuple[int, bool]]],
        finished_at: datetime,
    ) -> list[RatingChange]:
        """Write a finished game (``hands``: per hand, per seat, (points, won)) and move
        its players' ratings; the rating changes. A game already written is left as is."""

        def work(db: Connection) -> list[RatingChange]:
            done = db.scalar(
                select(game_results.c.game_id).where(game_results.c.game_id == game_id).limit(1)
            )
            if done is not None:
                return []
            humans = sum(1 for s in seats if s.user_id is not None)
            written = [
                {
                    "game_id": game_id,
                    "seat": s.seat,
                    "user_id": s.user_id,
                    "bot": s.bot,
                    "community_id": community_id,
                    "preset": preset,
                    "family": family,
                    "team": s.team,
                    "rank": s.rank,
                    "won": s.won,
                    "points_for": s.points_for,
                    "points_against": s.points_against,
                    "partner_id": s.partner_id,
                    "finished_at": finished_at,
                    "rated": humans >= MIN_HUMANS,
                }
                for s in seats
            ]
            db.execute(insert(game_results), written)
            by_seat = {s.seat: s.user_id for s in seats}
            hand_rows = [
                {
                    "game_id": game_id,
                    "hand": h,
                    "seat": seat,
                    "user_id": by_seat.get(seat),
                    "points": points,
                    "won": won,
                }
                for h, per_seat in enumerate(hands)
                for seat, (points, won) in enumerate(per_seat)
            ]
            if hand_rows:
                db.execute(insert(hand_results), hand_rows)
            if humans < MIN_HUMANS:
                return []
            return _rate(db, community_id, family, written, finished_at)

        return await self._db.run(work)

    async def expire(self, now: datetime) -> int:
        """Take results older than a year out of the ratings; how many left."""
        cutoff = now - WINDOW

        def work(db: Connection) -> int:
            old = db.execute(
                select(game_results.c.community_id, game_results.c.family)
                .where(game_results.c.rated, game_results.c.finished_at < cutoff)
                .distinct()
            )
            groups: list[tuple[int, str]] = [(row[0], row[1]) for row in old]
            if not groups:
                return 0
            result = db.execute(
                update(game_results)
                .where(game_results.c.rated, game_results.c.finished_at < cutoff)
                .values(rated=False)
            )
            for community_id, family in groups:
                _replay(db, community_id, family, now)
            return result.rowcount or 0

        return await self._db.run_apart(work)

    async def unrecorded(self, limit: int = 20) -> list[int]:
        """Finished games with no results written (oldest first)."""
        written = select(game_results.c.game_id).where(game_results.c.game_id == games.c.id)
        # a game of one person against computers never goes on a leaderboard (BOT.md)
        people = (
            select(func.count(func.distinct(game_seats.c.user_id)))
            .where(game_seats.c.game_id == games.c.id)
            .scalar_subquery()
        )
        query = (
            select(games.c.id)
            .where(games.c.status == "finished", ~written.exists(), people >= 2)
            .order_by(games.c.id)
            .limit(limit)
        )
        return [row.id for row in await self._db.run(rows, query)]

    async def rating(self, community_id: int, user_id: int, family: str) -> float | None:
        query = select(ratings.c.mu, ratings.c.sigma).where(
            ratings.c.community_id == community_id,
            ratings.c.user_id == user_id,
            ratings.c.family == family,
        )
        row = await self._db.run(first, query)
        return conservative(row.mu, row.sigma) if row is not None else None


def _rate(
    db: Connection,
    community_id: int,
    family: str,
    rows: Sequence[dict[str, Any]],
    now: datetime,
) -> list[RatingChange]:
    """Move the ratings of one game's players (rows as written to game_results)."""
    humans = [r["user_id"] for r in rows if r["user_id"] is not None]
    found = db.execute(
        select(ratings)
        .where(
            ratings.c.community_id == community_id,
            ratings.c.family == family,
            ratings.c.user_id.in_(humans),
        )
        .with_for_update()
    )
    current = {r.user_id: (r.mu, r.sigma, r.games) for r in found}
    teams: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        teams[row["team"]].append(row)
    order = sorted(teams)
    players = []
    for team in order:
        members = []
        for row in teams[team]:
            if row["user_id"] is not None:
                mu, sigma, _ = current.get(row["user_id"], (MODEL.mu, MODEL.sigma, 0))
            else:
                mu, sigma = BOTS.get(row["bot"] or "normal", BOTS["normal"])
            members.append(MODEL.rating(mu=mu, sigma=sigma))
        players.append(members)
    ranks = [min(r["rank"] for r in teams[team]) for team in order]
    rated = MODEL.rate(players, ranks=ranks)
    changes: list[RatingChange] = []
    for team, new_members in zip(order, rated, strict=True):
        for row, new in zip(teams[team], new_members, strict=True):
            user = row["user_id"]
            if user is None:
                continue
            mu, sigma, games = current.get(user, (MODEL.mu, MODEL.sigma, 0))
            db.execute(
                delete(ratings).where(
                    ratings.c.community_id == community_id,
                    ratings.c.user_id == user,
                    ratings.c.family == family,
                )
            )
            db.execute(
                insert(ratings).values(
                    community_id=community_id,
                    user_id=user,
                    family=family,
                    mu=new.mu,
                    sigma=new.sigma,
                    games=games + 1,
                    updated_at=now,
                )
            )
            changes.append(
                RatingChange(user, family, conservative(mu, sigma), conservative(new.mu, new.sigma))
            )
    return changes


def _replay(db: Connection, community_id: int, family: str, now: datetime) -> None:
    """Rebuild one community and family's ratings from the results that still count."""
    db.execute(
        delete(ratings).where(ratings.c.community_id == community_id, ratings.c.family == family)
    )
    found = db.execute(
        select(game_results)
        .where(
            and_(
                game_results.c.community_id == community_id,
                game_results.c.family == family,
                game_results.c.rated,
            )
        )
        .order_by(game_results.c.finished_at, game_results.c.game_id, game_results.c.seat)
    )
    games: dict[int, list[dict[str, Any]]] = {}
    for row in found:
        games.setdefault(row.game_id, []).append(dict(row._mapping))
    for written in games.values():
        _rate(db, community_id, family, written, now)
