"""How long a board picture takes: lay out, draw, encode as PNG (the way the bot does,
bot/doors/pictures.py: ``save(out, format="PNG")`` with no options), and how big it is.

Goal of issue 23: the whole render (layout, draw, encode) at most 10 ms median for a
finished partnership hand and 25 ms for an eight-player Mexican Train round, every board
under 300 KB. Times are CPU time (``time.process_time``: the machine is shared, and
another process's load must not count), medians of REPEAT rounds; each round draws every
board once, so a slow moment of the machine falls on all boards alike. "wall" is the
same whole render by the clock. Tile faces and text bitmaps are cached, so the first
board of a size pays for them (shown apart as "cold", by the clock); a running bot draws
warm boards.
"""

from __future__ import annotations

import io
import statistics
import sys
import time

if sys.path and sys.path[0].endswith("bench"):
    sys.path[0] = sys.path[0][: -len("bench")] or "."  # the repository, not bench/

from PIL import Image

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


def encode(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def main() -> int:
    print(
        f"{'board':<44} {'tiles':>5} {'layout':>7} {'draw':>7} {'encode':>7}"
        f" {'whole':>7} {'wall':>7} {'KB':>5} {'cold':>7}"
        f"  (ms: CPU, median of {REPEAT} rounds; wall and cold by the clock)"
    )
    boards = []
    for label, preset, players, options in BOARDS:
        view = finished_view(preset, players, options, 60 if preset == "draw" else None)
        table = Table(tuple(f"Player {s + 1}" for s in range(players)))
        started = time.perf_counter()
        encode(draw_board(view, table))
        cold = time.perf_counter() - started
        boards.append((label, view, table, cold))
    times: dict[str, dict[str, list[float]]] = {
        label: {"layout": [], "draw": [], "encode": [], "whole": [], "wall": []}
        for label, *_ in boards
    }
    size: dict[str, int] = {}
    for _ in range(REPEAT):
        for label, view, table, _ in boards:
            got = times[label]
            t0 = time.process_time()
            if view.trains:
                layout_trains(view)
            else:
                sides = [(s.number, s.tile, s.kind) for s in view.open_sides]
                layout_line(view.placements, sides, view.rules.crosswise_doubles)
            t1 = time.process_time()
            w1 = time.perf_counter()
            image = draw_board(view, table)  # lays out again: the whole cost of a picture
            t2 = time.process_time()
            data = encode(image)
            t3 = time.process_time()
            got["wall"].append(time.perf_counter() - w1)
            got["layout"].append(t1 - t0)
            got["draw"].append(t2 - t1)
            got["encode"].append(t3 - t2)
            got["whole"].append(t3 - t1)
            size[label] = len(data)
    for label, view, _, cold in boards:
        tiles = len(view.placements) or sum(len(t.tiles) for t in view.trains) + 1
        ms = {k: 1000 * statistics.median(v) for k, v in times[label].items()}
        print(
            f"{label:<44} {tiles:>5} {ms['layout']:>7.2f} {ms['draw']:>7.2f}"
            f" {ms['encode']:>7.2f} {ms['whole']:>7.2f} {ms['wall']:>7.2f}"
            f" {size[label] / 1024:>5.0f} {1000 * cold:>7.1f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
