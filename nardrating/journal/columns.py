"""The journal's match columns: `Matches` (one column per field, row i is one match), the
player/discipline/tournament `Codes`, `IdColumn` (match ids as one blob, as the cache stores them)
and `Appended` (a column mapped from the cache and the values appended after it: mapped.py)."""
from __future__ import annotations

import operator
import re
import struct
import sys
from array import array
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate, compress
from typing import Any

from ..datarecords import datarecord, field
from ..mapped import Appended as Appended


class IdColumn:
    """Match ids as the cache stores them: one UTF-8 blob and where each id starts.

    Reading one id does not split the million others, and appended ids are
    kept apart; only iterating over all of them splits the blob, once.
    """

    __slots__ = ("_blob", "_starts", "_list", "_more", "_text", "_found")

    def __init__(self, blob: bytes | memoryview, starts: Sequence[int]) -> None:
        self._blob, self._starts = blob, starts
        self._list: list[str] | None = None
        self._more: list[str] = []
        self._text: str | None = None   # the blob as text, once take() has read it
        # The blob's rows of ids searched for (None: not in it): the blob never changes, and a
        # writer asks for its new id twice (is it free; then, read in, is it new).
        self._found: dict[str, int | None] = {}

    @classmethod
    def of(cls, ids: list[str]) -> "IdColumn":
        """The ids as one blob (a million short ids: 16 MB instead of 64 MB of str objects)."""
        text = "\n".join(ids) + "\n" if ids else ""
        lengths = map(len, ids) if text.isascii() else (len(x.encode("utf-8")) for x in ids)
        blob = text.encode("utf-8")
        del text
        return cls(blob, array("q", map(operator.add, accumulate(lengths, initial=0), range(len(ids) + 1))))

    def packed(self) -> tuple[bytes, array[int]] | None:
        """(blob, starts) as the cache stores them, the ids appended since included (a few, packed
        on: not the million split and joined again)."""
        starts = self._starts if isinstance(self._starts, array) else array("q", self._starts)
        if not self._more:
            return bytes(self._blob), starts
        more, more_starts = IdColumn.of(self._more).packed() or (b"", array("q", [0]))
        size = len(self._blob)
        return bytes(self._blob) + more, starts + array("q", [size + start for start in more_starts[1:]])

    def _cached(self) -> list[str]:
        if self._list is None:
            text = bytes(self._blob).decode("utf-8")
            self._list = text.split("\n")[:-1] if text else []
        return self._list

    def __len__(self) -> int:
        return len(self._starts) - 1 + len(self._more)

    def __getitem__(self, i: Any) -> Any:
        if not isinstance(i, int):
            return list(self)[i]
        base = len(self._starts) - 1
        if i < 0:
            i += len(self)
        if i >= base:
            return self._more[i - base]
        if self._list is not None:
            return self._list[i]
        return bytes(self._blob[self._starts[i]:self._starts[i + 1] - 1]).decode("utf-8")

    def __contains__(self, match_id: object) -> bool:
        return self.row_of(match_id) is not None

    def row_of(self, match_id: object) -> int | None:
        """The row of this id (ids are unique), None if none has it: one question needs no index."""
        if not isinstance(match_id, str) or "\n" in match_id:  # (no id holds one: it would span two)
            return None
        base = len(self._starts) - 1
        if match_id in self._more:
            return base + self._more.index(match_id)
        if self._list is not None:
            try:
                return self._list.index(match_id)
            except ValueError:
                return None
        if match_id not in self._found:
            self._found[match_id] = self._search(match_id)
        return self._found[match_id]

    def _search(self, match_id: str) -> int | None:
        # A search of the blob where it lies (mapped from the cache: no copy), the first id apart.
        # (re's literal search beats bytes.find here: every other byte of the needle is a newline.)
        from bisect import bisect_left

        needle = match_id.encode("utf-8")
        if len(self._starts) > 1 and bytes(self._blob[:len(needle) + 1]) == needle + b"\n":
            return 0
        found = re.compile(b"\n" + re.escape(needle) + b"\n").search(self._blob)
        return None if found is None else bisect_left(self._starts, found.start() + 1)

    def __iter__(self) -> Iterator[str]:
        yield from self._cached()
        yield from self._more

    def as_set(self) -> set[str]:
        """Every id, as a set (made in C from the split blob, not one id at a time)."""
        found = set(self._cached())
        found.update(self._more)
        return found

    def take(self, rows: Iterable[int]) -> list[str]:
        """The ids of these rows, in their order: for an engine that reads most of them. ASCII ids
        (the usual) are cut from the blob decoded once, not each decoded from its own bytes."""
        if self._list is None and not self._more and self._text is None:  # decoded once (each batch of a replay reads it)
            text = bytes(self._blob).decode("utf-8")
            self._text = text if len(text) == len(self._blob) else ""  # "": not ASCII, offsets are bytes
        text, starts = self._text or "", self._starts
        if self._list is not None or self._more or not text:
            return list(map(self.__getitem__, rows))
        return [text[starts[i]:starts[i + 1] - 1] for i in rows]

    def __delitem__(self, cut: slice) -> None:
        """Only `del ids[k:]` (a rollback of ids appended since k)."""
        base = len(self._starts) - 1
        if cut.start < base:
            raise ValueError("cached ids can only lose what was appended")
        del self._more[cut.start - base:]

    def append(self, match_id: str) -> None:
        self._more.append(match_id)

    def extend(self, ids: Iterable[str]) -> None:
        self._more.extend(ids)


