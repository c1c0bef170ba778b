"""CSV made safe to open in a spreadsheet (the tournament's standings at ``/t/<key>.csv``,
and every CSV of ``/tournament export`` and of a big event's lists): a cell a spreadsheet
would read as a formula (it begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return: a team called ``=HYPERLINK(...)``) is written as text, behind an apostrophe, as
OWASP's "CSV injection" advice says. A number ("-3", "2.5") stays a number."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"-?\d+(\.\d+)?")


def defused(text: str) -> str:
    """``text`` (CSV) with each cell that would be a formula made text."""
    out = io.StringIO()
    writer = csv.writer(out)
    for row in csv.reader(io.StringIO(text)):
        writer.writerow([cell_of(cell) for cell in row])
    return out.getvalue()


class Writer:
    """``csv.writer`` whose text cells that would be formulas are written as text."""

    def __init__(self, out: io.StringIO) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([cell_of(c) if isinstance(c, str) else c for c in row])


def cell_of(cell: str) -> str:
    if cell.startswith(FORMULA_START) and not NUMBER.fullmatch(cell):
        return "'" + cell
    return cell
