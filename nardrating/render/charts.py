"""Rating-over-time charts: inline SVG (the site and `history --chart out.svg`), a text plot for
the terminal, PNG through matplotlib (the optional extra `[plot]`).

A series is a label and its (date, rating) points, in date order. The SVG is written here, not by
a library: the site needs it inline, with no script and nothing to fetch, and one implementation
serves both the site and the .svg file. Every label is data and is escaped.
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import date, datetime, timedelta
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from ..errors import ActionRefused
from ..i18n import _
from ..i18n.numbers import localized
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


SPREAD = 0.8  # of a day: the events of one day are drawn one after another across it, not on one spot


def positions(points: list[Point]) -> list[float]:
    """Each point's place on the time axis, in days (ordinals): the k-th of a day's n events at
    day + k·SPREAD/n, so that an evening of games reads as steps, not as one stroke."""
    out: list[float] = []
    k = 0
    for n, (day, _rating) in enumerate(points):
        k = k + 1 if n and points[n - 1][0] == day else 0
        same = k + sum(1 for later in points[n + 1:] if later[0] == day)  # the day's events, this one's index k
        out.append(day.toordinal() + (k * SPREAD / (same + 1) if same else 0.0))
    return out


def _bounds(series: list[Series]) -> tuple[float, float, list[float]]:
    """The first and last place on the time axis (days) and the rating ticks of the charted points."""
    points = [p for _, pts in series for p in pts]
    if not points:
        raise ActionRefused(_("no ratings to chart: the player has no rated events in this list"))
    places = [x for _, pts in series for x in positions(pts)]
    values = [v for _, v in points]
    ticks = nice_ticks(min(values), max(values))
    return min(places), max(places), ticks


# Steps between date ticks, the shortest first: (number, unit); labels 2009-03-15, 2009-03, 2009.
_DATE_STEPS = [(1, "day"), (2, "day"), (7, "day"), (14, "day"), (1, "month"), (2, "month"), (3, "month"),
               (6, "month"), (1, "year"), (2, "year"), (5, "year"), (10, "year"), (20, "year"), (50, "year")]


def date_ticks(first: float, last: float, count: int = 5) -> list[tuple[date, str]]:
    """Round dates within first..last (days), at most `count` of them, each with its label: days,
    weeks (Mondays), months (the 1st: 2009-03) or years (1 January: 2009), the finest that fits."""
    start, end = date.fromordinal(math.ceil(first)), date.fromordinal(math.floor(last))
    if end <= start:
        return [(date.fromordinal(round(first)), date.fromordinal(round(first)).isoformat())]
    for step, unit in _DATE_STEPS:
        ticks = _ticks(start, end, step, unit, count)
        if ticks is not None:
            return ticks
    return [(start, start.isoformat()), (end, end.isoformat())]


def _ticks(start: date, end: date, step: int, unit: str, count: int) -> list[tuple[date, str]] | None:
    """The ticks of one step from start to end, or None if they would be more than `count`."""
    found: list[tuple[date, str]] = []
    if unit == "day":
        day = start.toordinal()
        if step == 7 or step == 14:
            day += (7 - start.weekday()) % 7  # from a Monday
        while day <= end.toordinal():
            found.append((date.fromordinal(day), date.fromordinal(day).isoformat()))
            if len(found) > count:
                return None
            day += step
        return found
    months = start.year * 12 + start.month - 1 + (start.day > 1)  # the first 1st of a month from start
    per = step * 12 if unit == "year" else step
    months += -months % per
    while True:
        year, month = divmod(months, 12)
        first_of = date(year, month + 1, 1)
        if first_of > end:
            return found
        found.append((first_of, str(year) if unit == "year" else f"{year}-{month + 1:02d}"))
        if len(found) > count:
            return None
        months += per


def rating_label(value: float) -> str:
    return localized(f"{value:g}" if value == int(value) else f"{value:.1f}")   # Russian 1199,4


def svg(series: list[Series], title: str, width: int = 720, height: int = 300, chart_id: str = "chart") -> str:
    """A line chart as an <svg> element: an accessible title, axes, one polyline and markers per series.

    `chart_id` names its title element: unique on a page that holds several charts."""
    first, last, ticks = _bounds(series)
    left, right, top, bottom = 60, 16, 16, 44 + 22 * (len(series) > 1)
    plot_w, plot_h = width - left - right, height - top - bottom
    span = max(last - first, 1)

    def x(place: float) -> float:
        return left + (place - first) / span * plot_w if last > first else left + plot_w / 2

    def y(value: float) -> float:
        return top + (ticks[-1] - value) / (ticks[-1] - ticks[0]) * plot_h

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
           f'aria-labelledby="{chart_id}-title" class="chart" font-family="sans-serif" font-size="15">',
           f'<title id="{chart_id}-title">{escape(visible(title))}</title>',
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fff"/>']
    for value in ticks:
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y(value):.1f}" y2="{y(value):.1f}" stroke="#ddd"/>'
                   f'<text x="{left - 6}" y="{y(value) + 4:.1f}" text-anchor="end" fill="#333">{rating_label(value)}</text>')
    for day, label in date_ticks(first, last, max(2, plot_w // 110)):
        at = x(day.toordinal())
        anchor = "start" if at - left < 40 else "end" if left + plot_w - at < 40 else "middle"
        out.append(f'<line x1="{at:.1f}" x2="{at:.1f}" y1="{top + plot_h}" y2="{top + plot_h + 5}" stroke="#555"/>'
                   f'<text x="{at:.1f}" y="{top + plot_h + 21}" text-anchor="{anchor}" fill="#333">{label}</text>')
    out.append(f'<line x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}" stroke="#555"/>'
               f'<line x1="{left}" x2="{width - right}" y1="{top + plot_h}" y2="{top + plot_h}" stroke="#555"/>')
    for n, (label, points) in enumerate(series):
        colour = COLOURS[n % len(COLOURS)]
        places = positions(points)
        coords = " ".join(f"{x(at):.1f},{y(v):.1f}" for at, (_, v) in zip(places, points))
        dash = ' stroke-dasharray="6 3"' if n % 2 else ""  # a second player's line told apart without colour too
        out.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        if len(points) <= 60:
            filled = "#fff" if n % 2 else colour
            out += [f'<circle cx="{x(at):.1f}" cy="{y(v):.1f}" r="3" fill="{filled}" stroke="{colour}">'
                    f'<title>{escape(visible(label))} {d.isoformat()}: {rating_label(v)}</title></circle>'
                    for at, (d, v) in zip(places, points)]
        if len(series) > 1:
            lx = left + n * (plot_w / len(series))
            out.append(f'<line x1="{lx:.1f}" x2="{lx + 22:.1f}" y1="{height - 12}" y2="{height - 12}" stroke="{colour}" '
                       f'stroke-width="3"{dash}/><text x="{lx + 26:.1f}" y="{height - 8}" fill="#222">{escape(visible(label))}</text>')
    out.append("</svg>")
    return "\n".join(out)


LINES = "·:-+~="   # what joins each series' markers in the text plot: told apart where they cross


def text_plot(series: list[Series], width: int = 72, height: int = 12) -> list[str]:
    """The chart as lines of text: a y axis of ratings, each series its markers joined by its own
    line (unbroken, steep or not), date ticks below; a day's several events spread across it."""
    first, last, ticks = _bounds(series)
    low, high = ticks[0], ticks[-1]
    label_w = max(len(rating_label(t)) for t in ticks)
    cols = max(width - label_w - 2, 10)
    grid = [[" "] * cols for _ in range(height)]

    def column(place: float) -> int:
        return round((place - first) / (last - first) * (cols - 1)) if last > first else cols // 2

    def row(value: float) -> int:
        return round((high - value) / (high - low) * (height - 1))

    for n, (_label, points) in enumerate(series):
        marker, line = MARKERS[n % len(MARKERS)], LINES[n % len(LINES)]
        cells = [(row(v), column(at)) for at, (_day, v) in zip(positions(points), points)]
        for (r0, c0), (r1, c1) in zip(cells, cells[1:]):
            for c in range(c0, c1 + 1):  # each column the segment crosses, every row it passes there
                if c1 > c0:
                    ends = [r0 + (r1 - r0) * (c - c0 + d) / (c1 - c0) for d in (-0.5, 0.5)]
                    lo, hi = max(min(ends), min(r0, r1)), min(max(ends), max(r0, r1))
                else:
                    lo, hi = min(r0, r1), max(r0, r1)  # one column: joined upright
                for r in range(round(lo), round(hi) + 1):
                    if grid[r][c] == " ":
                        grid[r][c] = line
        for r, c in cells:
            grid[r][c] = marker
    labels = {row(t): rating_label(t) for t in ticks}
    lines = [f"{labels.get(r, ''):>{label_w}} ┤" + "".join(cells).rstrip() for r, cells in enumerate(grid)]
    axis, under = ["─"] * cols, [" "] * cols
    free = 0  # the first column a label may start at
    for day, label in date_ticks(first, last, max(2, cols // 14)):
        c = column(day.toordinal())
        start = min(max(c - len(label) // 2, 0), cols - len(label))
        if start >= free:
            axis[c] = "┬"
            under[start:start + len(label)] = label
            free = start + len(label) + 2
    lines.append(" " * label_w + " └" + "".join(axis))
    lines.append((" " * (label_w + 2) + "".join(under)).rstrip())
    lines.append("  ".join(f"{MARKERS[n % len(MARKERS)]}{LINES[n % len(LINES)]} {label}"
                           for n, (label, _points) in enumerate(series)))
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
        raise ActionRefused(_("{path}: a chart file ends in .svg or .png").format(path=path))


def _png(series: list[Series], title: str) -> bytes:
    _bounds(series)  # refuse an empty chart before importing anything
    try:
        import matplotlib
    except ImportError:
        raise ActionRefused(_("a PNG chart needs matplotlib: pip install 'nardrating[plot]' "
                              "(an .svg chart needs nothing more)")) from None
    matplotlib.use("Agg")  # files only, never a window
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 3.4), dpi=100)
    axes = figure.subplots()
    from matplotlib import dates as mdates

    for n, (label, points) in enumerate(series):
        when = [datetime.fromordinal(int(at)) + timedelta(days=at % 1) for at in positions(points)]  # a day's games spread
        axes.plot(when, [p.rating for p in points],  # type: ignore[arg-type]  # dates: matplotlib plots them, its stubs say numbers
                  marker="os^v"[n % 4], markersize=3, color=COLOURS[n % len(COLOURS)], label=label,
                  linestyle="-" if n % 2 == 0 else "--")
    locator = mdates.AutoDateLocator(maxticks=8)  # type: ignore[no-untyped-call]
    axes.xaxis.set_major_locator(locator)
    axes.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))  # type: ignore[no-untyped-call]
    axes.set_title(title)
    axes.set_ylabel(_("rating"))
    axes.grid(True, color="#ddd")
    if len(series) > 1:
        axes.legend()
    figure.tight_layout()
    import io

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
