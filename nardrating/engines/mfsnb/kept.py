"""A federation list's histories as plain data, for the cache (replay/cachehistory.py): each
player's kept items as the list builder left them, from which their lines are made again exactly
as the result makes them (engines/lines.py HistoryOnRead).

A single match's side (SingleCompetition: its match and competition lines) is kept as its numbers;
a list's record (PeriodRecord) as what its line reads (the list's date, the ratings before and
after, the penalty); any other item is a history event (an adjustment, a tournament's match or
competition line), kept whole.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from operator import attrgetter
from datetime import date
from typing import Any, cast

from ..base import HistoryEvent
from ..kepthistory import NotPlain, event_back, event_data, plain
from ..lines import HistoryOnRead, Kept
from .lists import ListBuilder
from .records import PeriodRecord, SingleCompetition

_SINGLE, _LIST, _EVENT = 0, 1, 2


def kept_histories(book: ListBuilder) -> tuple[dict[str, Any], Iterator[tuple[str, list[Any]]]]:
    """(meta, (player, their items as plain data) for every player with a history).

    The numbers of the builder's own items (ints, a score, ids, reasons) are taken as they are: the
    cache's JSON refuses anything but plain values (a date, a Fraction), and a tuple or a dict is
    never among them; a history event, which may carry anything in its extra, is checked whole."""
    round_robin = book.p.round_robin
    reasons: dict[str, int] = {}   # a single match's reason, the same text for most: written once
    meta = {"round_robin": plain(round_robin), "reasons": reasons}
    return meta, ((player, _items(items, round_robin, reasons)) for player, items in book.events.items())


_single = attrgetter("id", "opponent", "score", "own", "opponent_rating", "halves", "computed", "change",
                     "protected")


def _items(items: list[Kept], round_robin: str, reasons: dict[str, int]) -> list[Any]:
    out: list[Any] = []
    append = out.append
    for item in items:
        kind = type(item)
        if kind is SingleCompetition:   # (most items: written for speed, a tuple joined in C)
            single = cast(SingleCompetition, item)
            if single.round_robin is not round_robin and single.round_robin != round_robin:
                raise NotPlain("a single match rated under another round-robin rule")
            reason = reasons.get(single.reason)
            if reason is None:
                reason = reasons[plain(single.reason)] = len(reasons)
            append((_SINGLE, single.day.toordinal(), reason) + _single(single))
        elif kind is PeriodRecord:
            record = cast(PeriodRecord, item)
            if record.day is None:
                raise NotPlain("a list record before its list")
            append((_LIST, record.day.toordinal(), record.before, record.after, record.penalty))
        elif kind is HistoryEvent:
            append((_EVENT, event_data(cast(HistoryEvent, item))))
        else:
            raise NotPlain(kind.__name__)
    return out


def items_after_match(meta: Any, added: Mapping[str, Sequence[Kept | int]]) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """(the meta, each player's items as plain data) of `added` (an appended match's), for histories
    kept as `meta` says: the reasons it numbers, and one more for a new text."""
    if type(meta) is not dict or type(meta.get("round_robin")) is not str or type(meta.get("reasons")) is not dict:
        raise ValueError("bad meta")
    round_robin, reasons = meta["round_robin"], dict(meta["reasons"])
    # (an mfsnb history keeps no match rows as ints: its items are made by the list builder)
    items = {player: _items(cast("list[Kept]", list(kept)), round_robin, reasons) for player, kept in added.items()}
    return {"round_robin": round_robin, "reasons": reasons}, items


def history_from_kept(meta: Any, player: str, items: list[Any]) -> list[HistoryEvent]:
    """The player's lines from what kept_histories gave of their items."""
    if type(meta) is not dict or type(meta.get("round_robin")) is not str or type(meta.get("reasons")) is not dict:
        raise ValueError("bad meta")
    round_robin = meta["round_robin"]
    reasons = {k: text for text, k in meta["reasons"].items()}
    kept: list[Kept] = []
    for item in items:
        if type(item) is not list or not item:
            raise ValueError("not a kept item")
        kind = item[0]
        if kind == _SINGLE and len(item) == 12:
            (_, day, reason, cid, opponent, score, own, opponent_rating, halves, computed, change, protected) = item
            kept.append(SingleCompetition(cid, date.fromordinal(day), opponent, score, reasons[reason], own, opponent_rating,
                                          round_robin, halves, computed, change, protected))
        elif kind == _LIST and len(item) == 5:
            record = PeriodRecord(item[2], after=item[3], penalty=item[4], day=date.fromordinal(item[1]))
            kept.append(record)
        elif kind == _EVENT and len(item) == 2:
            kept.append(event_back(item[1]))
        else:
            raise ValueError("not a kept item")
    return HistoryOnRead({player: kept})[player]
