"""A CSV journal read by polars into the journal's match columns (machine arrays).

Only the plain bulk file is taken: no quotes, one kind of line end (LF or CRLF), no
blank lines, every row as wide as the header, no chips or note cells, no winner column.
Each column's distinct values (a few thousand dates, ten thousand players, a handful of
results) are judged in Python by the rules of the pure reader (journal/csvfast.py) and
mapped back onto the million rows by polars. A value those rules would refuse, or
anything else unusual, declines: the pure reader then reads the file and reports it.
"""
from __future__ import annotations

from array import array
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from ..replay.cache import COLUMNS
from ..journal.csvcells import is_id, length_cell
from ..journal.csvfast import CSV_COLUMNS, CSV_REQUIRED
from ..journal.columns import IdColumn
from ..journal.limits import FIRST_DAY, LAST_DAY, parse_result
from ..journal.textrules import id_problem
from ..journal.ids import PLAIN_ID
from . import declined

_FLAGS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
_PLAIN_ID = f"^{PLAIN_ID}$"  # as csvcells.plain_ids: ids taken as written


def read_csv(raw: bytes, path: Path, label: str, journal: Any, default_discipline: str) -> bool:
    """Add the file's matches to `journal` exactly as the pure reader would; False (nothing changed) to decline."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    shape = _plain_shape(raw)
    if isinstance(shape, str):
        declined(f"{label}: {shape}")
        return False
    header, rows = shape
    try:
        # Every column but the ids as categories: a code per row, each distinct text once (a third
        # of the memory of the texts). An empty cell is read as null.
        frame = pl.read_csv(raw, has_header=False, skip_rows=1, new_columns=header, quote_char=None, encoding="utf8",
                            schema={h: pl.String if h == "id" else pl.Categorical for h in header})
    except Exception as exc:  # noqa: BLE001 - not UTF-8, ragged rows…: the pure reader says what is wrong
        declined(f"{label}: polars: {exc}")
        return False
    if frame.height != rows or frame.width != len(header):
        declined(f"{label}: polars read {frame.height} rows of {rows}")
        return False
    snapshot = journal.checkpoint()
    columns = _columns(frame, path, label, journal, default_discipline)
    del frame
    if isinstance(columns, str):
        journal.rollback(snapshot)  # the codes given to names and disciplines on the way
        declined(f"{label}: {columns}")
        return False
    _append(journal, label, columns, rows)
    return True


def _plain_shape(raw: bytes) -> tuple[list[str], int] | str:
    """(header, number of rows) of a plain bulk CSV; else why it is not one."""
    if b'"' in raw:
        return "quoted cells"
    newline = raw.find(b"\n")
    if newline < 0:
        return "no rows"
    crlf = raw[newline - 1:newline] == b"\r"
    lines = raw.count(b"\n")
    if crlf:
        if raw.count(b"\r") != lines or raw.count(b"\r\n") != lines or b"\r\n\r\n" in raw:
            return "mixed line ends or blank lines"
    elif b"\r" in raw or b"\n\n" in raw:
        return "mixed line ends or blank lines"
    try:
        header = [h.strip().lower() for h in raw[:newline].decode("utf-8").split(",")]
    except UnicodeDecodeError:
        return "header not UTF-8"
    if not set(header) <= set(CSV_COLUMNS) or len(set(header)) != len(header) or \
            not set(CSV_REQUIRED) <= set(header) or "result" not in header or "winner" in header:
        return "header other than the bulk columns"
    rows = lines - 1 + (not raw.endswith(b"\n"))
    if rows < 1 or raw.count(b",") != (rows + 1) * (len(header) - 1):
        return "rows of another width than the header"
    return header, rows


def _coded(column: pl.Series) -> tuple[list[str], np.ndarray]:
    """A categorical column's distinct texts (an empty cell as "") and each row's place among them."""
    distinct = column.unique(maintain_order=True)
    texts = ["" if text is None else text for text in distinct.cast(pl.String).to_list()]
    # Rows and distinct texts by the category's number (null: -1, shifted to 0), then its place.
    numbers = distinct.to_physical().cast(pl.Int64).fill_null(-1).to_numpy() + 1
    place = np.zeros(int(numbers.max()) + 1, dtype=np.int64)
    place[numbers] = np.arange(len(numbers))
    return texts, place[column.to_physical().cast(pl.Int64).fill_null(-1).to_numpy() + 1]


def _mapped(coded: tuple[list[str], np.ndarray], values: dict[str, Any], dtype: Any) -> np.ndarray:
    """The column with each text replaced by its value (every text is a key)."""
    texts, places = coded
    mapped: np.ndarray = np.array([values[text] for text in texts], dtype=dtype)[places]
    return mapped


def _columns(frame: pl.DataFrame, path: Path, label: str, journal: Any, default_discipline: str) -> dict[str, Any] | str:
    """The match columns (as csvfast._convert makes them, codes added to the journal), or why not."""
    n = frame.height
    has = set(frame.columns)
    for name in ("chips", "note"):
        if name in has and frame[name].null_count() < n:
            return f"{name} cells"
    out: dict[str, Any] = {}

    # Ids: plain ones as written, missing ones derived from the file name and the row, all unique.
    if "id" in has:
        ids = frame["id"]
        given = ids.drop_nulls()
        if not given.str.contains(_PLAIN_ID).all():
            return "ids that are not plain"
        if len(given) < n:
            ids = pl.select(pl.when(ids.is_null()).then(pl.lit(f"{path.stem}-") + pl.int_range(1, n + 1).cast(pl.String))
                            .otherwise(ids)).to_series()
    else:
        ids = pl.select(pl.lit(f"{path.stem}-") + pl.int_range(1, n + 1).cast(pl.String)).to_series()
    # Unique, also against the earlier files' ids (unique themselves): equal ids hash equal, so
    # as many hashes as ids proves it; only on a clash of hashes are the ids themselves counted.
    every = pl.concat([pl.Series(list(journal.matches.ids), dtype=pl.String), ids]) if len(journal.matches.ids) else ids
    if every.hash().n_unique() != len(every) and every.n_unique() != len(every):
        return "a match id used twice"
    out["ids"] = ids

    # Dates: each distinct text parsed once, as csvfast does.
    first, last = FIRST_DAY.toordinal(), LAST_DAY.toordinal()
    ordinals: dict[str, int] = {}
    coded = _coded(frame["date"])
    for text in coded[0]:
        value = text.strip()
        try:
            ordinal = date.fromisoformat(value).toordinal() if len(value) == 10 else 0
        except ValueError:
            ordinal = 0
        if not first <= ordinal <= last:
            return "a date out of the rules"
        ordinals[text] = ordinal
    out["dates"] = _mapped(coded, ordinals, np.int32)

    # Players: the journal's code for each distinct name; a new name must be an id.
    codes: dict[str, int] = {}
    known = journal.player_codes.index
    a, b = _coded(frame["player_a"]), _coded(frame["player_b"])
    for name in a[0] + b[0]:
        if name in codes:
            continue
        clean = name.strip()
        code = known.get(clean)
        if code is None:
            if not is_id(clean):
                return "a player name that is not an id"
            code = journal.player_codes.code(clean)
        codes[name] = code
        journal.csv_named.setdefault(clean, (label, None))
    out["a"], out["b"] = _mapped(a, codes, np.int32), _mapped(b, codes, np.int32)

    coded = _coded(frame["result"])
    scores = {text: parse_result(text) for text in coded[0]}
    if None in scores.values():
        return "a result that is not a result"
    out["score_a"] = _mapped(coded, scores, np.float64)

    for name, convert, dtype in (
            ("length", length_cell, np.int32),
            ("rated", lambda s: _FLAGS.get(s.strip().lower(), True if not s.strip() else None), np.int8),
            ("forfeit", lambda s: _FLAGS.get(s.strip().lower(), False if not s.strip() else None), np.int8),
            ("discipline", lambda s: _code(journal.discipline_codes, s.strip() or default_discipline, s.strip()), np.int32),
            ("tournament", lambda s: _code(journal.tournament_codes, s.strip(), s.strip()) if s.strip() else -1, np.int32)):
        if name not in has:
            out[name] = np.full(n, convert(""))
            continue
        coded = _coded(frame[name])
        values = {text: convert(text) for text in coded[0]}
        if None in values.values():
            return f"a {name} cell out of the rules"
        out[name] = _mapped(coded, values, dtype)
    return out


def _code(codes: Any, name: str, given: str) -> int | None:
    """A discipline's or tournament's code; None for one that breaks the id rule."""
    return None if given and id_problem(given) else int(codes.code(name))


def _append(journal: Any, label: str, columns: dict[str, Any], n: int) -> None:
    """The rows as the last matches of the journal; the match columns become machine arrays."""
    source = len(journal.files)
    journal.files.append(label)
    m = journal.matches.growable()
    base = len(m.ids)
    first_seq = journal.next_seq + 1
    journal.next_seq += n
    columns["seq"] = np.arange(first_seq, first_seq + n, dtype=np.int64)
    columns["source"] = np.full(n, source, dtype=np.int32)
    columns["line"] = np.arange(2, n + 2, dtype=np.int32)
    journal.max_date = max(journal.max_date, int(columns["dates"].max()))
    if base == 0:  # whether the journal is in date order (Journal.dates_sorted), by numpy not a Python pass
        dates = columns["dates"]
        journal._sorted = (n, bool((dates[1:] >= dates[:-1]).all()))
    for name, code in COLUMNS:
        old = getattr(m, name)
        column = old if isinstance(old, array) and old.typecode == code else array(code, old)
        column.frombytes(np.ascontiguousarray(columns.pop(name), dtype=np.dtype(code)).data.cast("B"))
        setattr(m, name, column)
    ids = columns.pop("ids")
    if base == 0 and isinstance(m.ids, list):  # the usual bulk file: its ids kept as one blob
        starts = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(ids.str.len_bytes().to_numpy() + 1, dtype=np.int64)])
        m.ids = FileIds((ids + "\n").str.join("").item().encode("utf-8"), array("q", starts.tobytes()))
        journal._match_index = journal._id_set = None
        return
    ids = ids.to_list()
    if journal._match_index is not None:
        journal._match_index.update(zip(ids, range(base, base + n)))
    if journal._id_set is not None:
        journal._id_set.update(ids)
    m.ids.extend(ids)


class FileIds(IdColumn):
    """A file's match ids as one UTF-8 blob, as the cache keeps them (IdColumn).

    Iterating over them splits the blob each time rather than keeping the million strings:
    the few passes a command makes over every id cost less than holding them all.
    """

    __slots__ = ()

    def _cached(self) -> list[str]:
        if self._list is not None:
            return self._list
        text = bytes(self._blob).decode("utf-8")
        return text.split("\n")[:-1] if text else []
