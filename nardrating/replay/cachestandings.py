"""The standings of a list whose replay the cache cannot keep (mfsnb, fide: their state is records
per competition and list line), kept for `leaderboard`.

Stored after a replay of the journal exactly as the cached snapshot has it, or as it and the matches
recorded since in its manifest (Ledger.kept_key), per list and discipline (with the date read), as JSON
with its own SHA-256: every standing (player, rating, games, status, the last game's date, the engine's
extra columns), a column at a time, and what the leaderboard shows of the result (hidden statuses,
extra columns, sections, the date). Read back only for the same snapshot token, counts and recorded
matches and nothing else appended since, the same engine and version, list, discipline and date; each value must
come back as the very type it was (an int stays an int, a date is tagged), and a result holding
anything else is not stored. Any other case, or any problem, means the list is replayed.
"""
from __future__ import annotations

import hashlib
import json
import math
from datetime import date
from itertools import repeat
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from ..collector import collector_paused
from ..engines.base import RatingResult, Standing
from .cachecheck import need
from .cachedir import CacheFolder

if TYPE_CHECKING:
    from ..config import RatingList
    from .cachetail import Snapshot

Ledger = Any   # (replay.ledger.Ledger, which imports this module)

FORMAT = 2   # 2: the standings a column at a time


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


def _number(v: Any) -> Any:
    if v is None or type(v) is int or type(v) is float and v == v and abs(v) != float("inf"):
        return v
    raise NotPlain(f"a rating of type {type(v).__name__}")


def _columns(standings: list[Standing]) -> dict[str, Any]:
    """The standings a column at a time (read back a column at a time: one type check each); the
    extra columns as each row's values and the index of its keys among the distinct key lists.
    (Column by column, by C-level maps: 10,000 standings are kept at every add-match of a federation list.)"""
    players, ratings, games, statuses, played, extras = (list(map(attrgetter(name), standings)) for name in (
        "player", "rating", "games", "status", "last_played", "extra"))
    keys = list(map(tuple, extras))
    shapes = {shape: k for k, shape in enumerate(dict.fromkeys(keys))}
    if not (set(map(type, players)) <= {str} and set(map(type, games)) <= {int} and set(map(type, statuses)) <= {str}
            and set(map(type, played)) <= {date, type(None)} and all(type(key) is str for shape in shapes for key in shape)):
        raise NotPlain("a standing's player, games, status, date or extra column")
    values = list(map(list, map(dict.values, extras)))
    if len(shapes) == 1 and values and values[0]:
        values = _one_shape(values)
    elif not {type(v) for row in values for v in row} <= _PLAIN:   # (a date, a float: checked one by one)
        values = [[_value(v) for v in row] for row in values]
    days: dict[date | None, int | None] = {day: None if day is None else day.toordinal() for day in set(played)}
    return {"player": players, "rating": _ratings(ratings), "games": games, "status": statuses,
            "last_played": list(map(days.__getitem__, played)),
            "extra_keys": [list(shape) for shape in shapes], "extra_shape": list(map(shapes.__getitem__, keys)),
            "extra": values}


_PLAIN = {type(None), bool, int, str}


def _ratings(ratings: list[Any]) -> list[Any]:
    """The ratings as _number gives each (None, an int, a finite float), checked by their types at once."""
    kinds = set(map(type, ratings))
    if not kinds <= {type(None), int, float}:
        _number(next(r for r in ratings if type(r) not in (type(None), int, float)))   # (raises, naming the type)
    if float in kinds and not all(map(math.isfinite, [r for r in ratings if type(r) is float])):
        raise NotPlain("a rating of type float")
    return ratings


def _one_shape(values: list[list[Any]]) -> list[list[Any]]:
    """The rows' extra values of one shape (fide's 10,000 standings: the list's date), a column at a
    time: a column of plain values as it is; any other, each distinct value given as _value gives
    it (a date tagged once, not for every row)."""
    columns = list(zip(*values))
    kinds = [set(map(type, column)) for column in columns]
    if all(kind <= _PLAIN for kind in kinds):
        return values
    given = [column if kind <= _PLAIN else
             list(map({v: _value(v) for v in set(column)}.__getitem__, column)) if kind <= _PLAIN | {date, float} else
             list(map(_value, column))   # (raises NotPlain)
             for column, kind in zip(columns, kinds)]
    return list(map(list, zip(*given)))


