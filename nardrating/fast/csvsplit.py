"""A plain bulk CSV split into coded columns by numba-compiled loops, without a CSV library.

One pass over the bytes finds every cell, checks that each row is as wide as the header,
and gives each cell the number of its text among its column's distinct texts (in the order
they first appear), through a hash table keyed by the cell's bytes: a hash, the first 16 bytes as two
words and the length, and any bytes after them compared one by one, so two texts share a
number only when they are equal. Python then
decodes only the distinct texts (a few thousand dates, ten thousand players, a handful of
results) and judges them by the pure reader's rules (csvread.py).

The ids are kept as one blob of "id\\n" lines, as the journal's cache keeps them; an empty id
cell gets the id the pure reader derives (the file's stem, "-", the row's number). A second
loop checks them: plain (csvcells.plain_ids) where given, and unique, also against the ids of
the journal's earlier files.
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..journal.ids import MAX_ID
from .jit import compiled

_FNV_OFFSET, _FNV_PRIME = np.uint64(0xCBF29CE484222325), np.uint64(0x100000001B3)
COMMA, NEWLINE, CR = 44, 10, 13


def _fill(buf: Any, pos: int, r: int, rows: int, width: int, id_col: int, crlf: bool, codes: Any,
          id_start: Any, id_end: Any, slots: Any, s_hash: Any, s_low: Any, s_high: Any, s_shape: Any,
          d_start: Any, d_end: Any, d_col: Any, d_code: Any, counts: Any, distinct: int) -> Any:  # numba
    """Rows r, r + 1, … into codes, until the end, a bad row, or a row that leaves the hash table
    (slots: the distinct text in each, -1 for none) more than half full: (pos, next row, distinct,
    bad row or -1). A slot's key: the cell's hash, its first 16 bytes as two words, its length and
    column (its shape); a text of 16 bytes or fewer is told by them alone, a longer one by its
    bytes after the 16th too."""
    size = len(buf)
    last = width - 1
    mask = len(slots) - 1
    while r < rows:
        for c in range(width):
            s = pos
            h = _FNV_OFFSET ^ np.uint64(c + 1)  # FNV-1a of the cell's bytes, salted by its column
            low, high = np.uint64(0), np.uint64(0)
            while pos < size:
                ch = buf[pos]
                if ch == COMMA or ch == NEWLINE or ch == CR:
                    break
                h = (h ^ np.uint64(ch)) * _FNV_PRIME
                k = pos - s
                if k < 8:
                    low |= np.uint64(ch) << np.uint64(8 * k)
                elif k < 16:
                    high |= np.uint64(ch) << np.uint64(8 * (k - 8))
                pos += 1
            e = pos
            if pos < size and buf[pos] == CR:  # only as the CR of a CRLF file's line end
                if not crlf or c != last or pos + 1 >= size or buf[pos + 1] != NEWLINE:
                    return pos, r, distinct, r
                pos += 1
            elif crlf and c == last and pos < size:
                return pos, r, distinct, r
            if (c < last and (pos >= size or buf[pos] != COMMA)) or (c == last and pos < size and buf[pos] != NEWLINE):
                return pos, r, distinct, r
            pos += 1
            if c == id_col:
                id_start[r] = s
                id_end[r] = e
                continue
            shape = (e - s) * 64 + c
            slot = np.int64(h & np.uint64(mask))
            while True:
                d = slots[slot]
                if d < 0:
                    break
                if s_hash[slot] == h and s_low[slot] == low and s_high[slot] == high and s_shape[slot] == shape:
                    if e - s <= 16:
                        break
                    other, k = d_start[d] + 16, s + 16
                    while k < e and buf[k] == buf[other]:
                        k += 1
                        other += 1
                    if k == e:
                        break
                slot = (slot + 1) & mask
            if d < 0:  # a text not seen before in this column
                d = distinct
                distinct += 1
                d_start[d], d_end[d], d_col[d], d_code[d] = s, e, c, counts[c]
                counts[c] += 1
                slots[slot], s_hash[slot], s_low[slot], s_high[slot], s_shape[slot] = d, h, low, high, shape
            codes[c, r] = d_code[d]
        r += 1
        if 2 * distinct > mask:
            break
    return pos, r, distinct, -1


def _rehash(slots: Any, s_hash: Any, s_low: Any, s_high: Any, s_shape: Any,
            grown: Any, g_hash: Any, g_low: Any, g_high: Any, g_shape: Any) -> None:  # numba: compiled(_rehash)
    """Every text of the table (slots, its keys) placed anew in one of twice as many slots (grown, …)."""
    mask = len(grown) - 1
    for old in range(len(slots)):
        if slots[old] >= 0:
            place = np.int64(s_hash[old] & np.uint64(mask))
            while grown[place] >= 0:
                place = (place + 1) & mask
            grown[place], g_hash[place], g_low[place] = slots[old], s_hash[old], s_low[old]
            g_high[place], g_shape[place] = s_high[old], s_shape[old]


def _ids(buf: Any, id_start: Any, id_end: Any, rows: int, stem: Any, longest: int, blob: Any, starts: Any,
         digits: Any) -> Any:  # numba: compiled(_ids)
    """(length, plain): the rows' ids written into blob as "id\\n" lines (an empty or missing cell:
    stem-row), where each begins into starts (rows + 1); plain: whether every given id is 1 to
    `longest` of 0-9 A-Z a-z _ - (ids.PLAIN_ID). digits: room for a row number's 20 digits."""
    given = len(id_start) > 0
    at = 0
    for r in range(rows):
        starts[r] = at
        if given and id_end[r] > id_start[r]:
            if id_end[r] - id_start[r] > longest:
                return 0, False
            for k in range(id_start[r], id_end[r]):
                ch = buf[k]
                if not (48 <= ch <= 57 or 65 <= ch <= 90 or 97 <= ch <= 122 or ch == 95 or ch == 45):
                    return 0, False
                blob[at] = ch
                at += 1
        else:  # derived as the pure reader derives it: f"{stem}-{row + 1}"
            for k in range(len(stem)):
                blob[at] = stem[k]
                at += 1
            blob[at] = 45
            at += 1
            number, count = r + 1, 0
            while number > 0:
                digits[count] = 48 + number % 10
                number //= 10
                count += 1
            for k in range(count - 1, -1, -1):
                blob[at] = digits[k]
                at += 1
        blob[at] = NEWLINE
        at += 1
    starts[rows] = at
    return at, True


