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
from itertools import starmap
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

FORMAT = 3   # 2: the standings a column at a time; 3: their extra columns' distinct rows


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
    extra columns as their distinct rows (the index of the row's keys among the distinct key lists,
    its values) and each standing's row. (Column by column, by C-level maps: 10,000 standings are
    kept at every add-match of a federation list, whose extra columns are the list's date alone.)"""
    players, ratings, games, statuses, played, extras = (list(map(attrgetter(name), standings)) for name in (
        "player", "rating", "games", "status", "last_played", "extra"))
    keys = list(map(tuple, extras))
    shapes = {shape: k for k, shape in enumerate(dict.fromkeys(keys))}
    if not (set(map(type, players)) <= {str} and set(map(type, games)) <= {int} and set(map(type, statuses)) <= {str}
            and set(map(type, played)) <= {date, type(None)} and all(type(key) is str for shape in shapes for key in shape)):
        raise NotPlain("a standing's player, games, status, date or extra column")
    rows, distinct = _distinct(list(map(shapes.__getitem__, keys)), list(map(tuple, map(dict.values, extras))))
    days: dict[date | None, int | None] = {day: None if day is None else day.toordinal() for day in set(played)}
    return {"player": players, "rating": _ratings(ratings), "games": games, "status": statuses,
            "last_played": list(map(days.__getitem__, played)),
            "extra_keys": [list(shape) for shape in shapes],
            "extra_rows": [[shape, list(map(_value, values))] for shape, values, *_ in distinct], "extra": rows}


_EXACT = {type(None), str, date}   # values equal only to values of their own type and text (and to no number)


def _distinct(shapes: list[int], values: list[tuple[Any, ...]]) -> tuple[list[int], list[tuple[Any, ...]]]:
    """Each standing's index among the distinct (shape, values) rows, and those rows. Values that
    compare equal across types or signs (True, 1, 1.0; 0.0 and -0.0) are told apart by their types
    and texts, so that each comes back as it was."""
    try:
        types = {type(v) for row in set(values) for v in row}
        if types <= _EXACT | {int} or types <= _EXACT | {bool}:   # (no two types of them compare equal)
            keyed: list[tuple[Any, ...]] = list(zip(shapes, values))
        else:
            keyed = [(shape, row, tuple(map(type, row)), tuple(map(repr, row))) for shape, row in zip(shapes, values)]
        index = {key: k for k, key in enumerate(dict.fromkeys(keyed))}
    except TypeError:   # an unhashable value: not one _value gives back
        raise NotPlain("an extra column's value") from None
    return list(map(index.__getitem__, keyed)), list(index)


_PLAIN = {type(None), bool, int, str}


def _ratings(ratings: list[Any]) -> list[Any]:
    """The ratings as _number gives each (None, an int, a finite float), checked by their types at once."""
    kinds = set(map(type, ratings))
    if not kinds <= {type(None), int, float}:
        _number(next(r for r in ratings if type(r) not in (type(None), int, float)))   # (raises, naming the type)
    if float in kinds and not all(map(math.isfinite, [r for r in ratings if type(r) is float])):
        raise NotPlain("a rating of type float")
    return ratings


def _untagged(values: Any) -> tuple[Any, ...]:
    """A row's extra values, each tagged date ({"date": "2012-01-01"}) as a date."""
    need(type(values) is list and {type(v) for v in values} <= _PLAIN | {float, dict}, "unknown value")
    return tuple(_day(v) if type(v) is dict else v for v in values)


def _day(v: dict[str, Any]) -> date:
    text = v.get("date")
    need(len(v) == 1 and type(text) is str, "unknown value")
    return date.fromisoformat(str(text))


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
    distinct = _typed(rows.get("extra_rows"), {list}, "bad extra rows")
    extra = _typed(rows.get("extra"), {int}, "bad extra rows")
    need(len(set(players)) == count, "a player listed twice")
    need(all(len(column) == count for column in (ratings, games, statuses, played, extra)), "columns of unequal length")
    # (Column by column, by C-level maps: 10,000 standings are read at every leaderboard.)
    need(set(extra) <= set(range(len(distinct))), "bad extra rows")
    made = []
    for row in distinct:
        need(len(row) == 2 and type(row[0]) is int and 0 <= row[0] < len(keys), "bad extra shapes")
        values = _untagged(row[1])
        need(len(values) == len(keys[row[0]]), "bad extra shapes")
        made.append((keys[row[0]], values))
    need(all(1 <= d <= date.max.toordinal() for d in set(played) if d is not None), "bad date")
    days: dict[int | None, date | None] = {d: None if d is None else date.fromordinal(d) for d in set(played)}
    extras = map(dict, starmap(zip, map(made.__getitem__, extra)))   # (a dict of its own for each standing)
    return dict(zip(players, map(Standing, players, ratings, games, statuses, map(days.__getitem__, played), extras)))


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


