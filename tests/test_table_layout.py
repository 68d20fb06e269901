"""Tables anywhere: natural width in a pipe, whole columns left out (never wrapped) in a narrow
terminal, no trailing spaces, one text whether rich styles it or not, fixed decimals per column."""
import io
import json
import os
import re
import shutil
import subprocess
import sys

import pytest
from rich.console import Console

from nardrating.render import FOLD_ORDER, fold, print_table, table_lines
from nardrating.reports import Column, Section, Table

from .conftest import ROOT, SAMPLES, make_club

FEDERATION_Q1 = ["report", "--period", "2009-Q1"]
# Widths by hand: Player 9 (petrosyan), Name 15 (Алексей Сидоров), Before 6, Games 5, Points 6,
# Expected 8, Change 6, After 5, Status 19 (inactive (3 months)), Protected 9; two spaces between.
FEDERATION_HEADER = ("Player     Name             Before  Games  Points  Expected  Change  After  "
                     "Status               Protected")


def test_piped_report_has_natural_width_and_no_trailing_spaces(tmp_path):
    club = tmp_path / "federation-2009"
    shutil.copytree(SAMPLES / "federation-2009", club)
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "FORCE_COLOR")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-m", "nardrating", *FEDERATION_Q1, "--club", str(club)],
                          capture_output=True, text=True, encoding="utf-8", env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line for line in lines if line != line.rstrip()] == []
    assert lines[1] == FEDERATION_HEADER
    assert len(lines) == 3 + 16 + 1  # title, header, rule, 16 players, Total: no name or status wrapped
    assert lines[3] == "bagirov    Эльдар Багиров     2405      9     8.0      5.85     +22   2427  active"
    assert lines[15] == "romanov    Виктор Романов     2100      0     0.0                +0   2100  inactive (3 months)"
    assert lines[14].endswith("active               open-2009")


SAMPLE_COMMANDS = [
    ["leaderboard", "--club", SAMPLES / "chess-club", "--as-of", "2009-12-31"],
    ["leaderboard", "--club", SAMPLES / "fide-club", "--as-of", "2025-04-01"],
    ["history", "vagif", "--club", SAMPLES / "nardy-club"],
    ["history", "avakyan", "--club", SAMPLES / "federation-2009"],
    ["players", "--club", SAMPLES / "nardy-club"],
    ["report", "--club", SAMPLES / "federation-2009", "--period", "2009-Q1", "--details"],
]


@pytest.mark.parametrize("columns", [None, "100", "40"], ids=["pipe", "100", "40"])
@pytest.mark.parametrize("command", SAMPLE_COMMANDS, ids=[f"{c[0]}-{c[c.index('--club') + 1].name}" for c in SAMPLE_COMMANDS])
def test_no_line_ends_in_a_space(cli, command, columns):
    result = cli(*command, env={"COLUMNS": columns})
    assert result.exit_code == 0, result.output
    assert [line for line in result.stdout.splitlines() if line != line.rstrip()] == []
    if columns:
        # Tables keep to the width (a rule spans its table); titles, notes and the "not shown" line
        # are single lines that a terminal wraps.
        rules = [len(line) for line in result.stdout.splitlines() if line.startswith("─")]
        assert rules and max(rules) <= int(columns)


def test_narrow_terminal_leaves_out_columns_in_priority_order(cli):
    result = cli(*FEDERATION_Q1, "--club", SAMPLES / "federation-2009", env={"COLUMNS": "40"})
    lines = result.stdout.splitlines()
    # FOLD_ORDER for a report: player 9, change 6, after 5, before 6 = 26 + 3 gaps of 2 = 32 <= 40;
    # the next, name (15), would make 49. Shown in the table's own order.
    # The title wraps at the 40 columns (at spaces), the header follows it.
    header = lines.index("Player     Before  Change  After")
    assert lines[header:header + 3] == ["Player     Before  Change  After", "─" * 32, "bagirov      2405     +22   2427"]
    assert max(map(len, lines)) <= 40
    # The notice itself is wrapped to the 40 columns, its lines after the first indented as a
    # caption's are.
    notice = lines[lines.index(next(line for line in lines if line.startswith("not shown"))):]
    assert max(map(len, notice)) <= 40
    assert all(line.startswith("  ") and not line.startswith("   ") for line in notice[1:])
    assert " ".join(map(str.strip, notice)) == ("not shown at 40 columns: Name, Games, Points, Expected, Status, "
                                                "Protected; a wider terminal or --format csv shows them")


