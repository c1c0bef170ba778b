"""Screenshots of the web pages for docs/web/ (issue 34's closing note): the REAL bot
program (the console, its pages on a free port) plays a game and a small tournament
typed into its console, and Chromium (the system's, driven by Playwright) saves:

- ``game-live.png``: a game in play, as a viewer sees it;
- ``game-replay.png``: a finished hand's replay, a few moves in;
- ``tournament-hall.png``, ``tournament-hall-tables.png``: the tournament in hall mode
  (``?tv=1``) on a 1920×1080 screen, its standings and then its tables;
- ``community.png``: the community's page;
- ``game-phone.png``: the game at a phone's width (375×667).

    .venv/bin/python bench/screenshots.py [folder]   (default: docs/web)
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

if sys.path and sys.path[0].endswith("bench"):
    sys.path[0] = sys.path[0][: -len("bench")] or "."  # the repository, not bench/

from tests.doors.web.browser.conftest import (
    NO_CHROMIUM,
    Program,
    chromium,
    moves_in,
    open_program,
    open_the_tournament,
    play_the_game,
    until,
)


async def a_finished_game(program: Program) -> None:
    """Room rapida: draw to 20, Ana and a computer, played to its end (the community's
    leaderboards then have a line)."""
    console = program.console
    await program.room("rapida")
    await console.type("/new draw 20")
    await console.type("/add_ai")
    last = await console.type("/begin")
    for _ in range(400):
        if "Game over" in console.output:
            break
        if not moves_in(last) and "next hand" in last.lower():
            await asyncio.sleep(0.5)  # everyone is ready: dealt a moment after
        last = await program.move(last)
    await program.room("mesa")


async def a_few_moves(program: Program, count: int) -> None:
    """Ana's next ``count`` moves in room mesa: the table has tiles on it."""
    for _ in range(count):
        said = await program.ana_to_move()
        await program.console.type(moves_in(said)[0])


LOADED = "() => Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)"


async def main(folder: Path) -> None:
    from playwright.async_api import Page, async_playwright

    path = chromium()
    if path is None:
        raise SystemExit(NO_CHROMIUM)
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as home:
        program = await open_program(Path(home))
        try:
            await a_finished_game(program)
            await play_the_game(program)
            await open_the_tournament(program)
            await a_few_moves(program, 4)
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=path)

                async def shoot(
                    address: str, name: str, width: int = 1280, height: int = 900, full: bool = True
                ) -> Page:
                    page = await browser.new_page(viewport={"width": width, "height": height})
                    await page.clock.install()  # hall mode's slides turn when told
                    await page.goto(program.base + address)
                    await until(page, LOADED, f"{name}'s pictures")
                    await page.screenshot(path=str(folder / name), full_page=full)
                    print(folder / name)
                    return page

                await shoot(f"/g/{program.game}", "game-live.png")
                await shoot(f"/g/{program.game}?hand=1&step=6", "game-replay.png")
                hall = await shoot(
                    f"/t/{program.tournament}?tv=1", "tournament-hall.png", 1920, 1080, False
                )
                seconds = int(await hall.get_attribute("body", "data-tv-seconds") or 15)
                await hall.clock.run_for(seconds * 1000)  # the next slide: the tables
                await hall.screenshot(path=str(folder / "tournament-hall-tables.png"))
                print(folder / "tournament-hall-tables.png")
                await shoot(f"/c/{program.community}", "community.png")
                await shoot(f"/g/{program.game}", "game-phone.png", 375, 667, False)
                await browser.close()
        finally:
            await program.http.close()
            await program.console.quit()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/web")))
