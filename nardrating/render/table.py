"""A reports.Table as a text table.

A text table is laid out here, line by line, at its natural width; rich only styles its title
and header in a terminal. Where a terminal (or $COLUMNS) is narrower, the columns marked `wrap`
(long text: a rule, a formula) are wrapped onto several lines first, down to their longest word;
only then are whole columns left out, in the order of `FOLD_ORDER`. Titles and captions wrap too.
"""
from __future__ import annotations

import functools
import os
import re
import textwrap
from itertools import islice, repeat
from operator import itemgetter
from typing import IO, TYPE_CHECKING, NamedTuple, Protocol, cast

from ..i18n import DEFAULT, N_, _, current
from ..i18n.terms import input_text, reason_text
from ..reports.table import Column, Row, Section, Table
from .cells import cell_text, column_texts
from .text import CONTROL, visible

if TYPE_CHECKING:
    from rich.console import Console



class Output(Protocol):
    """Where a table is written: a rich Console, or the commands' plain writer where no terminal is."""

    @property
    def file(self) -> IO[str]: ...

    @property
    def is_terminal(self) -> bool: ...


RIGHT_ALIGNED = ("rating", "change", "number", "probability", "measure", "int", "score")
GAP = "  "  # between columns
# Columns a narrow terminal keeps, most important first: what a row is (player, date), the
# rating and how it moved (or would move: predict's outcomes), then the rest; any column not named
# here (an engine's details) goes first.
FOLD_ORDER = ("player", "rating", "date", "change", "a_wins", "b_wins", "draw", "result", "after", "before", "rating_after",
              "rating_before", "rank", "rank_after", "rank_before", "opponent",
              "name", "points", "games", "games_added", "expected", "status", "entry", "entries", "kind", "last_played",
              "notes", "note", "reason", "alias", "qualification", "title", "id", "players")


class Line(NamedTuple):
    """One line of a text table and how a terminal styles it ("" for none)."""
    text: str
    style: str


def fold_rank(column: Column) -> int:
    """Where a column stands in FOLD_ORDER; columns not named there (engine details) rank last."""
    return FOLD_ORDER.index(column.key) if column.key in FOLD_ORDER else len(FOLD_ORDER)


# Characters that may not take exactly one cell (wide CJK, combining, emoji): only a column
# with some of them is measured character by character.
_MAYBE_NOT_ONE_CELL = re.compile(
    "[^\x20-\x7e\xa0-\xac\xae-\u02ff\u0370-\u0482\u2010-\u2027\u2190-\u21ff\u2500-\u25fc]")


def _cell_widths(texts: list[str]) -> list[int] | None:
    """How many terminal cells each text takes; None when each character takes one (the usual column)."""
    if not _MAYBE_NOT_ONE_CELL.search("".join(texts)):
        return None
    from rich.cells import cell_len

    search = _MAYBE_NOT_ONE_CELL.search
    return [cell_len(t) if search(t) else len(t) for t in texts]


class _Cells(NamedTuple):
    """One column's texts and how many terminal cells each takes (None: one a character)."""
    texts: list[str]
    widths: list[int] | None

    def width(self) -> int:
        return max(self.widths if self.widths is not None else map(len, self.texts), default=0)

    def part(self, start: int, stop: int) -> _Cells:
        return _Cells(self.texts[start:stop], None if self.widths is None else self.widths[start:stop])


def _measured(texts: list[str]) -> _Cells:
    return _Cells(texts, _cell_widths(texts))


# A Line by tuple.__new__: a tenth of NamedTuple's own __new__, for the one Line a row.
_new_line = functools.partial(tuple.__new__, Line)


def table_width(console: Output) -> int | None:
    """Columns a table may use: $COLUMNS if set, else the terminal's; None (no limit) when stdout is
    not a terminal, so that a table piped or sent to a file is never folded."""
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isascii() and columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        if console.file.isatty():
            return os.get_terminal_size(console.file.fileno()).columns
    except (AttributeError, OSError, ValueError):
        pass
    return None


def fold(columns: list[Column], widths: list[int], limit: int | None) -> list[Column]:
    """The columns that fit in `limit` cells, taken in FOLD_ORDER (at least the first)."""
    if limit is None:
        return list(columns)
    kept: set[int] = set()
    used = -len(GAP)
    for k in sorted(range(len(columns)), key=lambda k: fold_rank(columns[k])):
        used += len(GAP) + widths[k]
        if kept and used > limit:
            break
        kept.add(k)
    return [c for k, c in enumerate(columns) if k in kept]


