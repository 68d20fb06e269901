"""Turn a reports.Table into rich, CSV, JSON or Markdown text."""
from __future__ import annotations

import csv
import io
import json
import math
from datetime import date
from typing import Any

from .engines.base import score_text
from .reports import Column, Table

FORMATS = ("table", "csv", "json", "md", "fide-list")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
PLAIN_AFTER = 60  # rows; longer tables are laid out without rich's cell-by-cell layout (2 ms a row)
WRAPPING = {"name", "reason", "note", "status", "games", "ignored", "pool", "ratings", "protected"}


def cell_text(value: Any, column: Column) -> str:
    """A value as a table cell: ratings with 2 decimals, scores as 1/½/0."""
    if value is None:
        return ""
    kind = column.kind
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return "; ".join(str(v) for v in value)
    if kind == "score":
        return score_text(value)
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if kind in ("rating", "change") and isinstance(value, int):
        return f"{value:+d}" if kind == "change" else str(value)  # whole-number ratings stay whole
    if kind == "rating" and isinstance(value, (int, float)):
        return f"{value:.2f}"
    if kind == "change" and isinstance(value, (int, float)):
        return f"{value:+.2f}"
    if kind in ("number", "auto") and isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".") if abs(value) < 1 else f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)


def _json_default(value):
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def to_json(table: Table) -> str:
    value = table.json_value if table.json_value is not None else table.all_rows()
    if isinstance(value, list) and len(value) > 200:
        # One object a line: as readable, and the C encoder (indent= would use the slow one).
        dumps = json.JSONEncoder(ensure_ascii=False, default=_json_default).encode
        return "[\n" + ",\n".join(dumps(row) for row in value) + "\n]"
    return json.dumps(value, ensure_ascii=False, indent=2, default=_json_default)


def safe_csv_cell(text: str) -> str:
    """Stop a spreadsheet from running a cell as a formula: prefix it with '."""
    if text.startswith(_FORMULA_START):
        return "'" + text
    return text


def to_csv(table: Table) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")  # RFC 4180; a lone \r in a cell is then quoted
    writer.writerow([c.key for c in table.columns])
    for row in table.all_rows():
        cells = []
        for c in table.columns:
            value = row.get(c.key)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                cells.append(repr(value) if isinstance(value, float) else str(value))
            else:
                # Text columns only: numbers keep their sign so the sheet reads them as numbers.
                cells.append(safe_csv_cell(cell_text(value, c)))
        writer.writerow(cells)
    return out.getvalue()


def to_markdown(table: Table) -> str:
    def md_row(cells):
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    lines = [f"**{table.title}**", "", md_row(c.heading for c in table.columns),
             md_row("---" for _ in table.columns)]
    lines += [md_row(cell_text(row.get(c.key), c) for c in table.columns) for row in table.rows]
    for title, rows in table.sections:
        lines += ["", f"**{title}**", "", md_row(c.heading for c in table.columns),
                  md_row("---" for _ in table.columns)]
        lines += [md_row(cell_text(row.get(c.key), c) for c in table.columns) for row in rows]
    if table.caption:
        lines += ["", table.caption]
    return "\n".join(lines) + "\n"


class PlainText(str):
    """A table already laid out as text: written as it is, past rich."""


def print_table(table: Table, console) -> None:
    from rich import box
    from rich.table import Table as RichTable

    def build(title, rows):
        rt = RichTable(title=title, title_justify="left", header_style="bold",
                        box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0))
        cells = [[cell_text(row.get(c.key), c) for c in table.columns] for row in rows]
        for k, c in enumerate(table.columns):
            numeric = c.kind in ("rating", "change", "number", "int", "score", "date")
            # Only long free text wraps; ids, numbers and dates are never cut.
            wraps = c.key in WRAPPING
            widest = max([len(line[k]) for line in cells] + [len(c.heading)])
            rt.add_column(c.heading, justify="right" if numeric and c.kind != "date" else "left",
                          overflow="fold", no_wrap=not wraps,
                          min_width=None if wraps else min(widest, 24), ratio=1 if wraps else None)
        for line in cells:
            rt.add_row(*line)
        return rt

    def plain(title, rows):
        # rich lays out a table cell by cell: seconds for ten thousand rows. A long table
        # gets the same look from plain padding.

        cells = [[cell_text(row.get(c.key), c) for c in table.columns] for row in rows]
        widths = [max([len(line[k]) for line in cells] + [len(c.heading)]) for k, c in enumerate(table.columns)]
        right = [c.kind in ("rating", "change", "number", "int", "score") for c in table.columns]

        def line(values):
            return "  ".join(v.rjust(w) if r else v.ljust(w) for v, w, r in zip(values, widths, right)).rstrip()

        out = [title, line([c.heading for c in table.columns]), "─" * (sum(widths) + 2 * (len(widths) - 1))]
        out += [line(values) for values in cells]
        return PlainText("\n".join(out) + "\n")

    # Long explanations become numbered notes under the table, so the numbers keep their room.
    notes: list[str] = []
    # So do structured values (a pool, per-event figures): they read badly squeezed into a cell.
    # All of a row's notes share one narrow "Notes" column of marks.
    every_row = table.all_rows()
    footnoted = [c for c in table.columns if c.kind == "footnote" or (
        c.kind == "auto" and any(isinstance(row.get(c.key), dict) for row in every_row))]
    if footnoted:
        def with_marks(rows):
            out = []
            for row in rows:
                row, marks = dict(row), []
                for column in footnoted:
                    if row.get(column.key):
                        who = row.get("entry") or row.get("player") or ""
                        label = "" if column.kind == "footnote" else f"{column.heading.lower()}: "
                        notes.append(f"[{len(notes) + 1}] {who}: {label}{cell_text(row[column.key], column)}")
                        marks.append(str(len(notes)))
                row["notes"] = f"[{','.join(marks)}]" if marks else ""
                out.append(row)
            return out
        columns = [c for c in table.columns if c not in footnoted] + [Column("notes", "Notes")]
        table = Table(table.title, columns, with_marks(table.rows),
                      [(title, with_marks(rows)) for title, rows in table.sections], table.caption)
    # Columns that are empty everywhere are left out of the table view only.
    rows = table.all_rows()
    # So are an engine's extra columns that are zero throughout (no penalty this period, say).
    keep = [c for c in table.columns if any(row.get(c.key) not in (None, "", {}, []) for row in rows)
            and not (c.key == "kind" and all(row.get("kind") == "match" for row in rows))
            and not (c.kind == "auto" and all(row.get(c.key) in (0, None, "", [], {}) for row in rows))]
    table = Table(table.title, keep or table.columns, table.rows, table.sections, table.caption)
    render = build if len(table.rows) <= PLAIN_AFTER else plain

    def show(rendered):
        if isinstance(rendered, PlainText):
            console.file.write(rendered)
        else:
            console.print(rendered)

    show(render(table.title, table.rows))
    for title, section_rows in table.sections:
        show(render(title, section_rows))
    if table.caption:
        console.print(table.caption)
    for note in notes:
        console.print(note, markup=False)


def emit(table: Table, fmt: str, console) -> None:
    if fmt == "table":
        print_table(table, console)
    elif fmt == "json":
        console.file.write(to_json(table) + "\n")
    elif fmt == "csv":
        console.file.write(to_csv(table))
    elif fmt == "fide-list":
        from .fide_list import to_fide_list
        console.file.write(to_fide_list(table))
    else:
        console.file.write(to_markdown(table))
