"""The records of issue 21's before/after pictures (run once from the repository:
``python tests/data/pictures/issue21_records.py``; the records are kept, not remade)."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from engine.game import Game
from engine.players import make_player
from engine.record import export, load
from engine.rules import Rules
from engine.simulate import decisions, play_hand
from engine.tiles import set_tiles
from engine.views import View, view_of

OUT = Path(__file__).resolve().parent
NAMES = ["Ana", "Beto", "Carla", "Diego", "Eva", "Fran", "Gabi", "Hugo"]
# as bot/core/showing.py name_of named computers before issue 21 (Spanish)
COMPUTERS = [
    "Computadora 1 (difícil)",
    "Computadora 2 (fácil)",
    "Computadora 3 (normal)",
    "Computadora 4 (difícil)",
]


def finish(game: Game, seed: int) -> None:
    seats = [make_player("normal", seed=seed + s) for s in range(game.players)]
    for view in decisions(game):
        game.apply(seats[view.seat].choose(view))  # type: ignore[index]


def save(name: str, data: dict[str, Any]) -> None:
    text = json.dumps(data, indent=1, ensure_ascii=False)
    (OUT / f"{name}.json").write_text(text + "\n", encoding="utf-8")
    print(name)


def best(
    preset: str,
    players: int,
    options: dict[str, Any],
    score: Callable[[View], int],
    names: list[str],
) -> dict[str, Any]:
    """The record of the hand (of seeds 0 to 199) that ``score`` likes best."""
    top: tuple[int, dict[str, Any]] | None = None
    for seed in range(200):
        game = Game(Rules.from_preset(preset, **options), players)
        play_hand(game, [make_player("normal", seed=s) for s in range(players)], seed)
        k = score(view_of(game))
        if top is None or k > top[0]:
            top = (k, export(game, names))
    assert top is not None
    return top[1]


def main() -> None:
    # all-fives: 6-6, 6-4 on a flank, 4-4, then 4-2 on the 4-4's half; then played out
    deal = [
        ["6-6", "4-2", "5-5", "3-1", "2-0"],
        ["6-4", "6-1", "5-0", "3-3", "1-0"],
        ["4-4", "6-5", "2-2", "5-3", "4-1"],
    ]
    used = {t for hand in deal for t in hand}
    boneyard = [f"{t.hi}-{t.lo}" for t in set_tiles(6) if f"{t.hi}-{t.lo}" not in used]
    random.Random(21).shuffle(boneyard)
    moves = ["0: 6-6", "1: 6-4 on 6-6 flank", "2: 4-4 on 6-4", "0: 4-2 on 4-4 half"]
    record = {
        "format": "domino-record/1",
        "rules": {"preset": "all_fives", "options": {}},
        "players": NAMES[:3],
        "hands": [{"deal": deal, "boneyard": boneyard, "moves": moves}],
    }
    game = load(record)
    finish(game, 3)
    save("fives-flanks", export(game, NAMES[:3]))

    def doubles(view: View) -> int:
        return sum(1 for p in view.placements if p.tile.is_double)

    def laid(view: View) -> int:
        return len(view.placements)

    save("fido12-doubles", best("fido12", 4, {}, doubles, NAMES[:4]))
    save("draw9-long", best("draw", 2, {"set": 9}, laid, NAMES[:2]))
    save("draw12-60", best("draw", 3, {"set": 12}, lambda v: -abs(laid(v) - 60), NAMES[:3]))
    save("computers4", best("partnership", 4, {}, laid, COMPUTERS))


if __name__ == "__main__":
    main()