def _fit(columns: list[Column], natural: list[int], least: list[int], limit: int | None
         ) -> tuple[list[Column], list[int]]:
    """The columns shown in `limit` cells and each one's width: all at their natural width when
    they fit; else wrapping columns narrowed (not below `least`) before any column is left out."""
    if limit is None or sum(natural) + len(GAP) * (len(columns) - 1) <= limit:
        return list(columns), list(natural)
    shown = fold(columns, least, limit)
    shown_keys = {c.key for c in shown}
    kept = [k for k, c in enumerate(columns) if c.key in shown_keys]
    room = limit - len(GAP) * (len(kept) - 1) - sum(natural[k] for k in kept if not columns[k].wrap)
    widths = {k: natural[k] if not columns[k].wrap else least[k] for k in kept}
    room -= sum(widths[k] for k in kept if columns[k].wrap)
    while room > 0:  # widen the wrapping columns evenly, each up to its natural width
        growing = [k for k in kept if columns[k].wrap and widths[k] < natural[k]]
        for k in growing[:room]:
            widths[k] += 1
        room -= min(room, len(growing))
        if not growing:
            break
    return shown, [widths[k] for k in kept]


INDENT = "  "  # a wrapped cell's further lines, so that a row's first line stands out


def _least_width(heading: str, texts: list[str]) -> int:
    """A wrapping column's narrowest width: its heading, and its longest word after the indent."""
    longest = max((len(word) for text in texts for word in text.split()), default=0)
    return max(len(heading), len(INDENT) + longest)


def _wrapped(cells: list[_Cells], widths: list[int]) -> list[_Cells]:
    """The columns' cells with every text wider than its column wrapped onto several lines; a
    row takes as many lines as its longest cell, the other cells blank below their first line."""
    pieces = [[textwrap.wrap(t, width, subsequent_indent=INDENT, break_on_hyphens=False) or [""]
               if n > width else [t] for t, n in zip(c.texts, c.widths or map(len, c.texts))]
              for c, width in zip(cells, widths)]
    texts: list[list[str]] = [[] for _ in cells]
    for row in zip(*pieces):
        height = max(map(len, row))
        for column, lines in zip(texts, row):
            column += lines + [""] * (height - len(lines))
    return [_measured(column) for column in texts]


def _wrapped_line(text: str, width: int | None) -> list[str]:
    """A title or caption line, wrapped at `width` (None: as it is)."""
    if width is None or len(text) <= width:
        return [text]
    return textwrap.wrap(text, width, subsequent_indent=INDENT, break_on_hyphens=False) or [text]


def _padded(cells: _Cells, width: int, right: bool) -> list[str]:
    """Each text padded with spaces to `width` terminal cells, on the left when `right`."""
    if cells.widths is None:  # str.rjust and ljust count characters, here the same as cells
        return list(map(str.rjust if right else str.ljust, cells.texts, repeat(width)))
    if right:
        return [" " * (width - n) + t for t, n in zip(cells.texts, cells.widths)]
    return [t + " " * (width - n) for t, n in zip(cells.texts, cells.widths)]


def _lines(title: list[str], columns: list[Column], headings: list[_Cells], cells: list[_Cells],
           known: list[int] | None = None) -> list[Line]:
    """A titled table as lines; headings and cells are per column, `known` their widths where measured
    already (each the widest of heading and cells). No line ends in a space."""
    padded: list[list[str]] = []
    widths: list[int] = []
    for k, (column, heading, texts) in enumerate(zip(columns, headings, cells)):
        width = max(heading.width(), texts.width()) if known is None else known[k]
        right = column.kind in RIGHT_ALIGNED
        if right or k < len(columns) - 1:
            padded.append(_padded(heading, width, right) + _padded(texts, width, right))
        else:  # the last column, left-aligned: its padding would only be stripped again
            padded.append(heading.texts + texts.texts)
        widths.append(width)
    lines = list(map(str.rstrip, map(GAP.join, zip(*padded))))
    rule = "─" * (sum(widths) + len(GAP) * (len(widths) - 1))
    return ([Line(line, "italic") for line in title] + [Line(lines[0], "bold"), Line(rule, "")]
            + list(map(_new_line, zip(islice(lines, 1, None), repeat("")))))


def _with_footnotes(table: Table) -> tuple[Table, list[str]]:
    """Long explanations become numbered notes under the table, so the numbers keep their room.
    So do structured values (a pool, per-event figures): they read badly squeezed into a cell.
    All of a row's notes share one narrow "Notes" column of marks."""
    every_row = table.all_rows()
    footnoted = [c for c in table.columns if c.kind == "footnote" or (
        c.kind == "auto" and any(isinstance(row.get(c.key), dict) for row in every_row))]
    notes: list[str] = []
    if not footnoted:
        return table, notes

    def with_marks(rows: list[Row]) -> list[Row]:
        out: list[Row] = []
        for original in rows:
            row, marks = dict(original), []
            for column in footnoted:
                if row.get(column.key):
                    who = row.get("entry") or row.get("player")
                    label = "" if column.kind == "footnote" else f"{column.heading.lower()}: "
                    shown = cell_text(row[column.key], column)
                    if column.key == "reason":   # an engine's value in JSON and CSV, words here
                        shown = reason_text(shown, row.get("kind"))
                    elif isinstance(row[column.key], dict) and current() != DEFAULT:
                        shown = _mapping_in_words(row[column.key])
                    text = f"{label}{shown}"
                    notes.append(f"[{len(notes) + 1}] " + (f"{who}: {text}" if who else text))
                    marks.append(str(len(notes)))
            row["notes"] = f"[{','.join(marks)}]" if marks else ""
            out.append(row)
        return out

    columns = [c for c in table.columns if c not in footnoted] + [Column("notes", _("Notes"))]
    return Table(table.title, columns, with_marks(table.rows),
                 [Section(title, with_marks(rows)) for title, rows in table.sections], table.caption), notes


