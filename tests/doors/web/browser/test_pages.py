"""Every page served by the real program, opened in Chromium (issue 34, "Tested in a real
browser"): it renders with no console error and no failed request; it is usable at a
phone's width; every picture has a text alternative; the structure reads in order for a
screen reader (one h1, no heading level skipped, table headers)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tests.doors.web.browser.conftest import Program, Watched, until

pytestmark = pytest.mark.asyncio(loop_scope="package")

PHONE = {"width": 375, "height": 667}


def addresses(played: Program) -> list[str]:
    """Every kind of page there is: a game live, a replay, a tournament, its hall mode, a
    community; in another language too."""
    return [
        f"/g/{played.game}",
        f"/g/{played.game}?hand=1",
        f"/g/{played.game}?hand=2&step=3&lang=es",
        f"/t/{played.tournament}",
        f"/t/{played.tournament}?tv=1",
        f"/c/{played.community}",
        f"/c/{played.community}?lang=pt",
    ]


async def open_page(watched: Watched, address: str) -> None:
    """The page opened, its script run, every picture loaded."""
    page = watched.page
    response = await page.goto(address, wait_until="load")
    assert response is not None and response.status == 200, address
    assert response.headers["content-type"].startswith("text/html"), address
    # every picture there, the one the live stream may have just renewed too
    await until(
        page,
        "() => Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)",
        "every picture loaded",
    )


# What the structure is, read as a screen reader reads it (in document order).
STRUCTURE = """() => {
  const headings = Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6'))
    .map(h => ({level: +h.tagName[1], text: h.textContent.trim()}));
  const images = Array.from(document.images)
    .map(i => ({src: i.getAttribute('src'), alt: i.getAttribute('alt'),
                loaded: i.complete && i.naturalWidth > 0}));
  const tables = Array.from(document.querySelectorAll('table')).map(t => ({
    id: t.id || t.className,
    columns: t.querySelectorAll('thead th, tr:first-child th').length,
    unscoped: Array.from(t.querySelectorAll('th')).filter(th => !th.getAttribute('scope'))
      .map(th => th.textContent.trim()),
    rows: t.querySelectorAll('tbody tr').length,
  }));
  return {headings, images, tables, lang: document.documentElement.lang,
          title: document.title};
}"""


async def test_every_page_renders_with_no_console_error(played: Program, watched: Watched) -> None:
    for address in addresses(played):
        await open_page(watched, played.base + address)
        seen: dict[str, Any] = await watched.page.evaluate(STRUCTURE)
        assert seen["title"].strip(), address
        assert seen["lang"] == (
            "es" if "lang=es" in address else "pt" if "lang=pt" in address else "en"
        )
        watched.assert_clean()  # after each page: says which one


async def test_every_picture_has_a_text_alternative(played: Program, watched: Watched) -> None:
    pictures = 0
    for address in addresses(played):
        await open_page(watched, played.base + address)
        seen = await watched.page.evaluate(STRUCTURE)
        for image in seen["images"]:
            assert image["alt"] and image["alt"].strip(), (address, image)
            pictures += 1
    assert pictures >= 3  # the board, a replay's board, ...: there were pictures to check


async def test_headings_in_order_and_tables_with_headers(played: Program, watched: Watched) -> None:
    for address in addresses(played):
        await open_page(watched, played.base + address)
        seen = await watched.page.evaluate(STRUCTURE)
        levels = [h["level"] for h in seen["headings"]]
        assert levels.count(1) == 1 and levels[0] == 1, (address, seen["headings"])
        for before, after in itertools.pairwise(levels):
            assert after <= before + 1, (address, seen["headings"])  # no level skipped
        assert all(h["text"] for h in seen["headings"]), (address, seen["headings"])
        for table in seen["tables"]:
            assert table["columns"] > 0, (address, table)
            assert not table["unscoped"], (address, table)


# Whether the page scrolls sideways, and every control (link, button) that cannot be
# brought into the screen: scrolled to (the page, or the box it scrolls in), it must lie
# within the screen's width.
PHONE_CHECK = """() => {
  const root = document.documentElement;
  const wide = Math.max(root.scrollWidth, document.body.scrollWidth) > window.innerWidth;
  const out = [];
  for (const control of document.querySelectorAll('a[href], button, summary')) {
    const style = getComputedStyle(control);
    if (style.display === 'none' || style.visibility === 'hidden' ||
        control.getClientRects().length === 0 || control.closest('[hidden]') ||
        control.classList.contains('skip')) continue;
    control.scrollIntoView({block: 'center', inline: 'center'});
    const box = control.getBoundingClientRect();
    if (box.width < 1 || box.left < -1 || box.right > window.innerWidth + 1)
      out.push(control.id || control.textContent.trim().slice(0, 40));
  }
  return {wide, width: root.scrollWidth, out};
}"""


async def test_usable_at_a_phones_width(played: Program, watched: Watched) -> None:
    page = watched.page
    await page.set_viewport_size(PHONE)
    for address in addresses(played):
        await open_page(watched, played.base + address)
        seen = await page.evaluate(PHONE_CHECK)
        assert not seen["wide"], (address, seen["width"])  # no sideways scroll of the page
        assert not seen["out"], (address, seen["out"])  # every control reachable
    # the replay's controls are there and work by touch at that width
    await open_page(watched, f"{played.base}/g/{played.game}?hand=1&step=0")
    await page.click("#replay-next")
    assert await page.get_attribute("#replay", "data-step") == "1"
