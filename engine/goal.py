"""What a game is played to and which way it counts ("to 100: whoever reaches it loses",
"round 3 of 13: fewest points win"), as catalog ids with their numbers: the board, the
score sheet and the room's text say it in the reader's language."""

from __future__ import annotations

from engine.catalog import N_
from engine.rules import Rules

HEADS: dict[str, str] = {
    "target": N_("to {target}"),
    "one_hand": N_("1 hand"),
    "hands": N_("hand {n} of {hands}"),
    "rounds": N_("round {n} of {rounds}"),
}
WAYS: dict[str, str] = {
    "reach_loses": N_("whoever reaches it loses"),
    "reach_wins": N_("whoever reaches it wins"),
    "most": N_("most points win"),
    "fewest": N_("fewest points win"),
}


def goal_of(rules: Rules, number: int) -> tuple[str, dict[str, int], str | None]:
    """(the goal's catalog id, its numbers, the id of which way it counts or None) for the
    hand or round ``number`` (from 1) being played."""
    most = rules.score_to == "winner"
    way = "most" if most else "fewest"
    number = max(1, number)
    params: dict[str, int] = {}
    if rules.family == "train":
        head = "rounds"
        params["rounds"] = rules.rounds or rules.set + 1
        params["n"] = min(number, params["rounds"])
    elif rules.target is not None and not rules.single_hand:
        head = "target"
        params["target"] = rules.target
        if most:
            way = "reach_wins"
        elif rules.partners:
            way = "reach_loses"
    elif rules.hands is not None and rules.hands > 1:
        head = "hands"
        params.update(n=min(number, rules.hands), hands=rules.hands)
    else:  # one hand (single_hand: the hand's winner wins the game)
        head = "one_hand"
    if head == "one_hand" and rules.family != "divisor":
        return HEADS[head], params, None
    return HEADS[head], params, WAYS[way]


def more_is_better(rules: Rules) -> bool:
    """Whether a side is better off with more points on the sheet (score_to = winner):
    a judge's award adds points there and a penalty takes them off; on a sheet where
    points count against a side (reaching the target loses, fewest wins) the other
    way round."""
    return rules.score_to == "winner"
