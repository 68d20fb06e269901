"""Every value read back from the cache is checked before it is used.

The cache is data on disk that anything may have damaged: each check raises
`Bad` (a ValueError), and the caller then reads the journal itself. Dates come
back as `date`s; everything else is returned as read, once known to be sound.
"""
from __future__ import annotations

import math
import sys
from array import array
from datetime import date
from typing import Any, cast

from .cachedir import OWN_NAME, TOKEN

MAX_ORDINAL = date.max.toordinal()
ARRAY_CODES = frozenset("bBiIqQdf")
STAT_FIELDS = ("size", "mtime_ns", "ctime_ns", "ino", "dev")


class Bad(ValueError):
    """A cache file is damaged, foreign or stale."""


def need(ok: object, what: str = "malformed cache") -> None:
    if not ok:
        raise Bad(what)


# A double's top byte holds its sign and the high seven bits of its exponent: all seven set only
# for inf, nan and numbers of 2**1009 or more. An int's top byte holds its sign bit.
_TOP_FIRST = sys.byteorder == "big"
_HIGH_EXPONENT = bytes(v & 0x7F == 0x7F for v in range(256))
_SIGN = bytes(v >= 0x80 for v in range(256))


def _top_bytes(column: array[Any]) -> bytes:
    size = column.itemsize
    return column.tobytes()[0 if _TOP_FIRST else size - 1::size]


def all_finite(column: array[Any]) -> bool:
    """Whether every double of the array is finite: looked at in C by each one's top byte, and one
    by one only where a value is inf, nan or of 2**1009 or more."""
    if 1 not in _top_bytes(column).translate(_HIGH_EXPONENT):
        return True
    return all(map(math.isfinite, column))


def all_non_negative(column: array[Any]) -> bool:
    """Whether no integer of the array is negative: a signed type's sign bits looked at in C."""
    if column.typecode in "bhilq":
        return 1 not in _top_bytes(column).translate(_SIGN)
    return min(column, default=0) >= 0


def _int(v: Any, low: int | None = None, high: int | None = None) -> int:
    need(type(v) is int and (low is None or v >= low) and (high is None or v <= high), f"bad integer {v!r:.40}")
    return cast(int, v)


def _str(v: Any, optional: bool = False) -> str | None:
    need(isinstance(v, str) or (optional and v is None), f"bad text {v!r:.40}")
    return cast("str | None", v)


def _num(v: Any, optional: bool = False) -> Any:
    need((optional and v is None) or (type(v) in (int, float) and math.isfinite(v)), f"bad number {v!r:.40}")
    return v


def _day(v: Any, optional: bool = False) -> date | None:
    if optional and v is None:
        return None
    need(isinstance(v, str) and len(v) == 10, f"bad date {v!r:.40}")
    try:
        return date.fromisoformat(v)
    except ValueError:   # (no such day: Bad, as every other check says)
        raise Bad(f"bad date {v!r:.40}") from None


def _rows(v: Any, width: int) -> Any:
    need(isinstance(v, list) and all(isinstance(row, list) and len(row) == width for row in v), "bad table")
    return v


def _names(v: Any) -> Any:
    need(isinstance(v, list) and set(map(type, v)) <= {str} and len(set(v)) == len(v), "bad codes")
    return v


def _identity(v: Any) -> Any:
    need(isinstance(v, dict) and sorted(v) == sorted(STAT_FIELDS), "bad file identity")
    for name in STAT_FIELDS:
        _int(v[name])
    return v


def _layout(v: Any, codes: frozenset[str]) -> Any:
    for name, code, offset, size in _rows(v, 4):
        _str(name)
        need(code in codes, "cache column of an unknown type")
        _int(offset, 0)
        _int(size, 0)
        need(code == "text" or size % _itemsize(code) == 0, "cache column of a partial item")
    return v


def _itemsize(code: str) -> int:
    from array import array

    return array(code).itemsize


def check_manifest(manifest: Any, key: dict[str, Any], files: int) -> Any:
    need(isinstance(manifest, dict), "manifest is not an object")
    need(all(manifest.get(k) == v for k, v in key.items()), "manifest of another club, config or program")
    check_states(manifest.get("states"), files)
    need(isinstance(manifest.get("token"), str) and TOKEN.fullmatch(manifest["token"]), "bad token")
    lineage = manifest.get("lineage")
    need(isinstance(lineage, list) and all(isinstance(t, str) and TOKEN.fullmatch(t) for t in lineage), "bad lineage")
    count = _int(manifest.get("count"), 0)
    per_file = manifest.get("file_matches")
    need(isinstance(per_file, list) and len(per_file) == files and all(_int(n, 0) is not None for n in per_file)
         and sum(per_file) == count, "bad match counts")
    need(isinstance(manifest.get("journal_sha256"), str), "bad journal hash")
    return manifest