def _unique(blob: Any, starts: Any, slots: Any, hashes: Any) -> bool:  # numba: compiled(_unique)
    """Are the lines blob[starts[t]:starts[t + 1] - 1] all different? By a hash table (slots all -1,
    a power of two of them, at least twice as many as lines; hashes beside them), equal hashes
    confirmed byte by byte."""
    count = len(starts) - 1
    mask = len(slots) - 1
    for t in range(count):
        s, e = starts[t], starts[t + 1] - 1
        h = _FNV_OFFSET
        for k in range(s, e):
            h = (h ^ np.uint64(blob[k])) * _FNV_PRIME
        slot = np.int64(h & np.uint64(mask))
        while slots[slot] >= 0:
            u = slots[slot]
            if hashes[slot] == h and starts[u + 1] - starts[u] == e - s + 1:
                other, k = starts[u], 0
                while k < e - s and blob[s + k] == blob[other + k]:
                    k += 1
                if k == e - s:
                    return False
            slot = (slot + 1) & mask
        slots[slot], hashes[slot] = t, h
    return True


class Split(NamedTuple):
    """A plain CSV file's body as coded columns: `texts[c]` the distinct texts of column c in order,
    `codes[c]` each row's place among them (the id column's are unset); `bad_row` the first row
    (from 0) not as wide as the header, or -1."""
    texts: list[list[str]]
    codes: Any
    bad_row: int
    id_start: Any
    id_end: Any


def _loops() -> tuple[Any, Any]:
    """_fill and _rehash, compiled (or loaded from numba's cache) once per process."""
    return compiled(_fill), compiled(_rehash)


def _table(size: int) -> tuple[Any, Any, Any, Any, Any]:
    """An empty hash table of `size` slots: the slots (-1: empty) and the four parts of their keys."""
    return (np.full(size, -1, np.int64), np.zeros(size, np.uint64), np.zeros(size, np.uint64),
            np.zeros(size, np.uint64), np.zeros(size, np.int64))


