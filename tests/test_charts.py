"""history --chart: the terminal plot, the .svg (the site's own code) and the .png (matplotlib)."""
import sys
import xml.etree.ElementTree as ET
from datetime import date

import pytest

from nardrating.render.charts import nice_ticks, svg, text_plot

from .conftest import SAMPLES

FED = SAMPLES / "federation-2009"
SVG_NS = "{http://www.w3.org/2000/svg}"


def test_nice_ticks_by_hand():
    # 1981..2313: a quarter of the span is 83, the next of 1, 2, 5 × 10ⁿ is 100: 1900..2400.
    assert nice_ticks(1981, 2313) == [1900, 2000, 2100, 2200, 2300, 2400]
    # 1500..1510: 2.5 → 5; 1500..1510 in fives.
    assert nice_ticks(1500, 1510) == [1500, 1505, 1510]


def test_svg_is_xml_with_a_line_per_player_and_escaped_labels():
    series = [("<b>&", [(date(2024, 1, 1), 1500.0), (date(2024, 2, 1), 1510.0)]),
              ("Борис", [(date(2024, 1, 1), 1490.0)])]
    root = ET.fromstring(svg(series, "A & B"))
    assert root.tag == SVG_NS + "svg" and root.get("role") == "img"
    assert root.find(SVG_NS + "title").text == "A & B"
    assert len(root.findall(SVG_NS + "polyline")) == 2
    assert "<b>&" in [t.text for t in root.iter(SVG_NS + "text")]   # the legend, as text


def test_text_plot_puts_the_first_point_top_left_and_the_last_bottom_right():
    # 1500 → 1400 over a year: a quarter of the span is 25, so ticks 1400, 1450, 1500 (rows 4, 2, 0).
    series = [("a", [(date(2024, 1, 1), 1500.0), (date(2024, 12, 31), 1400.0)])]
    lines = text_plot(series, width=40, height=5)
    assert lines[0].startswith("1500 ┤●") and lines[4].startswith("1400 ┤") and lines[4].endswith("●")
    # 34 columns take 2 date ticks: every 6 months, on the 1st (2024-01-01 is the first point's day, column 0);
    # 2024-07-01 is day 182 of the 364 to the last point: 182/364·33 = 16.5, column 16 (rounded to even),
    # its label centred there (from column 13)
    assert lines[5] == "     └┬" + "─" * 15 + "┬" + "─" * 17 and lines[6] == "      2024-01      2024-07"
    assert lines[-1] == "●· a"
    # the line between the two points is unbroken: a mark in every column from the first to the last
    plot = [line[6:].ljust(34) for line in lines[:5]]
    assert all(any(row[c] != " " for row in plot) for c in range(34))


def test_a_days_games_are_spread_across_it_and_joined():
    # three games on 2024-01-10, one on 2024-01-20: 10 days over 41 columns, 4 columns a day; the day's
    # three at 0, 0.8/3 and 1.6/3 of a day (columns 0, 1.1, 2.1: 0, 1, 2), the last at column 40
    points = [(date(2024, 1, 10), 1500.0), (date(2024, 1, 10), 1510.0), (date(2024, 1, 10), 1520.0),
              (date(2024, 1, 20), 1530.0)]
    plot = text_plot([("a", points)], width=47, height=4)[:4]
    marks = sorted(c for line in plot for c, ch in enumerate(line[6:]) if ch == "●")
    assert marks == [0, 1, 2, 40]


def test_date_ticks_are_round_dates():
    from nardrating.render.charts import date_ticks

    def labels(a, b, count=5):
        return [label for _, label in date_ticks(date(*a).toordinal(), date(*b).toordinal(), count)]

    assert labels((2009, 1, 15), (2009, 1, 18)) == ["2009-01-15", "2009-01-16", "2009-01-17", "2009-01-18"]
    assert labels((2009, 1, 15), (2009, 2, 5)) == ["2009-01-19", "2009-01-26", "2009-02-02"]  # Mondays
    assert labels((2008, 12, 31), (2011, 3, 31)) == ["2009-01", "2009-07", "2010-01", "2010-07", "2011-01"]
    assert labels((2001, 5, 1), (2024, 1, 1)) == ["2005", "2010", "2015", "2020"]
    assert labels((2009, 1, 15), (2009, 1, 15)) == ["2009-01-15"]


def test_history_chart_in_the_terminal_with_vs(cli):
    result = cli("history", "ivanov", "--club", FED, "--chart", "--vs", "petrosyan")
    assert result.exit_code == 0, result.output
    assert "●· Пётр Иванов  ○: Карен Петросян" in result.stdout  # each player's marker and line
    # Ivanov starts at 2310 (seed: MS 2310 on the list of 2008-12-31), the chart's top left.
    assert "2300 ┤●" in result.stdout and "2009-01" in result.stdout


def test_history_chart_svg_file(cli, tmp_path):
    out = tmp_path / "ivanov.svg"
    result = cli("history", "ivanov", "--club", FED, "--chart", out, "--vs", "petrosyan")
    assert result.exit_code == 0, result.output
    root = ET.parse(out).getroot()
    assert root.tag == SVG_NS + "svg" and len(root.findall(SVG_NS + "polyline")) == 2


@pytest.mark.slow   # matplotlib's first import and font cache take seconds
def test_history_chart_png_file(cli, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "ivanov.png"
    result = cli("history", "ivanov", "--club", FED, "--chart", out)
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_png_without_matplotlib_says_what_to_install(cli, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    out = tmp_path / "ivanov.png"
    result = cli("history", "ivanov", "--club", FED, "--chart", out)
    assert result.exit_code == 1 and "pip install 'nardrating[plot]'" in result.stderr and not out.exists()


@pytest.mark.parametrize("args, message", [
    (["--chart", "x.pdf"], "ends in .svg or .png"),
    (["--vs", "petrosyan"], "goes with --chart"),
    (["--chart", "--vs", "nobody"], "unknown player 'nobody'"),
])
def test_chart_refusals(cli, tmp_path, args, message):
    result = cli("history", "ivanov", "--club", FED, *args)
    assert result.exit_code in (1, 2) and message in result.output + result.stderr
    assert not (tmp_path / "x.pdf").exists()
