"""The table and a hand in words: the console prints these, and the platforms use them
as captions and as text for screen readers. Drawn from views only."""

from __future__ import annotations

from collections.abc import Sequence

from engine.deal import draw_winner
from engine.keys import move_keys
from engine.line import END, HALF, Placement
from engine.moves import MEXICAN, Action, Move
from engine.outcome import CountScore
from engine.tiles import RANK, Tile
from engine.views import View
from lang import tr, trn
from render.words import goal_text


def move_words(lang: str, move: Move, names: Sequence[str]) -> str:
    """A move as players say it: "6-4 on 6-6", "6-4 on Ana's train", "pass"."""
    if move.tile is None:
        return {
            "pass": tr(lang, "pass"),
            "draw": tr(lang, "draw"),
            "end": tr(lang, "end the turn"),
        }.get(move.action.value, move.action.value)
    if move.train is not None:
        if move.train == MEXICAN:
            return tr(lang, "{tile} on the Mexican train", tile=move.tile)
        owner = names[move.train] if move.train < len(names) else str(move.train)
        return tr(lang, "{tile} on {name}'s train", tile=move.tile, name=owner)
    if move.on is None:
        return str(move.tile)
    if move.side is not None:
        side = tr(lang, "half") if move.side.value == "half" else tr(lang, "flank")
        return tr(lang, "{tile} on {on} ({side})", tile=move.tile, on=move.on, side=side)
    return tr(lang, "{tile} on {on}", tile=move.tile, on=move.on)


# A move as the room is told it, with what it scored by the count (divisor games).
Told = tuple[Move, CountScore | None]


def story_lines(lang: str, told: Sequence[Told], names: Sequence[str]) -> list[str]:
    """Every move of ``told`` in words, none left out: one line per turn (a seat's run of
    moves: "Ana plays 10 tiles: 12-6, 6-0 ... on Ana's train.", "Beto draws 3 and
    passes."), and after a play that scored by the count, "Ana +3, count 15."."""
    lines: list[str] = []
    start = 0
    while start < len(told):
        seat = told[start][0].seat
        end = start
        while end < len(told) and told[end][0].seat == seat:
            end += 1
        run = told[start:end]
        name = names[seat] if seat < len(names) else str(seat)
        lines.append(turn_line(lang, name, [m for m, _ in run], names))
        for _move, score in run:
            if score is not None:
                lines.append(score_line(lang, names, score))
        start = end
    return lines


def score_line(lang: str, names: Sequence[str], score: CountScore) -> str:
    """ "Ana +3, count 15."."""
    name = names[score.seat] if score.seat < len(names) else str(score.seat)
    return tr(
        lang, "{name} +{points}, count {count}.", name=name, points=score.points, count=score.count
    )


def turn_line(lang: str, name: str, moves: Sequence[Move], names: Sequence[str]) -> str:
    """One seat's turn in one line, every tile it played named."""
    plays = [m for m in moves if m.action is Action.PLAY]
    draws = sum(1 for m in moves if m.action is Action.DRAW)
    passed = any(m.action is Action.PASS for m in moves)
    if not plays:
        if draws and passed:
            return tr(lang, "{name} draws {n} and passes.", name=name, n=draws)
        if passed:
            return tr(lang, "{name} passes.", name=name)
        if draws == 1:
            return tr(lang, "{name} draws.", name=name)
        if draws:
            return tr(lang, "{name} draws {n}.", name=name, n=draws)
        return tr(lang, "{name} ends the turn.", name=name)
    words = plays_words(lang, plays, names)
    if len(plays) == 1:
        if draws:
            return tr(lang, "{name} draws {n} and plays {move}.", name=name, n=draws, move=words)
        return tr(lang, "{name} plays {move}.", name=name, move=words)
    if draws:
        return tr(
            lang,
            "{name} draws {draws} and plays {n} tiles: {moves}.",
            name=name,
            draws=draws,
            n=len(plays),
            moves=words,
        )
    return tr(lang, "{name} plays {n} tiles: {moves}.", name=name, n=len(plays), moves=words)


