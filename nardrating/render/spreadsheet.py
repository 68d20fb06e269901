"""A reports.Table as an .xlsx workbook (openpyxl, the optional extra `[xlsx]`).

Numbers stay numbers (exact, shown with the table's decimals), dates stay dates, and every
string is a string: a name starting with "=" is text, never a formula.
"""
from __future__ import annotations

import io
from datetime import date
from typing import TYPE_CHECKING, Any

from ..errors import ActionRefused
from ..i18n import N_, _
from ..i18n.terms import status_text
from ..reports.table import Table
from .cells import column_decimals
from .text import visible

if TYPE_CHECKING:
    from openpyxl.cell.cell import Cell


def xlsx_bytes(table: Table, provenance: dict[str, str] | None = None, sheet_title: str = N_("Leaderboard")) -> bytes:
    """The workbook; `provenance` (key → text) goes below the table and into its document properties."""
    try:
        from openpyxl import Workbook
        from openpyxl.styles import Font
    except ImportError:
        raise ActionRefused(_("--format xlsx needs openpyxl: pip install 'nardrating[xlsx]'")) from None
    book = Workbook()
    sheet = book.active
    sheet.title = _(sheet_title)
    sheet.append([visible(table.title)])
    sheet["A1"].font = Font(bold=True)
    sheet.append([c.heading for c in table.columns])
    for cell in sheet[2]:
        cell.font = Font(bold=True)
    sheet.freeze_panes = "A3"
    formats = {}
    for c in table.columns:
        decimals = column_decimals(c, [row.get(c.key) for row in table.all_rows()])
        formats[c.key] = "0" if decimals == 0 else "0." + "0" * decimals
    groups = [(None, table.rows)] + list(table.sections)
    for title, rows in groups:
        if title is not None:
            sheet.append([])
            sheet.append([visible(title)])
            sheet.cell(sheet.max_row, 1).font = Font(bold=True)
        for row in rows:
            sheet.append([None] * len(table.columns))
            for n, c in enumerate(table.columns, start=1):
                value = row.get(c.key)   # a status in words; numbers keep Excel's codes, shown in the reader's locale
                _put(sheet.cell(sheet.max_row, n), status_text(value) if c.key == "status" and isinstance(value, str)
                     else value, formats[c.key])
    if table.caption:
        sheet.append([])
        sheet.append([visible(table.caption)])
    if provenance:
        _provenance(book, sheet, provenance)
    for n, c in enumerate(table.columns, start=1):
        width = max([len(c.heading)] + [len(str(row.get(c.key) or "")) for row in table.all_rows()])
        sheet.column_dimensions[sheet.cell(2, n).column_letter].width = min(width + 2, 40)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _put(cell: Cell, value: object, number_format: str) -> None:
    if isinstance(value, bool) or value is None:
        cell.value = None if value is None else (_("yes") if value else _("no"))
    elif isinstance(value, (int, float)):
        cell.value = value
        cell.number_format = number_format
    elif isinstance(value, date):
        cell.value = value
        cell.number_format = "yyyy-mm-dd"
    else:
        cell.value = visible(str(value))
        cell.data_type = "s"   # text, even when it starts with "="


def _provenance(book: Any, sheet: Any, provenance: dict[str, str]) -> None:
    """A key/value block under a bold heading, and the same as custom document properties."""
    from openpyxl.styles import Font

    from ..i18n import _

    sheet.append([])
    sheet.append([_("Provenance")])
    sheet.cell(sheet.max_row, 1).font = Font(bold=True)
    for key, text in provenance.items():
        sheet.append([key, None])
        cell = sheet.cell(sheet.max_row, 2)
        cell.value = visible(text)
        cell.data_type = "s"
    try:
        from openpyxl.packaging.custom import StringProperty
    except ImportError:  # openpyxl before 3.1 writes no custom properties; the block above says it all
        return
    for key, text in provenance.items():
        book.custom_doc_props.append(StringProperty(name=key, value=visible(text)))
