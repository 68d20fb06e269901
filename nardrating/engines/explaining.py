"""What the engines' `explain_event` methods share: finding the other side of a match."""
from __future__ import annotations

from .base import HistoryEvent, RatingResult


def opponent_event(result: RatingResult, event: HistoryEvent) -> HistoryEvent:
    """The opponent's event of the same match: their rating before it, their experience…"""
    if event.opponent is None or event.entry is None:
        raise ValueError(f"{event.kind} event without an opponent or entry")
    return next(e for e in result.history(event.opponent) if e.entry == event.entry and e.kind == "match")

