"""The matches appended since the cached snapshot, kept in its manifest: nothing is parsed twice.

A snapshot of the parsed journal is written again only after more than RESAVE_AFTER new matches
(resume.py), or any other new entry: a million-match snapshot costs more to write than a few
new matches cost to read. Until then each command parsed those few matches again: the TOML,
the entry models, the checks. Instead, the command that reads them, or the writer that appended
them, records in the manifest the rows they added to the snapshot's match columns, with the
journal files' states they were read from. A command that finds the files in those states
appends the rows and parses nothing; one that finds them grown further parses only what is new.

A record holds only matches: rows of the columns, the codes they added, the journal's next seq
and latest date. It is bound to its snapshot (token, count, the codes' sizes), carries a
SHA-256 of itself, and every value is checked before it is used (as cachecheck.py does);
anything else about it means the snapshot's own states are used, and the tail read again.
"""
from __future__ import annotations

import hashlib
import json
import math
from typing import TYPE_CHECKING, Any

from ..datarecords import datarecord
from .cachecheck import MAX_ORDINAL, check_states, need

if TYPE_CHECKING:
    from pathlib import Path

    from ..config import ClubConfig
    from ..journal.model import Journal
    from .cachegrowth import State

# Appended matches up to this many are kept in the record, and the snapshot is not written again
# (writing a million-match snapshot costs more than reading a few new matches).
RESAVE_AFTER = 5000

# A row: the match's values in the columns, in this order (the codes as the columns hold them).
ROW = ("ids", "dates", "a", "b", "score_a", "length", "discipline", "tournament", "rated", "forfeit",
       "seq", "source", "line")


# What a journal in memory is, as the files kept of a list's replay name it (cachestandings.list_key,
# Ledger.kept_key): the cached snapshot's token, the journal's counts, and the matches appended since
# as recorded (content_key; None for none).
Snapshot = tuple[str, dict[str, int], str | None]


@datarecord
class Base:
    """The cached snapshot as loaded, before any tail: what a record is relative to."""

    matches: int
    codes: tuple[list[str], list[str], list[str]]  # player, discipline and tournament code names
    others: tuple[int, ...]                        # counts of everything a match cannot add to


def _code_tables(journal: Journal) -> tuple[Any, Any, Any]:
    return journal.player_codes, journal.discipline_codes, journal.tournament_codes


def _others(journal: Journal) -> tuple[int, ...]:
    """Counts of the journal's parts that appended matches leave alone (players, voids, …)."""
    return (len(journal.players), len(journal.tournaments), len(journal.voids), len(journal.adjusts),
            len(journal.identities), len(journal.lists), len(journal.player_edits), len(journal.rounds),
            len(journal.changes), len(journal.voided), len(journal.csv_named), journal.identities_applied,
            journal.edits_applied)


def base_of(journal: Journal) -> Base:
    """The snapshot as read from the cache (call before anything is appended to it)."""
    tables = _code_tables(journal)
    return Base(journal.match_count(), (list(tables[0].names), list(tables[1].names), list(tables[2].names)),
                _others(journal))


def record_of(journal: Journal, base: Base, token: str, states: list[State]) -> dict[str, Any] | None:
    """The record of what `journal` added to the snapshot `base` (of `token`), read from files in
    `states`; None if it added anything but matches, or changed what the snapshot holds."""
    first = base.matches
    m = journal.matches_for(journal.match_count() - first)
    if _others(journal) != base.others:
        return None
    for table, names in zip(_code_tables(journal), base.codes):
        if table.names[:len(names)] != names:
            return None
    columns = [getattr(m, name) for name in ROW]
    rows = [[column[i] for column in columns] for i in range(first, len(m.ids))]
    for row in rows:
        row[4] = float(row[4])
    extra = [[i - first, {k: list(v) if isinstance(v, tuple) else v for k, v in e.items()}]
             for i, e in sorted(m.extra.items()) if i >= first]
    body = {"token": token, "count": first, "codes_before": [len(names) for names in base.codes],
            "codes": [table.names[len(names):] for table, names in zip(_code_tables(journal), base.codes)],
            "rows": rows, "extra": extra, "next_seq": journal.next_seq, "max_date": journal.max_date,
            "states": states}
    return sealed(body)


def content_key(journal: Journal, base: Base, token: str) -> str | None:
    """What the matches `journal` appended to the snapshot `base` (of `token`) are, as a digest of
    their record without the files' states (which a later read refreshes: the same matches, the same
    key); None where it added anything but matches. Files kept of a list's replay of the snapshot
    plus those matches carry it in their key (cachestandings.list_key)."""
    record = record_of(journal, base, token, [])
    return None if record is None else record_key(record)


def record_key(record: dict[str, Any]) -> str:
    """content_key of the journal a record was made of: its digest without the files' states."""
    return _digest({k: v for k, v in record.items() if k not in ("states", "sha256")})


def sealed(record: dict[str, Any]) -> dict[str, Any]:
    """The record with the SHA-256 of the rest of it (again, after its states were refreshed)."""
    body = {k: v for k, v in record.items() if k != "sha256"}
    return {**body, "sha256": _digest(body)}


