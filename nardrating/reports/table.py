"""What a report table is: a title, columns (key, heading, kind) and rows of plain values.

Every report builds a `Table`; nardrating.render turns it into text, CSV, JSON or Markdown
(JSON keeps numbers unrounded).
"""
from __future__ import annotations

from typing import Any, NamedTuple

from ..datarecords import datarecord, field
from ..i18n.terms import heading_words

Row = dict[str, Any]


@datarecord
class Column:
    """One column of a report table: the rows' key, its heading, and how its values are shown."""
    key: str
    heading: str
    # text | formula (text whose numbers are in the language's symbols) | rating | change | number |
    # probability (one game's, 4 decimals) | measure (each to 4 decimals, its trailing zeros dropped) |
    # int | date | score | footnote | auto
    kind: str = "text"
    wrap: bool = False  # long text (a rule, a formula): a narrow terminal wraps it onto several lines


class Section(NamedTuple):
    """A titled group of rows under the table's own (e.g. a list's provisional players)."""
    title: str
    rows: list[Row]


@datarecord
class Table:
    """A report as every format renders it: title, columns, rows, extra sections, caption, and its JSON."""
    title: str
    columns: list[Column]
    rows: list[Row]
    sections: list[Section] = field(default_factory=list)  # extra titled groups
    caption: str | None = None
    json_value: Any = None  # what --format json prints, when not just the rows

    def all_rows(self) -> list[Row]:
        return self.rows + [row for _, rows in self.sections for row in rows]


def heading(key: str) -> str:
    """A column's heading is its JSON and CSV key in words, so every format names it alike."""
    return heading_words(key)
