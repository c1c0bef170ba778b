"""Records for issue 21's before/after pictures (run from /work/main)."""
import json, sys
from pathlib import Path
from engine.game import Game
from engine.players import make_player
from engine.record import export, load
from engine.rules import Rules
from engine.simulate import decisions, play_hand
from engine.views import view_of

ABOUT = {}
OUT = Path("tests/data/pictures")
COMP = ["Computadora 1 (difícil)", "Computadora 2 (fácil)", "Computadora 3 (normal)", "Computadora 4 (difícil)"]

def finish(game, seed=0):
    seats = [make_player("normal", seed=seed + s) for s in range(game.players)]
    for view in decisions(game):
        game.apply(seats[view.seat].choose(view))

def save(name, data, about):
    data = dict(data)
    ABOUT[name] = about
    (OUT / f"{name}.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(name)

# all-fives: 6-6, 6-4 on a flank, 4-4, then 4-2 on the 4-4's half
deal = [["6-6", "4-2", "5-5", "3-1", "2-0"], ["6-4", "6-1", "5-0", "3-3", "1-0"], ["4-4", "6-5", "2-2", "5-3", "4-1"]]
used = {t for h in deal for t in h}
from engine.tiles import set_tiles
def text(t): return f"{t.hi}-{t.lo}"
bone = [text(t) for t in set_tiles(6) if text(t) not in used]
import random
random.Random(21).shuffle(bone)
rec = {"format": "domino-record/1", "rules": {"preset": "all_fives", "options": {}},
       "players": ["Ana", "Beto", "Carla"],
       "hands": [{"deal": deal, "boneyard": bone, "moves": ["0: 6-6", "1: 6-4 on 6-6 flank", "2: 4-4 on 6-4", "0: 4-2 on 4-4 half"]}]}
game = load(rec)
finish(game, 3)
save("fives-flanks", export(game, rec["players"]), "All-fives: 6-6, 6-4 on a flank, 4-4, then 4-2 on the 4-4's half; then computers play the hand out (issue 21's before/after pictures).")

def best(preset, players, options, score, names, tries=200):
    top = None
    for seed in range(tries):
        game = Game(Rules.from_preset(preset, **options), players)
        play_hand(game, [make_player("normal", seed=s) for s in range(players)], seed)
        v = view_of(game)
        k = score(v)
        if top is None or k > top[0]:
            top = (k, seed, export(game, names))
    print(preset, "score", top[0], "seed", top[1])
    return top[2]

def doubles(v): return sum(1 for p in v.placements if p.tile.is_double)
NAMES = ["Ana", "Beto", "Carla", "Diego", "Eva", "Fran", "Gabi", "Hugo"]
save("fido12-doubles", best("fido12", 4, {}, doubles, NAMES[:4]), "fido12 with several doubles on the table (the hand with most doubles of 200 seeds).")
save("draw9-long", best("draw", 2, {"set": 9}, lambda v: len(v.placements), NAMES[:2]), "A double-9 draw game with as many tiles on the table as 200 seeds give (a double-9 set has 55).")
save("draw12-60", best("draw", 3, {"set": 12}, lambda v: -abs(len(v.placements) - 60), NAMES[:3]), "A double-12 draw game with about 60 tiles on the table.")
g = best("partnership", 4, {}, lambda v: len(v.placements), COMP)
save("computers4", g, "Four computers, named as the bot names them (bot/showing.py name_of, Spanish).")
Path("/tmp/p21/about.json").write_text(json.dumps(ABOUT, indent=1))
