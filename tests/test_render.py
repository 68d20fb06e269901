"""Output formats: JSON unrounded, CSV safe to open, Markdown and table readable."""
import csv
import io
import json

from nardrating.render import safe_csv_cell, to_csv, to_json
from nardrating.reports import Column, Table

from .conftest import SAMPLES


def test_csv_neutralises_formulas_in_text_columns():
    table = Table("t", [Column("name", "Name"), Column("rating", "Rating", "rating")],
                  [{"name": "=HYPERLINK(\"x\")", "rating": -12.5}, {"name": "+7", "rating": 1.0},
                   {"name": "-x", "rating": 2.0}, {"name": "@SUM(A1)", "rating": 3.0},
                   {"name": "\tx", "rating": 4.0}, {"name": "\rx", "rating": 5.0}, {"name": "Анна", "rating": 6.0}])
    rows = list(csv.reader(io.StringIO(to_csv(table), newline="")))
    assert rows[0] == ["name", "rating"]
    assert [r[0] for r in rows[1:]] == ["'=HYPERLINK(\"x\")", "'+7", "'-x", "'@SUM(A1)", "'\tx", "'\rx", "Анна"]
    # Numbers stay numbers, sign included.
    assert rows[1][1] == "-12.5"


def test_safe_cell_leaves_plain_text():
    assert safe_csv_cell("anna") == "anna"


def test_player_names_with_formulas_in_exported_leaderboard(cli, tmp_path):
    from .conftest import make_club

    club = make_club(tmp_path, '[[player]]\nid = "a"\nname = "=1+1"\n[[player]]\nid = "b"\n'
                               '[[match]]\ndate = 2009-01-01\nplayers = ["a", "b"]\nwinner = "a"\n')
    result = cli("leaderboard", "--club", club, "--format", "csv", "--as-of", "2009-12-31")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert rows[0]["name"] == "'=1+1" and rows[0]["rating"] == "1210.0"


def test_json_keeps_full_precision_and_iso_dates():
    from datetime import date

    table = Table("t", [Column("d", "D", "date"), Column("r", "R", "rating")], [{"d": date(2009, 1, 2), "r": 1199.4245126333599}])
    assert json.loads(to_json(table)) == [{"d": "2009-01-02", "r": 1199.4245126333599}]


def test_markdown_and_report_formats(cli):
    result = cli("report", "--period", "2009-Q1", "--club", SAMPLES / "chess-club", "--format", "md")
    assert result.exit_code == 0
    assert "| Player | Name | Before |" in result.stdout
    assert "| vera | Вера | 1200.00 | 3 | 2.5 |" in result.stdout


def test_report_json_shape(cli_json):
    data = cli_json("report", "--period", "2009Q1", "--club", SAMPLES / "chess-club")
    assert data["rating"] == "club" and data["discipline"] == "chess"
    assert data["period"] == {"start": "2009-01-01", "end": "2009-03-31"}
    vera = next(r for r in data["rows"] if r["player"] == "vera")
    # Vera: ½ v Глеб (E 0.5), 1 v Анна 1210 (E 0.4856), 1 v Борис 1200.29 (E 0.4718…): 2.5 points, start 1200, end 1220.
    assert (vera["before"], vera["games"], vera["points"], round(vera["after"], 2)) == (1200, 3, 2.5, 1220.00)
    assert round(vera["change"], 2) == 20.00
    assert set(vera) >= {"player", "name", "before", "games", "points", "expected", "change", "after", "status"}


def test_empty_period_has_no_rows(cli_json):
    data = cli_json("report", "--period", "2010", "--club", SAMPLES / "chess-club")
    assert data["rows"] == []


def test_a_column_is_written_cell_by_cell_as_cell_text_writes_each_value():
    """column_texts writes a whole column by one writer per value type; each cell must still be
    what cell_text makes of the value with the column's decimals."""
    from datetime import date, datetime

    from nardrating.render import cell_text, column_decimals, column_texts

    values = ["x", None, True, False, 0, 7, -3, 10**30, 1.5, -0.001, 2.675, float("inf"), float("nan"),
              date(2009, 1, 2), datetime(2009, 1, 2, 3, 4), {"chess": 3, "nardy": 1}, ["a", 1], ("b", 2.5)]
    for kind in ("text", "rating", "change", "number", "probability", "int", "date", "score", "auto"):
        column = Column("v", "V", kind)
        cells = values if kind != "score" else ["x", None, 1.0, 0.5, 0.0, 1]
        table = Table("t", [column], [{"v": v} for v in cells])
        decimals = column_decimals(column, cells)
        assert column_texts(table)["v"] == [cell_text(v, column, decimals) for v in cells], kind
    assert column_texts(Table("t", [Column("v", "V", "change")], [{"v": -0.001}, {"v": 2.675}]))["v"] == ["+0.00", "+2.67"]
    # A column of one type of value (the usual) takes a shortcut; so does a row set where every row
    # has every key, or not: each still as cell_text writes it.
    same_type = [["x", "", "ü"], [0, 7, -3, 10**30], [1.5, -0.001, 2.675, -0.0, 1e17, -2.5], [1.0, 3.0],
                 [date(2009, 1, 2), date(1900, 12, 31)], [None, None], [float("inf"), 1.0], [True, False]]
    for kind in ("text", "rating", "change", "number", "probability", "int", "date", "auto"):
        column = Column("v", "V", kind)
        for cells in same_type:
            table = Table("t", [column, Column("w", "W")], [{"v": v, "w": "a"} for v in cells])
            expected = [cell_text(v, column, column_decimals(column, cells)) for v in cells]
            assert column_texts(table)["v"] == expected, (kind, cells)
            table.rows[-1].pop("w")
            assert column_texts(table)["v"] == expected, (kind, cells)
    # A column of mappings (the players list's games per discipline), by hand: each as "key value" pairs;
    # equal ones written once where keys are text and values ints, every one apart where 1, 1.0 and True
    # (equal as keys of a memo) would print differently.
    games = [{"chess": 3, "nardy": 1}, {"chess": 3, "nardy": 1}, {"chess": 2}, {}, {"nardy": 1, "chess": 3}]
    table = Table("t", [Column("games", "Games")], [{"games": v} for v in games])
    assert column_texts(table)["games"] == ["chess 3, nardy 1", "chess 3, nardy 1", "chess 2", "", "nardy 1, chess 3"]
    mixed = [{"a": 1}, {"a": 1.0}, {"a": True}, {1: 2}, {1.0: 2}]
    table = Table("t", [Column("games", "Games")], [{"games": v} for v in mixed])
    assert column_texts(table)["games"] == ["a 1", "a 1.0", "a True", "1 2", "1.0 2"]
    # Worked by hand: -0.001 and -0.004 round to zero, written unsigned (or "+" for a change), never "-0.00".
    assert column_texts(Table("t", [Column("v", "V", "rating")], [{"v": -0.001}, {"v": -0.004}]))["v"] == ["0.00", "0.00"]
    assert column_texts(Table("t", [Column("v", "V", "change")], [{"v": -0.004}, {"v": -0.006}]))["v"] == ["+0.00", "-0.01"]