def stretch(column: Sequence[Any], low: int, high: int) -> Sequence[Any]:
    """Rows low … high - 1 of a match column, without joining a mapped column to what was appended."""
    return column.stretch(low, high) if isinstance(column, Appended) else column[low:high]


# The columns a cache maps from its file (the ids apart: IdColumn).
MAPPED = ("dates", "a", "b", "score_a", "length", "discipline", "tournament", "rated", "forfeit", "seq", "source", "line")


@datarecord(slots=True)
class Matches:
    """Matches column by column; row i is one match."""

    ids: list[str] = field(default_factory=list)
    dates: list[int] = field(default_factory=list)       # date.toordinal()
    a: list[int] = field(default_factory=list)           # player codes
    b: list[int] = field(default_factory=list)
    score_a: list[float] = field(default_factory=list)   # 1.0, 0.5, 0.0
    length: list[int] = field(default_factory=list)
    # Columns no replay loop reads match by match are machine arrays: a million distinct ints
    # as objects would take 32 MB each, a list of any 8 MB.
    discipline: Sequence[int] = field(default_factory=lambda: array("i"))  # discipline codes
    tournament: Sequence[int] = field(default_factory=lambda: array("i"))  # tournament codes, -1: none
    rated: Sequence[int] = field(default_factory=lambda: array("b"))       # 1 or 0
    forfeit: Sequence[int] = field(default_factory=lambda: array("b"))
    seq: Sequence[int] = field(default_factory=lambda: array("q"))     # position in the whole journal
    source: Sequence[int] = field(default_factory=lambda: array("i"))  # index into Journal.files
    line: Sequence[int] = field(default_factory=lambda: array("i"))    # -1: none (added in memory)
    extra: dict[int, dict[str, Any]] = field(default_factory=dict)  # sparse: score, chips, note
    loose: bool = field(default=False, compare=False, repr=False)  # some columns are Appended

    def __len__(self) -> int:
        return len(self.ids)

    def growable(self) -> "Matches":
        """Make the columns appendable, before anything is appended: one mapped from the cache is
        kept as it is, what is appended goes after it (Appended)."""
        for name in MAPPED:
            column = getattr(self, name)
            if isinstance(column, memoryview):
                setattr(self, name, Appended(column))
                self.loose = True
        return self

    def solid(self) -> "Matches":
        """Every Appended column joined into one machine array, for reading every row at C speed."""
        if self.loose:
            for name in MAPPED:
                column = getattr(self, name)
                if isinstance(column, Appended):
                    setattr(self, name, column.joined())
            self.loose = False
        return self

    def writable(self) -> "Matches":
        """Every column one that can be changed in place (a mapped one copied into an array)."""
        return self.growable().solid()


PACK_BLOCK = 1 << 16   # values converted at a time by extend_packed (held as Python objects meanwhile)


def extend_packed(column: array[Any], values: Sequence[Any]) -> array[Any]:
    """column += values, packed by struct a block at a time: array's own conversion parses each
    item as a call's argument, twice the work or more on a million values. Returns the column."""
    code = column.typecode
    for start in range(0, len(values), PACK_BLOCK):
        block = values[start:start + PACK_BLOCK]
        column.frombytes(struct.pack(f"{len(block)}{code}", *block))
    return column


def latest_after(dates: Sequence[int], source: Sequence[int], k: int) -> int:
    """The largest of `dates` on the rows whose `source` (a file's index) is above k; 0: none.
    A mapped column and what was appended to it are read apart (nothing is joined)."""
    if isinstance(dates, Appended) and isinstance(source, Appended) and dates.size == source.size:
        return max(_latest_in(dates.base, source.base, k), _latest_in(dates.more, source.more, k))
    return _latest_in(dates, source, k)


_RUNS = re.compile(rb"\x01+")


def _latest_in(dates: Sequence[int], source: Sequence[int], k: int) -> int:
    # A million rows one by one take 50-90 ms. Where every file index fits in one byte (a journal
    # of up to 256 files), the indices' low bytes are mapped to 1 (above k) or 0 and the runs of
    # 1s found by a regular expression: each run's dates are then one max() in C.
    if isinstance(source, (array, memoryview)) and len(source):
        view = memoryview(source)
        size, rows = view.itemsize, len(view)
        raw = view.cast("B").tobytes()
        low = 0 if sys.byteorder == "little" else size - 1
        if all(raw[j::size].count(0) == rows for j in range(size) if j != low):
            above = raw[low::size].translate(bytes(v > k for v in range(256)))
            return max((max(dates[run.start():run.end()]) for run in _RUNS.finditer(above)), default=0)
    return max(compress(dates, map(k.__lt__, source)), default=0)


class Codes:
    """A two-way map between names and small integers."""

    __slots__ = ("names", "index")

    def __init__(self) -> None:
        self.names: list[str] = []
        self.index: dict[str, int] = {}

    @classmethod
    def of(cls, names: list[str]) -> Codes:
        """Codes of distinct names, in their order (as code() called on each, in one step)."""
        codes = cls()
        codes.names = list(names)
        codes.index = dict(zip(codes.names, range(len(codes.names))))
        assert len(codes.index) == len(codes.names), "names must be distinct"
        return codes

    def code(self, name: str) -> int:
        found = self.index.get(name)
        if found is None:
            found = self.index[name] = len(self.names)
            self.names.append(name)
        return found

    def __len__(self) -> int:
        return len(self.names)

    def truncate(self, size: int) -> None:
        for name in self.names[size:]:
            del self.index[name]
        del self.names[size:]
