"""What the engines' `explain_event` methods share: finding the other side of a match."""
from __future__ import annotations

from .base import HistoryEvent, RatingResult
from .compact import ColumnRecords, CompactResult
from .window import records_dated


def opponent_event(result: RatingResult, event: HistoryEvent) -> HistoryEvent:
    """The opponent's event of the same match: their rating before it, their experience…"""
    if event.opponent is None or event.entry is None:
        raise ValueError(f"{event.kind} event without an opponent or entry")
    found = _from_the_record(result, event) if isinstance(result, CompactResult) else None
    if found is not None:
        return found
    return next(e for e in result.history(event.opponent) if e.entry == event.entry and e.kind == "match")


def _from_the_record(result: CompactResult, event: HistoryEvent) -> HistoryEvent | None:
    """The opponent's event made from the match's record alone, found among the records of its date
    (they are in replay order, by date), not from the opponent's whole history (a search of a million
    records for their rows, for each game `history --details` explains); as that history has it
    (windowed: nothing but the record makes it). None where the history is needed: a rating that
    exact_ints would give back as an int, a result not kept as column records."""
    records = result.records
    if not result.windowed or not isinstance(records, ColumnRecords):
        return None
    m, index = result.match_columns(), records.columns[0]
    for k in records_dated(result, event.date, event.date):
        i = index[k]
        if m.entries[i] != event.entry:
            continue
        code = m.code_of.get(event.opponent or "")
        if code != m.a[i] and code != m.b[i]:
            return None
        theirs = result.match_events(records[k])[0 if code == m.a[i] else 1]
        before = theirs.before
        if not result.whole_numbers or type(before) is float and not before.is_integer():
            return theirs
        return None
    return None
