"""A cached journal's [[adjust]] entries, each made as an `Adjust` only once one is asked for.

A federation that imports its ratings keeps them as [[adjust]] entries (the benchmark's fide club:
10,000), and making them all took 17 ms of every read of the cached journal; a leaderboard from the
kept standings reads none of them, only their dates (`ordinals`: the journal's last entry). The
rows are those check_journal_meta checked; anything but their number and dates makes every entry,
once, and is then a plain list's answer (appends included: a tail read after the snapshot).
"""
from __future__ import annotations

from collections.abc import Iterator, MutableSequence, Sequence
from datetime import date
from typing import Any, overload

from ..journal.model import Adjust


class CachedAdjusts(MutableSequence[Adjust]):
    __slots__ = ("_rows", "_relabel", "_made")

    def __init__(self, rows: list[list[Any]], relabel: dict[str, str]) -> None:
        self._rows: list[list[Any]] | None = rows   # (day, player, rating, discipline, set, delta, reason, file, …)
        self._relabel = relabel
        self._made: list[Adjust] | None = None

    def _entries(self) -> list[Adjust]:
        if self._made is None:
            relabel = self._relabel
            self._made = [Adjust(day, player, rating, disc, set_, delta, reason, relabel[file], *rest)
                          for day, player, rating, disc, set_, delta, reason, file, *rest in self._rows or ()]
            self._rows = None
        return self._made

    def ordinals(self) -> list[int]:
        """Each entry's date, as an ordinal (without making the entries)."""
        if self._rows is not None:
            return [row[0].toordinal() for row in self._rows]
        return [a.date.toordinal() for a in self._entries()]

    def __len__(self) -> int:
        return len(self._rows) if self._rows is not None else len(self._entries())

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


def stored_rows(adjusts: Sequence[Adjust]) -> list[list[Any]]:
    """Every [[adjust]] as the cached journal stores it (replay/cache.py); of a cached journal's
    entries never made, from its rows: an add-match of a federation that imports its ratings writes
    them all again, and making 10,000 entries to write them took about a tenth of its time."""
    if isinstance(adjusts, CachedAdjusts) and adjusts._rows is not None:
        relabel = adjusts._relabel
        iso: dict[date, str] = {}
        return [[iso.get(day) or iso.setdefault(day, day.isoformat()), player, rating, disc, set_, delta, reason,
                 relabel[file], *rest]
                for day, player, rating, disc, set_, delta, reason, file, *rest in adjusts._rows]
    return [[a.date.isoformat(), a.player, a.rating, a.discipline, a.set, a.delta, a.reason,
             a.file, a.line, a.seq, a.k, a.games, a.rd, a.volatility] for a in adjusts]


def adjust_ordinals(adjusts: Sequence[Adjust]) -> list[int]:
    """Every [[adjust]]'s date, as an ordinal: of a cached journal's, without making the entries."""
    if isinstance(adjusts, CachedAdjusts):
        return adjusts.ordinals()
    return [a.date.toordinal() for a in adjusts]
