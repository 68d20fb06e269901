"""A placement list's period report without making every line of every history.

The report needs, of each player with a line in the period, those lines and the last line before it
(its rating). A history's lines follow from the line before them (a match keeps the rating, a
tournament adds points/place, a month's first day halves it), so the lines before the period and
after it are walked as numbers only, with the very operations the lines would make, and only the
period's lines (and the one before them) are made, by the same functions a history uses. Where a
line's number is not a float this would not hold; placement's are (ratings start at 0.0, and an
adjustment's `set` and `delta` are read as floats).
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any

from ..datarecords import datarecord
from ..periods import month_number, month_start
from .base import HistoryEvent, RatingResult
from .placementstate import Places

if TYPE_CHECKING:
    from .lines import Kept

Found = tuple[str, list[HistoryEvent], HistoryEvent | None]


class _After:
    """The line before, as a line's maker reads it: only its rating after."""

    __slots__ = ("after",)

    def __init__(self, after: float | None) -> None:
        self.after = after


@datarecord
class PlacementResult(RatingResult):
    """A placement replay's result: what its histories are made from, for the period report."""

    kept: Any = None          # player → their items (placementstate.KeptByName)
    match_lines: Any = None   # placement.MatchLines
    factor: float = 0.5
    last_month: int | None = None

    def period_events(self, start: date, end: date) -> Iterator[Found]:
        """(player, their lines dated start..end in history's order, their last line before start
        with a rating) for every player with a line in the period, as their histories have them."""
        for player in self.kept:
            found = self._walk(player, self.kept[player], start, end)
            if found is not None:
                yield found

    def statuses_at(self, day: date) -> dict[str, str]:
        """A replay up to `day` ranks a player placed in a tournament ended by then ("no
        tournament" else): the same statuses, from the kept places."""
        ranked: set[int] = set()
        for item in self.state.side:
            if isinstance(item, Places) and item.end <= day:
                ranked.update(item.places)
        names = self.kept.names
        return {names[code]: "ranked" if code in ranked else "no tournament" for code in self.kept.order}

    def _walk(self, player: str, items: Sequence[Kept | int], start: date, end: date) -> Found | None:
        lines, factor, last_month = self.match_lines, self.factor, self.last_month
        dates, code = lines.columns().dates, self.kept.code_of(player)
        months: dict[int, int] = {}   # a day (ordinal) → its month (month_number)
        first, last = start.toordinal(), end.toordinal()
        inside: list[HistoryEvent] = []
        before: tuple[Any, float | None] | None = None   # the last line before `start` with a rating
        prev_after, has_prev = None, False   # the line before: its rating after (and its month, below)
        after: float | None = None

        def make(item: Any, was: float | None) -> HistoryEvent:
            """The line of `item` after a line whose rating is `was` (None: no line before)."""
            if isinstance(item, int):
                return lines.line(player, item, _After(was))  # type: ignore[no-any-return]
            if isinstance(item, Places):
                return item.line_for(player, _After(was))   # type: ignore[arg-type]
            if isinstance(item, tuple):   # (month, rating before, after): a month's halving
                return _halving(*item)
            return item   # type: ignore[no-any-return]   # an adjustment's event

        halve = last_month is not None
        prev_month = 0
        walked: list[Any] = [*items, None]   # (None: the halvings after the last item)
        for item in walked:
            if item is None:
                if last_month is None:
                    break
                month = last_month
            else:
                kind = type(item)
                day = dates[item] if kind is int else item.end.toordinal() if kind is Places else item.date.toordinal()
                month = months.get(day)   # type: ignore[assignment]
                if month is None:
                    month = months[day] = month_number(date.fromordinal(day))
            if halve and has_prev and month > prev_month:
                rating: float | None = prev_after
                for number in range(prev_month + 1, month + 1):
                    if not rating:
                        break
                    after = rating * factor
                    halving_day = month_start(number).toordinal()
                    if first <= halving_day <= last:
                        inside.append(_halving(number, rating, after))
                    elif halving_day < first:
                        before = ((number, rating, after), None)
                    prev_after = rating = after
                    prev_month = number
            if item is None:
                break
            was: float | None = prev_after if has_prev else None
            if kind is int:
                after = was if was is not None else 0.0
            elif kind is Places:
                after = (was if was is not None else 0.0) + item.points / item.places[code]
            else:
                after = item.after
            if first <= day <= last:
                event = make(item, was)
                inside.append(event)
                after = event.after
            elif day < first and after is not None:
                before = (item, was)
            prev_month, prev_after, has_prev = month, after, True
        if not inside:
            return None
        return player, inside, make(*before) if before is not None else None


def _halving(month: int, before: float, after: float) -> HistoryEvent:
    """A month's halving line, as MonthlyHalvings makes it."""
    return HistoryEvent(month_start(month), None, "decay", None, None, before, after - before, after, True,
                        "monthly halving")
