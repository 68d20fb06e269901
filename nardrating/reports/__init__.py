"""Reports as data: leaderboard, history, period report, players.

Each returns a `Table` (table.py): a title, columns and rows of plain values, which
nardrating.render writes as text, CSV, JSON or Markdown.
"""
from typing import TYPE_CHECKING, Any

from .asof import AsOf, as_of, known_disciplines, known_player, last_entry_date
from .history import EVENT_KEYS, NOT_PLAYED, history, history_summary, net_change, played, sparkline
from .leaderboard import leaderboard, players
from .table import Column, Row, Section, Table, heading

if TYPE_CHECKING:
    from .period import (empty_report_reason, game_details, generic_report_rows, list_dates, report, report_details,
                         report_totals)

# The period report's names, imported when first asked for: a leaderboard or a history never reads
# them, and the report's module brings the engines' windows and column records with it.
_PERIOD = frozenset({"empty_report_reason", "game_details", "generic_report_rows", "list_dates", "report",
                     "report_details", "report_totals"})


def __getattr__(name: str) -> Any:
    if name in _PERIOD:
        from . import period

        return getattr(period, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["AsOf", "Column", "EVENT_KEYS", "NOT_PLAYED", "Row", "Section", "Table", "as_of", "empty_report_reason", "known_disciplines",
           "game_details", "generic_report_rows", "heading", "history", "history_summary", "known_player",
           "last_entry_date", "leaderboard", "list_dates", "net_change", "played", "players", "report",
           "report_details", "report_totals", "sparkline"]
