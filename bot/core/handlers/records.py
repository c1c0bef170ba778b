"""The leaderboard and a player's record, read from the results of finished games."""

from __future__ import annotations

from bot.core import texts
from bot.core.handlers.lobby import DEFAULT_PRESET
from bot.core.model import Picture, Say, Standing
from bot.core.names import searched
from bot.core.registry import PERIODS, handles
from bot.core.session import Refusal, Session
from bot.core.standings import leaderboard
from engine.presets import preset_names
from lang import tr, trn
from storage.stats import period_start


@handles("top")
async def top(session: Session) -> None:
    """The community's leaderboard, of a game and a period if named."""
    preset, period = None, "all"
    for arg in session.args:
        if arg in preset_names():
            preset = arg
        elif arg in PERIODS:
            period = arg
        else:
            raise Refusal(texts.BAD_PERIOD)
    since = period_start(period, session.now)
    room_preset = session.room.settings.preset or DEFAULT_PRESET
    family, found = await leaderboard(
        session.store, session.community.id, preset, since, room_preset
    )
    if not found:
        session.say(texts.NO_RESULTS)
        return
    lang = session.lang
    anonymous = tr(lang, "(anonymous)")
    lines = tuple(Standing(s.name or anonymous, s.games, s.wins, s.rating) for s in found)
    words = [
        f"{i}. {s.name}: {s.wins}/{s.games}"
        + (f" · {s.rating:.1f}" if s.rating is not None else "")
        for i, s in enumerate(lines, 1)
    ]
    rated = any(s.rating is not None for s in lines)
    # the rating column is of one family of games: the title says which
    title = tr(lang, texts.RATED_LEADERBOARD[family] if rated else "Leaderboard")
    theme = session.room.settings.theme or "classic"
    text = title + "\n" + "\n".join(words)
    session.effects.append(Picture(title, lines, text, lang=lang, theme=theme))


@handles("stats")
async def stats(session: Session) -> None:
    """A player's record here: the person's own, or the one of the person named."""
    lang, store = session.lang, session.store
    user_id, name = session.user.id, session.person.name
    if session.args:
        typed = " ".join(session.args)
        wanted = typed
        wanted = searched(wanted)
        platform = session.command.place.platform
        found = await store.people.search(platform, wanted, session.community.id)
        if found is None:
            raise Refusal(texts.UNKNOWN_PLAYER, name="?" if typed.startswith("user:") else typed)
        user_id, name = found.id, found.name or tr(lang, "(anonymous)")
    record = await store.stats.player(session.community.id, user_id)
    if not record.games:
        session.say(texts.NO_GAMES_YET, name=name)
        return
    lines = [
        trn(
            lang,
            "{name}: {games} game, {wins} won; points {for_} for, {against} against.",
            "{name}: {games} games, {wins} won; points {for_} for, {against} against.",
            record.games,
            name=name,
            games=record.games,
            wins=record.wins,
            for_=record.points_for,
            against=record.points_against,
        ),
        tr(
            lang,
            "Streak: {current} now, {best} at best.",
            current=record.current_streak,
            best=record.best_streak,
        ),
    ]
    if record.best_partner_name:
        lines.append(
            trn(
                lang,
                "Best partner: {partner} ({wins} win together).",
                "Best partner: {partner} ({wins} wins together).",
                record.best_partner_wins,
                partner=record.best_partner_name,
                wins=record.best_partner_wins,
            )
        )
    for family, rating in sorted(record.ratings.items()):
        lines.append(
            tr(
                lang,
                "Rating ({family}): {rating}",
                family=tr(lang, family),
                rating=f"{rating:.1f}",
            )
        )
    session.effects.append(Say("\n".join(lines)))
