"""RULES.md "Later hands" (next_opener = choose, partnership's default) through the
service: after a hand won by a team, its partners choose who opens the next one. Each
gets their new hand privately with "I open" (their own tiles only), the first claim
opens, a computer partner judges from its own hand, and with no claim in 20 s the seat
dealt as opener opens, also after a restart. Refusals change nothing."""

from __future__ import annotations

import pytest

import engine.players
from bot.core import texts
from bot.core.model import Board, Button, Command, Effect, Hand, Person, Place, Popup, Say, TurnCall
from bot.core.progress import NEXT_HAND_SECONDS
from bot.core.session import Loaded
from bot.core.showing import command_for, name_of
from lang import tr
from storage.store import Store
from tests.core.driver import Room

PEOPLE = ["Ana", "Beto", "Carla", "Dani"]  # seats 0 to 3: Ana and Carla are partners
LANG = "en"  # the driver's room speaks English
CHOICE = 20  # seconds (RULES.md)


async def table(room: Room) -> Loaded:
    """The room's game as stored."""
    store = room.service.store
    row = await store.games.active_in(await room.room_id())
    assert row is not None
    return room.service.desk.loaded(row, keep=False)


def name_at(loaded: Loaded, seat: int) -> str:
    return loaded.seats[seat].name or ""


async def open_game(room: Room, people: list[str], fill: bool = False) -> None:
    await room.say(people[0], "/new partnership 1000")  # long: hands go on
    for name in people[1:]:
        await room.say(name, "/join")
    await room.say(people[0], "/begin fill" if fill else "/begin")


async def next_deal(room: Room) -> list[Effect]:
    """The people play their first legal move until the hand ends (a choice in the way
    ends by its default opener's tile, or a claim when that one is a computer); then the
    next hand is dealt after its pause. What the deal showed."""
    while True:
        loaded = await table(room)
        game = loaded.game
        assert game is not None and game.outcome is None
        if game.hand is None:
            room.clock.advance(NEXT_HAND_SECONDS)
            return await room.tick()
        seat = game.to_move
        assert seat is not None
        if loaded.seats[seat].human:
            await room.say(name_at(loaded, seat), "/" + command_for(game.legal_moves()[0]))
        else:  # a computer waits for the choice: a choosing person claims
            claimer = next(s for s in game.opener_choices() if loaded.seats[s].human)
            await room.say(name_at(loaded, claimer), "/open")


async def until_choice(room: Room) -> tuple[Loaded, list[Effect]]:
    """Hands are played until the team that won one chooses who opens the next."""
    for _ in range(12):
        dealt = await next_deal(room)
        loaded = await table(room)
        if loaded.notes.choosing:
            return loaded, dealt
    raise AssertionError("no choice of who opens in 12 hands")


def hand_of(effects: list[Effect], name: str) -> Hand:
    found = [e for e in effects if isinstance(e, Hand) and e.person.name == name]
    assert found, f"no hand for {name}"
    return found[-1]


def claim_button(hand: Hand) -> Button | None:
    return next((b for b in hand.buttons if b.command == "open"), None)


def said(effects: list[Effect]) -> list[str]:
    return [e.text for e in effects if isinstance(e, Say) and e.private is None]


def popups(effects: list[Effect]) -> list[str]:
    return [e.text for e in effects if isinstance(e, Popup)]


async def stored(room: Room) -> tuple:
    """What a refused command must leave as it was: the game's row and the timers."""
    loaded = await table(room)
    timers = await room.service.store.timers.pending(loaded.row.room_id)
    return loaded.row.version, loaded.row.snapshot, sorted((t.kind, t.due_at) for t in timers)


