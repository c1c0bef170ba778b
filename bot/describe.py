"""The table and a hand in words: the console prints these, and the platforms use them
as captions and as text for screen readers. Drawn from views only."""

from __future__ import annotations

from collections.abc import Sequence

from engine.keys import move_keys
from engine.moves import MEXICAN, Move
from engine.rules import Rules
from engine.views import View
from lang import N_, tr


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


def describe_table(view: View, names: Sequence[str], lang: str) -> str:
    lines: list[str] = []
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
            tiles = " ".join(str(t) for t in train.tiles) or "·"
            marker = " *" if train.marked and train.owner is not None else ""
            ends = "/".join(str(n) for n in train.ends)
            lines.append(f"  {owner}{marker}: {tiles}  → {ends}")
        for _, double in view.unsatisfied:
            lines.append(tr(lang, "Double {tile} waits for a tile.", tile=double))
    elif view.placements:
        lines.append(
            tr(lang, "Table: {tiles}", tiles=" ".join(str(p.tile) for p in view.placements))
        )
        numbers = sorted({side.number for side in view.open_sides})
        lines.append(tr(lang, "Open ends: {ends}", ends=", ".join(str(n) for n in numbers)))
        if view.count is not None:
            lines.append(tr(lang, "Count: {count}", count=view.count))
    else:
        lines.append(tr(lang, "The table is empty."))
    counts = ", ".join(
        f"{names[s] if s < len(names) else s}: {n}" for s, n in enumerate(view.tile_counts)
    )
    lines.append(tr(lang, "Tiles in hand: {counts}", counts=counts))
    if view.rules.has_boneyard or view.trains:
        lines.append(tr(lang, "Boneyard: {n}", n=view.boneyard))
    goal = goal_text(view.rules, view.hand_number, lang)  # "a 100: pierde quien llega"
    lines.append(goal[:1].upper() + goal[1:])
    return "\n".join(lines)


def describe_hand(view: View, names: Sequence[str], lang: str) -> str:
    tiles = " ".join(str(t) for t in view.hand) or "·"
    lines = [tr(lang, "Your tiles: {tiles}", tiles=tiles)]
    if view.legal_moves:
        lines.append(tr(lang, "You can play:"))
        for key, move in move_keys(view.legal_moves):
            lines.append(f"  {key}) {move_words(lang, move, names)}")
    return "\n".join(lines)


# The words of render/words.py's goal_text (the service imports nothing of render/;
# tests/render/test_target_shown.py holds the two to the same words).
_GOAL_HEADS = {
    "target": N_("to {target}"),
    "one_hand": N_("1 hand"),
    "hands": N_("hand {n} of {hands}"),
    "rounds": N_("round {n} of {rounds}"),
}
_GOAL_WAYS = {
    "reach_loses": N_("whoever reaches it loses"),
    "reach_wins": N_("whoever reaches it wins"),
    "most": N_("most points win"),
    "fewest": N_("fewest points win"),
}


def goal_text(rules: Rules, number: int, lang: str) -> str:
    """The target and which way it counts, as the board and the score sheet say it: "a
    100: pierde quien llega", "ronda 3 de 13: menos puntos gana", "1 mano" (``number``:
    the hand or round being played)."""
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
    message = _GOAL_HEADS[head]
    words = tr(lang, message, **params)
    if head == "one_hand" and rules.family != "divisor":
        return words
    message = _GOAL_WAYS[way]
    return f"{words}: {tr(lang, message)}"
