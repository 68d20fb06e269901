"""The period report: per player active in a period, the rating at its start and end, games,
points, expected and change; the commission's totals, and the arithmetic behind each change."""
from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from datetime import date
from typing import TYPE_CHECKING, Any

from ..engines.base import HistoryEvent, RatingResult, ReportRow
from ..engines.window import period_events, windowed
from ..i18n import _
from ..periods import Period
from .asof import known_player
from .history import played
from .table import Column, Row, Table, heading

if TYPE_CHECKING:
    from ..replay.ledger import Ledger


def generic_report_rows(result: RatingResult, period: Period, at_end: RatingResult | dict[str, str] | None = None
                        ) -> list[ReportRow]:
    """Per player active in the period, from their history; the status is the one of the list as
    of the period's last day (provisional then, though established by now): `at_end`, that list's
    replay or its statuses (RatingResult.statuses_at)."""
    statuses = at_end if isinstance(at_end, dict) else \
        {player: s.status for player, s in (at_end or result).standings.items()}
    rows = result.period_rows(period.start, period.end, statuses)
    if rows is not None:
        return rows
    rows = []
    found = period_events(result, period.start, period.end)
    for player, inside, last_before in found if found is not None else _from_histories(result, period):
        before = last_before.after if last_before is not None else inside[0].before
        rated = [e for e in inside if e.rated and e.kind == "match"]
        points = sum(e.result or 0.0 for e in rated)
        expected_values = [e.extra.get("expected") for e in rated]
        expected = sum(v for v in expected_values if v is not None) if rated and None not in expected_values else None
        after = next((e.after for e in reversed(inside) if e.after is not None), before)
        status = statuses.get(player, "")
        change = after - before if after is not None and before is not None else None
        rows.append(ReportRow(player, before, len(rated), points, expected, change, after, status))
    return rows


def _from_histories(result: RatingResult, period: Period) -> Iterator[tuple[str, list[HistoryEvent], HistoryEvent | None]]:
    """(player, their events in the period, their last event before it) of each player with events in it."""
    for player, events in result.events.items():
        inside = [e for e in events if period.start <= e.date <= period.end]
        if inside:
            earlier = [e for e in events if e.date < period.start and e.after is not None]
            yield player, inside, earlier[-1] if earlier else None


def report(ledger: Ledger, result: RatingResult, period: Period, player: str | None = None,
           details: bool = False) -> Table:
    if player is not None:
        known_player(ledger, player)
    rows = result.report(period.start, period.end)
    per_game = rows is None  # no per-competition records: the arithmetic is per game, from history
    if rows is None:
        if not windowed(result):   # everyone's events read every row: from machine arrays (columns.Appended)
            ledger.journal.matches.solid()
        # The statuses as of the period's end: read from this replay where the engine can tell
        # them (a count of games), else from a replay up to that day.
        at_end = result.statuses_at(period.end)
        rows = generic_report_rows(result, period, at_end if at_end is not None else
                                   ledger.run(result.rating, result.discipline, period.end))
    if player is not None:
        rows = [r for r in rows if r.player == player]
    rows.sort(key=lambda r: (-(r.after if r.after is not None else float("-inf")), r.player))
    journal = ledger.journal
    extra_keys: list[str] = []
    out: list[Row] = []
    in_period = _events_in_period(result, period, player) if details and per_game else None
    for r in rows:
        row: Row = {"player": r.player, "name": journal.player_name(r.player), "before": r.before,
               "games": r.games, "points": r.points, "expected": r.expected, "change": r.change,
               "after": r.after, "status": r.status}
        for key, value in r.extra.items():
            row[key] = value
            if key not in extra_keys:
                extra_keys.append(key)
        if details and per_game:
            row["events"] = game_details(ledger, result, r.player, period,
                                         None if in_period is None else in_period.get(r.player, []))
        out.append(row)
    columns = [Column("player", _("Player")), Column("name", _("Name")), Column("before", _("Before"), "rating"),
               Column("games", _("Games"), "int"), Column("points", _("Points"), "number"),
               Column("expected", _("Expected"), "number"), Column("change", _("Change"), "change"),
               Column("after", _("After"), "rating"), Column("status", _("Status"))]
    # Lists of records (per-competition details) are for JSON and --details, not a cell.
    columns += [Column(key, heading(key), "auto") for key in extra_keys
                if not any(_is_records(row.get(key)) for row in out)]
    title = f"{result.rating} · {result.discipline} · {period.start}..{period.end}"
    totals = report_totals(out)
    json_value: dict[str, Any] = {"rating": result.rating, "discipline": result.discipline,
                  "period": {"start": period.start, "end": period.end}, "rows": out, "totals": totals}
    caption = None
    if not out:
        caption = empty_report_reason(ledger, result, period, player)
        json_value["empty"] = caption
    shown = out + ([{"player": None, "name": _("Total"), **totals}] if out else [])
    return Table(title, columns, shown, caption=caption, json_value=json_value)


def report_totals(rows: list[Row]) -> dict[str, Any]:
    """The commission's totals: games, points, expected (of the rows that have it) and change."""
    def total(key: str) -> float | None:
        values = [row[key] for row in rows if row.get(key) is not None]
        if not values:
            return None
        return sum(values) if all(isinstance(v, int) for v in values) else math.fsum(values)

    return {"games": total("games") or 0, "points": total("points") or 0.0,
            "expected": total("expected"), "change": total("change")}