async def test_the_winning_partners_choose_privately_and_the_first_claim_opens(
    store: Store,
) -> None:
    room = await Room.open(store)
    await open_game(room, PEOPLE)
    loaded, dealt = await until_choice(room)
    game = loaded.game
    assert game is not None
    choosers = game.opener_choices()
    default = game.to_move
    assert len(choosers) == 2 and default in choosers
    other = next(s for s in choosers if s != default)
    team = " / ".join(name_at(loaded, s) for s in choosers)
    # each partner: their own hand, with "I open" first; the others: no button
    for seat, name in enumerate(PEOPLE):
        hand = hand_of(dealt, name)
        assert hand.view.seat == seat and len(hand.view.hand) == 7
        if seat in choosers:
            assert hand.buttons[0].command == "open"
            assert hand.buttons[0].label == tr(LANG, "I open")
            assert "20 s" in hand.text
        else:
            assert claim_button(hand) is None
    # only the default opener may play a tile meanwhile
    assert hand_of(dealt, name_at(loaded, default)).view.legal_moves
    assert not hand_of(dealt, name_at(loaded, other)).view.legal_moves
    # the room's board says the team is choosing, with the time
    board = [e for e in dealt if isinstance(e, Board)][-1]
    assert board.table.notice == tr(
        LANG, "Team {team} chooses who opens ({seconds} s)", team=team, seconds=CHOICE
    )
    # both partners are called by name; nobody is told "your turn"
    calls = [e for e in dealt if isinstance(e, TurnCall)]
    assert len(calls) == 1 and {p.name for p in calls[0].mention} == {
        name_at(loaded, s) for s in choosers
    }
    # an opponent may not claim: a clear refusal, nothing changed
    opponent = name_at(loaded, (default + 1) % 4)
    before = await stored(room)
    answer = await room.say(opponent, "/open")
    assert popups(answer) == [tr(LANG, "Only team {team} chooses who opens this hand.", team=team)]
    assert await stored(room) == before
    # asking for one's hand meanwhile gives the button too; a partner who tries to play
    # before it is their turn is told to claim first
    asked = await room.say(name_at(loaded, other), "/hand")
    assert claim_button(hand_of(asked, name_at(loaded, other))) is not None
    tile = str(hand_of(dealt, name_at(loaded, other)).view.hand[0])
    before = await stored(room)
    answer = await room.say(name_at(loaded, other), f"/play {tile}")
    assert popups(answer) == [
        tr(LANG, "Your team is choosing who opens: press I open (or /open) to open this hand.")
    ]
    assert await stored(room) == before
    # the partner not dealt the opening claims it: they open
    button = claim_button(hand_of(dealt, name_at(loaded, other)))
    assert button is not None
    answer = await room.press(name_at(loaded, other), button)
    assert tr(LANG, "{name} opens.", name=name_at(loaded, other)) in said(answer)
    after = await table(room)
    assert after.game is not None and after.game.to_move == other
    assert hand_of(answer, name_at(after, other)).view.legal_moves
    assert after.notes.choosing is None
    kinds = {t.kind for t in await store.timers.pending(after.row.room_id)}
    assert "turn" in kinds and "opening" not in kinds
    # the partner's hand again, without the button
    assert claim_button(hand_of(answer, name_at(loaded, default))) is None
    # the other partner's press comes too late: said so, nothing changed
    late = claim_button(hand_of(dealt, name_at(loaded, default)))
    assert late is not None
    before = await stored(room)
    answer = await room.press(name_at(loaded, default), late)
    assert popups(answer) == [tr(LANG, "Who opens this hand is already decided; nothing changed.")]
    assert await stored(room) == before
    # once the opener played, the old button belongs to an earlier moment of the game
    await room.say(name_at(after, other), "/" + command_for(after.game.legal_moves()[0]))
    before = await stored(room)
    answer = await room.press(name_at(loaded, default), late)
    assert popups(answer) == [tr(LANG, texts.STALE)]
    assert await stored(room) == before


async def test_forged_claims_from_elsewhere_change_nothing(store: Store) -> None:
    room = await Room.open(store)
    await open_game(room, PEOPLE)
    loaded, _ = await until_choice(room)
    game = loaded.game
    assert game is not None
    chooser = name_at(loaded, game.opener_choices()[0])
    opponent = name_at(loaded, (game.opener_choices()[0] + 1) % 4)
    game_id = loaded.row.id
    before = await stored(room)

    async def forged(place: Place, name: str, private: bool, game_number: int) -> list[Effect]:
        person = Person(name.lower(), name, None)
        command = Command(place, person, "open", (), game.ply, game_number, private=private)
        return await room.service.handle(command)

    other_room = Place("console", "local", "otra mesa", "Casa", "en")
    answers = [
        # from a private chat: someone with no seat, and an opponent
        await forged(room.place, "Eva", True, game_id),
        await forged(room.place, opponent, True, game_id),
        # naming another game, and from another room (no game there)
        await forged(room.place, chooser, True, game_id + 1),
        await forged(other_room, chooser, False, game_id),
    ]
    for answer in answers:
        assert answer and all(isinstance(e, Popup) for e in answer), answer
    assert await stored(room) == before
    assert (await table(room)).notes.choosing
    # the real claim, from the chooser's private chat, still opens
    answer = await forged(room.place, chooser, True, game_id)
    assert tr(LANG, "{name} opens.", name=chooser) in said(answer)


async def test_the_default_opener_may_simply_play_a_tile(store: Store) -> None:
    room = await Room.open(store)
    await open_game(room, PEOPLE)
    loaded, _ = await until_choice(room)
    game = loaded.game
    assert game is not None and game.to_move is not None
    default, ply = game.to_move, game.ply
    await room.say(name_at(loaded, default), "/" + command_for(game.legal_moves()[0]))
    after = await table(room)
    assert after.game is not None and after.game.ply > ply
    assert after.notes.choosing is None
    kinds = {t.kind for t in await store.timers.pending(after.row.room_id)}
    assert "opening" not in kinds


async def test_with_no_claim_in_20_seconds_the_dealt_opener_opens(store: Store) -> None:
    room = await Room.open(store)
    await open_game(room, PEOPLE)
    loaded, _ = await until_choice(room)
    game = loaded.game
    assert game is not None and game.to_move is not None
    default = game.to_move
    room.clock.advance(CHOICE - 1)
    assert await room.tick() == []  # still choosing
    assert (await table(room)).notes.choosing
    room.clock.advance(1)
    fired = await room.tick()
    name = name_at(loaded, default)
    assert tr(LANG, "Nobody claimed the opening in time: {name} opens.", name=name) in said(fired)
    after = await table(room)
    assert after.game is not None and after.game.to_move == default
    assert after.notes.choosing is None
    assert [e for e in fired if isinstance(e, TurnCall) and e.mention[0].name == name]


