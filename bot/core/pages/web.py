"""The web pages' questions (issue 34): a key's page as JSON-ready data, or None. The web
door is given a :class:`WebPages` (``GameService.pages``) and nothing else of the core:
it reads, it never commands.

None answers every key that names nothing now: unknown, retired by ``settings web new``,
of another kind of page, or of a community whose pages are off; the door answers all of
them with the same 404. A key is made the first time something needs a link
(:meth:`WebPages.key`). Keys never reach a log line: nothing here logs one.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable
from datetime import datetime
from typing import Any

from bot.core import texts
from bot.core.bounded import Bounded
from bot.core.model import Board, Place
from bot.core.pages.game import Replays, board_now, game_page, hand_replay, said, step_board, when
from bot.core.pages.kept import Kept
from bot.core.pages.live import Live, Watched
from bot.core.pages.tournament import tournament_page
from bot.core.ratings import shown_rating
from bot.core.seats import seats_from
from bot.core.session import game_of
from bot.core.showing import name_of
from bot.core.spreadsheet import defused
from bot.core.standings import FAMILIES
from bot.core.tournament import state
from bot.core.tournament.rounds import current, standings_csv
from engine.game import Game
from engine.views import View
from lang import LANGUAGES, language, tr
from storage.errors import NotFound
from storage.games import GameRow
from storage.notes import RoomSettings
from storage.stats import PERIODS, period_start
from storage.store import Store
from storage.web import Kind, Named

RECENT_GAMES = 20
# How long a tournament's or community's page is used again at most, when no change of it
# was heard (bot/core/pages/kept.py): the community's leaderboards and results are not
# announced, nor a room's language.
TOURNAMENT_KEPT_SECONDS = 30.0
GAME_KEPT_SECONDS = 1.0
COMMUNITY_KEPT_SECONDS = 5.0
TABLES_KEPT = 2048  # games of tournament tables whose live score is remembered


class WebPages:
    def __init__(self, store: Store, clock: Callable[[], datetime], patient: bool = False) -> None:
        self.store = store
        self.clock = clock
        self.patient = patient  # the rooms wait for their people (the console's)
        self.replays = Replays()
        self.live = Live(store.web, store.database.feed)
        # a tournament's tables' live scores, by game: (the version they were read at, them)
        self.live_scores: Bounded[int, tuple[int, list[int]]] = Bounded(TABLES_KEPT)
        self.kept = Kept(store.database.feed, clock)  # the pages' JSON-ready data

    # ----- live pages (bot/core/pages/live.py) -----------------------------------------

    def watch(self, kind: Watched, key: str) -> AsyncGenerator[int, None]:
        """A version number now, then each time the page of ``kind`` (a game or a
        tournament) at ``key`` may have changed; it ends when the key names no page (at
        once if it names none now). A community's page is not watched."""
        return self.live.watch(kind, key)

    # ----- keys ------------------------------------------------------------------------

    async def key(self, kind: Kind, target: int) -> str | None:
        """The key of the page of ``kind`` ``target`` (a game, a tournament, a community
        by storage's id), made now if it has none; None when there is no such thing or
        its community's pages are off."""
        community = await self._community_of(kind, target)
        if community is None or not await self.store.web.is_open(community):
            return None
        return await self.store.web.key_for(kind, target, community, self.clock())

    async def key_of(self, place: Place) -> str | None:
        """The key of the page of ``place``'s community (as :meth:`key`)."""
        community = await self.store.people.community(
            place.platform, place.community, self.clock(), place.community_name, place.locale
        )
        return await self.key("community", community.id)

    async def _community_of(self, kind: Kind, target: int) -> int | None:
        try:
            if kind == "game":
                row = await self.store.games.load(target)
                return (await self.store.people.room_by_id(row.room_id)).community_id
            if kind == "tournament":
                return (await self.store.tournaments.load(target)).community_id
            return (await self.store.people.community_by_id(target)).id
        except NotFound:
            return None

    async def _game_key(self, game_id: int, room_id: int) -> str | None:
        room = await self.store.people.room_by_id(room_id)
        if not await self.store.web.is_open(room.community_id):
            return None
        return await self.store.web.key_for("game", game_id, room.community_id, self.clock())

    # ----- the pages -------------------------------------------------------------------

    async def game(self, key: str, lang: str | None = None) -> dict[str, Any] | None:
        # a move's thousand viewers read it again at once: one build for them all, kept
        # until the game changes, a second at most (its clocks are counted at the build)
        page, _age = await self._kept(
            "game", key, lang, GAME_KEPT_SECONDS, lambda named: self._game(named, key, lang)
        )
        return page

    async def _kept(
        self,
        kind: Kind,
        key: str,
        lang: str | None,
        seconds: float,
        build: Callable[[Named], Awaitable[dict[str, Any] | None]],
    ) -> tuple[dict[str, Any] | None, float]:
        """The page ``key`` names, as kept (bot/core/pages/kept.py) or built now, and how
        many seconds ago it was built; (None, 0) when the key names no page of ``kind``."""
        named = await self.store.web.find(kind, key)
        if named is None:
            return None, 0.0
        spoken = lang if lang in LANGUAGES else ""
        page, age = await self.kept.get(
            (kind, named.target), f"{spoken}/{key}", seconds, lambda: build(named)
        )
        return page, age

    async def _game(self, named: Named, key: str, lang: str | None) -> dict[str, Any] | None:
        try:
            row, record = await self.store.games.with_record(named.target)
            room = await self.store.people.room_by_id(row.room_id)
        except NotFound:
            return None
        spoken = await self._language(named.community_id, room.settings, lang)
        return game_page(
            row,
            record,
            spoken,
            self.clock(),
            self.replays,
            f"/g/{key}",
            room.settings,
            self.patient,
        )

    async def board(self, key: str, lang: str | None = None) -> Board | None:
        """The game's board as the room gets it now (to draw: the same picture), with
        the table in words; None as :meth:`game` answers None, and in the lobby."""
        found = await self._game_of_key(key, lang)
        if found is None:
            return None
        row, _record, settings, spoken = found
        return board_now(row, settings, spoken, self.clock())

    async def hand(self, key: str, number: int, lang: str | None = None) -> dict[str, Any] | None:
        """Finished hand ``number`` of the game, move by move (docs/web.md); None for a
        hand not over (the hand in play above all) as for an unknown key."""
        found = await self._hand_views(key, number, lang)
        if found is None:
            return None
        row, _game, _settings, spoken, views = found
        return {**hand_replay(number, views), "said": said(row, views[-1], spoken)}

    async def step(self, key: str, number: int, step: int, lang: str | None = None) -> Board | None:
        """The position after the deal (``step`` 0) or after move ``step`` of finished
        hand ``number``, as the room's board showed it, to draw; None as :meth:`hand`,
        and for a step the hand never had."""
        found = await self._hand_views(key, number, lang)
        if found is None:
            return None
        row, game, settings, spoken, views = found
        if not 0 <= step < len(views):
            return None
        return step_board(row, game, settings, spoken, views[step])

    async def standings_csv(self, key: str) -> str | None:
        """The tournament's standings as CSV, every tie-break (the export's columns),
        each cell that a spreadsheet would read as a formula made text."""
        named = await self.store.web.find("tournament", key)
        if named is None:
            return None
        try:
            event = await state.load_id(self.store, named.target)
        except NotFound:
            return None
        return defused(standings_csv(event, current(event)))

    async def _game_of_key(
        self, key: str, lang: str | None
    ) -> tuple[GameRow, dict[str, Any], RoomSettings, str] | None:
        named = await self.store.web.find("game", key)
        if named is None:
            return None
        try:
            row, record = await self.store.games.with_record(named.target)
            room = await self.store.people.room_by_id(row.room_id)
        except NotFound:
            return None
        spoken = await self._language(named.community_id, room.settings, lang)
        return row, record, room.settings, spoken

    async def _hand_views(
        self, key: str, number: int, lang: str | None
    ) -> tuple[GameRow, Game, RoomSettings, str, list[View]] | None:
        found = await self._game_of_key(key, lang)
        if found is None:
            return None
        row, record, settings, spoken = found
        game = game_of(row) if row.status != "lobby" else None
        if game is None or not 1 <= number <= game.hands_finished:
            return None
        views = self.replays.views(row.id, record, game).get(number)
        if not views:
            return None
        return row, game, settings, spoken, views

    async def tournament(self, key: str, lang: str | None = None) -> dict[str, Any] | None:
        page, age = await self._kept(
            "tournament", key, lang, TOURNAMENT_KEPT_SECONDS,
            lambda named: self._tournament(named, lang),
        )  # fmt: skip
        if page is None or not age:
            return page
        clock = page["clock"]
        if clock["seconds_left"] is None or clock["paused"]:
            return page
        # kept a while: its round clock has run meanwhile
        left = max(0.0, clock["seconds_left"] - age)
        return {**page, "clock": {**clock, "seconds_left": left}}

    async def _tournament(self, named: Named, lang: str | None) -> dict[str, Any] | None:
        try:
            event = await state.load_id(self.store, named.target)
            room = await self.store.people.room_by_id(event.row.room_id)
        except NotFound:
            return None
        spoken = await self._language(named.community_id, room.settings, lang)
        live: dict[int, list[int]] = {}
        ids = [t.game_id for t in event.tables if t.game_id is not None]
        # one query for the tables' games, a snapshot read only for a game in play that
        # moved since this process last read it, and the keys they have at once
        versions = await self.store.games.versions(ids)
        keys = await self.store.web.keys_of("game", ids)
        for table in event.tables:
            found = versions.get(table.game_id or 0)
            if found is None or table.game_id is None:
                continue
            version, status, room_id = found
            if table.status == "playing" and status == "playing":
                scores = self.live_scores.get(table.game_id)
                if scores is None or scores[0] != version:
                    try:
                        row = await self.store.games.load(table.game_id)
                    except NotFound:
                        continue
                    game = game_of(row)
                    scores = (row.version, list(game.live_scores) if game is not None else [])
                    self.live_scores.put(table.game_id, scores)
                if scores[1]:
                    live[table.game_id] = scores[1]
            if table.game_id not in keys:
                made = await self._game_key(table.game_id, room_id)
                if made is not None:
                    keys[table.game_id] = made
        logs = await self.store.tournaments.logs(event.id)
        people: dict[int, str] = {}
        for user_id in {log.by_user for log in logs if log.by_user is not None}:
            try:
                user = await self.store.people.user_by_id(user_id)
            except NotFound:
                continue
            people[user_id] = user.name or tr(spoken, "(anonymous)")
        return tournament_page(event, spoken, self.clock(), live, keys, logs, people)

    async def community(self, key: str, lang: str | None = None) -> dict[str, Any] | None:
        page, _age = await self._kept(
            "community", key, lang, COMMUNITY_KEPT_SECONDS,
            lambda named: self._community(named, lang),
        )  # fmt: skip
        return page

    async def _community(self, named: Named, lang: str | None) -> dict[str, Any]:
        community = await self.store.people.community_by_id(named.target)
        spoken = language(lang if lang in LANGUAGES else community.locale)
        now = self.clock()
        anonymous = tr(spoken, "(anonymous)")
        boards: dict[str, Any] = {}
        for family in dict.fromkeys(FAMILIES.values()):
            boards[family] = {
                "title": tr(spoken, texts.RATED_LEADERBOARD[family]),
                "periods": {
                    period: [
                        {
                            "place": place,
                            "name": s.name or anonymous,
                            "games": s.games,
                            "wins": s.wins,
                            "points_for": s.points_for,
                            "points_against": s.points_against,
                            "rating": shown_rating(s.rating) if s.rating is not None else None,
                        }
                        for place, s in enumerate(
                            await self.store.stats.leaderboard(
                                community.id, None, period_start(period, now), family
                            ),
                            1,
                        )
                    ]
                    for period in PERIODS
                },
            }
        pairs = {
            period: [
                {
                    "place": place,
                    "names": [n or anonymous for n in p.names],
                    "games": p.games,
                    "wins": p.wins,
                }
                for place, p in enumerate(
                    await self.store.stats.pairs(community.id, period_start(period, now)), 1
                )
            ]
            for period in PERIODS
        }
        games = []
        for found in await self.store.web.recent_games(community.id, RECENT_GAMES):
            try:
                row = await self.store.games.load(found.id)
            except NotFound:
                continue
            game_key = await self.store.web.key_for("game", row.id, community.id, now)
            games.append(_game_line(row, game_key, spoken))
        tournaments = []
        for found in await self.store.web.recent_tournaments(community.id):
            event = await self.store.tournaments.load(found.id)
            tournament_key = await self.store.web.key_for("tournament", event.id, community.id, now)
            tournaments.append(
                {
                    "key": tournament_key,
                    "name": event.name,
                    "status": event.status,
                    "round": event.round,
                }
            )
        return {
            "kind": "community",
            "lang": spoken,
            "name": community.name,
            "leaderboards": boards,
            "pairs": {"title": tr(spoken, texts.PAIRS_LEADERBOARD), "periods": pairs},
            "games": games,
            "tournaments": tournaments,
        }

    async def _language(self, community_id: int, settings: RoomSettings, lang: str | None) -> str:
        """``lang`` when it is one of ours, else the room's language, else its
        community's."""
        if lang in LANGUAGES:
            return language(lang)
        if settings.language:
            return language(settings.language)
        community = await self.store.people.community_by_id(community_id)
        return language(community.locale)


def _game_line(row: GameRow, key: str, lang: str) -> dict[str, Any]:
    """A game in the community's list: its key, preset, status, players and scores."""
    seats = seats_from(row.seats)
    game = game_of(row)
    count = game.players if game is not None else len(seats)
    return {
        "key": key,
        "preset": row.preset,
        "title": texts.preset_name(lang, row.preset),
        "status": row.status,
        "players": [name_of(s, i, lang) for i, s in enumerate(seats[:count])],
        "scores": list(game.live_scores) if game is not None else [],
        "winner": game.outcome.winner if game is not None and game.outcome else None,
        "created_at": when(row.created_at),
        "finished_at": when(row.finished_at),
    }
