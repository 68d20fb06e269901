"""The standings of a list whose replay the cache cannot keep (mfsnb, fide, placement: their state
is records per competition, list line or tournament), kept for `leaderboard`.

Stored after a replay of the journal exactly as the cached snapshot has it, per list and discipline
(with the date read), as JSON with its own SHA-256: every standing (player, rating, games, status, the last
game's date, the engine's extra columns) and what the leaderboard shows of the result (hidden
statuses, extra columns, sections, the date). Read back only for the same snapshot token and counts
and nothing appended since, the same engine and version, list, discipline and date; each value must
come back as the very type it was (an int stays an int, a date is tagged), and a result holding
anything else is not stored. Any other case, or any problem, means the list is replayed.
"""
from __future__ import annotations

import hashlib
import json
from datetime import date
from typing import TYPE_CHECKING, Any

from ..engines.base import RatingResult, Standing
from .cachecheck import need
from .cachedir import CacheFolder

if TYPE_CHECKING:
    from ..config import RatingList

Ledger = Any   # (replay.ledger.Ledger, which imports this module)

FORMAT = 1


def _name(rating: str, discipline: str) -> str:
    """One file per list and discipline (the date read is in it): a --as-of asked for replaces the
    usual date's standings, which the next read of that date keeps again; files do not pile up."""
    return "standings-" + hashlib.sha256(f"{rating}\n{discipline}".encode("utf-8")).hexdigest()[:16] + ".json"


class NotPlain(ValueError):
    """A value the file cannot give back as the very type it was."""


def _value(v: Any) -> Any:
    if v is None or type(v) in (bool, int, str) or type(v) is float and v == v and abs(v) != float("inf"):
        return v
    if type(v) is date:
        return {"date": v.isoformat()}
    raise NotPlain(type(v).__name__)


def _row(s: Standing) -> list[Any]:
    if not (type(s.player) is str and type(s.games) is int and type(s.status) is str
            and all(type(key) is str for key in s.extra)):
        raise NotPlain("a standing's player, games, status or extra column")
    return [s.player, _value(s.rating), s.games, s.status, _value(s.last_played),
            [[key, _value(v)] for key, v in s.extra.items()]]


def _back(v: Any) -> Any:
    if isinstance(v, dict):
        need(set(v) == {"date"} and isinstance(v["date"], str), "unknown value")
        return date.fromisoformat(v["date"])
    need(v is None or type(v) in (bool, int, float, str), "unknown value")
    return v


def _pairs(items: Any) -> tuple[tuple[str, str], ...]:
    need(isinstance(items, list) and all(isinstance(x, list) and len(x) == 2 and all(isinstance(y, str) for y in x)
                                         for x in items), "bad pairs")
    return tuple((x[0], x[1]) for x in items)


def _key(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date | None) -> dict[str, Any]:
    return {"format": FORMAT, "token": ledger.cache_token, "counts": ledger.snapshot_counts(), "engine": engine.name,
            "version": engine.version, "rating": rating.name, "discipline": discipline,
            "as_of": day.isoformat() if day else None}


def save(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date | None, result: RatingResult) -> None:
    """Keep the result's standings, where the journal in memory is exactly the cached snapshot."""
    if ledger.cache_token is None or ledger.dirty or result.as_of != day:
        return
    try:
        rows = [_row(s) for s in result.standings.values()]
    except NotPlain:
        return
    body = json.dumps({**_key(ledger, engine, rating, discipline, day), "rows": rows,
                       "hidden": sorted(result.hidden_statuses), "columns": [list(c) for c in result.columns],
                       "sections": [list(c) for c in result.sections]}, ensure_ascii=False).encode("utf-8")
    with CacheFolder(ledger.config, create=True) as folder:
        folder.write(_name(rating.name, discipline), hashlib.sha256(body).digest() + body)


def load(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date | None) -> RatingResult | None:
    """The kept standings as a result for the leaderboard, or None; any problem raises (through_cache)."""
    if ledger.cache_token is None or ledger.dirty:
        return None
    with CacheFolder(ledger.config, create=False) as folder:
        data, _ = folder.read(_name(rating.name, discipline))
    body = data[32:]
    need(hashlib.sha256(body).digest() == data[:32], "standings file damaged")
    kept = json.loads(body)
    need(isinstance(kept, dict), "standings file is not an object")
    if any(kept.get(k) != v for k, v in _key(ledger, engine, rating, discipline, day).items()):
        return None   # another snapshot, list, date or program
    standings: dict[str, Standing] = {}
    rows = kept.get("rows")
    need(isinstance(rows, list), "no rows")
    for row in rows:
        need(isinstance(row, list) and len(row) == 6 and isinstance(row[0], str) and type(row[2]) is int
             and isinstance(row[3], str) and isinstance(row[5], list), "bad row")
        player, rating_value, games, status, played, extra = row
        need(player not in standings, "a player listed twice")
        need(all(isinstance(x, list) and len(x) == 2 and isinstance(x[0], str) for x in extra), "bad extra")
        last = _back(played)
        need(last is None or type(last) is date, "bad date")
        value = _back(rating_value)
        need(value is None or type(value) in (int, float), "bad rating")
        standings[player] = Standing(player, value, games, status, last, {k: _back(v) for k, v in extra})
    hidden = kept.get("hidden")
    need(isinstance(hidden, list) and all(isinstance(x, str) for x in hidden), "bad hidden statuses")
    return RatingResult(rating.name, discipline, engine.name, standings, hidden_statuses=frozenset(hidden),
                        columns=_pairs(kept.get("columns")), sections=_pairs(kept.get("sections")), as_of=day)