def _delta_name(rating: str, discipline: str) -> str:
    """The standings after matches appended, as a patch on those kept (_save_delta): a file beside them."""
    return "standings-delta-" + _name(rating, discipline).removeprefix("standings-")


def _write(ledger: Ledger, name: str, data: dict[str, Any]) -> None:
    body = json.dumps(data, ensure_ascii=False).encode("utf-8")
    with CacheFolder(ledger.config, create=True) as folder:
        folder.write(name, hashlib.sha256(body).digest() + body)


def _file(ledger: Ledger, name: str) -> dict[str, Any]:
    """A kept file's JSON object, its hash checked (raises if it is missing or damaged)."""
    with CacheFolder(ledger.config, create=False) as folder:
        data, _ = folder.read(name)
    body = data[32:]
    need(hashlib.sha256(body).digest() == data[:32], "standings file damaged")
    with collector_paused():   # every standing and its values: many objects, none in a cycle (collector.py)
        kept = json.loads(body)
    need(isinstance(kept, dict), "standings file is not an object")
    return kept   # type: ignore[no-any-return]


def _for(kept: dict[str, Any], key: dict[str, Any]) -> bool:
    """Whether a kept file is for `key` (another snapshot, list, date or program: not)."""
    return all(kept.get(k) == v for k, v in key.items())


def _read(ledger: Ledger, name: str, key: dict[str, Any]) -> dict[str, Any] | None:
    """A file's JSON object, if it is for `key`; None: another snapshot, list, date or program."""
    kept = _file(ledger, name)
    return kept if _for(kept, key) else None


def save(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date | None, result: RatingResult) -> None:
    """Keep the result's standings, where the journal in memory is exactly the cached snapshot (or
    it and the matches recorded since): as a patch on the standings it was worked out from, where
    an add-match worked it out from kept ones and changed few (_save_delta), else whole."""
    if ledger.kept_key() is None or result.as_of != day:
        return
    key = list_key(ledger, engine, rating, discipline, day)
    base = ledger.standings_bases.get((rating.name, discipline))
    if base is not None and _save_delta(ledger, engine, rating, discipline, key, result, base):
        return
    try:
        rows = _columns(list(result.standings.values()))
    except NotPlain:
        return
    _write(ledger, _name(rating.name, discipline), {
        **key, "rows": rows, "hidden": sorted(result.hidden_statuses), "columns": [list(c) for c in result.columns],
        "sections": [list(c) for c in result.sections]})
    # What the replay reached, for the standings after a match appended (after_appended_match): a
    # file of its own, which the leaderboard does not read.
    state = engine().standings_state(result)
    if state is not None:
        _write(ledger, _state_name(rating.name, discipline), {**key, "state": state})


# (the kept files' key, their standings and their state as read, before any patch): what a patch is on
Base = tuple[dict[str, Any], dict[str, Standing], Any]
# A patch is kept while the standings and state values it changes are at most 1/_PATCH_SHARE of the
# players (past that, the standings are kept whole again: a patch read at every leaderboard).
_PATCH_SHARE = 4


