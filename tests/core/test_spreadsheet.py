"""The CSV the web pages give (the tournament's standings) opens in a spreadsheet as
text: no cell is read as a formula (OWASP's CSV injection), and numbers stay numbers."""

from __future__ import annotations

import csv
import io

from bot.core.spreadsheet import defused


def test_a_cell_that_would_be_a_formula_is_text() -> None:
    attacks = ['=HYPERLINK("http://x";"y")', "+1+2", "-2+3", "@SUM(A1)", "\t=1", "\r=1"]
    text = io.StringIO()
    csv.writer(text).writerows([["team", "difference"], *([a, "-12"] for a in attacks)])
    rows = list(csv.reader(io.StringIO(defused(text.getvalue()))))
    assert rows[0] == ["team", "difference"]
    assert [r[0] for r in rows[1:]] == ["'" + a for a in attacks]
    assert all(r[1] == "-12" for r in rows[1:])  # a negative number is a number


def test_plain_cells_are_untouched() -> None:
    text = 'place,team\r\n1,Los Primos\r\n2,"Ana, Beto"\r\n3,2.5\r\n'
    assert defused(text) == text
