"""The room's story is whole (BOT.md, issue 21): every move since the room last saw the
table is told, a many-tile turn in one line, the computers' moves and the person's own;
scores by the count are announced; a hand's end board stays as its own message; the text
board lies along the line, its open ends with repeats, trains turned to match."""

from __future__ import annotations

import re
from collections import Counter
from itertools import pairwise

from bot.core.describe import (
    describe_table,
    line_words,
    open_ends,
    seat_notes,
    story_lines,
    train_words,
)
from bot.core.model import Board, Say
from bot.doors.delivery import Delivery
from engine.game import Game
from engine.moves import Action
from engine.players import make_player
from engine.rules import Rules
from engine.views import View, view_of
from storage.store import Store
from tests.core.driver import Room, boards, hands_for
from tests.doors.test_delivery import Fake, FakePosts, deliver, no_drawing  # noqa: F401 (autouse)

TILE = re.compile(r"\b\d+-\d+\b")


async def press_on(room: Room, name: str, presses: int, hand_number: int = 1) -> None:
    """``name`` presses the first move offered, ``presses`` times, within hand one."""
    for _ in range(presses):
        latest = boards(room.log)[-1]
        if latest.view.hand_number != hand_number or latest.view.result is not None:
            return
        offered = [
            h
            for h in hands_for(room.log, name)
            if h.buttons and h.move_number == latest.move_number
        ]
        if not offered:
            return
        await room.press(name, offered[-1].buttons[0])


def told(room: Room, hand_number: int = 1) -> list[Board]:
    return [b for b in boards(room.log) if b.view.hand_number == hand_number]


