"""A CSV journal read by compiled loops (csvsplit.py) into the journal's match columns (machine arrays).

Only the plain bulk file is taken: no quotes, one kind of line end (LF or CRLF), no
blank lines, every row as wide as the header, no chips or note cells, no winner column.
Each column's distinct values (a few thousand dates, ten thousand players, a handful of
results) are judged in Python by the rules of the pure reader (journal/csvfast.py) and
mapped back onto the million rows by numpy. A value those rules would refuse, or
anything else unusual, declines: the pure reader then reads the file and reports it.
"""
from __future__ import annotations

from array import array
from datetime import date
from operator import itemgetter
from pathlib import Path
from typing import Any

import numpy as np

from ..replay.cache import COLUMNS
from ..journal.csvcells import is_id, length_cell
from ..journal.csvfast import CSV_COLUMNS, CSV_REQUIRED
from ..journal.columns import IdColumn
from ..journal.limits import FIRST_DAY, LAST_DAY, parse_result
from ..journal.textrules import id_problem
from . import declined
from .csvsplit import Split, file_ids, split

_FLAGS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def read_csv(raw: bytes, path: Path, label: str, journal: Any, default_discipline: str) -> bool:
    """Add the file's matches to `journal` exactly as the pure reader would; False (nothing changed) to decline."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    shape = _plain_shape(raw)
    if isinstance(shape, str):
        declined(f"{label}: {shape}")
        return False
    header, rows, body, crlf = shape
    if not raw.isascii():
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            declined(f"{label}: not UTF-8")
            return False
    cut = split(raw, body, rows, len(header), header.index("id") if "id" in header else -1, crlf)
    if cut.bad_row >= 0:
        declined(f"{label}: row {cut.bad_row + 1} is not as wide as the header, or ends otherwise than the first line")
        return False
    snapshot = journal.checkpoint()
    columns = _columns(raw, cut, header, rows, path, label, journal, default_discipline)
    if isinstance(columns, str):
        journal.rollback(snapshot)  # the codes given to names and disciplines on the way
        declined(f"{label}: {columns}")
        return False
    _append(journal, label, columns, rows)
    return True


def _plain_shape(raw: bytes) -> tuple[list[str], int, int, bool] | str:
    """(header, number of rows, where the rows start, CRLF?) of what may be a plain bulk CSV; else why
    it is not one. That every row is as wide as the header and ends as the header's line does (LF, or
    CRLF), with no other CR, the compiled split checks as it goes."""
    if b'"' in raw:
        return "quoted cells"
    newline = raw.find(b"\n")
    if newline < 0:
        return "no rows"
    crlf = raw[newline - 1:newline] == b"\r"
    try:
        header = [h.strip().lower() for h in raw[:newline - crlf].decode("utf-8").split(",")]
    except UnicodeDecodeError:
        return "header not UTF-8"
    if not set(header) <= set(CSV_COLUMNS) or len(set(header)) != len(header) or \
            not set(CSV_REQUIRED) <= set(header) or "result" not in header or "winner" in header:
        return "header other than the bulk columns"
    rows = raw.count(b"\n") - 1 + (not raw.endswith(b"\n"))
    if rows < 1:
        return "no rows"
    return header, rows, newline + 1, crlf


def _mapped(texts: list[str], codes: Any, values: dict[str, Any], dtype: Any) -> np.ndarray:
    """The column with each text replaced by its value (every text is a key)."""
    mapped: np.ndarray = np.array([values[text] for text in texts], dtype=dtype)[codes]
    return mapped


def _columns(raw: bytes, cut: Split, header: list[str], n: int, path: Path, label: str, journal: Any,
             default_discipline: str) -> dict[str, Any] | str:
    """The match columns (as csvfast._convert makes them, codes added to the journal), or why not."""
    col = {name: k for k, name in enumerate(header)}
    for name in ("chips", "note"):
        if name in col and cut.texts[col[name]] != [""]:
            return f"{name} cells"
    out: dict[str, Any] = {}

    # Ids: plain ones as written, missing ones derived from the file name and the row, all unique,
    # also against the earlier files' ids.
    earlier = journal.matches.ids
    before = None
    if len(earlier):
        blob = "".join(f"{match_id}\n" for match_id in earlier).encode("utf-8")
        lengths = np.fromiter((len(match_id.encode("utf-8")) + 1 for match_id in earlier), np.int64, len(earlier))
        before = (blob, np.concatenate([np.zeros(1, np.int64), np.cumsum(lengths)]))
    blob, starts, problem = file_ids(raw, cut, n, path.stem, before)
    if problem:
        return problem
    out["ids"] = (blob, starts)

    def texts(name: str) -> tuple[list[str], Any]:
        return cut.texts[col[name]], cut.codes[col[name]]

    # Dates: each distinct text parsed once, as csvfast does.
    first, last = FIRST_DAY.toordinal(), LAST_DAY.toordinal()
    ordinals: dict[str, int] = {}
    for text in texts("date")[0]:
        value = text.strip()
        try:
            ordinal = date.fromisoformat(value).toordinal() if len(value) == 10 else 0
        except ValueError:
            ordinal = 0
        if not first <= ordinal <= last:
            return "a date out of the rules"
        ordinals[text] = ordinal
    out["dates"] = _mapped(*texts("date"), ordinals, np.int32)

    # Players: the journal's code for each distinct name; a new name must be an id.
    codes: dict[str, int] = {}
    known = journal.player_codes.index
    a, b = texts("player_a"), texts("player_b")
    for name in _in_row_order(a, b):
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
    out["a"], out["b"] = _mapped(*a, codes, np.int32), _mapped(*b, codes, np.int32)

    scores = {text: parse_result(text) for text in texts("result")[0]}
    if None in scores.values():
        return "a result that is not a result"
    out["score_a"] = _mapped(*texts("result"), scores, np.float64)

    for name, convert, dtype in (
            ("length", length_cell, np.int32),
            ("rated", lambda s: _FLAGS.get(s.strip().lower(), True if not s.strip() else None), np.int8),
            ("forfeit", lambda s: _FLAGS.get(s.strip().lower(), False if not s.strip() else None), np.int8),
            ("discipline", lambda s: _code(journal.discipline_codes, s.strip() or default_discipline, s.strip()), np.int32),
            ("tournament", lambda s: _code(journal.tournament_codes, s.strip(), s.strip()) if s.strip() else -1, np.int32)):
        if name not in col:
            out[name] = np.full(n, convert(""))
            continue
        values = {text: convert(text) for text in texts(name)[0]}
        if None in values.values():
            return f"a {name} cell out of the rules"
        out[name] = _mapped(*texts(name), values, dtype)
    return out


def _in_row_order(a: tuple[list[str], Any], b: tuple[list[str], Any]) -> list[str]:
    """The player columns' distinct texts in the order the rows meet them (player_a before
    player_b), the order the pure reader numbers new players in (csvfast._in_row_order). Each
    column's texts are in the order of their first rows: where its codes' running maximum grows."""
    def first_rows(codes: Any) -> Any:
        if not len(codes):
            return codes
        grows = np.maximum.accumulate(codes)
        return np.flatnonzero(np.diff(grows, prepend=-1))
    keys = [(2 * int(row), text) for row, text in zip(first_rows(a[1]), a[0])]
    keys += [(2 * int(row) + 1, text) for row, text in zip(first_rows(b[1]), b[0])]
    keys.sort(key=itemgetter(0))
    return [text for _row, text in keys]


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
    blob, starts = columns.pop("ids")
    if base == 0 and isinstance(m.ids, list):  # the usual bulk file: its ids kept as one blob
        m.ids = FileIds(blob, array("q", starts.tobytes()))
        journal._match_index = journal._id_set = None
        return
    ids = blob.decode("utf-8").split("\n")[:-1]
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
