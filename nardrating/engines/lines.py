"""History whose lines are made when a player's history is read.

An engine may keep, in place of a run of a player's `HistoryEvent`s, one small object that makes
them (`lines()`) from numbers it keeps anyway: a big journal's replay then builds and frees far
fewer objects, and `recalc` or `leaderboard`, which never read history, never make the lines.
`HistoryOnRead` is the player → events mapping the reports read; what it gives is exactly the
events, in the order, the engine would have kept.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Protocol, Union

from .base import HistoryEvent


class LinesOnRead(Protocol):
    def lines(self) -> Iterator[HistoryEvent]:
        """The history events this stands for, in their order."""
        ...


Kept = Union[HistoryEvent, LinesOnRead]


class HistoryOnRead(Mapping[str, list[HistoryEvent]]):
    """player → events, from the engine's kept lists (which may still grow: a list published on
    demand appends to them); `by_date`: sorted by date, stably, as the engine would sort them."""

    def __init__(self, kept: dict[str, list[Kept]], by_date: bool = False) -> None:
        self._kept = kept
        self._by_date = by_date
        self._made: dict[str, tuple[int, list[HistoryEvent]]] = {}

    def __getitem__(self, player: str) -> list[HistoryEvent]:
        kept = self._kept[player]
        done, made = self._made.get(player, (0, []))
        if done < len(kept):
            for item in kept[done:]:
                if isinstance(item, HistoryEvent):
                    made.append(item)
                else:
                    made.extend(item.lines())
            if self._by_date:
                # (stable: sorting the sorted part again with what was added equals sorting all at once)
                made.sort(key=lambda e: e.date)
            self._made[player] = (len(kept), made)
        return made

    def __iter__(self) -> Iterator[str]:
        return iter(self._kept)

    def __len__(self) -> int:
        return len(self._kept)

    def __contains__(self, player: object) -> bool:
        return player in self._kept
