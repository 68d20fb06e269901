"""A list's ratings as of a day, kept while only matches dated after it are appended:
a tournament's start list (its entrants' ratings the day before it starts, reports/tournaments.py),
which `pair`, `standings`, `crosstable` and `entrants` read after every round.

A replay as of a day reads only the entries dated up to it: matches appended later, dated after that
day, leave it as it was. So the ratings are kept with the journal they were worked out from: the
cached snapshot's token; the matches read since that snapshot, as a digest of their content; and
the counts of everything else. They are read back for a journal that is that snapshot or one it only
appended to (the token is the snapshot's or in its lineage), whose matches after the snapshot's
begin with those very ones, whose other entries are as many as they were (voids, adjustments,
players declared, renames and merges; tournaments that end by the day, and edits, where the engine
reads them: resume._moot), and whose matches after those are each dated after the day and amend
nothing. Any other case, or any problem, means the list is replayed up to the day
(ledger.through_cache). `add-tournament` keeps them for the day before its start (the start list
in FIDE's order), so that no command of the tournament replays the list.
"""
from __future__ import annotations

import hashlib
import json
import math
from datetime import date
from typing import TYPE_CHECKING, Any

from .cachecheck import need
from .cachedir import CacheFolder
from .cachetail import ROW

if TYPE_CHECKING:
    from ..config import RatingList
    from ..journal.model import Journal

Ledger = Any   # (replay.ledger.Ledger, which imports this module)

FORMAT = 1
PREFIX = "dated-"
KEEP = 16   # dated files kept per club (a club runs a few tournaments at once); the oldest go first


def _name(rating: str, discipline: str, day: date) -> str:
    return PREFIX + hashlib.sha256(f"{rating}\n{discipline}\n{day.isoformat()}".encode("utf-8")).hexdigest()[:16] + ".json"


def _key(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date) -> dict[str, Any]:
    """What the file must match exactly: the program, the config's text, the list and the day."""
    from .cache import config_key

    program = config_key(ledger.config)
    return {"format": FORMAT, "config": program["config"], "source": program["source"], "engine": engine.name,
            "version": engine.version, "rating": rating.name, "discipline": discipline, "as_of": day.isoformat()}


def _others(journal: Journal, engine: Any, day: date) -> list[int]:
    """The counts of the entries other than matches that a replay up to the day may read: of the
    tournaments, those that end by the day (a replay reads no other's end, and a match names only a
    tournament entered before it: build_view)."""
    from .resume import _moot

    moot = _moot(engine)
    ended = -1 if "tournaments" in moot else sum(t.end <= day for t in journal.tournaments.values())
    return [len(journal.players), len(journal.voids), len(journal.voided), len(journal.adjusts),
            len(journal.identities), journal.identities_applied, ended,
            -1 if "edits" in moot else len(journal.player_edits), -1 if "edits" in moot else journal.edits_applied]


def rows_key(journal: Journal, first: int, stop: int) -> str:
    """A digest of matches first..stop-1: their values, the codes as the names they stand for, and what
    else they carry (an amend, a note); not the file and line they were read from."""
    m = journal.matches_for(stop - first)
    tables = {"a": journal.player_codes.names, "b": journal.player_codes.names,
              "discipline": journal.discipline_codes.names, "tournament": journal.tournament_codes.names}
    columns = [(name, getattr(m, name)) for name in ROW if name not in ("source", "line")]
    rows = []
    for i in range(first, stop):
        row: list[Any] = []
        for name, column in columns:
            value = column[i]
            names = tables.get(name)
            if names is not None:
                value = names[value] if 0 <= value < len(names) else None
            row.append(float(value) if name == "score_a" else value)
        extra = m.extra.get(i)
        row.append(None if extra is None else {k: list(v) if isinstance(v, tuple) else v for k, v in extra.items()})
        rows.append(row)
    body = json.dumps(rows, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def _base_count(ledger: Ledger) -> int | None:
    """How many matches the cached snapshot holds, where the journal in memory is it, or it and the
    matches appended since as read or recorded (not a writer's entry in memory only); else None."""
    if ledger.cache_token is None:
        return None
    if not ledger.dirty:
        return ledger.journal.match_count()  # type: ignore[no-any-return]
    if ledger.kept_key() is None or ledger.cache_base is None:
        return None
    return ledger.cache_base.matches  # type: ignore[no-any-return]


def save(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date, ratings: dict[str, Any]) -> None:
    """Keep the ratings as of `day` worked out from the journal in memory (see the module's text)."""
    base = _base_count(ledger)
    values = list(ratings.values())
    if base is None or not _plain(values):
        return
    journal = ledger.journal
    count = journal.match_count()
    body = {**_key(ledger, engine, rating, discipline, day), "token": ledger.cache_token, "base": base,
            "count": count, "since": rows_key(journal, base, count), "others": _others(journal, engine, day),
            "players": list(ratings), "ratings": values}
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    name = _name(rating.name, discipline, day)
    with CacheFolder(ledger.config, create=True) as folder:
        folder.write(name, hashlib.sha256(data).digest() + data)
        _prune(folder, name)


def _prune(folder: CacheFolder, written: str) -> None:
    import time

    now = time.time()
    dated = sorted((folder.age_s(name, now), name) for name in folder.names() if name.startswith(PREFIX) and name != written)
    for _, name in dated[KEEP - 1:]:
        folder.remove(name)


def load(ledger: Ledger, engine: Any, rating: RatingList, discipline: str, day: date) -> dict[str, Any] | None:
    """The ratings kept as of `day`, if they hold for the journal in memory; None: replay (any problem raises)."""
    if ledger.cache_token is None:
        return None
    with CacheFolder(ledger.config, create=False) as folder:
        data, _ = folder.read(_name(rating.name, discipline, day))
    body = data[32:]
    need(hashlib.sha256(body).digest() == data[:32], "dated ratings file damaged")
    kept = json.loads(body)
    need(isinstance(kept, dict), "dated ratings file is not an object")
    if any(kept.get(k) != v for k, v in _key(ledger, engine, rating, discipline, day).items()):
        return None
    journal = ledger.journal
    base, count, now = kept.get("base"), kept.get("count"), journal.match_count()
    need(type(base) is int and type(count) is int and 0 <= base <= count, "bad counts")
    if (kept.get("token") not in (ledger.cache_token, *ledger.cache_lineage) or count > now
            or kept.get("others") != _others(journal, engine, day) or rows_key(journal, base, count) != kept.get("since")):
        return None
    limit = day.toordinal()
    m = journal.matches_for(now - count)
    if any(m.dates[i] <= limit or "amends" in m.extra.get(i, ()) for i in range(count, now)):
        return None   # a match on or before the day, or one taking an earlier match's place
    players, values = kept.get("players"), kept.get("ratings")
    need(type(players) is list and type(values) is list and len(players) == len(values) == len(set(players)), "bad ratings")
    need(all(type(p) is str for p in players), "bad players")
    need(_plain(values), "bad ratings")
    return dict(zip(players, values))


def _plain(ratings: list[Any]) -> bool:
    """Whether each rating is None, an int or a finite float: what the file gives back as it was."""
    return all(v is None or type(v) is int or type(v) is float and math.isfinite(v) for v in ratings)
