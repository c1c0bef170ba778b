"""Results, ratings, leaderboards, a player's record, and forgetting a player."""

from __future__ import annotations

from datetime import timedelta

import pytest

from storage.privacy import FORGOTTEN_NAME
from storage.results import SeatResult
from storage.stats import period_start
from storage.store import Store
from tests.storage.conftest import NOW


async def people(store: Store, *names: str) -> list[int]:
    return [(await store.people.user("telegram", n, n, NOW)).id for n in names]


async def partnership(
    store: Store, room: int, community: int, users: list[int], winners: int, when
) -> int:
    """A finished partnership game: seats 0-3 are users[0..3]; team ``winners`` won."""
    seats_json = [{"user": u} for u in users]
    game = await store.games.create(room, "partnership", seats_json, {"players": users}, when)
    await store.games.save(game.id, 1, {"players": users}, [], when, status="finished")
    seats = [
        SeatResult(
            seat=s,
            user_id=users[s],
            bot=None,
            team=s % 2,
            rank=1 if s % 2 == winners else 2,
            won=s % 2 == winners,
            points_for=100 if s % 2 == winners else 40,
            points_against=40 if s % 2 == winners else 100,
            partner_id=users[(s + 2) % 4],
        )
        for s in range(4)
    ]
    hands = [[(25, s % 2 == winners) for s in range(4)]]
    await store.results.record_game(
        game.id, community, "partnership", "partnership", seats, hands, when
    )
    return game.id


@pytest.fixture
async def community(store: Store, room: int) -> int:
    return (await store.people.room_by_id(room)).community_id


async def test_winners_rise_and_a_game_counts_once(store: Store, room: int, community: int) -> None:
    ana, beto, carla, diego = await people(store, "ana", "beto", "carla", "diego")
    game = await partnership(store, room, community, [ana, beto, carla, diego], 0, NOW)
    won = await store.results.rating(community, ana, "partnership")
    lost = await store.results.rating(community, beto, "partnership")
    assert won is not None and lost is not None and won > lost
    again = await store.results.record_game(
        game, community, "partnership", "partnership", [], [], NOW
    )
    assert again == []
    board = await store.stats.leaderboard(community, family="partnership")
    assert [s.user_id for s in board[:2]] in ([ana, carla], [carla, ana])
    assert board[0].games == 1 and board[0].wins == 1 and board[0].points_for == 100


async def test_a_game_with_one_human_leaves_no_rating(
    store: Store, room: int, community: int
) -> None:
    (ana,) = await people(store, "ana")
    game = await store.games.create(room, "draw", [{"user": ana}, {"bot": "hard"}], {}, NOW)
    seats = [
        SeatResult(0, ana, None, 0, 1, True, 50, 10),
        SeatResult(1, None, "hard", 1, 2, False, 10, 50),
    ]
    changes = await store.results.record_game(game.id, community, "draw", "line", seats, [], NOW)
    assert changes == []
    assert await store.results.rating(community, ana, "line") is None
    record = await store.stats.player(community, ana)
    assert (record.games, record.wins) == (1, 1)  # the game still counts in the record


async def test_a_result_older_than_a_year_leaves_the_rating(
    store: Store, room: int, community: int
) -> None:
    users = await people(store, "ana", "beto", "carla", "diego")
    old = NOW - timedelta(days=400)
    await partnership(store, room, community, users, 1, old)  # beto and diego won, long ago
    await partnership(store, room, community, users, 0, NOW)
    before = await store.results.rating(community, users[1], "partnership")
    assert await store.results.expire(NOW) == 4
    after = await store.results.rating(community, users[1], "partnership")
    assert after is not None and before is not None and after < before
    # the same as if only this year's game had ever been played
    other = await store.people.community("telegram", "other", NOW)
    other_room = (await store.people.room(other.id, "mesa", NOW)).id
    await partnership(store, other_room, other.id, users, 0, NOW)
    for user in users:
        expected = await store.results.rating(other.id, user, "partnership")
        assert await store.results.rating(community, user, "partnership") == pytest.approx(expected)
    assert await store.results.expire(NOW) == 0  # nothing more to take out


async def test_leaderboards_by_period_and_preset_and_pairs(
    store: Store, room: int, community: int
) -> None:
    ana, beto, carla, diego = users = await people(store, "ana", "beto", "carla", "diego")
    await partnership(store, room, community, users, 0, NOW - timedelta(days=20))
    await partnership(store, room, community, users, 0, NOW - timedelta(days=2))
    await partnership(store, room, community, users, 1, NOW - timedelta(days=1))
    week = await store.stats.leaderboard(community, since=period_start("week", NOW))
    month = await store.stats.leaderboard(community, since=period_start("month", NOW))
    assert {s.games for s in month} == {3}
    assert period_start("all", NOW) is None
    with pytest.raises(ValueError, match="week, month, all"):
        period_start("year", NOW)
    assert {s.user_id: s.games for s in week} == {ana: 2, beto: 2, carla: 2, diego: 2}
    every = await store.stats.leaderboard(community, preset="partnership")
    assert {s.user_id: s.wins for s in every} == {ana: 2, carla: 2, beto: 1, diego: 1}
    assert await store.stats.leaderboard(community, preset="draw") == []
    pairs = await store.stats.pairs(community)
    assert [(p.first, p.second, p.games, p.wins) for p in pairs] == [
        (min(ana, carla), max(ana, carla), 3, 2),
        (min(beto, diego), max(beto, diego), 3, 1),
    ]
    record = await store.stats.player(community, ana)
    assert (record.games, record.wins, record.points_for, record.points_against) == (
        3,
        2,
        240,
        180,
    )
    assert record.best_partner == carla and record.best_partner_name == "carla"
    assert (record.current_streak, record.best_streak) == (0, 2)
    assert "partnership" in record.ratings


async def test_forget_me_erases_the_name_and_keeps_the_totals(
    store: Store, room: int, community: int
) -> None:
    users = await people(store, "ana", "beto", "carla", "diego")
    ana = users[0]
    game = await partnership(store, room, community, users, 0, NOW)
    snapshot = {"players": ["ana", "beto", "carla", "diego"]}
    await store.games.save(game, 2, snapshot, [], NOW)
    before = await store.stats.leaderboard(community)
    assert await store.forget(ana) == 1
    user = await store.people.user_by_id(ana)
    assert (user.name, user.platform_id, user.forgotten) == (None, None, True)
    after = await store.stats.leaderboard(community)
    assert [(s.user_id, s.games, s.wins) for s in after] == [
        (s.user_id, s.games, s.wins) for s in before
    ]
    assert {s.user_id: s.name for s in after}[ana] is None
    loaded = await store.games.load(game)
    assert loaded.snapshot["players"] == [FORGOTTEN_NAME, "beto", "carla", "diego"]
    # the same person coming back starts afresh: a new row, nothing linked to the old one
    back = await store.people.user("telegram", "ana", "ana", NOW)
    assert back.id != ana
