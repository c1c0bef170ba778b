"""How long a board picture takes: lay out, draw, encode as PNG, next to the time Pillow
takes just to encode that same finished image (the floor for producing it).

Goal of the pictures issue: the whole render at most 1.5x the encode alone, and every
board under 300 KB. Tile faces are cached, so the first board of a size pays for them
(shown apart as "cold"); a running bot draws warm boards.
"""

from __future__ import annotations

import io
import statistics
import sys
import time

if sys.path and sys.path[0].endswith("bench"):
    sys.path[0] = sys.path[0][: -len("bench")] or "."  # the repository, not bench/

from engine.game import Game
from engine.players import make_player
from engine.rules import Rules
from engine.simulate import play_hand
from engine.views import View, view_of
from render.board import Table, draw_board
from render.line_layout import layout_line
from render.train_layout import layout_trains

REPEAT = 15
BOARDS = [
    ("partnership hand, finished", "partnership", 4, {}),
    ("draw game, 60 tiles (double-12, 3 players)", "draw", 3, {"set": 12}),
    ("fido18 hand, finished", "fido18", 4, {}),
    ("Mexican Train round, 8 players", "mexican_train", 8, {}),
]


def finished_view(preset: str, players: int, options: dict, want: int | None) -> View:
    """The room's view of a finished hand (for the draw game: one with about ``want``
    tiles on the table)."""
    best: View | None = None
    for seed in range(200):
        game = Game(Rules.from_preset(preset, **options), players)
        play_hand(game, [make_player("normal", seed=s) for s in range(players)], seed)
        view = view_of(game)
        laid = len(view.placements) or sum(len(t.tiles) for t in view.trains)
        if want is None or abs(laid - want) <= 2:
            return view
        if best is None or abs(laid - want) < abs(len(best.placements) - want):
            best = view
    assert best is not None
    return best


def encode(image: object) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")  # type: ignore[attr-defined]
    return out.getvalue()


def main() -> int:
    print(
        f"{'board':<44} {'tiles':>5} {'layout':>7} {'draw':>7} {'encode':>7}"
        f" {'whole':>7} {'ratio':>6} {'KB':>5} {'cold':>7}  (ms, median of {REPEAT})"
    )
    for label, preset, players, options in BOARDS:
        view = finished_view(preset, players, options, 60 if preset == "draw" else None)
        names = tuple(f"Player {s + 1}" for s in range(players))
        table = Table(names)
        started = time.perf_counter()
        encode(draw_board(view, table))
        cold = time.perf_counter() - started
        layouts, draws, encodes, wholes = [], [], [], []
        for _ in range(REPEAT):
            t0 = time.perf_counter()
            if view.trains:
                layout_trains(view)
            else:
                sides = [(s.number, s.tile, s.kind) for s in view.open_sides]
                layout_line(view.placements, sides, view.rules.crosswise_doubles)
            t1 = time.perf_counter()
            image = draw_board(view, table)
            t2 = time.perf_counter()
            data = encode(image)
            t3 = time.perf_counter()
            layouts.append(t1 - t0)
            draws.append(t2 - t1)  # draw_board lays out again: the whole cost of a picture
            wholes.append(t3 - t1)
            t4 = time.perf_counter()
            encode(image)
            encodes.append(time.perf_counter() - t4)
        tiles = len(view.placements) or sum(len(t.tiles) for t in view.trains) + 1
        whole, floor = statistics.median(wholes), statistics.median(encodes)
        print(
            f"{label:<44} {tiles:>5} {1000 * statistics.median(layouts):>7.2f}"
            f" {1000 * statistics.median(draws):>7.2f} {1000 * floor:>7.2f}"
            f" {1000 * whole:>7.2f} {whole / floor:>6.2f} {len(data) / 1024:>5.0f}"
            f" {1000 * cold:>7.1f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
