"""A history kept as plain data (replay/cachehistory.py stores it as JSON): what an engine whose
replay the cache cannot keep gives of each player's history items (Engine.kept_histories), and makes
the very same lines from again (Engine.history_from_kept). Every value comes back as the very type
it was: an int stays an int, a float a float, a date is an ordinal."""
from __future__ import annotations

from datetime import date
from typing import Any

from .base import HistoryEvent


class NotPlain(ValueError):
    """A value the cache cannot give back as the very type it was: the histories are then not kept."""


def plain(value: Any) -> Any:
    """A value kept as it is: None, a bool, an int, a finite float, a string; else NotPlain."""
    if value is None or type(value) in (bool, int, str) or type(value) is float and value - value == 0:
        return value
    raise NotPlain(type(value).__name__)


def event_data(e: HistoryEvent) -> list[Any]:
    """A HistoryEvent as plain data (its date as an ordinal; its extra as [key, value] pairs)."""
    if type(e.date) is not date or not all(type(key) is str for key in e.extra):
        raise NotPlain("a history event's date or extra key")
    return [e.date.toordinal(), plain(e.entry), plain(e.kind), plain(e.opponent), plain(e.result), plain(e.before),
            plain(e.change), plain(e.after), plain(e.rated), plain(e.reason),
            [[key, plain(value)] for key, value in e.extra.items()]]


def event_back(data: list[Any]) -> HistoryEvent:
    """The HistoryEvent event_data gave."""
    if not (type(data) is list and len(data) == 11 and type(data[0]) is int and type(data[10]) is list
            and all(type(pair) is list and len(pair) == 2 and type(pair[0]) is str for pair in data[10])):
        raise ValueError("not a kept history event")
    (ordinal, entry, kind, opponent, result, before, change, after, rated, reason, extra) = data
    return HistoryEvent(date.fromordinal(ordinal), entry, kind, opponent, result, before, change, after, rated, reason,
                        dict(extra))
