"""A fide list's standings after one more match, without a replay: the leaderboard after add-match.

As of a day, a match whose event reaches a later list waits for it (replay.py `pending`): it changes
no rating, games count, pool or status, only each player's last game's date. So where the journal
gains one such match after every entry, of two players the list already has, and the list in
force stays the same (no list is published in between), the standings as of the new day are those
kept as of the day before with the two dates moved (tests/test_appended_standings.py compares
them with replays on random journals). A match that reaches a list by that day, a tournament's, a
new player's, or a new list in force is left to a replay. The match's lines (waiting for its list,
or not rated) are carried into its players' kept histories where a replay keeps them last of their
day (`carried_items`), so the history after add-match is read, not replayed.
"""
from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

from ...datarecords import datarecord
from ..base import HistoryEvent, RatingResult, Standing
from ..kepthistory import event_back
from ..lines import HistoryOnRead
from .preview import counted, lines as waiting_lines
from .records import SCORE
from .rules import WAITS, list_in_force, pending_reason, reaches_list
from .values import FideRules

if TYPE_CHECKING:
    from ...contract.events import MatchPlayed


@datarecord
class Appended(RatingResult):
    """The standings after the match, with what add-match shows of it (`preview`: each player's line
    on the list it waits for, preview.py), if it could be told without a replay."""

    preview: dict[str, HistoryEvent] | None = None


def after_match(params: FideRules, kept: RatingResult, state: Any, match: MatchPlayed, day: date) -> RatingResult | None:
    """`kept`'s standings (as of `kept.as_of`) with `match` appended after every entry, as of `day`, and
    (`state`: what their replay kept, preview.py) the state counted with the match and its players'
    lines on the list it waits for; None: only a replay can tell."""
    before = kept.as_of
    if (before is None or match.tournament is not None or match.a not in kept.standings
            or match.b not in kept.standings or not before <= day or match.date > day
            or list_in_force(day, params.list_every) != list_in_force(before, params.list_every)):
        return None
    standings = dict(kept.standings)
    reason = match.reason
    if reason is None:   # (an excluded match leaves the dates as they were)
        list_date = reaches_list(match.date, False, params)
        if list_date <= day:
            return None   # rated on a list by that day (never, with the list in force the same: closing_days ≥ 1)
        for player in (match.a, match.b):
            s = standings[player]
            standings[player] = Standing(s.player, s.rating, s.games, s.status, match.date, s.extra)
        reason = pending_reason(list_date, match.entry, match.date)
    # Its players' lines, as the replay notes a match it does not rate (replay.py group_into_events)
    # or one that waits for its list (`pending`): carried into the kept histories.
    score = SCORE[round(2 * match.score_a)]
    lines = {match.a: [HistoryEvent(match.date, match.entry, "match", match.b, score, None, None, None, False, reason)],
             match.b: [HistoryEvent(match.date, match.entry, "match", match.a, 1 - score, None, None, None, False, reason)]}
    new_state = counted(state, match)
    preview: dict[str, HistoryEvent] | None
    if match.reason is not None:   # (its line as of any day: the replay notes it as it reads the match)
        preview = {player: events[0] for player, events in lines.items()}
    else:
        preview = waiting_lines(params, new_state, match, day) if new_state is not None else None
    return Appended(kept.rating, kept.discipline, kept.engine, standings,
                    HistoryOnRead(lines, by_date=True),  # type: ignore[arg-type]  # (read as a mapping)
                    hidden_statuses=kept.hidden_statuses, columns=kept.columns, sections=kept.sections, as_of=day,
                    state=new_state or {}, preview=preview)


def carried_items(meta: Any, player: str, old: list[Any], added: list[Any]) -> list[Any] | None:
    """A player's kept items with the appended match's line last, where a replay keeps it last among
    the lines of its day. A replay notes the matches it does not rate first, then those that wait for
    their list (by their event's end, then journal order: the new one, ending on its day, after every
    other ending then), then what the lists and adjustments make. So the line is carried only where
    every line the player has of its day (or later) is a match's not rated, and comes before it: of
    a match not rated, or (for one that waits) of one that waits and ends that day too. Else None:
    the next history replays the list."""
    from .kept import history_from_kept

    if len(added) != 1:
        return None
    new = event_back(added[0][1])
    waits = new.reason is not None and new.reason.startswith(WAITS)
    ends = f" ends {new.date})"
    for line in history_from_kept(meta, player, old):
        if line.date < new.date:
            continue
        if line.kind != "match" or line.rated:
            return None
        if line.reason is not None and line.reason.startswith(WAITS) and not (waits and line.reason.endswith(ends)):
            return None
    return old + added
