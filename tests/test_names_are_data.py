"""Names are data: whatever a player, note or title says is shown literally, in every format;
rich markup, emoji codes and Markdown stay text, control characters are shown escaped."""
import csv
import io
import json

import pytest

from nardrating.render import md_text, to_csv, to_json, to_markdown, visible
from nardrating.reports import Column, Table

from .conftest import make_club

# Names rich would read as markup, a hyperlink or an emoji code.
HOSTILE = {"slash": "[/]", "bold": "[bold red]x[/]", "link": "[link=http://e.x]y[/link]", "emoji": ":x:"}


@pytest.fixture
def club(tmp_path):
    players = "".join(f'[[player]]\nid = "{pid}"\nname = "{name}"\n\n' for pid, name in HOSTILE.items())
    matches = ('[[match]]\nid = "m1"\ndate = 2009-01-15\nplayers = ["slash", "bold"]\nwinner = "slash"\n\n'
               '[[match]]\nid = "m2"\ndate = 2009-01-16\nplayers = ["link", "emoji"]\nwinner = "emoji"\n\n'
               '[[match]]\nid = "m3"\ndate = 2009-01-16\nplayers = ["slash", "emoji"]\nwinner = "emoji"\n\n'
               '[[adjust]]\nplayer = "emoji"\ndate = 2009-01-17\ndelta = 5\nreason = "[bold]by decision[/] :x:"\n')
    return make_club(tmp_path / "club", players + matches)


ALL_NAMES = list(HOSTILE.values())


# FORCE_COLOR makes rich treat the output as a terminal: styles, hyperlinks and emoji would show.
@pytest.mark.parametrize("env", [{}, {"FORCE_COLOR": "1"}], ids=["pipe", "terminal"])
@pytest.mark.parametrize("command, expected", [
    (["leaderboard", "--as-of", "2009-12-31"], ALL_NAMES),
    (["players"], ALL_NAMES),
    (["history", "slash"], ["[/] (slash)"]),  # the title
    (["history", "emoji"], [":x: (emoji)", "[bold]by decision[/] :x:"]),  # the title, an adjustment's reason
], ids=["leaderboard", "players", "history-title", "history-note"])
def test_markup_in_names_is_shown_literally(cli, club, command, expected, env):
    result = cli(*command, "--club", club, env=env)
    assert result.exit_code == 0, result.output
    assert [text for text in expected if text in result.stdout] == expected
    assert "❌" not in result.stdout  # what the emoji code :x: would become
    assert "\x1b]8;" not in result.stdout  # a terminal hyperlink
    assert "\x1b[1;31m" not in result.stdout and "\x1b[31m" not in result.stdout  # bold red


def test_markup_names_in_every_format(cli_json, cli, club):
    rows = cli_json("leaderboard", "--as-of", "2009-12-31", "--club", club)
    assert sorted(r["name"] for r in rows) == sorted(HOSTILE.values())
    md = cli("leaderboard", "--as-of", "2009-12-31", "--club", club, "--format", "md").stdout
    # Markdown escapes: the brackets are not a link, the colon not an emoji code.
    assert "\\[bold red\\]x\\[/\\]" in md and "\\[link=http\\://e.x\\]y\\[/link\\]" in md and "\\:x:" in md


ESC_TABLE = Table("Players of \x1b[2J club", [Column("player", "Player"), Column("name", "Name")],
                  [{"player": "a", "name": "\x1b[31mred"}, {"player": "b", "name": "two\nlines"},
                   {"player": "c", "name": "bell\x07 del\x7f csi\x9b rlo\u202e"}],
                  caption="tab\there")


def test_control_characters_are_shown_escaped_in_tables():
    from rich.console import Console

    out = io.StringIO()
    from nardrating.render import print_table

    print_table(ESC_TABLE, Console(file=out, width=200))
    text = out.getvalue()
    assert text.splitlines() == [
        "Players of \\x1b[2J club",
        "Player  Name",
        "─" * 42,  # "Player" 6 + 2 + the widest name: 8 + 8 + 8 + 10 (bell\\x07, del\\x7f, csi\\x9b, rlo\\u202e, spaces)
        "a       \\x1b[31mred",
        "b       two\\nlines",
        "c       bell\\x07 del\\x7f csi\\x9b rlo\\u202e",
        "tab\\there",
    ]
    assert not [ch for ch in text if ord(ch) < 32 and ch != "\n" or 0x7f <= ord(ch) <= 0x9f]


def test_visible_escapes_only_controls():
    assert visible("Эльдар [b] :x: \\ ok") == "Эльдар [b] :x: \\ ok"
    assert visible("a\r\nb\tc\x00\x1b\x85\u2028") == "a\\r\\nb\\tc\\x00\\x1b\\x85\\u2028"


def test_markdown_escapes_pipes_newlines_and_markup():
    md = to_markdown(ESC_TABLE)
    assert "**Players of \\x1b\\[2J club**" in md
    assert "| b | two<br>lines |" in md
    assert md_text("a|b\nc") == "a\\|b<br>c"
    assert md_text("*x* _y_ `z` <b>&amp; ~s~ $m$") == "\\*x\\* \\_y\\_ \\`z\\` \\<b\\>\\&amp; \\~s\\~ \\$m\\$"
    # A colon only before an emoji code or a link; a caption is not a heading or a list item.
    assert md_text("10:30 :x: http://e.x") == "10:30 \\:x: http\\://e.x"
    table = Table("t", [Column("name", "Name")], [{"name": "a|b\r\nc"}], caption="# not a heading")
    lines = to_markdown(table).splitlines()
    assert lines[4] == "| a\\|b<br>c |" and lines[-1] == "\\# not a heading"
    assert lines[4].count(" | ") == 0  # one cell: the pipe is escaped


def test_csv_and_json_carry_the_exact_string():
    rows = list(csv.reader(io.StringIO(to_csv(ESC_TABLE), newline="")))
    assert [r[1] for r in rows[1:]] == ["\x1b[31mred", "two\nlines", "bell\x07 del\x7f csi\x9b rlo\u202e"]
    text = to_json(ESC_TABLE)
    assert "\x1b" not in text and "\x9b" not in text and "\x7f" not in text  # escaped as \u00XX
    assert [r["name"] for r in json.loads(text)] == [r["name"] for r in ESC_TABLE.rows]


def _no_constants(name):
    raise AssertionError(f"{name} is not JSON")


@pytest.mark.parametrize("rows", [1, 300], ids=["indented", "one row a line"])
def test_json_is_strict_non_finite_numbers_are_null(rows):
    table = Table("t", [Column("r", "R", "rating")],
                  [{"r": float("nan"), "x": [float("inf")], "y": {"z": -float("inf")}, "ok": 1.5}] * rows)
    data = json.loads(to_json(table), parse_constant=_no_constants)
    assert data[0] == {"r": None, "x": [None], "y": {"z": None}, "ok": 1.5}
    assert len(data) == rows
