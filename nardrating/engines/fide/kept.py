"""A fide list's histories as plain data, for the cache (replay/cachehistory.py): each player's
kept items as the lists left them, from which their lines are made again exactly as the result
makes them (engines/lines.py HistoryOnRead, by date).

A rated single match's side (RatedSingle) is kept as its numbers and the rating before it; what
it reads from the list's rating of the player (the list's date, K and why, whether the change is
exact) is kept once per list, in an item of its own before that list's first such side, and K's
reason once per text, in the meta. A rated event's record (EventRecord) is kept as what its lines
read (its games, points, Σ P_D, K, change, the rating before it); any other item is a history
event (an adjustment, a list's line, an unrated game), kept whole.
"""
from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from fractions import Fraction
from itertools import accumulate
from typing import Any

from ..base import HistoryEvent
from ..kepthistory import NotPlain, event_back, event_data
from ..lines import HistoryOnRead, Kept
from .records import EventRecord, ListRating, PlayerGame, RatedGame, RatedSingle
from .report import FideResult

_SINGLE, _RATING, _RECORD, _EVENT = 0, 1, 2, 3


def kept_histories(result: FideResult) -> tuple[dict[str, Any], Iterator[tuple[str, list[Any]]]] | None:
    """(meta, (player, their items as plain data) for every player with a history), or None.

    The numbers of the engine's own items (ints, ids, dates as ordinals) are taken as they are: the
    cache's JSON refuses anything but plain values, and a tuple or a dict is never among them; a
    Fraction is kept as [numerator, denominator]; a history event, which may carry anything in its
    extra, is checked whole."""
    events = result.events
    if not isinstance(events, HistoryOnRead):
        return None
    k_rules: dict[str, int] = {}   # K's reason, the same few texts for every list: written once
    meta = {"k_rules": k_rules}
    return meta, ((player, _items(items, k_rules)) for player, items in events.kept.items())


def _items(items: Any, k_rules: dict[str, int]) -> list[Any]:
    out: list[Any] = []
    append = out.append
    listed: ListRating | None = None   # the list's rating of the last single match's side
    running: list[int | None] = []      # and the rating before each of its events (running_before)
    for item in items:
        kind = type(item)
        if kind is RatedSingle:
            if item.listed is not listed:
                listed = item.listed
                append((_RATING, listed.list_date.toordinal(), listed.k, _k_rule(listed.k_rule, k_rules),
                        listed.fide))
                # running_before(place) for every place at once (the same sums)
                running = ([None] * (len(listed.gains) + 1) if listed.rated_from is None
                           else list(accumulate(map(listed.change, listed.gains), initial=listed.rated_from)))
            append((_SINGLE, item.date.toordinal(), item.key, item.opponent, item.half, item.rating,
                    item.opponent_rating, item.p_d, running[item.place]))
        elif kind is EventRecord:
            append((_RECORD, item.key, item.rating, _number(item.points), _number(item.expected), item.k,
                    _number(item.change), item.performance, _k_rule(item.k_rule, k_rules),
                    None if item.list_date is None else item.list_date.toordinal(), item.running,
                    [(r.game.date.toordinal(), r.game.match, r.game.opponent, r.game.half, r.opponent_rating,
                      r.expected) for r in item.counted],
                    [(g.date.toordinal(), g.match, g.opponent, g.half) for g in item.skipped]))
        elif kind is HistoryEvent:
            append((_EVENT, event_data(item)))
        else:
            raise NotPlain(kind.__name__)
    return out


def event_items(lines: Any) -> list[Any]:
    """History events (an appended match's lines) as kept items."""
    return [(_EVENT, event_data(line)) for line in lines]


def _k_rule(text: str | None, k_rules: dict[str, int]) -> int | None:
    if text is None:
        return None
    n = k_rules.get(text)
    if n is None:
        if type(text) is not str:
            raise NotPlain(type(text).__name__)
        n = k_rules[text] = len(k_rules)
    return n


def _number(value: Any) -> Any:
    """An int or None as it is; a Fraction as [numerator, denominator]."""
    if value is None or type(value) is int:
        return value
    if type(value) is Fraction:
        return (value.numerator, value.denominator)
    raise NotPlain(type(value).__name__)


def _number_back(value: Any) -> Any:
    return Fraction(*value) if type(value) is list else value


def history_from_kept(meta: Any, player: str, items: list[Any]) -> list[HistoryEvent]:
    """The player's lines from what kept_histories gave of their items."""
    if type(meta) is not dict or type(meta.get("k_rules")) is not dict:
        raise ValueError("bad meta")
    k_rules = {n: text for text, n in meta["k_rules"].items()}
    kept: list[Kept] = []
    rating: list[Any] | None = None   # the last list's (date, K, K's reason, exact changes)
    for item in items:
        if type(item) is not list or not item:
            raise ValueError("not a kept item")
        kind = item[0]
        if kind == _SINGLE and len(item) == 9 and rating is not None:
            _, day, key, opponent, half, own, opponent_rating, p_d, running = item
            listed = ListRating(rating[0])
            listed.k, listed.k_rule, listed.fide, listed.rated_from = rating[1], rating[2], rating[3], running
            kept.append(RatedSingle(key, date.fromordinal(day), opponent, half, own, opponent_rating, p_d, None,
                                    listed, 0))
        elif kind == _RATING and len(item) == 5:
            _, list_day, k, k_rule, fide = item
            rating = [date.fromordinal(list_day), k, None if k_rule is None else k_rules[k_rule], fide]
        elif kind == _RECORD and len(item) == 13:
            (_, key, own, points, expected, k, change, performance, k_rule, list_day, running, counted,
             skipped) = item
            kept.append(EventRecord(
                key, "", own, len(counted), _number_back(points), _number_back(expected), k, _number_back(change),
                performance, k_rule=None if k_rule is None else k_rules[k_rule],
                counted=tuple(RatedGame(PlayerGame(m, date.fromordinal(d), o, h), r, e) for d, m, o, h, r, e in counted),
                skipped=tuple(PlayerGame(m, date.fromordinal(d), o, h) for d, m, o, h in skipped),
                list_date=None if list_day is None else date.fromordinal(list_day), running=running))
        elif kind == _EVENT and len(item) == 2:
            kept.append(event_back(item[1]))
        else:
            raise ValueError("not a kept item")
    return HistoryOnRead({player: kept}, by_date=True)[player]
