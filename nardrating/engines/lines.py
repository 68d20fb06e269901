"""History whose lines are made when a player's history is read.

An engine may keep, in place of a run of a player's `HistoryEvent`s, one small object that makes
them (`lines()`) from numbers it keeps anyway: a big journal's replay then builds and frees far
fewer objects, and `recalc` or `leaderboard`, which never read history, never make the lines.
`HistoryOnRead` is the player → events mapping the reports read; what it gives is exactly the
events, in the order, the engine would have kept.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Protocol, Union

from .base import HistoryEvent


class LinesOnRead(Protocol):
    def lines(self) -> Iterator[HistoryEvent]:
        """The history events this stands for, in their order."""
        ...


class EachPlayerFollowsOn:
    """A kept item that stands in the lists of many players, each with a line of their own made
    from the player and the line before it (a tournament's places: one item for all its players)."""

    __slots__ = ()

    def line_for(self, player: str, previous: HistoryEvent | None) -> HistoryEvent:
        raise NotImplementedError


Kept = Union[HistoryEvent, LinesOnRead, EachPlayerFollowsOn]


class LinesBetween(Protocol):
    def lines(self, previous: HistoryEvent | None, following: Kept | int | None) -> Iterable[HistoryEvent]:
        """The lines no kept item stands for that come between two items of a history (a month's
        halving of every rating): made from the line before them and the item after them (None:
        after the last)."""
        ...


class HistoryOnRead(Mapping[str, list[HistoryEvent]]):
    """player → events, from the engine's kept lists (which may still grow: a list published on
    demand appends to them); `by_date`: sorted by date, stably, as the engine would sort them.

    `rows`: where a kept item is an int, it is a match row, and its line is `rows(player, row, the
    line before it or None)` (for engines whose match lines follow from the line before: an int is
    the least a replay can keep per match). `between`: lines made between the items (see
    LinesBetween). Lines that follow the line before them need the lists kept in order, not `by_date`.
    """

    def __init__(self, kept: Mapping[str, Sequence[Kept | int]], by_date: bool = False,
                 rows: Callable[[str, int, HistoryEvent | None], HistoryEvent] | None = None,
                 between: LinesBetween | None = None) -> None:
        assert not (by_date and (rows or between)), "a line that follows the line before it: kept in order"
        self._kept = kept
        self._by_date = by_date
        self._rows = rows
        self._between = between
        # player → (items read, their lines, how many of those came after the last item)
        self._made: dict[str, tuple[int, list[HistoryEvent], int]] = {}

    @property
    def kept(self) -> Mapping[str, Sequence[Kept | int]]:
        """The items kept per player, as the engine left them: what the lines are made from."""
        return self._kept

    def __getitem__(self, player: str) -> list[HistoryEvent]:
        kept = self._kept[player]
        done, made, after_last = self._made.get(player, (0, [], 0))
        if done < len(kept):
            between = self._between
            del made[len(made) - after_last:]   # (made again after the items added since)
            for item in kept[done:]:
                if between is not None:
                    made.extend(between.lines(made[-1] if made else None, item))
                if isinstance(item, HistoryEvent):
                    made.append(item)
                elif isinstance(item, int):
                    assert self._rows is not None
                    made.append(self._rows(player, item, made[-1] if made else None))
                elif isinstance(item, EachPlayerFollowsOn):
                    assert not self._by_date, "an item that follows the line before it: kept in order"
                    made.append(item.line_for(player, made[-1] if made else None))
                else:
                    made.extend(item.lines())
            after_last = len(made)
            if between is not None:
                made.extend(between.lines(made[-1] if made else None, None))
            after_last = len(made) - after_last
            if self._by_date:
                # (stable: sorting the sorted part again with what was added equals sorting all at once)
                made.sort(key=lambda e: e.date)
            self._made[player] = (len(kept), made, after_last)
        return made

    def __iter__(self) -> Iterator[str]:
        return iter(self._kept)

    def __len__(self) -> int:
        return len(self._kept)

    def __contains__(self, player: object) -> bool:
        return player in self._kept


class NoHistory(Mapping[str, list[HistoryEvent]]):
    """The history of a replay read for its standings alone (Engine.run_standings), which kept none:
    any read of it is a mistake of the program's, never an empty history shown to a user."""

    def _refused(self) -> AssertionError:
        return AssertionError("a replay for the standings alone keeps no history (Ledger.run: standings_only)")

    def __getitem__(self, player: str) -> list[HistoryEvent]:
        raise self._refused()

    def __iter__(self) -> Iterator[str]:
        raise self._refused()

    def __len__(self) -> int:
        raise self._refused()
