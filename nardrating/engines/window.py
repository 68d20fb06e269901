"""A compact result's history within a period, from that period's records only.

The period report reads, of every player, the events dated in the period and the last event before
it. A compact result builds a player's events from its records when asked (compact.py); building
every player's would be two million events on a million games, most of them before the period.
Here the records of the period are found by date (they are in replay order), and each player's
events are those records', the side events (adjustments, penalties) and the player's last record
before the period: exactly what `result.events` gives for those dates, without the rest.

A rating the replay held as a Python int (compact.exact_ints: the config's whole start, an
adjustment's whole `set`, until a rated game) depends on what came before: the state is taken from
the player's last rated record before the period and the side events after it.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import date
from typing import Any

from .base import HistoryEvent, RatingResult, ReportRow
from .compact import ColumnRecords, CompactResult, exact_ints

Keyed = tuple[tuple[int, int, int], HistoryEvent]   # (history order: (position, 0 side / 1 record, n), event)
SCAN = 1 << 16   # records read back per step, looking for each player's last records before the period


def windowed(result: RatingResult) -> bool:
    """Whether a period's events can be built from its records alone: a compact result whose history
    is just its records and side events (chips inserts decays between them), kept as columns."""
    return isinstance(result, CompactResult) and result.windowed and isinstance(result.records, ColumnRecords)


def period_events(result: RatingResult, start: date, end: date, only: str | None = None
                  ) -> Iterator[tuple[str, list[HistoryEvent], HistoryEvent | None]] | None:
    """(player, their events dated start..end in history's order, their last event before start)
    for every player with an event in the period (`only`: for that player alone, where `windowed`);
    where not `windowed`, the result's own (RatingResult.period_events), or None."""
    if not windowed(result):
        return result.period_events(start, end)
    assert isinstance(result, CompactResult)
    return _events(result, result.records, start, end, only)


def period_records(result: CompactResult, start: date, end: date) -> Iterator[tuple[str, list[HistoryEvent], HistoryEvent | None]]:
    """_events of every player, for a result whose history puts more between its records (chips'
    decay lines: it adds them to these)."""
    assert isinstance(result.records, ColumnRecords)
    return _events(result, result.records, start, end)


def _events(result: CompactResult, records: ColumnRecords, start: date, end: date, only: str | None = None
            ) -> Iterator[tuple[str, list[HistoryEvent], HistoryEvent | None]]:
    m = result.match_columns()
    names = m.players
    _, col_a, col_b, _ = records.columns
    dated = records_dated(result, start, end)
    p0, p1 = dated.start, dated.stop
    keyed: dict[int, list[Keyed]] = {}
    match_events = result.match_events
    a_codes, b_codes = col_a[p0:p1].tolist(), col_b[p0:p1].tolist()
    wanted = None if only is None else m.code_of.get(only, -1)
    found = zip(range(p0, p1), records.rows(p0, p1), a_codes, b_codes) if wanted is None else \
        ((k, records[k], a, b) for k, a, b in zip(range(p0, p1), a_codes, b_codes) if wanted in (a, b))
    for k, record, a, b in found:
        event_a, event_b = match_events(record)
        keyed.setdefault(a, []).append(((k, 1, 0), event_a))
        keyed.setdefault(b, []).append(((k, 1, 0), event_b))
    sides: dict[int, list[Keyed]] = {}
    for n, (position, player, payload) in enumerate(result.side):
        event = result.side_event(payload)
        sides.setdefault(m.code_of[player], []).append(((position, 0, n), event))
        if start <= event.date <= end:
            keyed.setdefault(m.code_of[player], [])
    if wanted is not None:   # (its opponents' events of its games are not asked for)
        keyed = {wanted: keyed[wanted]} if wanted in keyed else {}
    last_any, last_rated = last_records(records, p0, set(keyed))
    for code, inside in keyed.items():
        own = inside + sides.get(code, [])
        rated = last_rated.get(code)
        if code in last_any:
            k = last_any[code]
            event_a, event_b = result.match_events(records[k])
            own.append(((k, 1, 0), event_a if col_a[k] == code else event_b))
        own.sort(key=lambda item: item[0])
        if rated is not None:   # what came before it does not matter: its rating is a float
            own = [item for item in own if item[0] >= (rated, 1, 0)]
        events = [event for _, event in own]
        if result.whole_numbers:
            exact_ints(events, result.whole_start and rated is None)
        earlier = [e for e in events if e.date < start and e.after is not None]
        yield names[code], [e for e in events if start <= e.date <= end], earlier[-1] if earlier else None


# Of a block of records' fields (as columns) and their scores: per record, a's rating after it, result
# and expected score, then b's, as the engine's match_events makes them for a rated game.
Sides = Callable[[list[list[float]], list[float]], Iterable[tuple[float, ...]]]


def record_rows(result: CompactResult, start: date, end: date, statuses: Mapping[str, str], sides: Sides
                ) -> list[ReportRow] | None:
    """The period report's rows from the records' numbers, where no side event (an adjustment, a
    penalty) stands between records: a player's events in the period are then their records there,
    and their last before it the last record before it (as _events finds them). The same values as
    those events carry (whole ratings as ints, as exact_ints), summed in the same order
    (reports.period.generic_report_rows), without making an event. None where it does not apply."""
    if result.side or not windowed(result):
        return None
    records = result.records
    assert isinstance(records, ColumnRecords)
    index, col_a, col_b, fields = records.columns
    dated = records_dated(result, start, end)
    p0, p1 = dated.start, dated.stop
    a_codes, b_codes = col_a[p0:p1].tolist(), col_b[p0:p1].tolist()
    last_any, last_rated = last_records(records, p0, {*a_codes, *b_codes})
    unrated, whole_start, m = records.reasons, result.whole_numbers and result.whole_start, result.match_columns()
    block = [f[p0:p1].tolist() for f in fields]
    scores = list(map(m.score_a.__getitem__, index[p0:p1].tolist()))
    # Per player code, in the order _events meets them: [before, games, points, expected, after,
    # whole] (before: their first event's; whole: the rating still held as an int, exact_ints).
    rows: dict[int, list[Any]] = {}
    for k, a, b, ra, rb, (after_a, points_a, expected_a, after_b, points_b, expected_b) in zip(
            range(p0, p1), a_codes, b_codes, block[0], block[1], sides(block, scores)):
        rated = k not in unrated
        for code, before, after, points, expected in (
                (a, ra, after_a, points_a, expected_a), (b, rb, after_b, points_b, expected_b)):
            row = rows.get(code)
            if row is None:
                row = rows[code] = [None, 0, 0, 0, 0, whole_start and code not in last_rated]
            if row[5]:
                before = int(before)
                row[5] = not rated
            if row[0] is None:
                row[0] = before
            if rated:
                row[1] += 1
                row[2] += points or 0.0   # (as generic_report_rows sums them)
                row[3] += expected
                row[4] = after
            else:
                row[4] = before
    names, out = m.players, []
    for code, (before, games, points, expected, after, _whole) in rows.items():
        if code in last_any:   # their rating after their last record before the period
            k = last_any[code]
            side = 0 if col_a[k] == code else 1
            if k in unrated:
                before = fields[side][k]
                if whole_start and code not in last_rated:   # unrated games alone so far: still whole
                    before = int(before)
            else:
                one = next(iter(sides([[f[k]] for f in fields], [m.score_a[index[k]]])))
                before = one[3 * side]
        name = names[code]
        out.append(ReportRow(name, before, games, points, expected if games else None, after - before,
                             after, statuses.get(name, "")))
    return out


def last_records(records: ColumnRecords, before: int, codes: set[int]) -> tuple[dict[int, int], dict[int, int]]:
    """By player code (of `codes`): their last record before record `before`, and their last rated one."""
    _, col_a, col_b, _ = records.columns
    unrated = records.reasons
    last_any: dict[int, int] = {}
    last_rated: dict[int, int] = {}
    wanted = len(codes)
    stop = before
    while stop > 0 and len(last_rated) < wanted:
        begin = max(0, stop - SCAN)
        a, b = col_a[begin:stop].tolist(), col_b[begin:stop].tolist()
        for k in range(stop - 1, begin - 1, -1):
            for code in (a[k - begin], b[k - begin]):
                if code in codes and code not in last_rated:
                    last_any.setdefault(code, k)
                    if k not in unrated:
                        last_rated[code] = k
        stop = begin
    return last_any, last_rated


def records_dated(result: CompactResult, start: date, end: date) -> range:
    """The positions of the records dated start..end (the records are in replay order, by date)."""
    count, dates, index = len(result.records), result.match_columns().dates, result.records.columns[0]
    first = bisect_left(range(count), start.toordinal(), key=lambda k: dates[index[k]])
    return range(first, bisect_right(range(count), end.toordinal(), lo=first, key=lambda k: dates[index[k]]))


def first_after(result: CompactResult, day: date) -> int:
    """The position of the first record dated after `day`."""
    return records_dated(result, day, day).stop


def rated_after(result: CompactResult, day: date) -> Counter[int]:
    """Of each player code, their rated games (records without a reason) dated after `day`:
    what a replay up to `day` has not counted yet. Counted in C, the unrated ones taken back."""
    records = result.records
    first = first_after(result, day)
    _, col_a, col_b, _ = records.columns
    counts = Counter(col_a[first:].tolist())
    counts.update(col_b[first:].tolist())
    for k in records.reasons:
        if k >= first:
            counts[col_a[k]] -= 1
            counts[col_b[k]] -= 1
    return counts


def opponents_events(result: RatingResult, player: str) -> dict[str, HistoryEvent] | None:
    """Of each of the player's matches (by entry), the opponent's event, made from the match's record,
    which holds both sides: without building the opponent's history (the player card's best wins, one
    opponent a win). None where not `windowed`: only the opponents' histories tell it. (A rating the
    history would give back as an int, exact_ints, is a float here: the caller looks those up.)"""
    if not windowed(result):
        return None
    assert isinstance(result, CompactResult) and isinstance(result.records, ColumnRecords)
    m = result.match_columns()
    code = m.code_of.get(player)
    found: dict[str, HistoryEvent] = {}
    if code is None:
        return found
    records = result.records
    for k in records.positions_of(code):
        record = records[k]
        event_a, event_b = result.match_events(record)
        theirs = event_b if m.a[record[0]] == code else event_a
        if theirs.entry is not None:
            found[theirs.entry] = theirs
    return found