def test_narrow_history_keeps_date_result_change_after(cli):
    result = cli("history", "vagif", "--club", SAMPLES / "nardy-club", env={"COLUMNS": "40"})
    # date 10, change 6, result 6, after 7: 29 + 3 gaps = 35; before (7) would make 44.
    # The engine's details (probability, boost, ...) go before any of these.
    lines = result.stdout.splitlines()
    header = lines.index("Date        Result  Change    After")  # below the title, wrapped at 40
    assert lines[header + 2] == "2025-01-09       0   +0.00  1500.00"


def test_fold_takes_columns_in_the_stated_order():
    columns = [Column(key, key) for key in ("engine_detail", "status", "name", "after", "change", "player")]
    widths = [10] * len(columns)
    # Every limit keeps a prefix of FOLD_ORDER: player, change, after, name, status; the engine's last.
    expected = {9: ["player"], 21: ["player"], 22: ["change", "player"], 34: ["after", "change", "player"],
                46: ["name", "after", "change", "player"], 70: [c.key for c in columns]}
    for limit, keys in expected.items():
        assert [c.key for c in fold(columns, widths, limit)] == [k for k in (c.key for c in columns) if k in keys]
    assert fold(columns, widths, None) == columns
    # predict's outcomes (if A wins, if B wins, if drawn) come right after how a rating moved
    assert FOLD_ORDER[:10] == ("player", "rating", "date", "change", "a_wins", "b_wins", "draw", "result", "after",
                               "before")


def _table(rows):
    columns = [Column("rank", "#", "int"), Column("player", "Player"), Column("name", "Name"),
               Column("rating", "Rating", "rating"), Column("change", "Change", "change"),
               Column("status", "Status")]
    return Table("list · 漢字 club", columns, rows, caption="2 player(s) not shown")


ROWS = [{"rank": n, "player": f"p{n}", "name": ["Анна", "李小龍", "Eldar Bağırov"][n % 3],
         "rating": 1200 + 10.5 * n, "change": -0.004 * n, "status": "" if n % 2 else "provisional"}
        for n in range(1, 11)]


def _render(table, terminal: bool) -> str:
    out = io.StringIO()
    print_table(table, Console(file=out, width=300, force_terminal=terminal, color_system="truecolor"))
    return out.getvalue()


@pytest.mark.parametrize("copies", [1, 7], ids=["10 rows", "70 rows"])
def test_terminal_and_plain_output_are_the_same_text(copies):
    """Short and long tables (over 60 rows, which once had a renderer of their own), with a
    titled section: in a terminal rich styles the title and header lines, and that is all."""
    table = _table(ROWS * copies)
    table.sections.append(Section("Provisional", ROWS[:2]))
    styled, plain = _render(table, True), _render(table, False)
    assert "\x1b[" in styled  # rich did style the title and header
    assert re.sub(r"\x1b\[[0-9;]*m", "", styled) == plain  # the only difference: styling codes
    lines = plain.splitlines()
    assert len(lines) == 3 + 10 * copies + 3 + 2 + 1  # title, header, rule, rows; the section's; caption
    # Row 10 of each copy: rank 10, p10, 10 % 3 = 1 → 李小龍, 1200 + 10.5 · 10 = 1305.00, −0.04.
    assert lines[3 + 10 * copies - 1] == "10  p10     李小龍         1305.00   -0.04  provisional"
    assert lines[3 + 10 * copies] == "Provisional"


