"""leaderboard --format xlsx: a workbook holding the leaderboard's numbers, exactly."""
import io
from datetime import date, datetime

import pytest

from .conftest import SAMPLES, make_club

openpyxl = pytest.importorskip("openpyxl")


def test_xlsx_holds_the_leaderboard(cli, cli_json, tmp_path):
    club = SAMPLES / "chess-club"
    out = tmp_path / "board.xlsx"
    result = cli("leaderboard", "--club", club, "--format", "xlsx", "--output", out)
    assert result.exit_code == 0, result.output
    sheet = openpyxl.load_workbook(out).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[1][:4] == ("#", "Player", "Name", "Rating")
    board = cli_json("leaderboard", "--club", club)
    for row, expected in zip(rows[2:], board):
        assert row[1] == expected["player"] and row[3] == pytest.approx(expected["rating"], rel=1e-14)
    # Seed 003's final list: Вера 1220.00, Анна 1199.42, Борис 1190.58, Глеб 1190.00; 3 games each.
    assert [(r[1], round(r[3], 2), r[4]) for r in rows[2:6]] == [
        ("vera", 1220.00, 3), ("anna", 1199.42, 3), ("boris", 1190.58, 3), ("gleb", 1190.00, 3)]
    assert sheet["D4"].number_format == "0.00" and isinstance(sheet["G3"].value, datetime)


def test_xlsx_to_a_pipe_and_names_stay_text(cli, tmp_path):
    journal = """\
[[player]]
id = "x"
name = "=HYPERLINK(\\"http://example.com\\")"

[[match]]
date = 2024-01-01
players = ["x", "y"]
result = "1-0"

[[player]]
id = "y"
name = "Y"
"""
    club = make_club(tmp_path / "club", journal)
    result = cli("leaderboard", "--club", club, "--format", "xlsx")
    assert result.exit_code == 0, result.output
    sheet = openpyxl.load_workbook(io.BytesIO(result.stdout_bytes)).active
    names = [row[2] for row in sheet.iter_rows(min_row=3, values_only=True)]
    assert '=HYPERLINK("http://example.com")' in names
    cell = next(c for c in sheet["C"] if c.value == names[names.index('=HYPERLINK("http://example.com")')])
    assert cell.data_type == "s"
    assert isinstance(sheet["G3"].value, date) or sheet["G3"].is_date


def test_xlsx_refused_without_openpyxl(cli, tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "openpyxl", None)
    out = tmp_path / "board.xlsx"
    result = cli("leaderboard", "--club", SAMPLES / "chess-club", "--format", "xlsx", "-o", out)
    assert result.exit_code == 1 and "pip install 'nardrating[xlsx]'" in result.stderr and not out.exists()


def test_output_is_for_xlsx_only(cli, tmp_path):
    out = tmp_path / "board.csv"
    result = cli("leaderboard", "--club", SAMPLES / "chess-club", "--format", "csv", "--output", out)
    assert result.exit_code == 2 and "--output is for --format xlsx" in result.output and not out.exists()