async def test_a_restart_during_the_choice_still_ends_it(store: Store) -> None:
    room = await Room.open(store)
    await open_game(room, PEOPLE)
    loaded, _ = await until_choice(room)
    game = loaded.game
    assert game is not None and game.to_move is not None
    default, choosers = game.to_move, game.opener_choices()
    # a new process over the same database: the board and the partners' buttons again
    again = await Room.open(store, room.clock)
    shown = [e for _, effects in await again.service.resume("console") for e in effects]
    boards = [e for e in shown if isinstance(e, Board)]
    assert boards and boards[0].table.notice
    for seat in choosers:
        hand = hand_of(shown, name_at(loaded, seat))
        assert claim_button(hand) is not None and hand.view.seat == seat
    again.clock.advance(CHOICE)
    fired = await again.tick()
    name = name_at(loaded, default)
    assert tr(LANG, "Nobody claimed the opening in time: {name} opens.", name=name) in said(fired)
    after = await table(again)
    assert after.notes.choosing is None and after.game is not None
    assert after.game.to_move == default


async def mixed_team_choice(
    room: Room, monkeypatch: pytest.MonkeyPatch, claims: bool
) -> tuple[Loaded, list[Effect]]:
    """Ana and Beto play against each other, each with a computer partner, so the team
    that wins a hand has one of each; every computer's judgement of its hand is
    ``claims``. The deal of the first hand with a choice, and the game then."""
    judged: list[bool] = []

    def judge(rules: object, tiles: object) -> bool:
        judged.append(claims)
        return claims

    monkeypatch.setattr(engine.players, "claims_opening", judge)
    await open_game(room, ["Ana", "Beto"], fill=True)
    for _ in range(12):
        dealt = await next_deal(room)
        if judged:
            return await table(room), dealt
    raise AssertionError("no later hand with a choice in 12 hands")


async def test_a_computer_partner_that_claims_opens_at_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    room = await Room.open(store)
    loaded, dealt = await mixed_team_choice(room, monkeypatch, claims=True)
    game = loaded.game
    assert game is not None
    opener = game.logs[-1].opener
    assert not loaded.seats[opener].human
    assert tr(LANG, "{name} opens.", name=name_of(loaded.seats[opener], opener, LANG)) in said(
        dealt
    )
    assert loaded.notes.choosing is None
    assert not [h for h in dealt if isinstance(h, Hand) and claim_button(h) is not None]
    assert game.logs[-1].state.moves[0].seat == opener  # it opened at once


@pytest.mark.parametrize("end", ["claim", "time"])
async def test_a_computer_partner_that_does_not_claim_waits_for_its_partner(
    store: Store, monkeypatch: pytest.MonkeyPatch, end: str
) -> None:
    """... and does not play meanwhile, even when the opening was dealt to it; once the
    choice is over, a computer that opens plays at once."""
    room = await Room.open(store)
    loaded, dealt = await mixed_team_choice(room, monkeypatch, claims=False)
    game = loaded.game
    assert game is not None and loaded.notes.choosing
    choosers = game.opener_choices()
    human = next(s for s in choosers if loaded.seats[s].human)
    assert claim_button(hand_of(dealt, name_at(loaded, human))) is not None
    default = game.to_move
    assert default is not None
    room.clock.advance(CHOICE // 2)
    await room.tick()
    waiting = await table(room)
    assert waiting.game is not None and not waiting.game.logs[-1].state.moves
    if end == "claim":
        await room.say(name_at(loaded, human), "/open")
        opener = human
    else:
        room.clock.advance(CHOICE - CHOICE // 2)
        await room.tick()
        opener = default
    after = await table(room)
    assert after.game is not None and after.notes.choosing is None
    moves = after.game.logs[-1].state.moves
    assert after.game.logs[-1].opener == opener
    if after.seats[opener].human:
        assert after.game.to_move == opener and not moves
    else:  # the computer opened at once
        assert moves and moves[0].seat == opener


async def test_two_computer_partners_do_not_wait(store: Store) -> None:
    """Ana with three computers: when the computers' team wins a hand, the next one goes
    on at once (nobody to wait for)."""
    room = await Room.open(store)
    await open_game(room, ["Ana"], fill=True)
    for _ in range(12):
        await next_deal(room)
        loaded = await table(room)
        game = loaded.game
        assert game is not None
        last = game.logs[-2].result  # the hand just ended
        if last is not None and last.winner == 1:  # seats 1 and 3: both computers
            assert loaded.notes.choosing is None
            kinds = {t.kind for t in await store.timers.pending(loaded.row.room_id)}
            assert "opening" not in kinds
            return
    raise AssertionError("the computers' team won no hand in 12")
