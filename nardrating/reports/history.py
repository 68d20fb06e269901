"""A player's history: every event of theirs in one list, narrowed, with a summary line."""
from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from ..i18n import ngettext
from ..engines.base import HistoryEvent, RatingResult
from ..engines.registry import engine_class
from ..i18n import _
from ..i18n.numbers import localized
from .asof import AsOf
from .table import Column, Row, Table, heading

if TYPE_CHECKING:
    from ..replay.ledger import Ledger


# Engine keys of history events, in the order their columns appear (whatever event comes first).
EVENT_KEYS = ("expected", "probability", "opponent_rating", "k", "base", "boost", "opponent_boost",
              "experience", "chips", "days", "place", "participants", "places_from", "event", "rc",
              "performance", "penalty")
NOT_PLAYED = ("voided", "forfeit", "unrated")


def _event_key_order(key: str) -> tuple[int, str]:
    return (EVENT_KEYS.index(key), "") if key in EVENT_KEYS else (len(EVENT_KEYS), key)


def played(e: HistoryEvent) -> bool:
    """A game the player played and the list counts: not voided, forfeit, unrated or over the pair limit."""
    return e.kind == "match" and e.result is not None and not (
        e.reason in NOT_PLAYED or (e.reason or "").startswith("pair limit"))


def history(ledger: Ledger, result: RatingResult, player: str, day: AsOf | None = None, *,
            since: date | None = None, until: date | None = None, last: int | None = None,
            opponent: str | None = None) -> Table:
    """A player's events; since/until/opponent/last (games) narrow them, with a summary line."""
    events = result.history(player)
    if since is not None:
        events = [e for e in events if e.date >= since]
    if until is not None:
        events = [e for e in events if e.date <= until]
    if opponent is not None:
        events = [e for e in events if e.opponent == opponent]
    if last is not None:
        games = [k for k, e in enumerate(events) if played(e)]
        first = games[-last] if 0 < last <= len(games) else (len(events) if last <= 0 else 0)
        events = events[first:]
    rows: list[Row] = []
    extra_keys: set[str] = set()
    for e in events:
        row: Row = {"date": e.date, "entry": e.entry, "kind": e.kind, "opponent": e.opponent,
               "result": e.result, "before": e.before, "change": e.change, "after": e.after,
               "rated": e.rated, "reason": e.reason}
        for key, value in e.extra.items():
            if key not in row:
                row[key] = value
                extra_keys.add(key)
        rows.append(row)
    columns = [Column("date", _("Date"), "date"), Column("entry", _("Entry")), Column("kind", _("Kind")),
               Column("opponent", _("Opponent")), Column("result", _("Result"), "score"),
               Column("before", _("Before"), "rating"), Column("change", _("Change"), "change"),
               Column("after", _("After"), "rating")]
    # A game's expected score or probability to 4 decimals; a list's in hundredths to 2 (Column
    # kind "number" of the key "expected": render/cells.py).
    per_game = ("probability",) if engine_class(result.engine).expected_decimals == 2 else ("expected", "probability")
    columns += [Column(key, heading(key), "probability" if key in per_game else "number")
                for key in sorted(extra_keys, key=_event_key_order)]
    columns.append(Column("reason", _("Reason"), "footnote"))
    # Every row has every column's key, in the columns' order, as CSV has; `rated` (JSON only) stays.
    rows = [{**{c.key: row.get(c.key) for c in columns}, "rated": row["rated"]} for row in rows]
    name = ledger.journal.player_name(player)
    title = f"{name} ({player}) · {result.rating} · {result.discipline}" + (f" · {day}" if day else "")
    captions = [history_summary(events)]
    ratings = [e.after for e in events if e.rated and e.after is not None]
    if ratings:
        captions.append(_("rating: {sparkline}").format(sparkline=sparkline(ratings)))
    return Table(title, columns, rows, caption="\n".join(captions))


def history_summary(events: list[HistoryEvent]) -> str:
    """games, W/D/L, points and the net change of these events."""
    games = [e for e in events if played(e)]
    wins = sum(e.result == 1.0 for e in games)
    draws = sum(e.result == 0.5 for e in games)
    points = sum(e.result or 0.0 for e in games)  # played: every result is a number
    # a fractional count takes the form of 2 (English "6.5 points", Russian "6,5 очка")
    point_form = int(points) if points == int(points) else 2
    text = (ngettext("{games} game", "{games} games", len(games)).format(games=len(games)) + ": "
            + _("{wins} W, {draws} D, {losses} L").format(wins=wins, draws=draws, losses=len(games) - wins - draws) + "; "
            + ngettext("{points} point", "{points} points", point_form).format(points=localized(f"{points:g}")))
    net = net_change(events)
    if net is not None:
        text += "; " + _("net change {change}").format(change=localized(f"{net:+.2f}" if isinstance(net, float) else f"{net:+d}"))
    return text


def net_change(events: list[HistoryEvent]) -> float | None:
    """The last rating shown minus the rating before the first event (or its first rating)."""
    known = [e for e in events if e.after is not None or e.before is not None]
    if not known:
        return None
    first = known[0].before if known[0].before is not None else known[0].after
    last = next((e.after for e in reversed(events) if e.after is not None), None)
    if first is None or last is None:
        return None
    return last - first


SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[float]) -> str:
    low, high = min(values), max(values)
    if high == low:
        return SPARKS[3] * len(values)
    return "".join(SPARKS[round((v - low) / (high - low) * (len(SPARKS) - 1))] for v in values)