def _mapping_in_words(value: dict[str, object]) -> str:
    """A structured value of a note (a first rating's pool) in the language: its keys as explain's
    inputs, an engine's text in words, numbers in the language's symbols (English: cell_text's)."""
    from ..engines.wording import in_words
    from ..i18n.numbers import localized

    def said(item: object) -> str:
        if isinstance(item, str):
            return in_words(item)
        return localized(str(item)) if isinstance(item, (int, float)) and not isinstance(item, bool) else str(item)

    return ", ".join(input_text(str(key), said(item)) for key, item in value.items())


def _without_empty_columns(table: Table) -> Table:
    """Columns empty everywhere are left out of the table view only; so are an engine's extra
    columns that are zero throughout (no penalty this period, say)."""
    rows = table.all_rows()

    def shown(column: Column) -> bool:
        key = column.key
        if rows and rows[0].get(key) is None and list(map(dict.get, rows, repeat(key))).count(None) == len(rows):
            return False  # the usual empty column (no alias anywhere), found in C, not row by row below
        return (any(row.get(key) not in (None, "", {}, []) for row in rows)
                and not (key == "kind" and all(row.get("kind") == "match" for row in rows))
                and not (column.kind == "auto" and all(row.get(key) in (0, None, "", [], {}) for row in rows)))

    keep = [c for c in table.columns if shown(c)]
    return Table(table.title, keep or table.columns, table.rows, table.sections, table.caption)


# What shows the columns a narrow terminal leaves out: right for the commands that print data
# (--format csv); a command whose --format means something else passes its own (import).
SHOWN_BY = N_("a wider terminal or --format csv shows them")


def table_lines(table: Table, width: int | None, shown_by: str = SHOWN_BY) -> list[Line]:
    """The whole text view of a table as lines: every titled part, the caption, the
    notes, and which columns did not fit in `width` cells (None: no limit)."""
    table, notes = _with_footnotes(table)
    table = _without_empty_columns(table)
    texts = column_texts(table)
    cells: dict[str, _Cells] = {}
    for key, column in texts.items():
        joined = "".join(column)
        if joined.isascii() and joined.isprintable():   # the usual column: no control character, one cell a character
            cells[key] = _Cells(column, None)
            continue
        if CONTROL.search(joined):
            texts[key] = column = [visible(t) for t in column]
        cells[key] = _measured(column)
    headings = {c.key: _measured([visible(c.heading)]) for c in table.columns}
    natural = [max(headings[c.key].width(), cells[c.key].width()) for c in table.columns]
    least = [_least_width(visible(c.heading), texts[c.key]) if c.wrap else n for c, n in zip(table.columns, natural)]
    shown, widths = _fit(table.columns, natural, least, width)
    # (columns by key, not by equality: comparing records field by field was a tenth of --details)
    natural_of = {c.key: n for c, n in zip(table.columns, natural)}
    wraps = any(w < natural_of[c.key] for w, c in zip(widths, shown))
    out: list[Line] = []
    start = 0
    for title, rows in [Section(table.title, table.rows), *table.sections]:
        stop = start + len(rows)
        part = [cells[c.key].part(start, stop) for c in shown]
        # One part at its natural widths is laid out at them (else each part measures its own).
        out += _lines(_wrapped_line(visible(title), width), shown, [headings[c.key] for c in shown],
                      _wrapped(part, widths) if wraps else part, None if wraps or table.sections else widths)
        start = stop
    caption = table.caption.split("\n") if table.caption else []  # a caption may hold several lines
    out += [Line(wrapped, "") for line in caption + notes for wrapped in _wrapped_line(visible(line), width)]
    shown_keys = {c.key for c in shown}
    left_out = [c.heading for c in table.columns if c.key not in shown_keys]
    if left_out and width is not None:  # (only a width leaves columns out)
        notice = _("not shown at {width} columns: {columns}; {shown_by}").format(
            width=width, columns=", ".join(left_out), shown_by=_(shown_by))
        out += [Line(line, "") for line in _wrapped_line(notice, width)]   # indented on, as captions are
    return out


def print_table(table: Table, console: Output, shown_by: str = SHOWN_BY) -> None:
    """Write the table's lines; in a terminal rich styles the title and the header (the text is
    the same either way)."""
    lines = table_lines(table, table_width(console), shown_by)
    if not console.is_terminal:
        console.file.write("\n".join(map(itemgetter(0), lines)) + "\n" if lines else "")
        return
    from rich.text import Text

    terminal = cast("Console", console)  # is_terminal: rich's own Console
    for line, style in lines:
        if style:
            terminal.print(Text(line, style=style), soft_wrap=True)
        else:
            console.file.write(line + "\n")