def _day(v: dict[str, Any], tagged: dict[str, date]) -> date:
    """A tagged date ({"date": "2012-01-01"}) back as a date; `tagged`: those read so far."""
    text = v.get("date")
    need(len(v) == 1 and type(text) is str, "unknown value")
    day = tagged.get(str(text))
    if day is None:
        day = tagged[str(text)] = date.fromisoformat(str(text))
    return day


def _typed(column: Any, types: set[type], what: str) -> list[Any]:
    need(type(column) is list and set(map(type, column)) <= types, what)
    return column   # type: ignore[no-any-return]


def _standings(rows: Any) -> dict[str, Standing]:
    need(type(rows) is dict, "no rows")
    players = _typed(rows.get("player"), {str}, "bad players")
    count = len(players)
    ratings = _typed(rows.get("rating"), {type(None), int, float}, "bad ratings")
    games = _typed(rows.get("games"), {int}, "bad games")
    statuses = _typed(rows.get("status"), {str}, "bad statuses")
    played = _typed(rows.get("last_played"), {type(None), int}, "bad dates")
    keys = _typed(rows.get("extra_keys"), {list}, "bad extra columns")
    need(all(set(map(type, k)) <= {str} for k in keys), "bad extra columns")
    shapes = _typed(rows.get("extra_shape"), {int}, "bad extra shapes")
    extra = _typed(rows.get("extra"), {list}, "bad extra values")
    need(len(set(players)) == count, "a player listed twice")
    need(all(len(column) == count for column in (ratings, games, statuses, played, shapes, extra)), "columns of unequal length")
    # (Column by column, by C-level maps: 10,000 standings are read at every leaderboard.)
    need(set(shapes) <= set(range(len(keys))), "bad extra shapes")
    widths = [len(k) for k in keys]
    need(list(map(len, extra)) == list(map(widths.__getitem__, shapes)), "bad extra shapes")
    need(all(1 <= d <= date.max.toordinal() for d in set(played) if d is not None), "bad date")
    days: dict[int | None, date | None] = {d: None if d is None else date.fromordinal(d) for d in set(played)}
    flat = {type(v) for values in extra for v in values}
    if not flat <= {type(None), bool, int, float, str}:   # a tagged value (a date) among them
        need(flat <= {type(None), bool, int, float, str, dict}, "unknown value")
        extra = _untagged(extra, len(keys) == 1)
    extras = map(dict, map(zip, map(keys.__getitem__, shapes), extra))
    return dict(zip(players, map(Standing, players, ratings, games, statuses, map(days.__getitem__, played), extras)))


def _untagged(extra: list[Any], one_shape: bool) -> list[Any]:
    """The rows' extra values with each tagged date ({"date": "2012-01-01"}) as a date. Of one shape
    (fide's 10,000 standings: the list's date), a column at a time, each distinct text read once."""
    tagged: dict[str, date] = {}
    if not one_shape or not extra:
        return [[v if type(v) is not dict else _day(v, tagged) for v in values] for values in extra]
    columns: list[Any] = []
    for column in zip(*extra):
        if set(map(type, column)) == {dict}:
            texts: list[Any] = list(map(dict.get, column, repeat("date")))
            need(set(map(len, column)) == {1} and set(map(type, texts)) == {str}, "unknown value")
            read = {text: date.fromisoformat(str(text)) for text in set(texts)}
            columns.append(list(map(read.__getitem__, texts)))
        else:
            columns.append([v if type(v) is not dict else _day(v, tagged) for v in column])
    return list(zip(*columns))


def _pairs(items: Any) -> tuple[tuple[str, str], ...]:
    need(isinstance(items, list) and all(isinstance(x, list) and len(x) == 2 and all(isinstance(y, str) for y in x)
                                         for x in items), "bad pairs")
    return tuple((x[0], x[1]) for x in items)


def _state_name(rating: str, discipline: str) -> str:
    """What the replay behind the kept standings reached (Engine.standings_state): a file beside them."""
    return "standings-state-" + _name(rating, discipline).removeprefix("standings-")


def list_key(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date | None,
             form: int = FORMAT, snapshot: Snapshot | None = None) -> dict[str, Any]:
    """What a file kept of a list's replay is for (here, and cachehistory.py's of the same key):
    the journal (Ledger.kept_key: the snapshot's token, the counts, the matches recorded since;
    `snapshot`: those given), the engine and its version, the list, discipline and date."""
    token, counts, tail = snapshot if snapshot is not None else (ledger.kept_key() or (None, None, None))
    return {"format": form, "token": token, "counts": counts, "tail": tail, "engine": engine.name,
            "version": engine.version, "rating": rating.name, "discipline": discipline,
            "as_of": day.isoformat() if day else None}


