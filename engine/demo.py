"""A demonstration game between computer players, told move by move
(``python -m engine demo`` prints it)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.game import Game
from engine.players import GreedyPlayer
from engine.rules import Rules
from engine.views import view_of

NAMES = ["Ana", "Beto", "Caro", "Dani", "Eli", "Fer", "Gabi", "Hugo"]


def demo(preset: str = "partnership", players: int | None = None, seed: int = 0) -> Iterator[str]:
    """The lines of a whole game between greedy players, dealt from ``seed``."""
    rules = Rules.from_preset(preset)
    players = players or max(rules.min_players, min(4, rules.max_players))
    source = random.Random(seed)
    game = Game(rules, players)
    seats = [GreedyPlayer(source.randrange(1 << 62)) for _ in range(players)]
    names = NAMES[:players]
    columns = _columns(game, names)
    yield f"{preset}: {', '.join(names)} (seed {seed})"
    while not game.over:
        hand = game.start_hand(seed=source.randrange(1 << 62))
        yield f"\nHand {game.hand_number}: {names[hand.opener]} opens"
        while game.hand is not None:
            seat = game.to_move
            assert seat is not None
            move = game.forced_move() or seats[seat].choose(view_of(game, seat))
            game.apply(move)
            line = f"  {names[seat]:<5} {move.action_text()}"
            if rules.divisor and move.is_play:
                line += f"   (count {hand.count}, {hand.scored[seat]} scored this hand)"
            yield line
        log = game.logs[-1]
        assert log.result is not None
        result = log.result
        won = "nobody" if result.winner is None else columns[result.winner]
        yield f"  -> {result.end}; hand won by {won}; pips left {list(result.pips)}"
        sheet = zip(columns, game.scores, strict=True)
        yield "  score: " + ", ".join(f"{column} {value}" for column, value in sheet)
    assert game.outcome is not None
    verb = "win" if rules.partners else "wins"
    yield f"\n{columns[game.outcome.winner]} {verb} the game ({game.outcome.reason})."


def _columns(game: Game, names: list[str]) -> list[str]:
    if game.rules.partners:
        return [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
    return names