def test_history_notes_are_numbered_under_the_table(cli, tmp_path):
    """A history's reasons (voided, unrated…) become numbered notes, marked in a Notes column."""
    club = make_club(tmp_path / "club", '[[player]]\nid = "anna"\n[[player]]\nid = "boris"\n'
                     + "".join(f'[[match]]\nid = "m000{n}"\ndate = 2009-01-1{n}\nplayers = ["anna", "boris"]\n'
                               f'winner = "{w}"\n{extra}'
                               for n, w, extra in ((1, "anna", ""), (2, "boris", ""), (3, "boris", "rated = false\n")))
                     + '[[void]]\nmatch = "m0002"\ndate = 2009-01-14\nreason = "entered twice"\n')
    result = cli("history", "anna", "--club", club)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    # K = 20, both at 1200: E = 0.5, anna's win +20 · 0.5 = +10.00; the voided and the unrated
    # game change nothing and carry a note each, numbered in order.
    assert lines[1].split() == ["Date", "Entry", "Opponent", "Result", "Before", "Change", "After", "Expected", "Notes"]
    assert lines[3].split() == ["2009-01-11", "m0001", "boris", "1", "1200.00", "+10.00", "1210.00", "0.5000"]
    assert lines[4].split()[1] == "m0002" and lines[4].endswith("[1]")
    assert lines[5].split()[1] == "m0003" and lines[5].endswith("[2]")
    assert lines[-2:] == ["[1] m0002: voided", "[2] m0003: unrated"]
    csv_lines = cli("history", "anna", "--club", club, "--format", "csv").stdout.splitlines()
    assert [line.rsplit(",", 1)[1] for line in csv_lines] == ["reason", "", "voided", "unrated"]  # CSV: no notes


def test_long_and_short_tables_are_laid_out_alike():
    short, long = _render(_table(ROWS), False).splitlines(), _render(_table(ROWS * 7), False).splitlines()
    head, body, caption = short[:3], short[3:-1], short[-1:]
    assert long == head + body * 7 + caption
    # Wide characters count two cells: 李小龍 is as wide as "Eldar " and pads the column alike.
    assert short[1] == " #  Player  Name            Rating  Change  Status"
    assert short[3] == " 1  p1      李小龍         1210.50   +0.00"  # -0.004 shows as +0.00


def test_decimals_are_fixed_per_column():
    columns = [Column("expected", "Expected", "number"), Column("points", "Points", "number"),
               Column("whole", "Whole", "number"), Column("rating", "Rating", "rating"),
               Column("int_rating", "Int rating", "rating"), Column("change", "Change", "change"),
               Column("int_change", "Int change", "change")]
    rows = [{"expected": 0.5, "points": 8.0, "whole": 8.0, "rating": 1200.0, "int_rating": 2405, "change": -0.001,
             "int_change": 0},
            {"expected": 0.5144, "points": 7.5, "whole": 5, "rating": 1199.4245, "int_rating": 2100, "change": 9.42,
             "int_change": -6},
            {"expected": 0.514, "points": 5.0, "whole": 6.0, "rating": 1190, "int_rating": None, "change": 20,
             "int_change": 22}]
    lines = [line for line, _ in table_lines(Table("t", columns, rows), None)]
    # expected: always 2 decimals; points: the fewest that show every value (7.5 needs 1); whole
    # numbers: none; ratings and changes: 2, or none when the engine keeps whole numbers (ints);
    # a change rounding to zero is +0.00, never -0.00.
    assert lines[1] == "Expected  Points  Whole   Rating  Int rating  Change  Int change"
    assert lines[3:] == ["    0.50     8.0      8  1200.00        2405   +0.00          +0",
                         "    0.51     7.5      5  1199.42        2100   +9.42          -6",
                         "    0.51     5.0      6  1190.00              +20.00         +22"]


