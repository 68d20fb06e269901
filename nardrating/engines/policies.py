"""Inactivity: the policies every per-game engine (elo, fibs, chips) takes from its [rating.NAME].

    inactivity = [[3, 25], [6, 50]]   # months without a rated game → total penalty
    inactive_after_months = 12        # status "inactive", hidden unless --all; 0 = never
    exclude_after_months = 24         # status "excluded", hidden unless --all; 0 = never

A break of more than `months` months after a player's last rated game owes
that step's total; each step is applied once, as a dated "penalty" event on
the first day past the break (last game + months, + 1 day), and nothing
reverses it. A rated game starts a new break. A player who never played a
rated game has no break. The defaults (no ladder, never) keep the ratings of
a club that does not set them. The same month arithmetic is mfsnb's ladder.
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from ..i18n import _, ngettext
from ..periods import add_months
from .base import Explained, HistoryEvent, step

if TYPE_CHECKING:
    from .params import InactivityParams

INACTIVE, EXCLUDED = "inactive", "excluded"
BREAKS = "seed 000, «Перерывы в выступлениях»"   # the seed's section: its words in every language
HIDDEN = frozenset({INACTIVE, EXCLUDED})


def penalty_owed(since: date, day: date, ladder: tuple[tuple[int, float], ...]) -> float:
    """The whole break's penalty at `day`: the largest step whose months the break exceeds. (A
    ladder's months strictly increase, as its check requires: past the first step the break does
    not exceed, none is exceeded.)"""
    owed: float = 0
    for months, total in ladder:
        if add_months(since, months) >= day:
            break
        owed = total
    return owed


def __getattr__(name: str) -> Any:
    if name == "InactivityParams":  # (engines/params.py, imported when asked for)
        from .params import InactivityParams

        return InactivityParams
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Inactivity:
    """One replay's inactivity policy: the penalty steps due and the status at the end."""

    def __init__(self, p: InactivityParams):
        self.ladder = tuple(p.inactivity)
        self.inactive_after = p.inactive_after_months
        self.exclude_after = p.exclude_after_months

    @property
    def time_dependent(self) -> bool:
        """Whether the result depends on the date it is read (a replay cannot be resumed)."""
        return bool(self.ladder or self.inactive_after or self.exclude_after)

    def due(self, last: date, charged: float, day: date) -> list[tuple[date, float, int]]:
        """Steps reached by `day` (inclusive) of the break since `last`, beyond the `charged` total:
        [(the step's date, its amount, its months)]."""
        out = []
        for months, total in self.ladder:
            on = add_months(last, months) + timedelta(days=1)
            if on > day:
                break
            if total > charged:
                out.append((on, total - charged, months))
                charged = total
        return out

    @staticmethod
    def event(on: date, amount: float, months: int, before: float) -> HistoryEvent:
        return HistoryEvent(on, None, "penalty", None, None, before, -amount, before - amount, True,
                            f"inactivity: more than {months} months without a rated game")

    def status(self, last: date | None, end: date | None, otherwise: str) -> str:
        """"excluded" or "inactive" for a break longer than the config allows at `end`, else `otherwise`."""
        if last is None or end is None:
            return otherwise
        if self.exclude_after and add_months(last, self.exclude_after) < end:
            return EXCLUDED
        if self.inactive_after and add_months(last, self.inactive_after) < end:
            return INACTIVE
        return otherwise


def played_days(last: Sequence[int]) -> dict[int, date]:
    """Each distinct day ordinal of `last` (0: never played, left out) as a date: made once a day,
    not once a player (10,000 players' last games fall on a few thousand days)."""
    return {day: date.fromordinal(day) for day in set(last) if day}


class PenaltyClock:
    """Per player: the last rated game and the penalty charged since; applies due steps to a rating."""

    def __init__(self, policy: Inactivity):
        self.policy = policy
        self.charged: dict[object, float] = {}

    def catch_up(self, key: object, last: date | None, day: date, rating: float
                 ) -> tuple[float, list[HistoryEvent]]:
        """The rating after the steps due by `day`, and their events."""
        if last is None or not self.policy.ladder:
            return rating, []
        events = []
        for on, amount, months in self.policy.due(last, self.charged.get(key, 0), day):
            events.append(self.policy.event(on, amount, months, rating))
            rating -= amount
            self.charged[key] = self.charged.get(key, 0) + amount
        return rating, events

    def played(self, key: object) -> None:
        """A rated game: a new break starts."""
        self.charged.pop(key, None)


def explain_penalty(p: InactivityParams, history: list[HistoryEvent], event: HistoryEvent) -> Explained:
    """The steps of one "penalty" event of `history` (a player's events, in order): the break since
    the last rated game, the ladder's step it passed, less what the break was already charged."""
    earlier = history[:history.index(event)]
    k = next((k for k in range(len(earlier) - 1, -1, -1) if earlier[k].kind == "match" and earlier[k].rated), None)
    if k is None:
        raise ValueError(f"a penalty on {event.date} without a rated game before it")
    last = earlier[k].date
    charged: float = 0
    for e in earlier[k + 1:]:
        if e.kind == "penalty" and e.change is not None:
            charged += -e.change      # in the order the replay charged them
    found = [(m, t) for m, t in p.inactivity if add_months(last, m) + timedelta(days=1) == event.date]
    if not found:
        raise ValueError(f"no inactivity step of {list(p.inactivity)} falls on {event.date}")
    months, total = found[0]
    amount = total - charged
    rule = _("{seed}: a break costs the ladder's total (inactivity of [rating.NAME])").format(seed=BREAKS)
    # (English says "months" of every number: one message of the same words, Russian's three forms)
    formula = ngettext("break since {last}: more than {months} months on {day} ({last} + {months} months = {end}) → "
                       "[{months}, {total}]", "break since {last}: more than {months} months on {day} ({last} + "
                       "{months} months = {end}) → [{months}, {total}]", months).format(
        last=last, months=months, day=event.date, end=add_months(last, months), total=f"{total:g}")
    return Explained(
        {"rating": event.before, "last_rated_game": last.isoformat(), "months": months,
         "inactivity": [list(x) for x in p.inactivity]},
        [step(rule, formula, total),
         step(_("each step is charged once: less what this break was charged before"),
              f"penalty = {total:g} − {charged:g}", amount),
         step(_("the penalty lowers the rating"), f"change = −{amount:g}", -amount)])
