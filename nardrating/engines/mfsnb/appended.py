"""A federation list after one more single match, without a replay: the evening's `add-match`.

A replay as of a day leaves its list builder with the members (the rating every competition of the
open period is rated from, what is pending, the status on the last list) and the open period's
records. Kept as plain data beside the standings (replay/cachestandings.py), they are restored
here, a match appended after every entry of the journal is rated by `ListBuilder.single` as the
replay rates it, and the standings are built as the replay's result builds them: the numbers a
replay of the journal with the match gives (tests/test_appended_standings.py compares them on
random journals). Anything else (a tournament's match, a new player, a match in a later period,
the last day of a period, whose list is then published) is left to a replay.
"""
from __future__ import annotations

from datetime import date, timedelta
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from ...periods import Period, periods_from
from ..base import RatingResult
from ..lines import HistoryOnRead
from .lists import ListBuilder
from .records import Member, PeriodRecord
from .replay import own_competition
from .result import standing_of
from .values import MfsnbRules

if TYPE_CHECKING:
    from ...contract.events import MatchPlayed

# What a member and an open period's record hold (records.py), kept column by column.
MEMBER_FIELDS = ("base", "since", "pending", "taken", "listed", "status", "excluded", "returned", "games",
                 "last_played")
RECORD_FIELDS = ("before", "games", "halves", "hundredths", "change", "adjust", "adjusted", "reinstated")
_DATES = ("since", "last_played")
# What publishing sets on a record, and what an open period's record still has there.
_PUBLISHED = attrgetter("penalty", "penalty_owed", "after", "status", "break_months", "break_since", "day")
_UNPUBLISHED = _PUBLISHED(PeriodRecord(None))


def builder_state(book: ListBuilder) -> dict[str, Any] | None:
    """The builder's members and open period as plain data (dates as ordinals); None before any entry,
    or for a record the open period should not hold (one published: never, while its period is open)."""
    if book.period is None or any(_PUBLISHED(r) != _UNPUBLISHED for r in book.records.values()):
        return None
    members = list(book.members.values())
    columns = {name: list(map(attrgetter(name), members)) for name in MEMBER_FIELDS}
    for name in _DATES:   # (as ordinals: a few hundred distinct days among ten thousand players)
        ordinals = {day: day.toordinal() for day in set(columns[name]) if day is not None}
        columns[name] = [None if day is None else ordinals[day] for day in columns[name]]
    return {"unit": book.p.period, "period": [book.period.start.toordinal(), book.period.end.toordinal()],
            "players": list(book.members), "members": columns, **_records_state(book)}


def _records_state(book: ListBuilder) -> dict[str, Any]:
    """The open period's records as builder_state keeps them: their players, competitions, columns."""
    records = list(book.records.values())
    return {"record_players": list(book.records), "competitions": [len(r.competitions) for r in records],
            "records": {name: list(map(attrgetter(name), records)) for name in RECORD_FIELDS}}


class _NoView:
    """What a restored builder has for a view: the parameters, and no player to enter (a match of
    a player the list does not know yet is left to a replay)."""

    def __init__(self, params: MfsnbRules) -> None:
        self.params = params

    def player(self, player: str) -> Any:
        raise LookupError(f"{player} is not on the restored list")


def restored(params: MfsnbRules, state: dict[str, Any], only: tuple[str, ...] | None = None) -> ListBuilder:
    """A list builder as the replay that gave `state` left it (its history and published lists aside);
    with `only`, of its members just those (of the state's: a match's two players), every column
    still checked."""
    players, record_players, competitions, period = (state.get(k) for k in ("players", "record_players", "competitions", "period"))
    if not (type(players) is list and type(record_players) is list and set(map(type, players + record_players)) <= {str}
            and len(set(players)) == len(players) and len(set(record_players)) == len(record_players)
            and set(record_players) <= set(players) and type(competitions) is list
            and len(competitions) == len(record_players) and set(map(type, competitions)) <= {int}
            and type(period) is list and len(period) == 2 and set(map(type, period)) == {int}):
        raise ValueError("not a kept list state")
    book = ListBuilder(_NoView(params))  # type: ignore[arg-type]  # (only .params and .player are read)
    start, end = (date.fromordinal(day) for day in period)
    book.period = Period(start, end)
    book.periods = periods_from(end + timedelta(days=1), params.period)
    columns = _valid(state["members"], MEMBER_FIELDS, len(state["players"]))
    if only is not None:   # (each member's fields: its place in every column)
        at = [(player, players.index(player)) for player in dict.fromkeys(only) if player in players]
        columns = {name: [columns[name][k] for _, k in at] for name in MEMBER_FIELDS}
        players = [player for player, _ in at]
    for name in _DATES:
        days = {day: date.fromordinal(day) for day in set(columns[name]) if day is not None}
        columns[name] = [None if day is None else days[day] for day in columns[name]]
    # (MEMBER_FIELDS are Member's fields in their order)
    book.members = dict(zip(players, map(Member, *(columns[name] for name in MEMBER_FIELDS))))
    columns = _valid(state["records"], RECORD_FIELDS, len(state["record_players"]))
    for k, player in enumerate(state["record_players"]):
        record = PeriodRecord(**{name: columns[name][k] for name in RECORD_FIELDS})
        # Only the number of the period's competitions is kept: the standings ask whether there are
        # any, and the report (which reads them) is made from a replay.
        record.competitions = [None] * state["competitions"][k]  # type: ignore[list-item]
        book.records[player] = record
    return book


