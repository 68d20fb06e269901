"""Turn a reports.Table into a text table, CSV, JSON or Markdown.

Every string in a table is data: player names, notes and titles are never read as rich markup,
emoji codes or Markdown, and control characters are shown escaped (`visible`). A text table is
laid out here, line by line, at its natural width; rich only styles its title and header in a
terminal. Where a terminal (or $COLUMNS) is narrower, whole columns are left out in the order of
`FOLD_ORDER`, never wrapped. JSON and CSV carry the exact, unrounded values.
"""
from __future__ import annotations

import csv
import io
import json
import math
import os
import re
from datetime import date
from typing import Any

from .engines.base import score_text
from .reports import Column, Table

FORMATS = ("table", "csv", "json", "md", "fide-list")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
RIGHT_ALIGNED = ("rating", "change", "number", "probability", "int", "score")
GAP = "  "  # between columns
# Columns a narrow terminal keeps, most important first: what a row is (player, date), the
# rating and how it moved, then the rest; any column not named here (an engine's details) goes first.
FOLD_ORDER = ("player", "rating", "date", "change", "result", "after", "before", "rank", "opponent",
              "name", "points", "games", "expected", "status", "entry", "kind", "last_played",
              "notes", "note", "reason", "alias", "qualification", "title")

# C0 and C1 controls, DEL, line and paragraph separators, bidirectional overrides: any of them
# would move the cursor, colour the terminal or reorder what is shown.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED_CONTROLS = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Characters Markdown (CommonMark, GitHub) would read as formatting, links, HTML, maths or a
# table cell's end; a colon only where it starts an emoji code (:x:) or a link (http://).
_MARKDOWN_ACTIVE = re.compile(r"[\\`*_\[\]<>&~|$]|:(?=[\w+-]+:|//)")
_MARKDOWN_BLOCK_START = re.compile(r"[#>+=-]|\d+[.)]")
_NEWLINE = re.compile("\r\n|\r|\n")


def _escape_control(match: re.Match) -> str:
    char = match.group()
    if char in _NAMED_CONTROLS:
        return _NAMED_CONTROLS[char]
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"


def visible(text: str) -> str:
    """The text with its control characters written out: a newline as \\n, ESC as \\x1b."""
    return _CONTROL.sub(_escape_control, text)


def md_text(text: str) -> str:
    """Text for a Markdown table cell: shown literally, a newline as <br>."""
    text = _MARKDOWN_ACTIVE.sub(lambda m: "\\" + m.group(), text)
    return visible(_NEWLINE.sub("<br>", text))


def _md_paragraph(text: str) -> str:
    """A line of its own: also not a heading, quote, list item or rule."""
    text = md_text(text)
    return "\\" + text if _MARKDOWN_BLOCK_START.match(text) else text


# --- cells ---

def _decimals_needed(value: float) -> int:
    text = f"{value:.2f}"
    return 0 if text.endswith("00") else 1 if text.endswith("0") else 2


def column_decimals(column: Column, values: list) -> int:
    """Decimals of every number in a column: ratings and changes 2, or 0 when all are whole numbers
    (engines that keep whole numbers give ints); one game's expected score or probability 4, a
    period's expected points 2; other numbers the fewest (0 to 2) that
    show each value of the column to two decimals."""
    if column.kind in ("rating", "change"):
        return 2 if any(isinstance(v, float) and math.isfinite(v) for v in values) else 0
    if column.kind == "probability":
        return 4  # one game's expected score, as the seeds print it (seed 003: 0.5144)
    if column.key == "expected":
        return 2
    return max((_decimals_needed(v) for v in values if isinstance(v, float) and math.isfinite(v)), default=0)


def _number_format(column: Column, decimals: int):
    """How the numbers of a column are written: changes signed, ints exact however large."""
    sign = "+" if column.kind == "change" else ""
    int_spec, float_spec, zeros = sign + "d", f"{sign}.{decimals}f", "." + "0" * decimals if decimals else ""

    def text(value: int | float) -> str:
        if isinstance(value, int):
            return format(value, int_spec) + zeros
        if math.isfinite(value):
            return format(round(value, decimals) + 0.0, float_spec)  # + 0.0: never -0.00
        return str(value)

    return text


