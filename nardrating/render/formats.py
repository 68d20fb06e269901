"""A reports.Table as JSON, CSV or Markdown, and `emit`: any format to the console.

JSON and CSV carry the exact, unrounded values.
"""
from __future__ import annotations

import csv
import io
import json
import math
import re
from datetime import date
from collections.abc import Callable, Iterable
from typing import Any

from ..reports.table import Table
from .cells import cell_text, column_texts
from .table import Output, print_table
from .text import md_paragraph, md_text, needs_md_escape

FORMATS = ("table", "csv", "json", "md", "fide-list")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _json_default(value: object) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def _finite(value: Any) -> Any:
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


def _strict_json(dumps: Callable[[Any], str], value: Any) -> str:
    try:
        text = dumps(value)
    except ValueError:  # a NaN or infinity somewhere: the rare case pays for the walk
        text = dumps(_finite(value))
    if _JSON_RAW_HAZARDS.search(text):
        text = _JSON_RAW_HAZARDS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text


def json_text(value: Any) -> str:
    """Any value as the tables' JSON is written: strict, UTF-8 as written, controls escaped."""
    return _strict_json(lambda v: json.dumps(v, ensure_ascii=False, allow_nan=False, indent=2,
                                             default=_json_default), value)


def to_json(table: Table) -> str:
    """Strict JSON (RFC 8259): numbers unrounded; NaN and infinities, which JSON lacks, as null."""
    value: Any = table.json_value if table.json_value is not None else table.all_rows()
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
        cells: list[str] = []
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
    def md_row(cells: Iterable[str]) -> str:  # cells already escaped
        return "| " + " | ".join(cells) + " |"

    texts = column_texts(table)
    for key, column in texts.items():
        if needs_md_escape(" ".join(column)):  # else md_text leaves every cell as it is
            texts[key] = [md_text(t) for t in column]
    groups: list[tuple[str, range]] = []
    start = 0
    for title, rows in [(table.title, table.rows), *table.sections]:
        groups.append((title, range(start, start + len(rows))))
        start += len(rows)
    lines: list[str] = []
    for title, indices in groups:
        lines += ["", f"**{md_text(title)}**", "", md_row(md_text(c.heading) for c in table.columns),
                  "| " + " | ".join("---" for _ in table.columns) + " |"]
        lines += [md_row(texts[c.key][i] for c in table.columns) for i in indices]
    if table.caption:
        lines += ["", md_paragraph(table.caption)]
    return "\n".join(lines[1:]) + "\n"


def emit(table: Table, fmt: str, console: Output) -> None:
    """The table in `fmt` (one of FORMATS) on the console's file."""
    if fmt == "table":
        print_table(table, console)
        return
    file = getattr(console.file, "unwrapped", console.file)  # data: never wrapped to a terminal's width
    if fmt in ("json", "csv", "fide-list"):
        from ..i18n import DEFAULT, using

        with using(DEFAULT):   # machine formats: the same in every language
            _emit_machine(table, fmt, file)
    else:
        file.write(to_markdown(table))


def _emit_machine(table: Table, fmt: str, file: Any) -> None:
    if fmt == "json":
        file.write(to_json(table) + "\n")
    elif fmt == "csv":
        file.write(to_csv(table))
    elif fmt == "fide-list":
        from ..exchange.fide_list import to_fide_list

        file.write(to_fide_list(table))
