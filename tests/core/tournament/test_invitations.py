"""A named partner accepts before a pair counts (issue 31, 6): until then it is an
invitation, shown in the room with a button; it holds nobody's place (others may ask
the same person, who may register with someone else); it is declined by leaving,
withdrawn when the person chooses another pair, and gone when registration closes.
Nobody is in an event they did not accept; every refusal changes nothing."""

from __future__ import annotations

from bot.core.model import Say
from bot.core.service import GameService
from bot.doors.buttons import DISCORD, TELEGRAM
from storage.store import Store
from tests.core.driver import Clock, seeded
from tests.core.tournament.test_tournament_flow import Club


def refused(effects: list) -> bool:
    return any(isinstance(e, Say) and e.private is not None for e in effects)


async def opened(store: Store) -> Club:
    clock = Clock()
    club = Club(GameService(store, clock=clock, seeds=seeded(5)), clock, store)
    for name in ("Ana", "Beto", "Carla", "Dani", "Troll", "Eva", "Fede"):
        await club.say(name, "/help")
    await club.say("Org", "/tournament new Copa rounds=1 checkin=off", admin=True)
    return club


async def entries(club: Club) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Each team: its status and its people who accepted."""
    event = await club.event()
    return {
        e.name: (e.status, tuple(m.name for m in e.members if m.user and not m.pending))
        for e in event.entries
    }


async def test_a_pair_counts_once_the_partner_accepts(store: Store) -> None:
    club = await opened(store)
    effects = await club.say("Ana", "/tournament register Las Primas @beto")
    [asked] = [e for e in effects if isinstance(e, Say) and e.buttons]
    assert "Beto" in asked.text and "Ana" in asked.text and asked.private is None
    assert [p.platform_id for p in asked.mention] == ["beto"]
    [primas] = (await club.event()).entries
    assert asked.buttons[0].command == f"tournament accept {primas.id}"
    assert TELEGRAM.encode(asked.buttons[0]) and DISCORD.encode(asked.buttons[0])
    assert await entries(club) == {"Las Primas": ("invited", ("Ana",))}
    assert "(invited)" in club.said() or "(invited)" in "\n".join(
        e.text for e in await club.say("Ana", "/tournament list") if isinstance(e, Say)
    )
    # someone else pressing Beto's button changes nothing
    before = await entries(club)
    assert refused(await club.say("Carla", "/tournament accept Las Primas"))
    assert await entries(club) == before
    # Beto accepts: the pair is in
    assert not refused(await club.say("Beto", "/tournament accept Las Primas"))
    assert await entries(club) == {"Las Primas": ("registered", ("Ana", "Beto"))}
    assert "Las Primas is in (Ana, Beto)" in club.said()
    # and is registered for good: nobody can take Beto away now
    assert refused(await club.say("Troll", "/tournament register Trolls @beto"))
    assert await entries(club) == {"Las Primas": ("registered", ("Ana", "Beto"))}


async def test_an_invitation_holds_nobodys_place(store: Store) -> None:
    club = await opened(store)
    await club.say("Troll", "/tournament register Trolls @beto")
    await club.say("Ana", "/tournament register Las Primas @beto")  # Beto asked twice
    assert {k: v[0] for k, v in (await entries(club)).items()} == {
        "Trolls": "invited", "Las Primas": "invited",
    }  # fmt: skip
    effects = await club.say("Beto", "/tournament accept")  # which one?
    assert refused(effects) and "Trolls" in effects[0].text and "Las Primas" in effects[0].text
    await club.say("Beto", "/tournament accept Las Primas")
    # the troll's invitation is withdrawn by Beto's choice
    assert await entries(club) == {"Las Primas": ("registered", ("Ana", "Beto"))}
    # asked by a troll, Carla registers with whom she wants: the invitation goes
    await club.say("Troll", "/tournament register Trolls @carla")
    await club.say("Carla", "/tournament register Los Dos @dani")
    assert set(await entries(club)) == {"Las Primas", "Los Dos"}
    await club.say("Dani", "/tournament accept")
    assert (await entries(club))["Los Dos"] == ("registered", ("Carla", "Dani"))


async def test_declined_or_never_accepted_it_is_not_in(store: Store) -> None:
    club = await opened(store)
    await club.say("Carla", "/tournament register Los Dos @dani")
    await club.say("Dani", "/tournament leave")  # declines
    assert await entries(club) == {}
    assert "Dani declined" in club.said()
    assert refused(await club.say("Dani", "/tournament accept Los Dos"))
    await club.say("Eva", "/tournament register Las Fieras @fede")
    await club.say("Org", "/tournament register Bots 1 computer computer", admin=True)
    await club.say("Org", "/tournament register Bots 2 computer computer", admin=True)
    await club.say("Org", "/tournament close", admin=True)
    assert "Las Fieras" not in await entries(club)
    assert "so not in: Las Fieras" in club.said()
    assert refused(await club.say("Fede", "/tournament accept Las Fieras"))
    assert set(await entries(club)) == {"Bots 1", "Bots 2"}


async def test_the_organiser_registers_a_pair_at_once(store: Store) -> None:
    club = await opened(store)
    await club.say("Org", "/tournament register Las Primas @ana @beto", admin=True)
    assert await entries(club) == {"Las Primas": ("registered", ("Ana", "Beto"))}


async def test_an_organiser_registering_others_keeps_their_own_invitation(store: Store) -> None:
    """Only choosing a pair of one's own withdraws the invitations one had."""
    club = await opened(store)
    await club.say("Ana", "/tournament register Las Primas @org")
    await club.say("Org", "/tournament register Bots computer computer", admin=True)
    assert (await entries(club))["Las Primas"] == ("invited", ("Ana",))
    await club.say("Org", "/tournament accept", admin=True)
    assert (await entries(club))["Las Primas"] == ("registered", ("Ana", "Org"))