def empty_report_reason(ledger: Ledger, result: RatingResult, period: Period, player: str | None) -> str:
    """Why a report has no rows: no rated games in the period, and where the entries or lists are."""
    if player:
        text = _("{player} has no rated games of {discipline} in {start}..{end}").format(
            player=player, discipline=result.discipline, start=period.start, end=period.end)
    else:
        text = _("No rated games of {discipline} in {start}..{end}").format(
            discipline=result.discipline, start=period.start, end=period.end)
    dates = list_dates(result)
    if dates:
        before = [d for d in dates if d < period.start]
        after = [d for d in dates if d > period.end]
        near = ([_("{day} before it").format(day=before[-1])] if before else []) + (
            [_("{day} after it").format(day=after[0])] if after else [])
        text += ": " + _("{rating} ({engine}) reports the lists dated in the period, and none with results is").format(
            rating=result.rating, engine=result.engine) + ("; " + _("the nearest: {days}").format(days=", ".join(near)) if near else "")
    else:
        sources = [result.history(player)] if player else list(result.events.values())
        days = sorted(e.date for events in sources for e in events if played(e))
        if days:
            text += ": " + _("the rated games run from {first} to {last}").format(first=days[0], last=days[-1])
        else:
            text += ": " + _("{rating} has no rated games of {discipline} at all").format(
                rating=result.rating, discipline=result.discipline)
    return text


def list_dates(result: RatingResult) -> list[date]:
    """The dates of the lists a period engine (mfsnb, fide) has published results on; [] for others."""
    lists: Any = result   # its `lists`, as `list_kind` declares them
    if result.list_kind == "periods":   # mfsnb: [(period, rows)]
        return sorted(period.end for period, rows in lists.lists() if rows)
    if result.list_kind == "records":   # fide: player → list records
        return sorted({rec.list_date for records in lists.lists.values() for rec in records if rec.events})
    return []


def _events_in_period(result: RatingResult, period: Period, player: str | None = None
                      ) -> dict[str, list[HistoryEvent]] | None:
    """Every player's events dated in the period (`player`'s alone, where given), from the period's
    records alone (window.py), where the result's history is its records and side events; None: each
    player's history is read; of another result, its own period's events (RatingResult.period_events:
    chips cuts its decay at the period's bounds), if it has them.

    These are the events the rows are worked out from: a side event dated in the period that comes
    in history before a game dated before it (a Glicko adjustment dated within a rating period
    applies at its start, before that period's games) is in the rating before the period, through
    those games, and not among them, as it is not in the row's change."""
    found = period_events(result, period.start, period.end, player)
    return None if found is None else {pid: inside for pid, inside, _before in found}


def game_details(ledger: Ledger, result: RatingResult, player: str, period: Period,
                 events: list[HistoryEvent] | None = None) -> list[Row]:
    """Per game (and decay, tournament, adjustment) of the period: the numbers that made the change.
    `events`: the player's events dated in the period, where already found (else their history is
    read: on a million games, a whole list's players' histories would be millions of events)."""
    from ..engines.registry import engine_class

    params = ledger.rating(result.rating).params
    constants = engine_class(result.engine).game_constants(params)   # elo: K of change = K·(S − E)
    out: list[Row] = []
    for e in result.history(player) if events is None else events:
        if not (period.start <= e.date <= period.end and e.rated) or e.change is None and e.after is None:
            continue  # only what moved the rating: rated games, tournaments, decays, adjustments
        row: Row = {"date": e.date, "entry": e.entry, "kind": e.kind, "opponent": e.opponent, "result": e.result,
               "before": e.before}
        row.update({k: v for k, v in e.extra.items() if k not in row})
        if "expected" in e.extra:
            for key, value in constants.items():
                row.setdefault(key, value)
        row.update({"change": e.change, "after": e.after, "reason": e.reason})
        out.append(row)
    return out


def _is_records(value: object) -> bool:
    return isinstance(value, list) and any(isinstance(v, dict) for v in value)


def _numbers(values: Iterable[object]) -> bool:
    """Numbers, where given (None: not for this record), and at least one."""
    given = [v for v in values if v is not None]
    return bool(given) and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in given)


def report_details(table: Table) -> list[Table]:
    """Per-row details, as tables of their own: per competition (mfsnb, fide) or per game."""
    details: list[Table] = []
    for row in table.rows:
        competitions = row.get("competitions")
        records = competitions or row.get("events")
        if not records:
            continue
        keys = list(dict.fromkeys(k for record in records for k in record))
        tail = [k for k in ("change", "after", "reason") if k in keys]   # the outcome last, as in history
        keys = [k for k in keys if k not in tail] + tail
        kinds = {"date": "date", "result": "score", "before": "rating", "after": "rating", "change": "change"}
        # Numbers shown when 0 too, right-aligned: a competition's arithmetic (Ra, Pe, E, P); a game's, as
        # history shows it, its expected score or probability to 4 decimals (the seeds' 0.5144)
        kinds |= {k: "probability" if k in ("expected", "probability") and not competitions else "number"
                  for k in keys if k not in kinds and _numbers(r.get(k) for r in records)}
        # a list (an event's opponents' ratings) wraps on a narrow terminal, rather than leave out the columns after it
        lists = {k for record in records for k, value in record.items() if isinstance(value, (list, tuple))}
        columns = [Column(k, heading(k), kinds.get(k, "auto"), wrap=k in lists) for k in keys]
        details.append(Table(f"{row['name']} ({row['player']})", columns, records))
    return details
