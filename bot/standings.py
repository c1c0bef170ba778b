"""Results into storage when a game ends, and the leaderboard and records out of it."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot import texts
from bot.model import Picture, Say
from bot.seats import Seat
from engine.game import Game
from engine.rules import PRESETS, Rules
from lang import tr
from render.sheets import Standing as Line
from render.sheets import draw_leaderboard
from storage.results import SeatResult
from storage.stats import period_start
from storage.store import Store

if TYPE_CHECKING:
    from bot.service import Context, Loaded

MENTION = re.compile(r"<@!?(\d{1,20})>")
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
    store: Store, ctx: Context, loaded: Loaded, game: Game
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
        partner = None
        if game.rules.teams:
            partner = loaded.seats[(seat + 2) % 4].user
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
        ctx.community.id,
        game.rules.preset,
        family_of(game.rules),
        seats,
        hands,
        ctx.now,
    )
    return {c.user_id: (c.before, c.after) for c in changes}


async def leaderboard(store: Store, ctx: Context) -> None:
    from bot.service import Refusal

    preset, period = None, "all"
    for arg in ctx.command.args:
        if arg in PRESETS:
            preset = arg
        elif arg in ("week", "month", "all"):
            period = arg
        else:
            raise Refusal(texts.BAD_PERIOD)
    family = family_of(Rules.from_preset(preset)) if preset else None
    since = period_start(period, ctx.now)
    standings = await store.stats.leaderboard(ctx.community.id, preset, since, family)
    if not standings:
        ctx.say(texts.NO_RESULTS)
        return
    anonymous = tr(ctx.lang, "(anonymous)")
    lines = [
        f"{i}. {s.name or anonymous}: {s.wins}/{s.games}"
        + (f" · {s.rating:.1f}" if s.rating is not None else "")
        for i, s in enumerate(standings, 1)
    ]
    title = tr(ctx.lang, "Leaderboard")
    rows = [Line(s.name or anonymous, s.games, s.wins, s.rating) for s in standings]
    png = await asyncio.to_thread(
        _png, title, rows, ctx.room.settings.get("theme", "classic"), ctx.lang
    )
    ctx.effects.append(Picture(png, title + "\n" + "\n".join(lines)))


def _png(title: str, rows: list[Line], theme: str, lang: str) -> bytes:
    out = io.BytesIO()
    draw_leaderboard(title, rows, theme, lang).save(out, format="PNG")
    return out.getvalue()


async def player_stats(store: Store, ctx: Context) -> None:
    user_id = ctx.user.id
    name = ctx.person.name
    if ctx.command.args:
        wanted = " ".join(ctx.command.args)
        mention = MENTION.fullmatch(wanted.strip())
        if mention:  # a mention typed as text on Discord: <@123> or <@!123>
            wanted = f"user:{mention.group(1)}"
        found = await store.people.search(ctx.command.place.platform, wanted, ctx.community.id)
        if found is None:
            from bot.service import Refusal

            typed = " ".join(ctx.command.args)
            raise Refusal(texts.UNKNOWN_PLAYER, name="?" if typed.startswith("user:") else typed)
        user_id, name = found.id, found.name or tr(ctx.lang, "(anonymous)")
    record = await store.stats.player(ctx.community.id, user_id)
    if not record.games:
        ctx.say(texts.NO_GAMES_YET, name=name)
        return
    lines = [
        tr(
            ctx.lang,
            "{name}: {games} games, {wins} won; points {for_} for, {against} against.",
            name=name,
            games=record.games,
            wins=record.wins,
            for_=record.points_for,
            against=record.points_against,
        ),
        tr(
            ctx.lang,
            "Streak: {current} now, {best} at best.",
            current=record.current_streak,
            best=record.best_streak,
        ),
    ]
    if record.best_partner_name:
        lines.append(
            tr(
                ctx.lang,
                "Best partner: {partner} ({wins} wins together).",
                partner=record.best_partner_name,
                wins=record.best_partner_wins,
            )
        )
    for family, rating in sorted(record.ratings.items()):
        lines.append(
            tr(
                ctx.lang,
                "Rating ({family}): {rating}",
                family=tr(ctx.lang, family),
                rating=f"{rating:.1f}",
            )
        )
    ctx.effects.append(Say("\n".join(lines)))
