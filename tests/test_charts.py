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
    assert "2024-01-01" in lines[6] and lines[6].endswith("2024-12-31")
    assert lines[-1] == "● a"


def test_history_chart_in_the_terminal_with_vs(cli):
    result = cli("history", "ivanov", "--club", FED, "--chart", "--vs", "petrosyan")
    assert result.exit_code == 0, result.output
    assert "● Пётр Иванов  ○ Карен Петросян" in result.stdout
    # Ivanov starts at 2310 (seed: MS 2310 on the list of 2008-12-31), the chart's top left.
    assert "2008-12-31" in result.stdout


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
