"""A fide list's standings after one more match, without a replay: the leaderboard after add-match.

As of a day, a match whose event reaches a later list waits for it (replay.py `pending`): it changes
no rating, games count, pool or status, only each player's last game's date. So where the journal
gains one such match after every entry, of two players the list already has, and the list in
force stays the same (no list is published in between), the standings as of the new day are those
kept as of the day before with the two dates moved (tests/test_appended_standings.py compares
them with replays on random journals). A match that reaches a list by that day, a tournament's, a
new player's, or a new list in force is left to a replay.
"""
from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from ..base import RatingResult, Standing
from .rules import list_in_force, reaches_list
from .values import FideRules

if TYPE_CHECKING:
    from ...contract.events import MatchPlayed


def after_match(params: FideRules, kept: RatingResult, match: MatchPlayed, day: date) -> RatingResult | None:
    """`kept`'s standings (as of `kept.as_of`) with `match` appended after every entry, as of `day`; None:
    only a replay can tell."""
    before = kept.as_of
    if (before is None or match.tournament is not None or match.a not in kept.standings
            or match.b not in kept.standings or not before <= day or match.date > day
            or list_in_force(day, params.list_every) != list_in_force(before, params.list_every)):
        return None
    standings = dict(kept.standings)
    if match.reason is None:   # (an excluded match leaves the dates as they were)
        if reaches_list(match.date, False, params) <= day:
            return None   # rated on a list by that day (never, with the list in force the same: closing_days ≥ 1)
        for player in (match.a, match.b):
            s = standings[player]
            standings[player] = Standing(s.player, s.rating, s.games, s.status, match.date, s.extra)
    return RatingResult(kept.rating, kept.discipline, kept.engine, standings, hidden_statuses=kept.hidden_statuses,
                        columns=kept.columns, sections=kept.sections, as_of=day, state={})