def _write(ledger: Ledger, name: str, data: dict[str, Any]) -> None:
    body = json.dumps(data, ensure_ascii=False).encode("utf-8")
    with CacheFolder(ledger.config, create=True) as folder:
        folder.write(name, hashlib.sha256(body).digest() + body)


def _read(ledger: Ledger, name: str, key: dict[str, Any]) -> dict[str, Any] | None:
    """A file's JSON object, if it is for `key`; None: another snapshot, list, date or program."""
    with CacheFolder(ledger.config, create=False) as folder:
        data, _ = folder.read(name)
    body = data[32:]
    need(hashlib.sha256(body).digest() == data[:32], "standings file damaged")
    with collector_paused():   # every standing and its values: many objects, none in a cycle (collector.py)
        kept = json.loads(body)
    need(isinstance(kept, dict), "standings file is not an object")
    return kept if all(kept.get(k) == v for k, v in key.items()) else None


def save(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date | None, result: RatingResult) -> None:
    """Keep the result's standings, where the journal in memory is exactly the cached snapshot."""
    if ledger.kept_key() is None or result.as_of != day:
        return
    try:
        rows = _columns(list(result.standings.values()))
    except NotPlain:
        return
    key = list_key(ledger, engine, rating, discipline, day)
    _write(ledger, _name(rating.name, discipline), {
        **key, "rows": rows, "hidden": sorted(result.hidden_statuses), "columns": [list(c) for c in result.columns],
        "sections": [list(c) for c in result.sections]})
    # What the replay reached, for the standings after a match appended (after_appended_match): a
    # file of its own, which the leaderboard does not read.
    state = engine().standings_state(result)
    if state is not None:
        _write(ledger, _state_name(rating.name, discipline), {**key, "state": state})


def load(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date | None) -> RatingResult | None:
    """The kept standings as a result for the leaderboard, or None; any problem raises (through_cache)."""
    if ledger.kept_key() is None:
        return None
    return _kept_result(ledger, engine, rating, discipline, day, list_key(ledger, engine, rating, discipline, day))


def _kept_result(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date | None,
                 key: dict[str, Any], rows: bool = True) -> RatingResult | None:
    """The kept standings as a result (without `rows`: none of its standings, only how they are shown)."""
    kept = _read(ledger, _name(rating.name, discipline), key)
    if kept is None:
        return None
    with collector_paused():
        standings = _standings(kept.get("rows")) if rows else {}
    hidden = kept.get("hidden")
    need(isinstance(hidden, list) and all(isinstance(x, str) for x in hidden), "bad hidden statuses")
    assert isinstance(hidden, list)
    return RatingResult(rating.name, discipline, engine.name, standings, hidden_statuses=frozenset(hidden),
                        columns=_pairs(kept.get("columns")), sections=_pairs(kept.get("sections")), as_of=day)


def after_appended_match(after: Ledger, engine: Any, rating: RatingList, discipline: str, day: date) -> RatingResult | None:
    """The list's standings as of `day` after a writer appended one match to the journal in memory
    (`after.appended_to`: the snapshot it was, and the day its standings were kept as of), from
    those standings and what their replay reached (Engine.after_match), without a replay; None
    where only a replay can tell (raises on any problem with the files: through_cache)."""
    from ..contract.events import MatchPlayed
    from .cache import enabled

    facts = after.appended_to
    if facts is None or not enabled():
        return None
    before, before_day, last_before = facts
    counts = before[1]
    journal = after.journal
    i = journal.match_count() - 1
    # One match (no new player, nothing else), dated on or after every entry before it, on no day a
    # tournament ends (whose end comes after the day's matches in a replay).
    if after.snapshot_counts() != {**counts, "count": counts["count"] + 1} or last_before is None:
        return None
    m = journal.match(i)
    if m.discipline != discipline or m.date < last_before or m.date.toordinal() in journal.tournament_ends():
        return None
    key = list_key(after, engine, rating, discipline, before_day, snapshot=before)
    kept = _kept_result(after, engine, rating, discipline, before_day, key, rows=engine.after_match_reads_standings)
    if kept is None:
        return None
    state = _read(after, _state_name(rating.name, discipline), key)
    if state is None or type(state.get("state")) is not dict:
        return None
    match = MatchPlayed(i, m.id, m.date, m.a, m.b, m.score_a, m.length, m.discipline, m.tournament,
                        journal.exclusion(i), marked_unrated=not m.rated)
    return engine().after_match(rating.params, kept, state["state"], match, day)  # type: ignore[no-any-return]