async def test_a_mexican_train_first_round_is_told_whole(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new mexican_train")
    for strength in ("normal", "hard", "easy"):
        await room.say("Ana", f"/add_ai {strength}")
    await room.say("Ana", "/begin")
    await press_on(room, "Ana", 12)
    shown = told(room)
    history = shown[-1].view.history
    plays = [m for m in history if m.action is Action.PLAY]
    assert len(plays) > 6  # more than the six lines the room used to keep
    # every tile played is named in the story, exactly once (trains only: one per play)
    named = Counter(t for b in shown for line in b.story for t in TILE.findall(line))
    assert named == Counter(str(m.tile) for m in plays)
    # a turn of many tiles is one line, saying how many
    long_turns = [line for b in shown for line in b.story if re.search(r"plays \d+ tiles: ", line)]
    assert long_turns
    for line in long_turns:
        n = int(re.search(r"plays (\d+) tiles", line).group(1))  # type: ignore[union-attr]
        assert len(TILE.findall(line)) == n, line
    # the person's own moves and the computers' are told, each by its seat's name
    text = "\n".join(b.text for b in shown)
    assert "Ana " in text
    seats = {m.seat for m in history}
    names = {1: "Computer 2 (normal)", 2: "Computer 3 (hard)", 3: "Computer 4 (easy)"}
    for seat in seats - {0}:
        assert names[seat] in text


async def test_the_person_and_the_hard_computer_are_told(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw")
    await room.say("Ana", "/add_ai hard")
    await room.say("Ana", "/begin")
    for _ in range(4):
        before = len(room.log)
        await press_on(room, "Ana", 1)
        after = boards(room.log[before:])
        if not after:
            break
        last = after[-1].view.history
        mine = [m for m in last if m.seat == 0]
        assert mine and after[0].text.startswith("Ana "), after[0].text
        if after[-1].view.result is None:
            assert "Computer 2 (hard) " in after[0].text
    # every move of the hand so far was told: each line names its seat, each pass and
    # draw counted
    shown = told(room)
    lines = [line for b in shown for line in b.story]
    turns, start = 0, 0
    for b in shown:  # each board tells the moves since the one before: a line a turn
        made = b.view.history[start:]
        turns += sum(1 for i, m in enumerate(made) if i == 0 or made[i - 1].seat != m.seat)
        start = len(b.view.history)
    assert len(lines) == turns
    assert start > 6


async def test_scores_by_the_count_are_announced(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new all_fives")
    await room.say("Ana", "/add_ai normal")
    await room.say("Ana", "/begin")
    await press_on(room, "Ana", 40)
    shown = told(room)
    names = ("Ana", "Computer 2 (normal)")
    announced = Counter[str]()
    for b in shown:
        for line in b.story:
            found = re.fullmatch(r"(.+) \+(\d+), count (\d+)\.", line)
            if found:
                announced[found.group(1)] += int(found.group(2))
                assert int(found.group(3)) % 5 == 0
    last = shown[-1].view
    assert sum(last.scored) > 0, "no play scored in this deal: pick another"
    assert announced == Counter({names[s]: p for s, p in enumerate(last.scored) if p})
    # the picture says it too: the last score, and the seats' notes
    scoring = [b for b in shown if b.view.last_score is not None]
    for b in scoring:
        score = b.view.last_score
        assert score is not None
        assert b.table.scored == f"{names[score.seat]} +{score.points} · count {score.count}"
    assert all(len(b.table.notes) == 2 for b in shown)
    assert all(b.table.names == ("Ana", "Computer 2") for b in shown)
    assert all(b.table.tags == ("", "normal") for b in shown)


def test_a_score_is_said_in_the_rooms_language() -> None:
    game = Game(Rules.from_preset("all_fives"), 2)
    game.start_hand(seed=3)
    for i in range(200):
        if game.hand is None:
            break
        view = view_of(game, game.to_move)
        move = game.forced_move() or make_player("easy", seed=i).choose(view)
        game.apply(move)
        score = view_of(game).last_score
        if score is not None and score.seat == move.seat and move.is_play:
            es = story_lines("es", [(move, score)], ["Ana", "Beto"])
            pt = story_lines("pt", [(move, score)], ["Ana", "Beto"])
            name = ["Ana", "Beto"][move.seat]
            assert es[-1] == f"{name} +{score.points}, suma {score.count}."
            assert pt[-1] == f"{name} +{score.points}, soma {score.count}."
            return
    raise AssertionError("nothing scored")


def test_passes_and_draws_are_noted_on_the_seats() -> None:
    found = set()
    for seed in range(5):
        game = Game(Rules.from_preset("draw"), 2)
        game.start_hand(seed=seed)
        for i in range(200):
            if game.hand is None:
                break
            view = view_of(game, game.to_move)
            move = game.forced_move() or make_player("easy", seed=i).choose(view)
            game.apply(move)
            room = view_of(game)
            if room.to_move == move.seat:
                continue
            run = []
            for m in reversed(room.history):
                if m.seat != move.seat:
                    break
                run.append(m.action)
            notes = seat_notes("es", room)
            draws = run.count(Action.DRAW)
            if draws:
                assert notes[move.seat].startswith(f"roba {draws}"), (notes, run)
                found.add("draws")
            if Action.PASS in run:
                assert notes[move.seat].endswith("pasa"), (notes, run)
                found.add("passes")
            if not draws and Action.PASS not in run:
                assert notes[move.seat] == ""
            if room.to_move is not None:
                assert notes[room.to_move] == ""  # the seat to move: its frame says it
    assert found == {"draws", "passes"}


# ----- a hand's end stays as its own picture -------------------------------------------


def board(move: int, text: str, game: int = 1, **extra: object) -> Board:
    return Board(game, move, None, None, text, **extra)  # type: ignore[arg-type]


async def test_a_hand_end_board_is_never_skipped_and_the_next_hand_is_a_new_post() -> None:
    fake, posts = Fake(), FakePosts()
    delivery = Delivery(fake, posts)
    await deliver(
        delivery,
        board(1, "Ana plays 6-6.", story=("Ana plays 6-6.",)),
        board(2, "Beto plays 6-4 on 6-6.", story=("Beto plays 6-4 on 6-6.",), hand_end=True),
        Say("Domino! Beto wins the hand."),
        board(3, "Ana plays 5-5.", story=("Ana plays 5-5.",)),
        board(4, "Beto passes.\nAna, your turn", story=("Beto passes.",)),
    )
    # the first board's move goes with the hand's end; the next hand's board is new,
    # telling every move since the room last saw the table; nothing deleted
    assert fake.log == [
        ("post", "Ana plays 6-6.\nBeto plays 6-4 on 6-6.", "101"),
        ("room", "Domino! Beto wins the hand."),
        ("post", "Ana plays 5-5.\nBeto passes.\nAna, your turn", "103"),
    ]
    # a restarted process too keeps the hand's end as it is
    posts2 = FakePosts()
    first = Fake()
    await deliver(Delivery(first, posts2), board(7, "end", hand_end=True))
    again = Fake()
    await deliver(Delivery(again, posts2), board(8, "next"))
    assert again.log == [("post", "next", "101")]
    await deliver(Delivery(again, posts2), board(9, "on"))
    assert again.log[-1] == ("edit", "on", "101")  # within a hand, edited in place


async def test_the_next_hands_board_is_a_new_message_through_the_service(store: Store) -> None:
    room = await Room.open(store)
    await room.say("Ana", "/new draw 100")
    await room.say("Ana", "/add_ai normal")
    await room.say("Ana", "/begin")
    await press_on(room, "Ana", 60)
    ends = [b for b in boards(room.log) if b.hand_end]
    assert ends and ends[0].view.revealed is not None
    assert not any(b.hand_end for b in boards(room.log) if b.view.result is None)


# ----- the text board --------------------------------------------------------------------


def played(preset: str, players: int, seed: int, moves: int) -> View:
    game = Game(Rules.from_preset(preset), players)
    game.start_hand(seed=seed)
    for i in range(moves):
        if game.hand is None:
            break
        move = game.forced_move() or make_player("easy", seed=i).choose(view_of(game, game.to_move))
        game.apply(move)
    return view_of(game)


def pairs(words: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in (w.split("-") for w in words.split())]


def test_the_text_board_lies_along_the_line() -> None:
    for preset, players in (("draw", 2), ("block", 4), ("all_fives", 3), ("fido12", 4)):
        for seed in range(6):
            for moves in (1, 2, 5, 14, 40):
                view = played(preset, players, seed, moves)
                line, arms = line_words(view.placements)
                tiles = pairs(line)
                # neighbours show the same number where they touch
                assert all(a[1] == b[0] for a, b in pairwise(tiles)), line
                every = tiles + [t for _, words in arms for t in pairs(words)]
                assert sorted(tuple(sorted(t)) for t in every) == sorted(
                    (p.tile.lo, p.tile.hi) for p in view.placements
                )
                opener = view.placements[0].tile
                assert (opener.lo, opener.hi) in {tuple(sorted(t)) for t in tiles}
                ends = open_ends(view)
                if view.count is not None:
                    assert sum(ends) == view.count
                elif not arms and len(tiles) > 1:  # a plain line: its two ends
                    assert sorted(ends) == sorted([tiles[0][0], tiles[-1][1]])


def test_the_text_board_in_the_order_of_the_line_not_of_play() -> None:
    view = played("draw", 2, 1, 12)
    words = describe_table(view, ["Ana", "Beto"], "en").splitlines()[0]
    assert words.startswith("Table: ")
    order = [str(p.tile) for p in view.placements]
    along = [f"{max(a, b)}-{min(a, b)}" for a, b in pairs(words.removeprefix("Table: "))]
    assert sorted(along) == sorted(order) and along != order


def test_open_ends_keep_their_repeats() -> None:
    view = played("all_fives", 2, 0, 1)  # the opening double alone: both halves count
    text = describe_table(view, ["Ana", "Beto"], "en")
    double = view.placements[0].tile
    assert f"Open ends: {double.hi}, {double.hi}" in text


def test_mexican_trains_are_turned_to_match() -> None:
    view = played("mexican_train", 4, 5, 40)
    assert view.engine is not None
    for train in view.trains:
        words = train_words(train.tiles, view.engine)
        tiles = pairs(" ".join(words))
        if tiles:
            assert tiles[0][0] == view.engine.hi
            assert all(a[1] == b[0] for a, b in pairwise(tiles))


def test_a_lone_opening_double_shows_both_ends_in_a_line_game_too() -> None:
    """Issue 21: "open ends" said "6" for the ends 6 and 6."""
    # (partnership opens with the 6-6: the ends 6 and 6; the others with any tile)
    for preset, players in (("draw", 3), ("partnership", 4), ("block", 2)):
        view = played(preset, players, 0, 1)
        opener = view.placements[0].tile
        text = describe_table(view, ["Ana", "Beto", "Carla", "Dani"][:players], "en")
        line = next(x for x in text.splitlines() if x.startswith("Open ends: "))
        ends = sorted(int(n) for n in line.removeprefix("Open ends: ").split(", "))
        assert ends == sorted([opener.hi, opener.lo]), (preset, text)
