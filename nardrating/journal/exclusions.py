"""Which matches no list rates (voided, forfeited, unrated), found column by column (in C), and,
for a replay resumed over a few rows of a big journal, answered row by row or for the stretch of
the journal those rows lie in."""
from __future__ import annotations

import operator
from collections.abc import Collection, Iterator, Mapping, Sequence
from itertools import compress
from typing import Any, Protocol


class Journal(Protocol):
    """What Exclusions asks of the journal (model.Journal)."""

    def match_count(self) -> int: ...
    def exclusion(self, i: int) -> str | None: ...
    def excluded_between(self, low: int, high: int) -> set[int]: ...
    def excluded_rows(self) -> set[int]: ...


def excluded_in(voided: Mapping[int, Any], forfeit: Sequence[int], rated: Sequence[int], low: int) -> set[int]:
    """The rows low … low + len(forfeit) - 1 that are voided, forfeited or unrated (`forfeit`, `rated`:
    those rows of the columns)."""
    high = low + len(forfeit)
    rows = range(low, high)
    excluded = {i for i in voided if low <= i < high}
    if any(forfeit):
        excluded.update(compress(rows, forfeit))
    if not all(rated):
        excluded.update(compress(rows, map(operator.not_, rated)))
    return excluded


# Rows asked for one by one before they are all found at once (column by column, in C): a player's
# history asks a few hundred, a report of everyone's every row.
ASKED_ONE_BY_ONE = 4096


class Exclusions(Collection[int]):
    """Journal.excluded_rows() answered row by row: `i in` it asks exclusion(i), and after
    ASKED_ONE_BY_ONE rows looks in the set of them all; iterating finds them all."""

    __slots__ = ("journal", "_all", "_asked")

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self._all: set[int] | None = None
        self._asked = 0

    def __contains__(self, row: object) -> bool:
        try:
            i = operator.index(row)  # type: ignore[arg-type]  # (an int, or a numpy integer; not 5.0)
        except TypeError:
            return False
        if self._all is not None:
            return i in self._all
        self._asked += 1
        if self._asked > ASKED_ONE_BY_ONE:
            return i in self._found()
        return 0 <= i < self.journal.match_count() and self.journal.exclusion(i) is not None

    def among(self, rows: Sequence[int]) -> set[int]:
        """The excluded ones of these rows: those of the stretch of the journal they lie in, read
        at once where it is not much longer than they are (a Glicko period rated again on resume:
        thousands of rows), else row by row."""
        if not rows:
            return set()
        low, high = min(rows), max(rows) + 1
        if high - low <= 4 * len(rows):
            return self.journal.excluded_between(low, high).intersection(rows)
        return {i for i in rows if i in self}

    def _found(self) -> set[int]:
        if self._all is None:
            self._all = self.journal.excluded_rows()
        return self._all

    def __iter__(self) -> Iterator[int]:
        return iter(self._found())

    def __len__(self) -> int:
        return len(self._found())