def _digest(body: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


def usable(manifest: dict[str, Any], files: int) -> dict[str, Any] | None:
    """The manifest's record, if it is one of this snapshot and intact (its values are checked in apply)."""
    record = manifest.get("tail")
    if not isinstance(record, dict) or record.get("sha256") != _digest({k: v for k, v in record.items() if k != "sha256"}):
        return None
    if record.get("token") != manifest["token"] or record.get("count") != manifest["count"]:
        return None
    check_states(record.get("states"), files)  # (raises Bad: the caller then uses the snapshot's states)
    return record


def _int(v: Any, low: int, high: int) -> int:
    need(type(v) is int and low <= v <= high, f"bad integer in the tail record {v!r:.40}")
    return int(v)


def _finite(v: Any) -> bool:
    return type(v) is int or type(v) is float and math.isfinite(v)


def apply(journal: Journal, record: dict[str, Any]) -> None:
    """Append the record's rows to the snapshot just read (raises cachecheck.Bad on any doubt)."""
    tables = _code_tables(journal)
    need(isinstance(record.get("codes_before"), list) and isinstance(record.get("codes"), list)
         and len(record["codes"]) == 3 and record["codes_before"] == [len(t) for t in tables], "tail of other codes")
    for table, names in zip(tables, record["codes"]):
        need(isinstance(names, list) and all(isinstance(x, str) and x not in table.index for x in names)
             and len(set(names)) == len(names), "bad tail codes")
    rows: list[Any] = record.get("rows")  # type: ignore[assignment]  # (checked next)
    extra: list[Any] = record.get("extra")  # type: ignore[assignment]
    need(isinstance(rows, list) and isinstance(extra, list), "bad tail rows")
    players, disciplines, tournaments = (len(t) + len(n) for t, n in zip(tables, record["codes"]))
    files = len(journal.files)
    ids: set[str] = set()
    for row in rows:
        need(isinstance(row, list) and len(row) == len(ROW), "bad tail row")
        match_id, day, a, b, score, length, discipline, tournament, rated, forfeit, seq, source, line = row
        need(isinstance(match_id, str) and match_id and "\n" not in match_id and match_id not in ids, "bad tail id")
        ids.add(match_id)
        _int(day, 1, MAX_ORDINAL), _int(a, 0, players - 1), _int(b, 0, players - 1), _int(length, 1, 1 << 31)
        _int(discipline, 0, disciplines - 1), _int(tournament, -1, tournaments - 1), _int(rated, 0, 1)
        _int(forfeit, 0, 1), _int(seq, 0, 1 << 62), _int(source, 0, files - 1), _int(line, -1, 1 << 31)
        need(type(score) is float and score in (0.0, 0.5, 1.0), "bad tail score")
    need(_int(record.get("next_seq"), journal.next_seq, 1 << 62) >= max((r[10] for r in rows), default=0), "bad tail seq")
    need(_int(record.get("max_date"), journal.max_date, MAX_ORDINAL) == max([journal.max_date, *(r[1] for r in rows)]),
         "bad tail date")
    first = journal.match_count()
    extras: dict[int, dict[str, Any]] = {}
    for item in extra:
        need(isinstance(item, list) and len(item) == 2 and isinstance(item[1], dict), "bad tail extra")
        k = _int(item[0], 0, len(rows) - 1)
        for key, value in item[1].items():
            if key == "score":
                need(isinstance(value, list) and len(value) == 2 and all(map(_finite, value)), "bad tail score")
            else:
                need(value is None or type(value) is str or _finite(value), "bad tail extra")
        extras[first + k] = {key: tuple(v) if key == "score" else v for key, v in item[1].items()}
    for table, names in zip(tables, record["codes"]):
        for name in names:
            table.code(name)
    m = journal.matches_for(len(rows)).growable()
    columns = [getattr(m, name) for name in ROW]
    for row in rows:
        for column, value in zip(columns, row):
            column.append(value)
    m.extra.update(extras)
    journal._match_index = journal._id_set = None  # (a snapshot's are not built yet; rebuilt if asked)
    journal.next_seq, journal.max_date = record["next_seq"], record["max_date"]


def rows_per_file(record: dict[str, Any] | None, files: int) -> list[int]:
    """How many of the record's matches each journal file holds (a file's match count after it)."""
    counts = [0] * files
    for row in (record or {}).get("rows", ()):
        counts[row[11]] += 1
    return counts


def save(config: ClubConfig, token: str, record: dict[str, Any]) -> None:
    """Keep `record` in the manifest of snapshot `token`, if that is still the club's manifest (a
    concurrent command may have written a newer snapshot: then nothing)."""
    from .cachedir import CacheFolder, write_manifest

    try:
        with CacheFolder(config, create=False) as folder:
            raw, _ = folder.read("manifest.json")
            manifest = json.loads(raw)
            if isinstance(manifest, dict) and manifest.get("token") == token:
                manifest["tail"] = record
                write_manifest(folder, manifest)
    except (OSError, ValueError):
        pass  # no record: the next command reads the tail itself


def states_after_append(journal: Journal, base: Base, states: list[State], k: int, path: Path,
                        block: str) -> list[State] | None:
    """The journal files' states after a writer appended `block` to file k (`path`); None where
    the file is not exactly the bytes read (`states`: as they were) plus the block, or the
    journal grew too much since the snapshot `base` to keep a record (RESAVE_AFTER)."""
    import time

    from ..journal.writer import OLD_END, appended_part
    from ..safefile import read_regular
    from .cachegrowth import file_state

    old = states[k]
    size = old["size"]
    seen_ns = time.time_ns()
    try:
        raw, st = read_regular(path)
    except OSError:
        return None
    if len(raw) < size or journal.match_count() - base.matches > RESAVE_AFTER:
        return None
    digest = hashlib.sha256(memoryview(raw)[:size])   # the old part, as read; then on over the block
    if digest.hexdigest() != old["sha256"] or raw[size:] != appended_part(raw[max(0, size - OLD_END):size], block):
        return None
    digest.update(memoryview(raw)[size:])
    states = list(states)
    lines = old["lines"] + raw.count(b"\n", size) if old["lines"] >= 0 else None
    states[k] = file_state(raw, st, seen_ns, digest.hexdigest(), lines)
    return states
