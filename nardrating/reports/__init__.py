"""Reports as data: leaderboard, history, period report, players.

Each returns a `Table` (table.py): a title, columns and rows of plain values, which
nardrating.render writes as text, CSV, JSON or Markdown.
"""
from .asof import AsOf, as_of, known_disciplines, known_player, last_entry_date
from .history import EVENT_KEYS, NOT_PLAYED, history, history_summary, net_change, played, sparkline
from .leaderboard import leaderboard, players
from .period import (empty_report_reason, game_details, generic_report_rows, list_dates, report, report_details,
                     report_totals)
from .table import Column, Row, Section, Table, heading

__all__ = ["AsOf", "Column", "EVENT_KEYS", "NOT_PLAYED", "Row", "Section", "Table", "as_of", "empty_report_reason", "known_disciplines",
           "game_details", "generic_report_rows", "heading", "history", "history_summary", "known_player",
           "last_entry_date", "leaderboard", "list_dates", "net_change", "played", "players", "report",
           "report_details", "report_totals", "sparkline"]
