"""A typed move the engine cannot take is refused in the player's words, one reason each
(engine.resolve's errors, bot/core/handlers/play.py): nothing is saved, and only the person
who typed reads it. A tile that fits in several places is answered with those places as
buttons."""

from __future__ import annotations

from bot.core.model import Hand, Popup, Reply
from engine.moves import Action
from engine.tiles import set_tiles
from storage.store import Store
from tests.core.driver import Room

PEOPLE = ("Ana", "Beto")


async def refused(room: Room, store: Store, who: str, text: str) -> list:
    """``who`` types ``text``: refused privately, nothing saved; the effects."""
    before = (await store.games.load(1)).version
    effects = await room.say(who, text)
    assert effects and isinstance(effects[-1], Popup), (text, effects)
    assert all(isinstance(e, Reply | Popup) and e.private.name == who for e in effects)
    assert (await store.games.load(1)).version == before, text
    return effects


async def test_each_refusal_of_a_typed_move(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new all_fives 500")
    await room.say("Beto", "/join")
    await room.say("Ana", "/begin")
    seen: set[str] = set()
    for _ in range(200):
        hand = [e for e in room.log if isinstance(e, Hand) and e.buttons][-1]
        mover, view = hand.person.name, hand.view
        other = next(p for p in PEOPLE if p != mover)
        legal = view.legal_moves
        tiles = [m.tile for m in legal if m.tile is not None]
        said = await refused(room, store, other, "/play 6-6")
        assert said[-1].text == f"It is {mover}'s turn, not yours."
        assert (await refused(room, store, mover, "/play"))[-1].text.startswith("Which tile?")
        said = await refused(room, store, mover, "/play banana")
        assert said[-1].text.startswith("'banana' is not a move.")
        not_mine = next(t for t in set_tiles(view.rules.set) if t not in view.hand)
        said = await refused(room, store, mover, f"/play {not_mine}")
        assert said[-1].text == f"You do not have {not_mine}."
        for action, words in (("draw", "You cannot draw now."), ("pass", "You cannot pass")):
            if all(m.action is not Action(action) for m in legal):
                assert (await refused(room, store, mover, f"/{action}"))[-1].text.startswith(words)
                said = await refused(room, store, mover, f"/play {action}")
                assert said[-1].text == f"You cannot do '{action}' now."
        said = await refused(room, store, mover, "/end")
        assert said[-1].text == "There is no turn to end now."
        stuck = [t for t in view.hand if t not in tiles]
        if stuck and tiles:
            said = await refused(room, store, mover, f"/play {stuck[0]}")
            assert said[-1].text.startswith(f"{stuck[0]} does not go there. You can play: ")
            seen.add("does not fit")
        doubled = [t for t in tiles if tiles.count(t) > 1]
        if doubled:
            tile = doubled[0]
            said = await refused(room, store, mover, f"/play {tile}")
            where, choose = said
            assert isinstance(where, Reply) and where.text == f"Where does {tile} go?"
            places = [f"play {m.action_text()}" for m in legal if m.tile == tile]
            assert [b.command for b in where.buttons] == places
            assert all(b.move_number == hand.move_number for b in where.buttons)
            assert choose.text == "Choose one of the places above."
            await room.press(mover, where.buttons[-1])  # a place chosen is played
            seen.add("ambiguous")
        else:
            await room.press(mover, hand.buttons[0])
        if seen == {"does not fit", "ambiguous"}:
            break
        latest = await store.games.load(1)
        if latest.status != "playing":
            break
        if not [e for e in room.log[-8:] if isinstance(e, Hand) and e.buttons]:
            room.clock.advance(10)
            await room.tick()  # the next hand
    assert seen == {"does not fit", "ambiguous"}


async def test_digits_of_other_kinds_are_no_seat_or_number(store: Store) -> None:
    """ "²" passes str.isdigit but is no number: a seat, a game number or a target written
    with it is refused in words, nothing changes (it raised inside the handler)."""
    room = await Room.open(store)
    await room.say("Ana", "/new")
    before = (await store.games.load(1)).version
    for text in ("/join ²", "/kick ²", "/export ²", "/new ²"):
        effects = await room.say("Beto", text)
        assert effects and isinstance(effects[-1], Popup | Reply), (text, effects)
        assert "Nothing was changed" not in effects[-1].text, (text, effects[-1].text)
    assert (await store.games.load(1)).version == before
