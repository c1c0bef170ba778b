"""The leaderboard and a player's record, read from the results of finished games."""

from __future__ import annotations

from datetime import datetime

from bot.core import texts
from bot.core.handlers.lobby import DEFAULT_PRESET
from bot.core.model import Picture, Say, Standing
from bot.core.names import searched
from bot.core.ratings import RATING_START, shown_rating
from bot.core.registry import PERIODS, handles
from bot.core.session import Refusal, Session
from bot.core.standings import FAMILY_WORDS, leaderboard
from engine.presets import preset_names
from lang import tr, trn
from storage.stats import period_start

PAIRS = ("pairs", "parejas", "duplas")  # /top pairs, in each language


@handles("top")
async def top(session: Session) -> None:
    """The community's leaderboard: of a family of games, of a game, or of the pairs,
    over a period if named."""
    preset = family = None
    period, pairs = "all", False
    for arg in (a.lower() for a in session.args):
        if arg in PAIRS:
            pairs = True
        elif arg in FAMILY_WORDS:
            family = FAMILY_WORDS[arg]
        elif arg in preset_names():
            preset = arg
        elif arg in PERIODS:
            period = arg
        else:
            raise Refusal(texts.BAD_TOP)
    since = period_start(period, session.now)
    if pairs:
        await top_pairs(session, since)
        return
    room_preset = session.room.settings.preset or DEFAULT_PRESET
    family, found = await leaderboard(
        session.store, session.community.id, preset, since, room_preset, family
    )
    if not found:
        session.say(texts.NO_RESULTS)
        return
    lang = session.lang
    anonymous = tr(lang, "(anonymous)")
    lines = tuple(Standing(s.name or anonymous, s.games, s.wins, _shown(s.rating)) for s in found)
    words = [
        f"{i}. {s.name}: {s.wins}/{s.games}"
        + (f" · {s.rating:.0f}" if s.rating is not None else "")
        for i, s in enumerate(lines, 1)
    ]
    rated = any(s.rating is not None for s in lines)
    # the rating column is of one family of games, and the games counted too: the title
    # says which
    title = tr(lang, texts.RATED_LEADERBOARD[family] if rated else "Leaderboard")
    if preset is not None:
        title += " · " + texts.preset_name(lang, preset)
    if rated:
        words.append(tr(lang, texts.RATINGS_EXPLAINED, start=RATING_START))
    words.append(tr(lang, texts.OTHER_BOARDS))
    theme = session.room.settings.theme or "classic"
    text = title + "\n" + "\n".join(words)
    session.effects.append(Picture(title, lines, text, lang=lang, theme=theme))


async def top_pairs(session: Session, since: datetime | None) -> None:
    """The pairs of partnership games, most wins first."""
    found = await session.store.stats.pairs(session.community.id, since)
    if not found:
        session.say(texts.NO_PAIRS)
        return
    lang = session.lang
    anonymous = tr(lang, "(anonymous)")
    lines = tuple(
        Standing(" & ".join(n or anonymous for n in p.names), p.games, p.wins, None) for p in found
    )
    words = [f"{i}. {s.name}: {s.wins}/{s.games}" for i, s in enumerate(lines, 1)]
    title = tr(lang, texts.PAIRS_LEADERBOARD)
    theme = session.room.settings.theme or "classic"
    text = title + "\n" + "\n".join([*words, tr(lang, texts.OTHER_BOARDS)])
    session.effects.append(Picture(title, lines, text, lang=lang, theme=theme))


def _shown(rating: float | None) -> float | None:
    return None if rating is None else float(shown_rating(rating))


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
                rating=shown_rating(rating),
            )
        )
    session.effects.append(Say("\n".join(lines)))
