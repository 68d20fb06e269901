"""Turn a reports.Table into a text table, CSV, JSON or Markdown; charts and spreadsheets.

text.py (strings as data), cells.py (a value as a cell), table.py (the text table, folded to the
terminal), formats.py (JSON, CSV, Markdown, `emit`), charts.py (SVG, text, PNG), spreadsheet.py (xlsx).
"""
from .cells import cell_text, column_decimals, column_texts, number_format
from .formats import FORMATS, emit, safe_csv_cell, to_csv, to_json, to_markdown
from .table import FOLD_ORDER, GAP, RIGHT_ALIGNED, Line, fold, print_table, table_lines, table_width
from .text import md_text, visible

__all__ = ["FOLD_ORDER", "FORMATS", "GAP", "Line", "RIGHT_ALIGNED", "cell_text", "column_decimals", "column_texts",
           "emit", "fold", "md_text", "number_format", "print_table", "safe_csv_cell", "table_lines", "table_width",
           "to_csv", "to_json", "to_markdown", "visible"]