def cell_text(value: Any, column: Column, decimals: int | None = None) -> str:
    """A value as a table cell: numbers with the column's decimals (see column_decimals; a lone
    value decides them alone), changes signed, scores as 1/½/0, dates ISO, booleans yes/no."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    if column.kind == "score":
        return score_text(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if decimals is None:
            decimals = column_decimals(column, [value])
        return _number_format(column, decimals)(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return "; ".join(str(v) for v in value)
    return str(value)


def _column_texts(table: Table) -> dict[str, list[str]]:
    """Each column's cells over all rows (sections too), with one number of decimals per column."""
    rows = table.all_rows()
    texts = {}
    for c in table.columns:
        values = [row.get(c.key) for row in rows]
        decimals = column_decimals(c, values)
        number = _number_format(c, decimals) if c.kind != "score" else None
        texts[c.key] = [v if type(v) is str else "" if v is None else
                        number(v) if number and type(v) in (int, float) else cell_text(v, c, decimals)
                        for v in values]
    return texts


# --- JSON ---

def _json_default(value):
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def _finite(value):
    """The value with every NaN and infinity replaced by None (JSON has neither)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_finite(v) for v in value]
    return value


# Valid raw in JSON, but a terminal may act on them (C1 controls) or a JavaScript reader choke.
_JSON_RAW_HAZARDS = re.compile("[\x7f-\x9f\u2028\u2029]")


def _strict_json(dumps, value) -> str:
    try:
        text = dumps(value)
    except ValueError:  # a NaN or infinity somewhere: the rare case pays for the walk
        text = dumps(_finite(value))
    if _JSON_RAW_HAZARDS.search(text):
        text = _JSON_RAW_HAZARDS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text


def to_json(table: Table) -> str:
    """Strict JSON (RFC 8259): numbers unrounded; NaN and infinities, which JSON lacks, as null."""
    value = table.json_value if table.json_value is not None else table.all_rows()
    if isinstance(value, list) and len(value) > 200:
        # One object a line: as readable, and the C encoder (indent= would use the slow one).
        encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False, default=_json_default).encode
        return "[\n" + ",\n".join(_strict_json(encode, row) for row in value) + "\n]"
    return _strict_json(lambda v: json.dumps(v, ensure_ascii=False, allow_nan=False, indent=2,
                                             default=_json_default), value)


# --- CSV ---

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


# --- Markdown ---

def to_markdown(table: Table) -> str:
    def md_row(cells):
        return "| " + " | ".join(md_text(c) for c in cells) + " |"

    texts = _column_texts(table)
    groups, start = [], 0
    for title, rows in [(table.title, table.rows)] + table.sections:
        groups.append((title, range(start, start + len(rows))))
        start += len(rows)
    lines = []
    for title, indices in groups:
        lines += ["", f"**{md_text(title)}**", "", md_row(c.heading for c in table.columns),
                  "| " + " | ".join("---" for _ in table.columns) + " |"]
        lines += [md_row(texts[c.key][i] for c in table.columns) for i in indices]
    if table.caption:
        lines += ["", _md_paragraph(table.caption)]
    return "\n".join(lines[1:]) + "\n"


# --- text tables ---

def fold_rank(column: Column) -> int:
    """Where a column stands in FOLD_ORDER; columns not named there (engine details) rank last."""
    return FOLD_ORDER.index(column.key) if column.key in FOLD_ORDER else len(FOLD_ORDER)


# Characters that may not take exactly one cell (wide CJK, combining, emoji): only a column
# with some of them is measured character by character.
_MAYBE_NOT_ONE_CELL = re.compile(
    "[^\x20-\x7e\xa0-\xac\xae-\u02ff\u0370-\u0482\u2010-\u2027\u2190-\u21ff\u2500-\u25fc]")


def _cell_widths(texts: list[str]) -> list[int]:
    """How many terminal cells each text takes."""
    if not _MAYBE_NOT_ONE_CELL.search("".join(texts)):
        return list(map(len, texts))
    from rich.cells import cell_len

    return list(map(cell_len, texts))


def table_width(console) -> int | None:
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
    kept, used = set(), -len(GAP)
    for k in sorted(range(len(columns)), key=lambda k: fold_rank(columns[k])):
        used += len(GAP) + widths[k]
        if kept and used > limit:
            break
        kept.add(k)
    return [c for k, c in enumerate(columns) if k in kept]


def _lines(title: str, columns: list[Column], cells: list[list[str]]) -> list[tuple[str, str]]:
    """A titled table as (line, style) pairs; cells are per column. No line ends in a space."""
    padded, widths = [], []
    for column, texts in zip(columns, [[visible(c.heading)] + texts for c, texts in zip(columns, cells)]):
        sizes = _cell_widths(texts)
        width = max(sizes)
        if column.kind in RIGHT_ALIGNED:
            padded.append([" " * (width - n) + t for t, n in zip(texts, sizes)])
        else:
            padded.append([t + " " * (width - n) for t, n in zip(texts, sizes)])
        widths.append(width)
    lines = [GAP.join(values).rstrip() for values in zip(*padded)]
    rule = "─" * (sum(widths) + len(GAP) * (len(widths) - 1))
    return [(title, "italic"), (lines[0], "bold"), (rule, "")] + [(line, "") for line in lines[1:]]


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

    def with_marks(rows):
        out = []
        for row in rows:
            row, marks = dict(row), []
            for column in footnoted:
                if row.get(column.key):
                    who = row.get("entry") or row.get("player")
                    label = "" if column.kind == "footnote" else f"{column.heading.lower()}: "
                    text = f"{label}{cell_text(row[column.key], column)}"
                    notes.append(f"[{len(notes) + 1}] " + (f"{who}: {text}" if who else text))
                    marks.append(str(len(notes)))
            row["notes"] = f"[{','.join(marks)}]" if marks else ""
            out.append(row)
        return out

    columns = [c for c in table.columns if c not in footnoted] + [Column("notes", "Notes")]
    return Table(table.title, columns, with_marks(table.rows),
                 [(title, with_marks(rows)) for title, rows in table.sections], table.caption), notes


def _without_empty_columns(table: Table) -> Table:
    """Columns empty everywhere are left out of the table view only; so are an engine's extra
    columns that are zero throughout (no penalty this period, say)."""
    rows = table.all_rows()
    keep = [c for c in table.columns if any(row.get(c.key) not in (None, "", {}, []) for row in rows)
            and not (c.key == "kind" and all(row.get("kind") == "match" for row in rows))
            and not (c.kind == "auto" and all(row.get(c.key) in (0, None, "", [], {}) for row in rows))]
    return Table(table.title, keep or table.columns, table.rows, table.sections, table.caption)


def table_lines(table: Table, width: int | None) -> list[tuple[str, str]]:
    """The whole text view of a table as (line, style) pairs: every titled part, the caption, the
    notes, and which columns did not fit in `width` cells (None: no limit)."""
    table, notes = _with_footnotes(table)
    table = _without_empty_columns(table)
    texts = _column_texts(table)
    for key, column_texts in texts.items():
        if _CONTROL.search("".join(column_texts)):
            texts[key] = [visible(t) for t in column_texts]
    widths = [max(_cell_widths([visible(c.heading)] + texts[c.key])) for c in table.columns]
    shown = fold(table.columns, widths, width)
    out, start = [], 0
    for title, rows in [(table.title, table.rows)] + table.sections:
        part = range(start, start + len(rows))
        out += _lines(visible(title), shown, [[texts[c.key][i] for i in part] for c in shown])
        start += len(rows)
    caption = table.caption.split("\n") if table.caption else []  # a caption may hold several lines
    out += [(visible(line), "") for line in caption + notes]
    left_out = [c.heading for c in table.columns if c not in shown]
    if left_out:
        import textwrap

        notice = (f"not shown at {width} columns: {', '.join(left_out)}; a wider terminal "
                  "or --format csv shows them")
        out += [(line, "") for line in textwrap.wrap(notice, width) or [notice]]
    return out


def print_table(table: Table, console) -> None:
    """Write the table's lines; in a terminal rich styles the title and the header (the text is
    the same either way)."""
    lines = table_lines(table, table_width(console))
    if not console.is_terminal:
        console.file.write("".join(line + "\n" for line, _ in lines))
        return
    from rich.text import Text

    for line, style in lines:
        if style:
            console.print(Text(line, style=style), soft_wrap=True)
        else:
            console.file.write(line + "\n")


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