def check_states(states: Any, files: int) -> Any:
    """The journal files' states a snapshot (or a tail record) was read from: one per file."""
    need(isinstance(states, list) and len(states) == files, "manifest of other journal files")
    for state in states:
        need(isinstance(state, dict), "bad file state")
        for name in (*STAT_FIELDS, "lines", "seen_ns"):
            _int(state.get(name), -1)
        need(isinstance(state.get("sha256"), str) and len(state["sha256"]) == 64, "bad file hash")
    return states


def _table(rows: Any, spec: tuple[str, ...], files: Any = ()) -> Any:
    """Rows of `len(spec)` values, checked column by column.

    Kinds: str, int (≥ 0), line (≥ 1), bool, num (finite), date (ISO text, turned into a
    date in place), file (one of `files`), any (checked by the caller); "?" allows None.
    """
    need(isinstance(rows, list) and set(map(type, rows)) <= {list} and set(map(len, rows)) <= {len(spec)}, "bad table")
    columns = list(zip(*rows))
    for k, day in _checked(columns, spec, files):
        for row in rows:
            row[k] = day(row[k])
    return rows


def _columns(columns: Any, spec: tuple[str, ...], files: Any = ()) -> Any:
    """`len(spec)` columns of as many values each, checked as _table checks rows (10,000 players'
    fields: nine lists); a file is its index in `files`, a date turned into a date in place. A
    column of one value alone may come as {"all": value, "n": count} (cache.compact), of as many
    values as a column given whole (there is one: the ids, or the journal order, differ from entry
    to entry): made a list of it first, and checked as any other."""
    need(isinstance(columns, list) and list in set(map(type, columns)), "bad columns")
    count = len(next(column for column in columns if type(column) is list))
    for k, column in enumerate(columns):
        if type(column) is dict:
            need(set(column) == {"all", "n"} and column["n"] == count and type(column["n"]) is int
                 and type(column["all"]) in (type(None), str, bool, int), "bad column of one value")
            columns[k] = [column["all"]] * count
    need(len(columns) == len(spec) and set(map(type, columns)) <= {list}
         and len(set(map(len, columns))) <= 1, "bad columns")
    for k, day in _checked(columns, spec, files):
        columns[k] = list(map(day, columns[k]))
    return columns


def _checked(columns: list[Any], spec: tuple[str, ...], files: Any) -> list[tuple[int, Any]]:
    """Each column's values of its kind; (column, the function that makes its ISO texts dates) per
    column of dates. Kind "fileno": the index of one of `files`. A column of None alone, most of
    an [[adjust]]'s fields, is counted, not looked at value by value."""
    dates = []
    for k, (kind, column) in enumerate(zip(spec, columns)):
        values = column
        if kind.endswith("?"):
            kind = kind[:-1]
            nones = column.count(None)   # (by identity first: a column of None alone costs little)
            if nones == len(column):
                continue
            if nones:
                values = [v for v in column if v is not None]
        types = set(map(type, values))
        if kind == "str":
            need(types <= {str}, "bad text")
        elif kind in ("int", "line"):
            need(types <= {int} and min(values, default=1) >= (kind == "line"), "bad integer")
        elif kind == "bool":
            need(types <= {bool}, "bad flag")
        elif kind == "num":
            need(types <= {int, float} and (float not in types or all(map(math.isfinite, values))), "bad number")
        elif kind == "date":
            need(types <= {str}, "bad date")
            days = {v: _day(v) for v in set(values)}
            if days:
                dates.append((k, days.get))
        elif kind == "file":
            need(set(values) <= set(files), "entry of an unknown file")
        elif kind == "fileno":
            need(types <= {int} and set(values) <= set(range(len(files))), "entry of an unknown file")
    return dates


