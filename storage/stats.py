"""Leaderboards and a player's record, per community, preset and period."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Integer, and_, case, cast, func, select

from storage.database import Database, rows
from storage.results import conservative
from storage.schema import game_results, ratings, users

PERIODS = {"week": 7, "month": 30, "all": None}  # days back, None: all time


def period_start(period: str, now: datetime) -> datetime | None:
    """Where a leaderboard period begins (None: all time). Unknown periods raise
    ValueError naming the known ones."""
    if period not in PERIODS:
        raise ValueError(f"unknown period '{period}'; choose from {', '.join(PERIODS)}")
    days = PERIODS[period]
    return None if days is None else now - timedelta(days=days)


@dataclass(frozen=True)
class Standing:
    user_id: int
    name: str | None  # None once the player asked to be forgotten
    games: int
    wins: int
    points_for: int
    points_against: int
    rating: float | None  # conservative rating in the preset's family, if it has one


@dataclass(frozen=True)
class PairStanding:
    first: int
    second: int
    names: tuple[str | None, str | None]
    games: int
    wins: int


@dataclass(frozen=True)
class PlayerRecord:
    games: int
    wins: int
    points_for: int
    points_against: int
    best_partner: int | None
    best_partner_name: str | None
    best_partner_wins: int
    current_streak: int  # wins in a row up to the last game
    best_streak: int
    ratings: dict[str, float]  # family: conservative rating


def _filters(community_id: int, preset: str | None, since: datetime | None) -> list:
    found = [game_results.c.community_id == community_id, game_results.c.user_id.is_not(None)]
    if preset is not None:
        found.append(game_results.c.preset == preset)
    if since is not None:
        found.append(game_results.c.finished_at >= since)
    return found


def _of_family(family: str | None) -> list:
    """The games of ``family`` only: the counts beside a family's ratings are of its
    games (issue 33, 11: partnership ratings beside the wins of every game)."""
    return [] if family is None else [game_results.c.family == family]


class StatsRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    async def leaderboard(
        self,
        community_id: int,
        preset: str | None = None,
        since: datetime | None = None,
        family: str | None = None,
        limit: int = 10,
    ) -> list[Standing]:
        """The community's players, best first: by rating in ``family`` when given (and
        counting the games of that family only), then by wins and win rate."""
        wins = func.sum(cast(case((game_results.c.won, 1), else_=0), Integer))
        query = (
            select(
                game_results.c.user_id,
                users.c.name,
                func.count().label("games"),
                wins.label("wins"),
                func.sum(game_results.c.points_for).label("points_for"),
                func.sum(game_results.c.points_against).label("points_against"),
            )
            .join(users, users.c.id == game_results.c.user_id)
            .where(*_filters(community_id, preset, since), *_of_family(family))
            .group_by(game_results.c.user_id, users.c.name)
        )

        def work(db: Connection) -> tuple[list[Any], dict[int, float]]:
            found = list(db.execute(query))
            if family is None or not found:
                return found, {}
            rated = db.execute(
                select(ratings.c.user_id, ratings.c.mu, ratings.c.sigma).where(
                    ratings.c.community_id == community_id,
                    ratings.c.family == family,
                    ratings.c.user_id.in_([r.user_id for r in found]),
                )
            )
            return found, {r.user_id: conservative(r.mu, r.sigma) for r in rated}

        played, rated = await self._db.run_apart(work)
        standings = [
            Standing(
                r.user_id,
                r.name,
                r.games,
                r.wins or 0,
                r.points_for or 0,
                r.points_against or 0,
                rated.get(r.user_id),
            )
            for r in played
        ]
        standings.sort(
            key=lambda s: (
                -(s.rating if s.rating is not None else -1e9),
                -s.wins,
                -(s.wins / s.games if s.games else 0),
                s.user_id,
            )
        )
        return standings[:limit]

    async def pairs(
        self, community_id: int, since: datetime | None = None, limit: int = 10
    ) -> list[PairStanding]:
        """Partnership pairs, most wins first (each pair once, whoever sat where)."""
        partner = users.alias("partner")
        wins = func.sum(cast(case((game_results.c.won, 1), else_=0), Integer))
        query = (
            select(
                game_results.c.user_id,
                game_results.c.partner_id,
                users.c.name,
                partner.c.name.label("partner_name"),
                func.count().label("games"),
                wins.label("wins"),
            )
            .join(users, users.c.id == game_results.c.user_id)
            .join(partner, partner.c.id == game_results.c.partner_id)
            .where(
                *_filters(community_id, None, since),
                game_results.c.family == "partnership",
                game_results.c.user_id < game_results.c.partner_id,
            )
            .group_by(
                game_results.c.user_id, game_results.c.partner_id, users.c.name, partner.c.name
            )
        )
        found = [
            PairStanding(r.user_id, r.partner_id, (r.name, r.partner_name), r.games, r.wins or 0)
            for r in await self._db.run_apart(rows, query)
        ]
        found.sort(key=lambda p: (-p.wins, -(p.wins / p.games), p.first, p.second))
        return found[:limit]

    async def player(
        self,
        community_id: int,
        user_id: int,
        preset: str | None = None,
        since: datetime | None = None,
    ) -> PlayerRecord:
        filters = [*_filters(community_id, preset, since), game_results.c.user_id == user_id]

        def work(db: Connection) -> tuple[list[Any], dict[int, str | None], dict[str, float]]:
            games = list(
                db.execute(
                    select(
                        game_results.c.won,
                        game_results.c.points_for,
                        game_results.c.points_against,
                        game_results.c.partner_id,
                    )
                    .where(*filters)
                    .order_by(game_results.c.finished_at, game_results.c.game_id)
                )
            )
            names = {
                r.id: r.name
                for r in db.execute(
                    select(users.c.id, users.c.name).where(
                        users.c.id.in_({g.partner_id for g in games if g.partner_id})
                    )
                )
            }
            found = db.execute(
                select(ratings.c.family, ratings.c.mu, ratings.c.sigma).where(
                    and_(ratings.c.community_id == community_id, ratings.c.user_id == user_id)
                )
            )
            return games, names, {r.family: conservative(r.mu, r.sigma) for r in found}

        games, names, rated = await self._db.run_apart(work)
        best = current = 0
        for g in games:
            current = current + 1 if g.won else 0
            best = max(best, current)
        together: dict[int, list[int]] = {}
        for g in games:
            if g.partner_id is not None:
                tally = together.setdefault(g.partner_id, [0, 0])
                tally[0] += int(g.won)
                tally[1] += 1
        partner = max(together, key=lambda p: (together[p][0], together[p][1], -p), default=None)
        return PlayerRecord(
            games=len(games),
            wins=sum(1 for g in games if g.won),
            points_for=sum(g.points_for for g in games),
            points_against=sum(g.points_against for g in games),
            best_partner=partner,
            best_partner_name=names.get(partner) if partner is not None else None,
            best_partner_wins=together[partner][0] if partner is not None else 0,
            current_streak=current,
            best_streak=best,
            ratings=rated,
        )