def _save_delta(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, key: dict[str, Any],
                result: RatingResult, base: Base) -> bool:
    """Keep the result as a patch on the kept standings and state it was worked out from (a fide
    match that waits for its list moves two players' last dates and two counts: writing 10,000
    standings and their state again took a tenth of an add-match). The patch is on the kept files
    as they are, so a second add-match's patch holds the first's changes too; where it would
    change more than a quarter of them, or the players' order, nothing is kept here (False)."""
    from .cachedelta import diff, size

    base_key, standings, state = base
    new = result.standings
    if list(new) != list(standings):
        return False
    changed = [s for player, s in new.items() if standings[player] is not s]
    new_state = engine().standings_state(result)
    change = None if new_state is None else diff(state, new_state) if state is not None else {"v": new_state}
    if _PATCH_SHARE * (len(changed) + size(change)) > len(new):
        return False
    try:
        rows = _columns(changed)
    except NotPlain:
        return False
    _write(ledger, _delta_name(rating.name, discipline), {
        **key, "base": base_key, "rows": rows, "hidden": sorted(result.hidden_statuses),
        "columns": [list(c) for c in result.columns], "sections": [list(c) for c in result.sections],
        "state": None if new_state is None else {"patch": change}})
    return True


def _kept(ledger: Ledger, rating: RatingList, discipline: str, key: dict[str, Any],
          with_state: bool) -> tuple[dict[str, Any], dict[str, Standing], Any, Base] | None:
    """What is kept for `key`: (the file telling how the standings are shown, the standings, the
    state (None without `with_state`, or if none is kept), and the base a patch of them is on);
    None: nothing kept for it. The standings file for `key`, or the one a
    patch for `key` is on, with the patch applied."""
    from .cachedelta import patch

    main = _file(ledger, _name(rating.name, discipline))
    main_key = {k: main.get(k) for k in key}
    if _for(main, key):
        with collector_paused():
            standings = _standings(main.get("rows"))
        state = _state_of(ledger, rating, discipline, key) if with_state else None
        return main, standings, state, (main_key, standings, state)
    delta = _file(ledger, _delta_name(rating.name, discipline))
    if not (_for(delta, key) and delta.get("base") == main_key):
        return None
    with collector_paused():
        standings = _standings(main.get("rows"))
        changed = _standings(delta.get("rows"))
    need(set(changed) <= set(standings), "a patch of other players")
    state = _state_of(ledger, rating, discipline, main_key) if with_state else None
    kept_state = delta.get("state")
    need(kept_state is None or type(kept_state) is dict and set(kept_state) == {"patch"}, "bad state patch")
    new_state = None if state is None or kept_state is None else patch(state, kept_state["patch"])
    return delta, {**standings, **changed}, new_state, (main_key, standings, state)


def _state_of(ledger: Ledger, rating: RatingList, discipline: str, key: dict[str, Any]) -> Any:
    kept = _read(ledger, _state_name(rating.name, discipline), key)
    return kept.get("state") if kept is not None and type(kept.get("state")) is dict else None


def load(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date | None) -> RatingResult | None:
    """The kept standings as a result for the leaderboard, or None; any problem raises (through_cache)."""
    if ledger.kept_key() is None:
        return None
    found = _kept(ledger, rating, discipline, list_key(ledger, engine, rating, discipline, day), False)
    return None if found is None else _result(found[0], found[1], engine, rating, discipline, day)


def _result(head: dict[str, Any], standings: dict[str, Standing], engine: Any, rating: RatingList, discipline: str,
            day: date | None) -> RatingResult:
    """The kept standings as a result, shown as `head` (a kept file) tells."""
    hidden = head.get("hidden")
    need(isinstance(hidden, list) and all(isinstance(x, str) for x in hidden), "bad hidden statuses")
    assert isinstance(hidden, list)
    return RatingResult(rating.name, discipline, engine.name, standings, hidden_statuses=frozenset(hidden),
                        columns=_pairs(head.get("columns")), sections=_pairs(head.get("sections")), as_of=day)


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
    found = _kept(after, rating, discipline, key, True)
    if found is None or found[2] is None:
        return None
    head, standings, state, base = found
    kept = _result(head, standings, engine, rating, discipline, before_day)
    match = MatchPlayed(i, m.id, m.date, m.a, m.b, m.score_a, m.length, m.discipline, m.tournament,
                        journal.exclusion(i), marked_unrated=not m.rated)
    result = engine().after_match(rating.params, kept, state, match, day)
    if result is not None:   # (its standings kept as a patch on those it was worked out from: save)
        after.standings_bases[(rating.name, discipline)] = base
    return result  # type: ignore[no-any-return]
