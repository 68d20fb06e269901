"""Numbers in cells are ASCII digits: int() and float() also read digits of other scripts ("٣" is 3)
and underscores ("1_0" is 10), and str.isdigit() takes "²", which int() refuses. A CSV journal, a
CSV sheet to import and a printed list each refuse such a cell (or read it as no number), never
misread it. (tests/test_lists.py has the printed list.)"""
from __future__ import annotations

import pytest

from nardrating.digits import decimal_number, other_digits, whole_number

from .conftest import make_club
from .test_import_files import refused, write

CSV_CONFIG = '''[club]
name = "CSV club"
journal = ["games.csv"]
default_discipline = "long-nardy"

[rating.fibs]
engine = "fibs"
'''


def test_the_rules():
    assert [whole_number(t) for t in ("7", " 12 ", "007", "٣", "1_0", "²", "+3", "-1", "", "3.0")] == \
        [7, 12, 7, None, None, None, None, None, None, None]
    assert whole_number("1234567890") is None and whole_number("1234567890", longest=10) == 1234567890
    assert [decimal_number(t) for t in ("12.5", " 3 ", "1e2", "١٢", "1_0", "x", "")] == [12.5, 3.0, 100.0, None, None, None, None]
    assert other_digits("２１００") and other_digits("²") and not other_digits("2100") and not other_digits("Ёлка")


@pytest.mark.parametrize("quoted", [False, True], ids=["plain split", "csv module"])
@pytest.mark.parametrize("column, cell, message", [
    ("length", "٣", "length: '٣' is not a match length"),
    ("length", "1_0", "length: '1_0' is not a match length"),
    ("length", "+3", "length: '+3' is not a match length"),
    ("chips", "١٢", "chips: '١٢' is not a number of chips"),
    ("chips", "1_0", "chips: '1_0' is not a number of chips"),
])
def test_a_csv_journal_refuses_other_digits_at_their_line(cli, tmp_path, quoted, column, cell, message):
    # A quoted cell sends the file through the csv module's careful reading instead of the bulk split.
    note = '"a, b"' if quoted else "x"
    rows = ["id,date,player_a,player_b,result,length,chips,note",
            f"g1,2024-01-05,anna,boris,1-0,3,,{note}",
            "g2,2024-01-06,anna,boris,0-1," + ("{cell},," if column == "length" else "3,{cell},").format(cell=cell) + note]
    club = make_club(tmp_path / "club", "\n".join(rows) + "\n", config=CSV_CONFIG, name="games.csv")
    result = cli("check", "--club", club)
    assert result.exit_code == 1, result.output
    assert "games.csv:3:" in result.output and message in result.output
    assert "Traceback" not in result.output


def test_a_csv_sheet_to_import_refuses_chips_of_other_digits(cli, tmp_path):
    club = make_club(tmp_path / "club")
    sheet = "date,player_a,player_b,result,chips\n2024-01-05,anna,boris,1-0,١٢\n"
    err = refused(cli, club, write(tmp_path, "s.csv", sheet))
    assert "s.csv:2:" in err and "chips '١٢' is not a number" in err