def plays_words(lang: str, plays: Sequence[Move], names: Sequence[str]) -> str:
    """Plays in words, those in a row on one train said once: "12-6, 6-0, 0-0 on Ana's
    train, 6-1 on the Mexican train"; on a line each as :func:`move_words` says it."""
    parts: list[str] = []
    start = 0
    while start < len(plays):
        train = plays[start].train
        end = start + 1
        if train is not None:
            while end < len(plays) and plays[end].train == train:
                end += 1
        tiles = ", ".join(str(m.tile) for m in plays[start:end])
        if train is None:
            parts.append(move_words(lang, plays[start], names))
        elif train == MEXICAN:
            parts.append(tr(lang, "{tile} on the Mexican train", tile=tiles))
        else:
            owner = names[train] if train < len(names) else str(train)
            parts.append(tr(lang, "{tile} on {name}'s train", tile=tiles, name=owner))
        start = end
    return ", ".join(parts)


def seat_notes(lang: str, view: View) -> tuple[str, ...]:
    """Per seat, what it did in its last turn of this hand when that was not only to
    play ("passes", "draws 3", "+15"); "" for the seat to move and for nothing."""
    notes = [""] * view.players
    done: set[int] = set()
    history = view.history
    plays = [i for i, m in enumerate(history) if m.action is Action.PLAY]
    last_play = plays[-1] if plays else -1
    index = len(history)
    while index > 0 and len(done) < view.players:
        seat = history[index - 1].seat
        start = index
        while start > 0 and history[start - 1].seat == seat:
            start -= 1
        if seat not in done and 0 <= seat < view.players:
            done.add(seat)
            if seat != view.to_move:
                last = start <= last_play < index
                notes[seat] = turn_note(lang, view, history[start:index], last)
        index = start
    return tuple(notes)


def turn_note(lang: str, view: View, moves: Sequence[Move], last_play: bool) -> str:
    """A turn's note on its seat's panel (``last_play``: the turn holds the hand's last
    play, whose score the count still shows)."""
    draws = sum(1 for m in moves if m.action is Action.DRAW)
    passed = any(m.action is Action.PASS for m in moves)
    parts: list[str] = []
    if draws and passed:
        parts.append(tr(lang, "draws {n}, passes", n=draws))
    elif passed:
        parts.append(tr(lang, "passes"))
    elif draws:
        parts.append(tr(lang, "draws {n}", n=draws))
    score = view.last_score
    if last_play and score is not None and score.seat == moves[0].seat:
        parts.append(f"+{score.points}")
    return " · ".join(parts)


def scored_words(lang: str, view: View, names: Sequence[str]) -> str:
    """What the last play scored by the count: "Ana +3 · count 15"; "" if nothing."""
    score = view.last_score
    if score is None:
        return ""
    name = names[score.seat] if score.seat < len(names) else str(score.seat)
    return tr(
        lang, "{name} +{points} · count {count}", name=name, points=score.points, count=score.count
    )


def opening_draw_words(lang: str, view: View, names: Sequence[str]) -> str:
    """Who drew which tile for the opener, and who opens (RULES.md: the highest in tile
    order): "Opening draw: Ana 6-4, Beto 5-5, Caro 2-1, Dani 3-0. Beto drew the highest
    tile and opens."; when another tile drawn has as many pips, why the higher number
    wins (seed 001: "el 6/2 es más alto que el 5/3"); "" where nothing was drawn."""
    drawn = view.opening_draw
    if not drawn:
        return ""

    def name(seat: int) -> str:
        return names[seat] if seat < len(names) else str(seat)

    draws = ", ".join(f"{name(seat)} {tile}" for seat, tile in enumerate(drawn))
    seat = draw_winner(drawn)
    best = drawn[seat]
    rivals = [t for t in drawn if t != best and t.value == best.value]
    if not rivals:
        return tr(
            lang,
            "Opening draw: {draws}. {name} drew the highest tile and opens.",
            draws=draws,
            name=name(seat),
        )
    return tr(
        lang,
        "Opening draw: {draws}. {tile} and {other} have as many pips; {tile} has the higher"
        " number, so {name} opens.",
        draws=draws,
        tile=best,
        other=max(rivals, key=RANK.__getitem__),
        name=name(seat),
    )


