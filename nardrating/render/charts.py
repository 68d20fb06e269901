"""Rating-over-time charts: inline SVG (the site and `history --chart out.svg`), a text plot for
the terminal, PNG through matplotlib (the optional extra `[plot]`).

A series is a label and its (date, rating) points, in date order. The SVG is written here, not by
a library: the site needs it inline, with no script and nothing to fetch, and one implementation
serves both the site and the .svg file. Every label is data and is escaped.
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import date
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ..errors import ActionRefused
from .text import visible

if TYPE_CHECKING:
    from ..engines.base import RatingResult


class Point(NamedTuple):
    day: date
    rating: float


class Series(NamedTuple):
    label: str
    points: list[Point]


# Colours with at least 4.5:1 contrast on white (WCAG AA), told apart also by their markers.
COLOURS = ("#1f5fa8", "#b03a2e", "#1e7b4a", "#7a4fa0", "#8a5a00", "#006d77")
MARKERS = "●○■□▲△"


def rating_points(result: RatingResult, player: str) -> list[Point]:
    """The player's rating after each event that set one, in the list's order."""
    return [Point(e.date, float(e.after)) for e in result.history(player) if e.after is not None]


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round values spanning low..high, about `count` of them (1, 2 or 5 times a power of ten apart)."""
    if high <= low:
        low, high = low - 10, high + 10
    raw = (high - low) / max(count - 1, 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(s * power for s in (1, 2, 5, 10) if s * power >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value < high + step:
        ticks.append(value)
        value += step
    return ticks


def _bounds(series: list[Series]) -> tuple[int, int, list[float]]:
    """The first and last day (ordinals) and the rating ticks of the charted points."""
    points = [p for _, pts in series for p in pts]
    if not points:
        raise ActionRefused("no ratings to chart: the player has no rated events in this list")
    days = [d.toordinal() for d, _ in points]
    values = [v for _, v in points]
    ticks = nice_ticks(min(values), max(values))
    return min(days), max(days), ticks


def rating_label(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.1f}"


def svg(series: list[Series], title: str, width: int = 720, height: int = 300, chart_id: str = "chart") -> str:
    """A line chart as an <svg> element: an accessible title, axes, one polyline and markers per series.

    `chart_id` names its title element: unique on a page that holds several charts."""
    first, last, ticks = _bounds(series)
    left, right, top, bottom = 60, 16, 16, 44 + 22 * (len(series) > 1)
    plot_w, plot_h = width - left - right, height - top - bottom
    span = max(last - first, 1)

    def x(day: date) -> float:
        return left + (day.toordinal() - first) / span * plot_w if last > first else left + plot_w / 2

    def y(value: float) -> float:
        return top + (ticks[-1] - value) / (ticks[-1] - ticks[0]) * plot_h

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
           f'aria-labelledby="{chart_id}-title" class="chart" font-family="sans-serif" font-size="15">',
           f'<title id="{chart_id}-title">{escape(visible(title))}</title>',
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>']
    for value in ticks:
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(value):.1f}" y2="{y(value):.1f}" stroke="#ddd"/>'
                   f'<text x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end" fill="#333">{rating_label(value)}</text>')
    days = _date_ticks(first, last)
    for n, day in enumerate(days):
        anchor = "start" if n == 0 and len(days) > 1 else "end" if n == len(days) - 1 and n else "middle"
        out.append(f'<text x="{x(day):.1f}" y="{top + plot_h + 20}" text-anchor="{anchor}" fill="#333">'
                   f'{day.isoformat()}</text>')
    out.append(f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}" stroke="#555"/>'
               f'<line x1="{left}" x2="{width - right}" y1="{top + plot_h}" y2="{top + plot_h}" stroke="#555"/>')
    for n, (label, points) in enumerate(series):
        colour = COLOURS[n % len(COLOURS)]
        coords = " ".join(f"{x(d):.1f},{y(v):.1f}" for d, v in points)
        out.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2"/>')
        if len(points) <= 60:
            filled = "#fff" if n % 2 else colour
            out += [f'<circle cx="{x(d):.1f}" cy="{y(v):.1f}" r="3" fill="{filled}" stroke="{colour}">'
                    f'<title>{escape(visible(label))} {d.isoformat()}: {rating_label(v)}</title></circle>' for d, v in points]
        if len(series) > 1:
            lx = left + n * (plot_w / len(series))
            out.append(f'<rect x="{lx:.1f}" y="{height - 14}" width="14" height="4" fill="{colour}"/>'
                       f'<text x="{lx + 18:.1f}" y="{height - 8}" fill="#222">{escape(visible(label))}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _date_ticks(first: int, last: int, count: int = 4) -> list[date]:
    if last == first:
        return [date.fromordinal(first)]
    return [date.fromordinal(round(first + (last - first) * k / (count - 1))) for k in range(count)]


def text_plot(series: list[Series], width: int = 72, height: int = 12) -> list[str]:
    """The chart as lines of text: a y axis of ratings, one marker per series, dates below."""
    first, last, ticks = _bounds(series)
    low, high = ticks[0], ticks[-1]
    label_w = max(len(rating_label(t)) for t in ticks)
    cols = max(width - label_w - 2, 10)
    grid = [[" "] * cols for _ in range(height)]

    def cell(day: int, value: float) -> tuple[int, int]:
        col = round((day - first) / (last - first) * (cols - 1)) if last > first else cols // 2
        row = round((high - value) / (high - low) * (height - 1))
        return row, col

    for n, (_, points) in enumerate(series):
        marker = MARKERS[n % len(MARKERS)]
        cells = [cell(d.toordinal(), v) for d, v in points]
        for (r0, c0), (r1, c1) in zip(cells, cells[1:]):  # the line between two points, one mark a column
            for c in range(c0 + 1, c1):
                r = round(r0 + (r1 - r0) * (c - c0) / (c1 - c0))
                if grid[r][c] == " ":
                    grid[r][c] = "·"
        for r, c in cells:
            grid[r][c] = marker
    labels = {round((high - t) / (high - low) * (height - 1)): rating_label(t) for t in ticks}
    lines = [f"{labels.get(r, ''):>{label_w}} ┤" + "".join(row).rstrip() for r, row in enumerate(grid)]
    lines.append(" " * label_w + " └" + "─" * cols)
    start, end = date.fromordinal(first).isoformat(), date.fromordinal(last).isoformat()
    lines.append(" " * (label_w + 2) + start + end.rjust(cols - len(start)) if last > first
                 else " " * (label_w + 2) + start)
    lines.append("  ".join(f"{MARKERS[n % len(MARKERS)]} {label}" for n, (label, _) in enumerate(series)))
    return lines


def write(series: list[Series], path: Path, title: str, protect: Iterable[Path] = ()) -> None:
    """An .svg (written here) or a .png (matplotlib) file of the chart, whole or not at all, never
    over one of `protect` (safewrite.py); nothing written on a refusal."""
    from ..safewrite import check_target, replace_file

    suffix = path.suffix.lower()
    if suffix in (".svg", ".png"):
        check_target(path, protect)  # refused before the chart is drawn
    if suffix == ".svg":
        text = '<?xml version="1.0" encoding="UTF-8"?>\n' + svg(series, title) + "\n"
        replace_file(path, text.encode("utf-8"), protect=protect)
    elif suffix == ".png":
        replace_file(path, _png(series, title), protect=protect)
    else:
        raise ActionRefused(f"{path}: a chart file ends in .svg or .png")


def _png(series: list[Series], title: str) -> bytes:
    _bounds(series)  # refuse an empty chart before importing anything
    try:
        import matplotlib
    except ImportError:
        raise ActionRefused("a PNG chart needs matplotlib: pip install 'nardrating[plot]' "
                            "(an .svg chart needs nothing more)") from None
    matplotlib.use("Agg")  # files only, never a window
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 3.4), dpi=100)
    axes = figure.subplots()
    for n, (label, points) in enumerate(series):
        axes.plot([p.day for p in points], [p.rating for p in points],  # type: ignore[arg-type]  # dates: matplotlib plots them, its stubs say numbers
                  marker="o", markersize=3, color=COLOURS[n % len(COLOURS)], label=label)
    axes.set_title(title)
    axes.set_ylabel("rating")
    axes.grid(True, color="#ddd")
    if len(series) > 1:
        axes.legend()
    figure.autofmt_xdate()
    figure.tight_layout()
    import io

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