# Each kept column's types (dates as ordinals).
_TYPES: dict[str, set[type]] = {
    "base": {int}, "since": {int}, "pending": {int}, "taken": {int}, "listed": {int, type(None)}, "status": {str},
    "excluded": {bool}, "returned": {bool}, "games": {int}, "last_played": {int, type(None)}, "before": {int, type(None)},
    "halves": {int}, "hundredths": {int}, "change": {int}, "adjust": {int}, "adjusted": {bool}, "reinstated": {bool}}


def _valid(columns: Any, names: tuple[str, ...], count: int) -> dict[str, list[Any]]:
    """The columns as kept, each of `count` values of its type; else ValueError (the list is replayed)."""
    if type(columns) is not dict or set(columns) != set(names) or any(
            type(columns[name]) is not list or len(columns[name]) != count or not set(map(type, columns[name])) <= _TYPES[name]
            for name in names):
        raise ValueError("a kept list state of other columns")
    return dict(columns)


def after_match(params: MfsnbRules, kept: RatingResult, state: dict[str, Any], match: MatchPlayed,
                day: date) -> RatingResult | None:
    """The standings as of `day` of the journal whose replay as of `kept.as_of` left `state` and
    `kept`, with `match` appended after every entry; its players' lines in `events`; None: only a
    replay can tell. Within the open period nothing is published, and the match changes its two
    players' members and records alone: only those are restored and rated, and every other
    standing, and every other value of the state, is the very one kept (the write keeps the change
    as a patch: replay/cachestandings.py)."""
    if (params.official_only or match.tournament is not None or match.reason is not None
            or state.get("unit") != params.period or match.a == match.b):
        return None
    players = (match.a, match.b)
    book = restored(params, state, players)
    period = book.current
    if not (period.start <= match.date <= day < period.end) or any(
            player not in book.members or player not in kept.standings for player in players):
        return None
    book.advance_to(match.date)   # (within the open period: nothing published, as in the replay)
    book.single(match.entry, match.date, match.a, match.b, match.score_a, own_competition(params, match.date))
    book.advance_to(day)
    new_state = state_after(state, book, players)
    if new_state is None or book.current is not period:
        return None
    standings = dict(kept.standings)
    for player in players:
        standings[player] = standing_of(book, player, book.members[player])
    return RatingResult(kept.rating, kept.discipline, kept.engine, standings,
                        HistoryOnRead(book.events), hidden_statuses=kept.hidden_statuses,  # type: ignore[arg-type]
                        columns=kept.columns, sections=kept.sections, as_of=day, state=new_state)


def state_after(state: dict[str, Any], book: ListBuilder, players: tuple[str, ...]) -> dict[str, Any] | None:
    """builder_state of the whole builder `book` stands for (restored with only `players` of the
    state's members, then rated): the state with those members' values in place, each column
    copied only where one changed, and the open period's records (a few hundred) made anew."""
    if any(_PUBLISHED(r) != _UNPUBLISHED for r in book.records.values()):
        return None
    at = {player: state["players"].index(player) for player in players}
    members = dict(state["members"])
    for name in MEMBER_FIELDS:
        column = members[name]
        for player, k in at.items():
            value = getattr(book.members[player], name)
            if name in _DATES and value is not None:
                value = value.toordinal()
            if type(value) is not type(column[k]) or value != column[k]:
                if column is state["members"][name]:
                    column = members[name] = list(column)
                column[k] = value
    return {**state, "members": members, **_records_state(book)}