PLAYER = ("str", "str", "str?", "str?", "str?", "date?", "fileno", "line?", "bool")
VOID = ("str", "date", "str", "file", "line?", "int")
IDENTITY = ("str", "str", "str", "date", "file", "line?", "int")
LIST = ("str", "str", "date", "file", "line?", "int")
EDIT = ("str", "date", "any", "file", "line?", "int")  # changes: [[field, value]], checked below
ADJUST = ("date", "str", "str?", "str?", "num?", "num?", "str", "file", "line?", "int", "num?", "num?", "num?", "num?")


def check_journal_meta(meta: Any, manifest: dict[str, Any]) -> Any:
    """The parsed journal's JSON: every field of every entry, codes and indices in range."""
    need(isinstance(meta, dict), "journal snapshot is not an object")
    count = _int(meta.get("count"), 0)
    need(count == manifest["count"], "journal snapshot of another count")
    files = meta.get("files")
    need(isinstance(files, list) and len(files) == len(manifest["states"]) and all(isinstance(f, str) for f in files)
         and len(set(files)) == len(files), "journal snapshot of other files")
    for key in ("player_codes", "discipline_codes"):
        _names(meta.get(key))
    if meta.get("tournament_codes") is not None:  # (None: the tournaments' ids, checked with them)
        _names(meta["tournament_codes"])
    players = _columns(meta.get("players"), PLAYER, files)
    ids = set(players[0])
    need(len(ids) == len(players[0]) and set(meta["player_codes"]) <= ids, "player codes of unknown players")
    need(isinstance(meta.get("tournaments"), dict), "bad tournaments")  # (a reference: cachetables.read checks it)
    _table(meta.get("voids"), VOID, files)
    _columns(meta.get("adjusts"), ADJUST, files)
    for i, extra in _table(meta.get("extra"), ("int", "any")):
        need(i < count and isinstance(extra, dict), "bad match extras")
        for k, v in extra.items():
            if k == "score":
                need(isinstance(v, list) and len(v) == 2 and all(_num(x) is not None for x in v), "bad score")
            else:
                need(v is None or isinstance(v, str) or _num(v) is not None, "bad match extra")
    _int(meta.get("next_seq"), 0)
    _int(meta.get("max_date"), 0, MAX_ORDINAL)
    for i, k in _table(meta.get("voided"), ("int", "int")):
        need(i < count and k < len(meta["voids"]), "voided match out of range")
    for row in _table(meta.get("identities"), IDENTITY, files):
        need(row[0] in ("rename", "merge"), "bad identity")
    for row in _table(meta.get("player_edits"), EDIT, files):
        for key, value in _rows(row[2], 2):
            need(key in ("name", "alias", "qualification", "title", "joined") and isinstance(value, str), "bad edit")
            if key == "joined":
                _day(value)
    named = [name for _, names in _table(meta.get("csv_named"), ("int", "any")) for name in _names(names)]
    need(all(k < len(files) for k, _ in meta["csv_named"]) and len(set(named)) == len(named), "bad CSV names")
    _table(meta.get("lists"), LIST, files)
    _layout(meta.get("layout"), ARRAY_CODES | {"text"})
    need(sorted(row[0] for row in meta["layout"]) == sorted(_COLUMN_NAMES), "cache of other columns")
    _identity(meta.get("matches_file"))
    return meta


_COLUMN_NAMES = ("dates", "a", "b", "score_a", "length", "discipline", "tournament", "rated", "forfeit",
                 "seq", "source", "line", "ids", "id_starts")


def check_result_head(meta: Any, name: str) -> Any:
    """The JSON head of a replayed result: layouts, its records file's name and identity, counts."""
    need(isinstance(meta, dict), "result head is not an object")
    need(isinstance(meta.get("token"), str) and TOKEN.fullmatch(meta["token"]), "bad token")
    _layout(meta.get("players"), ARRAY_CODES)
    _layout(meta.get("columns"), ARRAY_CODES)
    blob = meta.get("blob")
    need(isinstance(blob, str) and OWN_NAME.fullmatch(blob) and blob.startswith(name + "-"), "a file it did not write")
    _identity(meta.get("blob_file"))
    records = _int(meta.get("records"), 0)
    _int(meta.get("last_date"), 0, MAX_ORDINAL)
    for k, reason in _rows(meta.get("reasons", []), 2):
        _int(k, 0, records - 1), _str(reason)
    counts = meta.get("counts")
    need(isinstance(counts, dict) and all(type(v) is int and v >= 0 for v in counts.values()), "bad counts")
    return meta