def describe_table(
    view: View, names: Sequence[str], lang: str, clock_seconds: float | None = None
) -> str:
    """The table in words, as its picture shows it (``clock_seconds``: left on the game's
    clock, where the game has one: tournament_pr's 40 minutes)."""
    lines: list[str] = []
    if view.draw_is_news:  # who drew which tile, until every seat has had its turn
        lines.append(opening_draw_words(lang, view, names))
    if view.trains:
        engine = str(view.engine) if view.engine is not None else "-"
        lines.append(tr(lang, "Engine: {engine}", engine=engine))
        for train in view.trains:
            owner = (
                tr(lang, "Mexican train")
                if train.owner is None
                else names[train.owner]
                if train.owner < len(names)
                else str(train.owner)
            )
            tiles = " ".join(train_words(train.tiles, view.engine)) or "·"
            marker = " *" if train.marked and train.owner is not None else ""
            ends = "/".join(str(n) for n in train.ends)
            lines.append(f"  {owner}{marker}: {tiles}  → {ends}")
        for _, double in view.unsatisfied:
            lines.append(tr(lang, "Double {tile} waits for a tile.", tile=double))
    elif view.placements:
        line, arms = line_words(view.placements)
        lines.append(tr(lang, "Table: {tiles}", tiles=line))
        for on, tiles in arms:
            lines.append(tr(lang, "Arm from {tile}: {tiles}", tile=on, tiles=tiles))
        numbers = ", ".join(str(n) for n in sorted(open_ends(view)))
        lines.append(tr(lang, "Open ends: {ends}", ends=numbers))
        if view.count is not None:
            lines.append(tr(lang, "Count: {count}", count=view.count))
    else:
        lines.append(tr(lang, "The table is empty."))
    if view.revealed is not None:  # the hand's end: every hand shown, as on the picture
        lines += revealed_lines(lang, view, names)
    else:
        counts = ", ".join(
            f"{names[s] if s < len(names) else s}: {n}" for s, n in enumerate(view.tile_counts)
        )
        lines.append(tr(lang, "Tiles in hand: {counts}", counts=counts))
    if view.rules.has_boneyard or view.trains:
        lines.append(tr(lang, "Boneyard: {n}", n=view.boneyard))
    if view.to_move is not None:  # whose turn, in words as on the picture
        mover = names[view.to_move] if view.to_move < len(names) else str(view.to_move)
        lines.append(tr(lang, "To play: {name}", name=mover))
    if clock_seconds is not None and view.revealed is None:
        seconds = max(0, round(clock_seconds))
        left = f"{seconds // 60}:{seconds % 60:02d}"
        lines.append(tr(lang, "Game clock: {left} left", left=left))
    goal = goal_text(view.rules, view.hand_number, lang)  # "a 100: pierde quien llega"
    lines.append(goal[:1].upper() + goal[1:])
    return "\n".join(lines)


def revealed_lines(lang: str, view: View, names: Sequence[str]) -> list[str]:
    """Every hand at the hand's end, as the picture shows them: "Tiles left:", then one
    line a seat, "Beto: 6-4 3-1 (14 pips)" (the pips the hand's result counts)."""
    if view.revealed is None:
        return []
    pips = view.result.pips if view.result is not None else ()
    lines = [tr(lang, "Tiles left:")]
    for seat, tiles in enumerate(view.revealed):
        name = names[seat] if seat < len(names) else str(seat)
        count = pips[seat] if seat < len(pips) else sum(t.value for t in tiles)
        shown = " ".join(str(t) for t in tiles) or tr(lang, "none")
        line = trn(lang, "{name}: {tiles} ({n} pip)", "{name}: {tiles} ({n} pips)", count,
                   name=name, tiles=shown, n=count)  # fmt: skip
        lines.append(f"  {line}")
    return lines