def test_narrow_changes_keep_both_ratings_and_the_change(cli, tmp_path):
    # On 80 columns `changes` left out "Rating after" (its key was not in FOLD_ORDER, so it went
    # before Name): the number a player asks about. Widths by hand on the nardy club, 2025-03-01 →
    # 2025-03-10: Player 6, Rank before 11, Rank after 10, Rating before 13, Rating after 12,
    # Change 6 = 58 + 5 gaps of 2 = 68 <= 80; Name (14) would make 84.
    result = cli("changes", "--since", "2025-03-01", "--to", "2025-03-10", "--club", SAMPLES / "nardy-club",
                 env={"COLUMNS": "80"})
    lines = result.stdout.splitlines()
    assert lines[1] == "Player  Rank before  Rank after  Rating before  Rating after  Change"
    # The first row is the leaderboard's first on both days (vagif), its ratings as the leaderboard
    # gives them then, each right-aligned under its heading, the change their difference.
    boards = [json.loads(cli("leaderboard", "--as-of", day, "--club", SAMPLES / "nardy-club", "-f", "json").stdout)[0]
              for day in ("2025-03-01", "2025-03-10")]
    before, after = (board["rating"] for board in boards)
    assert boards[0]["player"] == boards[1]["player"] == "vagif"
    assert lines[3] == f"{'vagif':<6}  {1:>11}  {1:>10}  {before:>13.2f}  {after:>12.2f}  {after - before:>+6.2f}"
    assert "not shown at 80 columns: Name, Games added, Entries" in " ".join(lines)


def test_narrow_report_details_keep_the_arithmetic_and_wrap_the_opponents_ratings(cli, tmp_path):
    # Seed 000's worked example (tests/test_mfsnb_seed.py): a, 2337, against nine opponents averaging 2312,
    # D 25 → Pe 0.53, E 4.77, P 6.5, +17. At 80 columns the nine ratings took the row's room, and Ra,
    # the difference, Pe, E and P were left out; the ratings now wrap, one or more a line.
    from .test_mfsnb_seed import worked_example

    club = worked_example(tmp_path / "fed")
    lines = cli("report", "--period", "2009-Q1", "--details", "--club", club, env={"COLUMNS": "80"}).stdout.splitlines()
    header = lines.index("a (a)") + 1
    assert lines[header].split() == ["Id", "System", "Opponents", "Ratings", "Ra", "Difference", "Pe", "E", "P", "Change"]
    first = lines[header + 2].split()
    assert first[:3] == ["open", "swiss", "9"] and first[-6:] == ["2312", "25", "0.53", "4.77", "6.5", "+17"]
    ratings = " ".join(lines[header + 2:header + 12]).replace(";", " ").split()
    assert [r for r in ratings if r in {"2405", "2380", "2350", "2330", "2310", "2290", "2270", "2250", "2223"}] == [
        "2405", "2380", "2350", "2330", "2310", "2290", "2270", "2250", "2223"]
    assert max(map(len, lines)) <= 80
    # o0 (2405) lost to a: D 68 → Pe 0.59, E 0.59, P 0, R = 10 × (0 − 0.59) = −5.9 → −6. A P of 0 was left
    # out as an engine's column that is zero throughout (no penalty, say); it is the arithmetic here.
    o0 = lines.index("o0 (o0)") + 1
    assert lines[o0].split()[-3:] == ["E", "P", "Change"]
    assert lines[o0 + 2].split()[-6:] == ["2337", "68", "0.59", "0.59", "0", "-6"]


def test_report_details_give_a_games_expected_score_as_history_and_the_seed_do(cli):
    # Seed 003's second example: Анна, 1210, loses to Вера, 1200: E = 1/(1 + 10^(-10/400)) = 0.5144,
    # 20 × (0 − 0.5144) = −10.29. The per-game details wrote E as 0.51, from which −10.29 cannot be redone.
    lines = cli("report", "--club", SAMPLES / "chess-club", "--period", "2009-01", "--details", "--player", "anna",
                env={"COLUMNS": "100"}).stdout.splitlines()
    row = next(line for line in lines if " m0003 " in line).split()
    assert row == ["2009-01-22", "m0003", "vera", "0", "1210.00", "0.5144", "20", "-10.29", "1199.71"]