def split(raw: bytes, start: int, rows: int, width: int, id_col: int, crlf: bool) -> Split:
    """The rows after `start` of `raw` (valid UTF-8, no quotes) as coded columns.

    The compiled _fill does the work; between its calls, each time the table passes half full, it is
    given twice the slots. (This driver is plain Python: compiled, its allocations alone took numba
    seconds to compile, on the first run or wherever no cache folder keeps it.)"""
    fill, rehash = _loops()
    buf = np.frombuffer(raw, dtype=np.uint8)
    codes = np.empty((width, rows), np.int32)
    id_start, id_end = (np.empty(rows if id_col >= 0 else 0, np.int64) for _ in range(2))
    counts = np.zeros(width, np.int32)
    table = _table(4096)
    room = 4096 // 2 + width + 1  # _fill stops at the end of the row that passes half full
    d_start, d_end = np.empty(room, np.int64), np.empty(room, np.int64)
    d_col, d_code = np.empty(room, np.int32), np.empty(room, np.int32)
    texts: list[list[str]] = [[] for _ in range(width)]
    pos, r, distinct = start, 0, 0
    while True:
        pos, r, distinct, bad = fill(buf, pos, r, rows, width, id_col, crlf, codes, id_start, id_end, *table,
                                     d_start, d_end, d_col, d_code, counts, distinct)
        if bad >= 0:
            return Split(texts, codes, int(bad), id_start, id_end)
        if r >= rows:
            break
        grown = _table(2 * len(table[0]))
        rehash(*table, *grown)
        table = grown
        more = len(grown[0]) // 2 + width + 1 - room
        room += more
        d_start, d_end = (np.concatenate([d, np.empty(more, np.int64)]) for d in (d_start, d_end))
        d_col, d_code = (np.concatenate([d, np.empty(more, np.int32)]) for d in (d_col, d_code))
    if pos < len(buf):
        return Split(texts, codes, rows, id_start, id_end)
    for s, e, c in zip(d_start[:distinct].tolist(), d_end[:distinct].tolist(), d_col[:distinct].tolist()):
        texts[c].append(raw[s:e].decode("utf-8"))
    return Split(texts, codes, -1, id_start, id_end)


def _id_loops() -> tuple[Any, Any]:
    """_ids and _unique, compiled (or loaded from numba's cache) once per process."""
    return compiled(_ids), compiled(_unique)


def file_ids(raw: bytes, cut: Split, rows: int, stem: str, earlier: tuple[bytes, Any] | None) -> tuple[bytes, Any, str]:
    """(blob, starts, problem) of the rows' ids (see _ids); problem "" for none. `earlier`: the
    journal's ids so far, as (blob, starts), which the file's must not repeat."""
    make, unique = _id_loops()
    named = stem.encode("utf-8")
    room = rows * (len(named) + 22)  # a derived id: the stem, "-", up to 20 digits, "\\n"
    if len(cut.id_start):
        spans = cut.id_end - cut.id_start
        room = int(np.where(spans > 0, spans + 1, len(named) + 22).sum())
    blob, starts = np.empty(room, np.uint8), np.empty(rows + 1, np.int64)
    length, plain = make(np.frombuffer(raw, dtype=np.uint8), cut.id_start, cut.id_end, rows,
                         np.frombuffer(named, dtype=np.uint8), MAX_ID, blob, starts, np.empty(20, np.uint8))
    blob = blob[:length]
    if not plain:
        return b"", starts, "ids that are not plain"
    every, every_starts = blob, starts
    if earlier:
        every = np.concatenate([np.frombuffer(earlier[0], dtype=np.uint8), blob])
        every_starts = np.concatenate([earlier[1][:-1], starts + len(earlier[0])])
    size = 1 << max(1, (2 * (len(every_starts) - 1) - 1).bit_length())
    if not unique(every, every_starts, np.full(size, -1, np.int64), np.zeros(size, np.uint64)):
        return b"", starts, "a match id used twice"
    return blob.tobytes(), starts, ""