def line_words(placements: Sequence[Placement]) -> tuple[str, list[tuple[str, str]]]:
    """The line as it lies, both arms from the opener, each tile turned to match its
    neighbours ("4-1 1-6 6-6 6-3"), and its other arms (a double's flanks and, on a
    later double, the halves: (the double, its tiles outward))."""
    children: dict[int, list[Placement]] = {}
    for p in placements[1:]:
        if p.on is not None:
            children.setdefault(p.on, []).append(p)
    arms: list[tuple[str, str]] = []

    def arm(first: Placement) -> list[str]:
        """The tiles from ``first`` outward, turned; side arms noted on the way."""
        words: list[str] = []
        here: Placement | None = first
        while here is not None:
            words.append(f"{here.number}-{here.tile.other(here.number)}")
            kids = children.get(here.tile, [])
            # the way on: the first tile laid on an end (or a half) of it; the others
            # (a double's flanks, a second half) are arms of their own
            onward = [k for k in kids if k.kind in (END, HALF)][:1] or kids[:1]
            for side in kids:
                if side not in onward:
                    arms.append((str(here.tile), " ".join(arm(side))))
            here = onward[0] if onward else None
        return words

    if not placements:
        return "", arms
    opener = placements[0]
    kids = children.get(opener.tile, [])
    along = [k for k in kids if k.kind in (END, HALF)][:2]  # the opener's two ends
    right = arm(along[0]) if along else []
    left = arm(along[1]) if len(along) > 1 else []
    for side in kids:
        if side not in along:
            arms.append((str(opener.tile), " ".join(arm(side))))
    touches = along[0].number if along else opener.tile.lo
    head = f"{opener.tile.other(touches)}-{touches}"
    turned = [f"{w.split('-')[1]}-{w.split('-')[0]}" for w in reversed(left)]
    return " ".join([*turned, head, *right]), arms


def open_ends(view: View) -> list[int]:
    """Every open end's number, repeats kept ("6, 6"): in divisor games the ends that
    count, a double with both halves free twice (the count is their sum)."""
    if len(view.placements) == 1:  # the opener alone: both its ends are open ("6, 6")
        tile = view.placements[0].tile
        return [tile.hi, tile.lo]
    if not view.rules.divisor:
        return [side.number for side in view.open_sides]
    covered: dict[int, int] = {}  # halves of each double covered by a tile
    for p in view.placements:
        if p.on is not None and p.kind == HALF:
            covered[p.on] = covered.get(p.on, 0) + 1
    ends: list[int] = []
    for side in view.open_sides:
        if not side.counts:
            continue
        halves = 2 - covered.get(side.tile, 0) if side.kind == HALF else 1
        ends += [side.number] * max(1, halves)
    return ends


def train_words(tiles: Sequence[Tile], engine: Tile | None) -> list[str]:
    """A train's tiles from the engine outward, each turned to match the one before."""
    words: list[str] = []
    number = engine.hi if engine is not None else None
    for tile in tiles:
        if number is None or not tile.has(number):
            number = tile.lo
        words.append(f"{number}-{tile.other(number)}")
        number = tile.other(number)
    return words


def describe_hand(view: View, names: Sequence[str], lang: str) -> str:
    tiles = " ".join(str(t) for t in view.hand) or "·"
    lines = [tr(lang, "Your tiles: {tiles}", tiles=tiles)]
    if view.legal_moves:
        lines.append(tr(lang, "You can play:"))
        for key, move in move_keys(view.legal_moves):
            lines.append(f"  {key}) {move_words(lang, move, names)}")
    return "\n".join(lines)
