"""House rules on Discord end to end (issue 20): the real program and discord.py against
the fake Discord. ``/domino new`` with its ``options`` field (autocompleted from the
preset's options and values), the lobby listing them, the creator's Rules button and its
menus only the creator sees, the game begun with them in force, ``/domino rules`` said
from them."""

from __future__ import annotations

import json

from engine.rules import Rules
from tests.doors.discord.driver import CHANNEL, GUILD, custom_ids, words
from tests.doors.discord.fake_discord import EPHEMERAL


def plain(message: dict | None) -> str:
    """A message's words as Discord shows them (its markdown escapes undone)."""
    return words(message).replace("\\", "")


async def test_house_rules_set_shown_and_in_force(fake, bot, table) -> None:
    ana = table.person("Ana", 320_000_000_000_020_001)

    async def completed(value: str, **options: str) -> list[str]:
        payload = fake.autocomplete(GUILD, CHANNEL, ana, "domino", "options", value, "new", options)
        table.interactions.append(("Ana", int(payload["id"])))
        [answer] = await fake.wait_for(
            lambda: fake.interaction_responses(int(payload["id"])), what="the choices"
        )
        return [c["value"] for c in answer["data"]["choices"]]

    # the tree Discord took: at most 25 subcommands, ``rule`` among them, ``new`` with an
    # autocompleted ``options`` field
    [domino] = [c for c in fake.commands(GUILD) if c["name"] == "domino"]
    subcommands = {o["name"]: o for o in domino["options"]}
    assert "rule" in subcommands and len(subcommands) <= 25
    new_options = {o["name"]: o for o in subcommands["new"]["options"]}
    assert new_options["options"]["autocomplete"] and new_options["options"]["type"] == 3

    assert await completed("blocked_t", preset="partnership") == ["blocked_tie="]
    assert "blocked_tie=nobody" in await completed("blocked_tie=", preset="partnership")
    assert await completed("draw_r", preset="partnership") == []  # not a partnership option

    await table.command(
        "Ana",
        "new",
        {"preset": "partnership", "target": 200, "options": "blocked_tie=nobody redeal_doubles=4"},
    )
    lobby = await fake.wait_for(table.lobby, what="the lobby")
    shown = plain(lobby)
    assert "blocked_tie=nobody" in shown and "redeal_doubles=4" in shown
    assert "To 200 points" in shown and "reaches 200 loses" in shown

    # the Rules button: menus only Ana sees, their buttons acting in the channel
    rules = next(c for c in custom_ids(lobby) if c.endswith(":rule"))
    iid = await table.press("Ana", lobby, rules)
    [menu] = await fake.wait_for(lambda: table.followups(iid), what="the rules menu")
    assert menu["flags"] & EPHEMERAL
    tie = next(c for c in custom_ids(menu) if c.endswith(":rule blocked_tie"))
    iid = await table.press("Ana", menu, tie)
    [values] = await fake.wait_for(lambda: table.followups(iid), what="the values")
    loses = next(c for c in custom_ids(values) if c.endswith(":rule blocked_tie closer_loses"))
    await table.press("Ana", values, loses)
    await fake.wait_for(
        lambda: "blocked_tie=closer_loses" in plain(table.lobby()), what="the lobby edited"
    )

    await table.command("Ana", "begin", {"fill": True})
    await fake.wait_for(table.board, timeout=20, what="the first board")
    [row] = bot.query("SELECT snapshot FROM games ORDER BY id DESC LIMIT 1")
    snapshot = json.loads(row["snapshot"])
    rules = Rules.from_record(snapshot["record"]["rules"])
    assert (rules.target, rules.blocked_tie, rules.redeal_doubles) == (200, "closer_loses", 4)
    await table.command("Ana", "rules")  # said in the channel, from the rules in force
    await fake.wait_for(
        lambda: any("(blocked_tie=closer_loses) ✱" in plain(m) for m in fake.messages(CHANNEL)),
        what="the rules in force",
    )
