"""Which effects carry a web page's key (issue 34, "In the chat"): the board ("Watch"),
the game's summary ("Replay"), a tournament's standings, tables and champions
("Standings"); only when the service makes links for the command's platform, never on
an effect for another community's room, none while the community's pages are off; and
a key is asked of storage once a game, not once a board."""

from __future__ import annotations

import random
from dataclasses import fields

from bot.core.links import PageLinks, put_keys
from bot.core.model import Board, Effect, Elsewhere, Link, OpenTables, Picture, Place, Say
from bot.core.service import GameService
from storage.store import Store
from tests.core.driver import Clock, Room, boards, seeded
from tests.core.test_pages import step
from tests.core.tournament.test_tournament_flow import Club

OTHER = Place("console", "elsewhere", "sala", "Otra", "en")


def links_in(effects: list[Effect]) -> list[Link]:
    """Every link on ``effects`` (in an Elsewhere's too)."""
    found: list[Link] = []
    for effect in effects:
        if isinstance(effect, Elsewhere):
            found += links_in(list(effect.effects))
        link = getattr(effect, "link", None)
        if link is not None:
            found.append(link)
    return found


async def linked_room(store: Store, platforms: tuple[str, ...] = ("console",)) -> Room:
    clock = Clock()
    return Room(GameService(store, clock=clock, seeds=seeded(), links=platforms), clock)


async def play_out(room: Room, preset: str = "draw 20") -> list[Effect]:
    """Ana against a computer, to the game's end; every effect of it."""
    room.log.clear()
    await room.say("Ana", f"/new {preset}")
    await room.say("Ana", "/add_ai normal")
    await room.say("Ana", "/begin")
    seen: list[Effect] = list(room.log)
    rng = random.Random(3)
    for _ in range(400):
        seen += room.log
        if not await step(room, rng):
            break
        if any(isinstance(e, Board) and e.final for e in room.log):
            seen += room.log
            break
    return seen


async def test_the_board_and_the_summary_carry_the_games_page(store: Store) -> None:
    room = await linked_room(store)
    seen = await play_out(room)
    shown = boards(seen)
    assert shown and all(b.link is not None and b.link.kind == "game" for b in shown)
    key = await room.service.pages.key("game", shown[0].game_id)
    assert key and all(b.link is not None and b.link.key == key for b in shown)
    playing = [b for b in shown if not b.final]
    assert playing and all(b.link is not None and b.link.label == "Watch" for b in playing)
    final = [b for b in shown if b.final]
    assert final and all(b.link is not None and b.link.label == "Replay" for b in final)
    summaries = [e for e in seen if type(e) is Say and e.link is not None]
    assert [s.link.label for s in summaries if s.link] == ["Replay"]
    assert summaries[0].link is not None and summaries[0].link.key == key
    # the key opens the game's page (the JSON a door's link leads to)
    page = await room.service.pages.game(key)
    assert page is not None and page["kind"] == "game"
    # nothing else carries a link, nothing carries one without a key
    assert all(link.key for link in links_in(seen))
    assert len(links_in(seen)) == len(shown) + 1


async def test_a_key_is_asked_once_a_game_not_once_a_board(store: Store) -> None:
    room = await linked_room(store)
    asked = 0
    key_for = store.web.key_for

    async def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        nonlocal asked
        asked += 1
        return await key_for(*args, **kwargs)

    store.web.key_for = counted  # type: ignore[method-assign]
    seen = await play_out(room)
    assert len(boards(seen)) > 3
    assert asked == 1


async def test_no_link_without_a_door_that_shows_them(store: Store) -> None:
    for platforms in ((), ("telegram", "discord")):  # the console's room: not among them
        room = await linked_room(store, platforms)
        seen = await play_out(room)
        assert boards(seen) and links_in(seen) == []
    assert await store.web.keys_of("game", [1, 2]) == {}  # and no key was made


async def test_no_link_while_the_communitys_pages_are_off(store: Store) -> None:
    room = await linked_room(store)
    await room.say("Ana", "/new draw 20")
    await room.say("Ana", "/add_ai normal")
    begun = await room.say("Ana", "/begin")
    first = boards(begun)[-1]
    assert first.link is not None and first.link.key
    await room.say("Ana", "/settings web off", admin=True)
    shown = boards(await room.say("Ana", "/board"))
    assert shown and shown[-1].link is None
    await room.say("Ana", "/settings web on", admin=True)
    shown = boards(await room.say("Ana", "/board"))
    assert shown[-1].link is not None and shown[-1].link.key == first.link.key
    await room.say("Ana", "/settings web new", admin=True)
    shown = boards(await room.say("Ana", "/board"))
    renewed = shown[-1].link
    assert renewed is not None and renewed.key and renewed.key != first.link.key
    assert await room.service.pages.game(first.link.key) is None  # the old one: 404


async def test_no_key_on_an_effect_for_another_community(store: Store) -> None:
    room = await linked_room(store)
    await room.say("Ana", "/new draw 20")
    await room.say("Ana", "/add_ai normal")
    board = boards(await room.say("Ana", "/begin"))[-1]
    assert board.link is not None
    here = (await room.service.desk.room(room.place, room.clock()))[0].id
    there = (await room.service.desk.room(OTHER, room.clock()))[0].id
    asked = Link("Watch", "game", board.game_id)
    message = Say("a word", link=asked)
    links = PageLinks(store)
    now = room.clock()
    # told in the game's community: the key; in another community's room: none
    (same,) = await put_keys(links, room.place, here, [message], now)
    assert isinstance(same, Say) and same.link is not None and same.link.key
    away = Elsewhere(OTHER, (message,))
    (sent,) = await put_keys(links, room.place, here, [away], now)
    assert isinstance(sent, Elsewhere) and links_in([sent]) == []
    # a command of the other community naming this game's page gets no key either
    (theirs,) = await put_keys(PageLinks(store), OTHER, there, [message], now)
    assert isinstance(theirs, Say) and theirs.link is None
    (theirs,) = await put_keys(links, OTHER, there, [message], now)  # (remembered: still none)
    assert isinstance(theirs, Say) and theirs.link is None


async def test_a_tournaments_standings_tables_and_champions_carry_its_page(
    store: Store,
) -> None:
    clock = Clock()
    service = GameService(store, clock=clock, seeds=seeded(7), links=("console",))
    club = Club(service, clock, store)
    await club.say("Org", "/tournament new Copa preset=draw rounds=1 target=20 checkin=off",
                   admin=True)  # fmt: skip
    for n in (1, 2):
        await club.say("Org", f"/tournament register Bot {n} computer", admin=True)
    await club.say("Org", "/tournament close", admin=True)
    await club.say("Org", "/tournament start", admin=True)
    for _ in range(100):
        if (await club.event()).row.status == "finished":
            break
        await club.tick(60)
    event = await club.event()
    assert event.row.status == "finished"
    hall = club.rooms["hall"]
    key = await service.pages.key("tournament", event.id)
    assert key
    tables = [e for e in hall if isinstance(e, OpenTables)]
    standings = [e for e in hall if isinstance(e, Picture)]
    champions = [e for e in hall if isinstance(e, Say) and e.text.startswith("Champions")]
    for effect in (*tables, *standings, *champions):
        assert effect.link == Link("Standings", "tournament", event.id, key), effect
    assert tables and standings and champions
    assert await service.pages.tournament(key) is not None


def test_every_effect_with_a_link_defaults_to_none() -> None:
    """A link is asked for where a message is made; no effect has one unless asked."""
    for kind in (Say, Board, Picture, OpenTables):
        link = next(f for f in fields(kind) if f.name == "link")
        assert link.default is None
