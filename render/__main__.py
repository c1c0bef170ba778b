"""``python -m render RECORD.json --out board.png [--move K] [--seat S]``: the table of a
game record after move K (default: the end), as the room sees it, or as seat S sees it
with their hand. ``--geometry FILE.json`` writes what that picture draws, where (tiles,
links, texts, badges and the count, in its pixels; docs/pictures.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.errors import DominoError
from engine.record import load
from engine.views import view_of
from render.board import Table, draw_board
from render.measure import Measure
from render.theme import THEMES
from render.words import LANGUAGES


def until_move(data: Any, moves: int) -> Any:
    """The record cut after its first ``moves`` moves (counted over all its hands)."""
    if not isinstance(data, dict) or not isinstance(data.get("hands"), list):
        return data
    hands: list[Any] = []
    left = moves
    for hand in data["hands"]:
        if not isinstance(hand, dict) or not isinstance(hand.get("moves", []), list):
            hands.append(hand)
            continue
        taken = hand.get("moves", [])[:left]
        cut = dict(hand, moves=taken)
        if "time_up_at" in cut and cut["time_up_at"] > len(taken):
            del cut["time_up_at"]
        hands.append(cut)
        left -= len(taken)
        if left <= 0:
            break
    return dict(data, hands=hands)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m render", description=__doc__.splitlines()[0])
    parser.add_argument("record", help="a game record (RECORD.md), or - for standard input")
    parser.add_argument("--out", help="the PNG file to write")
    parser.add_argument("--geometry", help="write the picture's layout as JSON to this file")
    parser.add_argument("--move", type=int, help="draw the table after this many moves")
    parser.add_argument("--seat", type=int, help="as this seat sees it, with their hand")
    parser.add_argument("--theme", default="classic", choices=sorted(THEMES))
    parser.add_argument("--lang", default="es", choices=LANGUAGES)
    parser.add_argument("--numerals", action="store_true", help="numbers as numerals")
    args = parser.parse_args(argv)
    if args.out is None and args.geometry is None:
        parser.error("give --out, --geometry or both")
    try:
        if args.record == "-":
            data = json.load(sys.stdin)
        else:
            with open(args.record, encoding="utf-8") as file:
                data = json.load(file)
    except (OSError, ValueError) as error:
        print(f"cannot read {args.record}: {error}", file=sys.stderr)
        return 2
    if args.move is not None:
        if args.move < 0:
            print("--move must be 0 or more", file=sys.stderr)
            return 2
        data = until_move(data, args.move)
    try:
        game = load(data)
    except DominoError as error:
        print(f"{args.record}: {error}", file=sys.stderr)
        return 2
    if args.seat is not None and not 0 <= args.seat < game.players:
        print(f"--seat must be from 0 to {game.players - 1}", file=sys.stderr)
        return 2
    names = data.get("players") if isinstance(data, dict) else None
    table = Table(tuple(names or ()), lang=args.lang, theme=args.theme, numerals=args.numerals)
    measure = Measure() if args.geometry else None
    image = draw_board(view_of(game, args.seat), table, measure)
    try:
        if args.out:
            image.save(args.out, format="PNG", optimize=False)
            print(args.out)
        if measure is not None:
            with open(args.geometry, "w", encoding="utf-8") as file:
                json.dump(measure.as_json(), file, ensure_ascii=False, indent=1)
            print(args.geometry)
    except OSError as error:
        print(f"cannot write: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
