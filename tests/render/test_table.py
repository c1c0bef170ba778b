"""A table, not a row of cards (issue 33): two to four seats of a line game sit around
the table, south being the seat that looks (seat 0 for the room), play passing to the
right (south, east, north, west), partners opposite each other; each seat shows its
name, the tiles it holds, its passes and the turn; the teams' totals stand beside the
north seat. Mexican Train and more than four seats keep a row of cards. Checked on the
geometry ``python -m render --geometry`` writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.game import Game
from engine.players import RandomPlayer
from engine.record import export
from engine.rules import Rules
from engine.simulate import play_hand
from render.__main__ import main
from render.words import passes_text, word

NAMES = ["Ana", "Beto", "Carla", "Diego", "Eva", "Fran", "Gabi", "Hugo"]


def geometry(tmp_path: Path, preset: str, players: int, *extra: str) -> dict[str, Any]:
    game = Game(Rules.from_preset(preset), players)
    play_hand(game, [RandomPlayer(s) for s in range(players)], 4)
    (tmp_path / "r.json").write_text(json.dumps(export(game, NAMES[:players])))
    out = tmp_path / "g.json"
    assert main([str(tmp_path / "r.json"), "--geometry", str(out), *extra]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


def seats(g: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {s["seat"]: s for s in g.get("shapes", []) if s["kind"] == "seat"}


def centre(box: dict[str, Any]) -> tuple[float, float]:
    return box["x"] + box["w"] / 2, box["y"] + box["h"] / 2


def inside(text: dict[str, Any], box: dict[str, Any]) -> bool:
    return (
        box["x"] <= text["x"]
        and text["x"] + text["w"] <= box["x"] + box["w"]
        and box["y"] <= text["y"]
        and text["y"] + text["h"] <= box["y"] + box["h"]
    )


@pytest.mark.parametrize(("preset", "players"), [("partnership", 4), ("draw", 4), ("fido12", 4)])
@pytest.mark.parametrize("south", [None, 0, 1, 2, 3])
def test_four_seats_sit_around_the_table(
    tmp_path: Path, preset: str, players: int, south: int | None
) -> None:
    extra = ["--move", "9"] + ([] if south is None else ["--seat", str(south)])
    g = geometry(tmp_path, preset, players, *extra)
    at = seats(g)
    looks = 0 if south is None else south
    places = {at[(looks + k) % 4]["place"]: at[(looks + k) % 4] for k in range(4)}
    assert [at[(looks + k) % 4]["place"] for k in range(4)] == ["south", "east", "north", "west"]
    s, e, n, w = (centre(places[p]) for p in ("south", "east", "north", "west"))
    assert n[1] < w[1] < s[1] and n[1] < e[1] < s[1]  # north above, south below
    assert w[0] < n[0] < e[0] and w[0] < s[0] < e[0]  # west at the left, east at the right
    assert abs(s[0] - g["width"] / 2) < 2 and abs(n[0] - g["width"] / 2) < 2
    # the table's tiles lie between the four seats
    north, south_box = places["north"], places["south"]
    west, east = places["west"], places["east"]
    for t in g["tiles"]:
        assert north["y"] + north["h"] <= t["y"] and t["y"] + t["h"] <= south_box["y"]
        assert west["x"] + west["w"] <= t["x"] and t["x"] + t["w"] <= east["x"]
    # every seat's name and the tiles it holds, in its own panel
    for seat, box in at.items():
        drawn = [t["text"] for t in g["texts"] if inside(t, box)]
        assert NAMES[seat] in drawn, (seat, drawn)
        assert any(t.isdigit() for t in drawn), (seat, drawn)  # the tiles held


def test_partners_face_each_other_and_their_totals_stand_beside_the_score(
    tmp_path: Path,
) -> None:
    g = geometry(tmp_path, "partnership", 4)
    at = seats(g)
    assert {at[0]["place"], at[2]["place"]} == {"south", "north"}
    assert {at[1]["place"], at[3]["place"]} == {"east", "west"}
    teams = [s for s in g["shapes"] if s["kind"] == "team"]
    assert len(teams) == 2
    for box, names in zip(teams, ("Ana / Carla", "Beto / Diego"), strict=True):
        drawn = [t["text"] for t in g["texts"] if inside(t, box)]
        assert names in drawn and any(t.isdigit() for t in drawn), drawn


def test_passes_and_the_turn_are_shown_on_the_seat(tmp_path: Path) -> None:
    for move in range(6, 30):
        game = Game(Rules.from_preset("partnership"), 4)
        play_hand(game, [RandomPlayer(s) for s in range(4)], 4)
        record = export(game, NAMES[:4])
        moves = record["hands"][0]["moves"][:move]
        passed = [int(m.split(":")[0]) for m in moves if m.endswith("pass")]
        if passed:
            break
    assert passed, "a pass in the first moves of the record"
    g = geometry(tmp_path, "partnership", 4, "--move", str(move))
    at = seats(g)
    seat = passed[0]
    drawn = [t["text"] for t in g["texts"] if inside(t, at[seat])]
    assert passes_text(passed.count(seat)) in drawn, drawn
    to_move = [s for s, box in at.items() if word("to_move") in [
        t["text"] for t in g["texts"] if inside(t, box)
    ]]  # fmt: skip
    assert len(to_move) == 1


@pytest.mark.parametrize(("preset", "players"), [("draw", 2), ("all_fives", 3)])
def test_two_face_each_other_and_three_leave_north_free(
    tmp_path: Path, preset: str, players: int
) -> None:
    at = seats(geometry(tmp_path, preset, players))
    expected = ["south", "north"] if players == 2 else ["south", "east", "west"]
    assert [at[s]["place"] for s in range(players)] == expected


@pytest.mark.parametrize(("preset", "players"), [("mexican_train", 4), ("fido12", 6)])
def test_trains_and_big_tables_keep_their_cards(tmp_path: Path, preset: str, players: int) -> None:
    at = seats(geometry(tmp_path, preset, players))
    assert len(at) == players and {s["place"] for s in at.values()} == {"card"}
