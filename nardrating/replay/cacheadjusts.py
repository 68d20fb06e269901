"""A cached journal's [[adjust]] entries, each made as an `Adjust` only once one is asked for.

A federation that imports its ratings keeps them as [[adjust]] entries (the benchmark's fide club:
10,000), and making them all took 17 ms of every read of the cached journal; a leaderboard from the
kept standings reads none of them, only their dates (`ordinals`: the journal's last entry). They
are stored a column at a time (14 lists: reading and checking 10,000 rows of 14 values took about
25 ms of every command on that club, the columns about 12 ms), the columns check_journal_meta
checked; anything but their number and dates makes every entry, once, and is then a plain list's
answer (appends included: a tail read after the snapshot).
"""
from __future__ import annotations

from collections.abc import Iterator, MutableSequence, Sequence
from typing import Any, overload

from ..journal.model import Adjust


class CachedAdjusts(MutableSequence[Adjust]):
    __slots__ = ("_columns", "_relabel", "_made", "_ordinals")

    def __init__(self, columns: list[list[Any]], relabel: dict[str, str]) -> None:
        # (day, player, rating, discipline, set, delta, reason, file, line, seq, k, games, rd, volatility)
        self._columns: list[list[Any]] | None = columns
        self._relabel = relabel
        self._made: list[Adjust] | None = None
        self._ordinals: list[int] | None = None

    def _entries(self) -> list[Adjust]:
        if self._made is None:
            columns = list(self._columns or ())
            if columns:
                columns[7] = list(map(self._relabel.__getitem__, columns[7]))
            self._made = [Adjust(*values) for values in zip(*columns)]
            self._columns = None
        return self._made

    def ordinals(self) -> list[int]:
        """Each entry's date, as an ordinal (without making the entries; of columns never changed,
        worked out once, each distinct date once: a command asks for them several times)."""
        if self._columns is not None:
            if self._ordinals is None:
                days = self._columns[0] if self._columns else []
                ordinal = {day: day.toordinal() for day in set(days)}
                self._ordinals = list(map(ordinal.__getitem__, days))
            return list(self._ordinals)
        return [a.date.toordinal() for a in self._entries()]

    def __len__(self) -> int:
        if self._columns is not None:
            return len(self._columns[0]) if self._columns else 0
        return len(self._entries())

    @overload
    def __getitem__(self, i: int) -> Adjust: ...

    @overload
    def __getitem__(self, i: slice) -> list[Adjust]: ...

    def __getitem__(self, i: int | slice) -> Adjust | list[Adjust]:
        return self._entries()[i]

    def __setitem__(self, i: Any, value: Any) -> None:
        self._entries()[i] = value

    def __delitem__(self, i: int | slice) -> None:
        del self._entries()[i]

    def insert(self, i: int, value: Adjust) -> None:
        self._entries().insert(i, value)

    def __iter__(self) -> Iterator[Adjust]:
        return iter(self._entries())

    def __eq__(self, other: object) -> bool:
        return self._entries() == (list(other) if isinstance(other, CachedAdjusts) else other)

    __hash__ = None   # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self._entries())


WIDTH = 14   # an Adjust's fields, each a column


def stored_columns(adjusts: Sequence[Adjust]) -> list[list[Any]]:
    """Every [[adjust]] as the cached journal stores it (replay/cache.py), a column per field, the
    date as ISO text; of a cached journal's entries never made, from its columns: an add-match of a
    federation that imports its ratings writes them all again, and making 10,000 entries to write
    them took about a tenth of its time."""
    if isinstance(adjusts, CachedAdjusts) and adjusts._columns is not None:
        if not adjusts._columns:
            return [[] for _ in range(WIDTH)]
        days, *rest = adjusts._columns
        iso = {day: day.isoformat() for day in set(days)}
        rest[6] = list(map(adjusts._relabel.__getitem__, rest[6]))
        return [list(map(iso.__getitem__, days)), *rest]
    rows = [(a.date.isoformat(), a.player, a.rating, a.discipline, a.set, a.delta, a.reason, a.file, a.line, a.seq,
             a.k, a.games, a.rd, a.volatility) for a in adjusts]
    return [list(column) for column in zip(*rows)] if rows else [[] for _ in range(WIDTH)]


def adjust_ordinals(adjusts: Sequence[Adjust]) -> list[int]:
    """Every [[adjust]]'s date, as an ordinal: of a cached journal's, without making the entries."""
    if isinstance(adjusts, CachedAdjusts):
        return adjusts.ordinals()
    return [a.date.toordinal() for a in adjusts]
