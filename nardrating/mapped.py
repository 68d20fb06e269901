"""A column mapped from the cache's file and the values appended after it (Appended): the match
columns of a cached journal (journal/columns.py) and the tables of a resumed replay grow so."""
from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from typing import Any


class Appended(Sequence[Any]):
    """A column mapped from the cache and the values appended after it, kept apart: appending a
    few matches to a million copies none of them (copying the twelve mapped columns touches
    every page of them and of the copy: 30-40 ms and 50 MB). A row is read through Python, so
    slower than from a machine array: code that reads every row asks for Journal.matches,
    which joins the two into one array first (Matches.solid)."""

    __slots__ = ("base", "more", "size")

    def __init__(self, base: memoryview) -> None:
        # (what is appended is held as the array would hold it: a bool as 1, an int score as 1.0)
        self.base, self.more, self.size = base, array(base.format), len(base)

    def __len__(self) -> int:
        return self.size + len(self.more)

    def __getitem__(self, i: Any) -> Any:
        if type(i) is int:
            if i < 0:
                i += len(self)
            if 0 <= i < self.size:
                return self.base[i]
            if i < 0:
                raise IndexError("column index out of range")
            return self.more[i - self.size]
        if isinstance(i, slice) and i.step is None and (i.start or 0) >= self.size:  # within what was appended
            return self.more[(i.start or 0) - self.size:None if i.stop is None else max(0, i.stop - self.size)]
        return self.joined()[i]

    def __iter__(self) -> Iterator[Any]:
        return chain(self.base, self.more)

    def append(self, value: Any) -> None:
        self.more.append(value)

    def extend(self, values: Iterable[Any]) -> None:
        self.more.extend(values)

    def __delitem__(self, cut: slice) -> None:
        """Only `del column[k:]` (a rollback to k rows)."""
        start = cut.start or 0
        if start >= self.size:
            del self.more[start - self.size:]
        else:
            self.base, self.size = self.base[:start], start
            del self.more[:]

    def stretch(self, low: int, high: int) -> list[Any]:
        """Rows low … high - 1 as a list, read in C (a slice of the mapped part is a view)."""
        values = self.base[low:min(high, self.size)].tolist()
        if high > self.size:
            values += self.more[max(low - self.size, 0):high - self.size].tolist()
        return values

    def joined(self) -> array[Any]:
        """The whole column as one machine array (which more can be appended to)."""
        column = _copied(self.base)
        column += self.more
        return column


def _copied(column: memoryview) -> array[Any]:
    """A mapped column as a new array."""
    copy = array(column.format)
    copy.frombytes(column.cast("B"))  # a byte copy; array(format, view) would go item by item
    return copy
