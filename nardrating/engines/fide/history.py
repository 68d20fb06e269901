"""A rated player's history lines of an event, made when the history is read.

A list rates every event of every rated player: a game's line (K·(S − P_D), its expected score, the
opponent's rating) and the event's line. Made as the list was published (two objects, two dicts and
a few floats per game) they took 270 of a 200k-game recalc's 680 MB and over a quarter of its CPU,
though `recalc` and `leaderboard` never read them. The list keeps a `RatedPart` in the player's
history instead (the event's record holds every number); `HistoryOnRead` turns the parts into
the same lines, in the same order and with the same floats, for the player whose history is read.
"""
from __future__ import annotations

from collections.abc import Iterator
from datetime import date

from ..base import HistoryEvent
from .records import EventRecord

# A game's score from its half-points, and P_D (0–100 hundredths) as history shows it: the same
# values as half / 2 and expected / 100, one object each.
SCORE = (0.0, 0.5, 1.0)
PERCENT = tuple(n / 100 for n in range(101))
UNRATED_OPPONENT = "the opponent is unrated on the list in force"


class RatedPart:
    """A rated player's event on a list: its record (K, the counted and skipped games), the player's
    rating before it and its change on the list, both in hundredths."""

    __slots__ = ("record", "list_date", "running", "change", "fide")

    def __init__(self, record: EventRecord, list_date: date, running: int, change: int, fide: bool) -> None:
        self.record, self.list_date, self.running, self.change, self.fide = record, list_date, running, change, fide

    def lines(self) -> Iterator[HistoryEvent]:
        """The games' lines, the games against unrated opponents, then the event's line."""
        erec, k = self.record, self.record.k
        own = erec.rating
        assert k is not None and own is not None, "a rated part is made once K is known"
        for r in erec.counted:
            share = k * r.gain / 100
            yield HistoryEvent(r.game.date, r.game.match, "match", r.game.opponent, SCORE[r.game.half], own,
                               share, own + share, True, None,
                               {"expected": PERCENT[r.expected], "opponent_rating": r.opponent_rating})
        for g in erec.skipped:
            yield HistoryEvent(g.date, g.match, "match", g.opponent, SCORE[g.half], own, None, None,
                               False, UNRATED_OPPONENT)
        extra = {"event": erec.key, "k": k, "expected": float(erec.expected or 0), "performance": erec.performance}
        if self.fide:
            extra["k_rule"] = erec.k_rule
        running, change = self.running, self.change
        yield HistoryEvent(self.list_date, None, "tournament", None, float(erec.points), running / 100,
                           change / 100, (running + change) / 100, True, None, extra)
