"""History made when read (engines/lines.py): the same events, in the same order, as the engine
would have kept, also when a list published on demand adds to a history already read."""
from __future__ import annotations

from datetime import date

from nardrating.engines.base import HistoryEvent
from nardrating.engines.lines import EachPlayerFollowsOn, HistoryOnRead
from nardrating.replay.loader import load_club

from .mfsnb_support import Journal


def line(day: int, kind: str) -> HistoryEvent:
    return HistoryEvent(date(2024, 1, day), None, kind, None, None, None, None, None, True)


class Two:
    """Stands for two lines, made only when read."""

    made = 0

    def __init__(self, first: HistoryEvent, second: HistoryEvent):
        self.pair = (first, second)

    def lines(self):
        Two.made += 1
        yield from self.pair


def test_kept_items_become_their_lines_in_order_and_what_is_added_later_is_read_too():
    a, b, c, d = line(5, "a"), line(3, "b"), line(3, "c"), line(9, "d")
    kept = {"x": [a, Two(b, c)], "y": []}
    Two.made = 0
    history = HistoryOnRead(kept)
    assert (list(history), len(history), "x" in history, "z" in history) == (["x", "y"], 2, True, False)
    assert Two.made == 0                                   # nothing made before a history is read
    assert [e.kind for e in history["x"]] == ["a", "b", "c"]
    assert history["x"] is history["x"] and Two.made == 1  # made once
    kept["x"].append(d)                                    # e.g. a list published on demand
    assert [e.kind for e in history["x"]] == ["a", "b", "c", "d"] and Two.made == 1


def test_by_date_sorts_stably_as_one_sort_of_everything_would():
    # Days 5, 3, 3 sorted: b and c (both day 3) keep their order, then a; later e (day 3) and
    # f (day 1): f first, then b, c, e (the day-3 lines in the order made), then a.
    kept = {"x": [line(5, "a"), Two(line(3, "b"), line(3, "c"))]}
    history = HistoryOnRead(kept, by_date=True)
    assert [e.kind for e in history["x"]] == ["b", "c", "a"]
    kept["x"] += [line(3, "e"), line(1, "f")]
    assert [e.kind for e in history["x"]] == ["f", "b", "c", "e", "a"]


class Tripled(EachPlayerFollowsOn):
    """A line whose rating is three times the line before's (one object in many histories)."""

    def line_for(self, player, previous):
        before = previous.after if previous is not None else 1.0
        return HistoryEvent(date(2024, 2, 1), None, "decay", None, None, before, 2 * before, 3 * before, True)


def row_line(player, row, previous):
    r = previous.after if previous is not None else 0.0
    return HistoryEvent(date(2024, 1, row), f"m{row}", "match", player, None, r, 0.0, r, False)


def test_match_rows_and_shared_items_follow_from_the_line_before():
    # a: 5 → row 7 (a match: its line keeps 5) → tripled (5 → 15) → row 9 (keeps 15).
    # b: nothing before the shared item: 1 → 3; then row 7 (keeps 3).
    shared = Tripled()
    start = HistoryEvent(date(2024, 1, 1), "s", "adjust", None, None, 0.0, 5.0, 5.0, True)
    history = HistoryOnRead({"a": [start, 7, shared, 9], "b": [shared, 7]}, rows=row_line)
    assert [(e.entry, e.before, e.after) for e in history["a"]] == [
        ("s", 0.0, 5.0), ("m7", 5.0, 5.0), (None, 5.0, 15.0), ("m9", 15.0, 15.0)]
    assert [(e.entry, e.before, e.after) for e in history["b"]] == [(None, 1.0, 3.0), ("m7", 3.0, 3.0)]


class Doubled:
    """A line between two items for each even day after the line before, up to the next item's day
    (row r: day r of January; the end: day 12), each doubling the rating before it."""

    def lines(self, previous, following):
        if previous is None:
            return
        until = 12 if following is None else following
        before = previous.after
        for day in range(previous.date.day + 1, until + 1):
            if day % 2 == 0:
                yield HistoryEvent(date(2024, 1, day), None, "decay", None, None, before, before, 2 * before, True)
                before *= 2


def test_lines_between_items_and_after_the_last_and_again_when_the_list_grows():
    # Rows 3 and 6 (days 3 and 6), from a rating of 1 set on day 1: day 2 doubles it (1 → 2), row 3
    # keeps 2, days 4 and 6 double it (4, 8), row 6 keeps 8; after the last, days 8, 10, 12: 16,
    # 32, 64. Row 9 added later: the days after row 6 are made again, up to it (8: 16) and after
    # it (10, 12: 32, 64).
    start = HistoryEvent(date(2024, 1, 1), "s", "adjust", None, None, 0.0, 1.0, 1.0, True)
    kept = {"a": [start, 3, 6], "nobody": []}
    history = HistoryOnRead(kept, rows=row_line, between=Doubled())
    assert [(e.date.day, e.entry, e.after) for e in history["a"]] == [
        (1, "s", 1.0), (2, None, 2.0), (3, "m3", 2.0), (4, None, 4.0), (6, None, 8.0), (6, "m6", 8.0),
        (8, None, 16.0), (10, None, 32.0), (12, None, 64.0)]
    assert history["nobody"] == []
    kept["a"].append(9)
    assert [(e.date.day, e.entry, e.after) for e in history["a"]][6:] == [
        (8, None, 16.0), (9, "m9", 16.0), (10, None, 32.0), (12, None, 64.0)]


def test_mfsnb_single_match_lines_and_lists_published_on_demand(tmp_path):
    # q and r, both 2000 on the 2008 list, draw on 2009-02-15: a competition of its own, D = 0 →
    # 50 %, E = 0.5, R = 10·(0.5 − 0.5) = 0; then q does not play again (tests/test_mfsnb_lists.py:
    # the break's ladder takes 25 on the lists of 2009-06-30 and 2009-09-30: 1975, 1950).
    j = Journal().rated("q", 2000).rated("r", 2000)
    j.match("2009-02-15", "q", "r", "1/2-1/2")
    ledger = load_club(j.write(tmp_path / "fed"), use_cache=False)
    result = ledger.run("fed", "long-nardy")
    lines = [(e.date, e.kind, e.opponent, e.result, e.before, e.change, e.after, e.rated, e.reason,
              e.extra.get("expected")) for e in result.history("q") if e.kind != "adjust"]
    assert lines == [
        (date(2008, 12, 31), "list", None, None, None, None, 2000, True, None, None),   # the import's list
        (date(2009, 2, 15), "match", "r", 0.5, None, None, None, False,
         "a competition of its own, on the list of 2009-03-31", None),
        (date(2009, 2, 15), "competition", None, 0.5, 2000, 0, None, True, None, 0.5),
        (date(2009, 3, 31), "list", None, None, 2000, 0, 2000, True, None, None),
    ]
    result.report(date(2009, 7, 1), date(2009, 9, 30))   # publishes the lists of Q2 and Q3 on demand
    assert [(e.date, e.before, e.change, e.after, e.extra["penalty"]) for e in result.history("q")
            if e.kind == "list"] == [
        (date(2008, 12, 31), None, None, 2000, None), (date(2009, 3, 31), 2000, 0, 2000, None),
        (date(2009, 6, 30), 2000, -25, 1975, -25), (date(2009, 9, 30), 1975, -25, 1950, -25)]


def flattened(view):
    """batched_events_with_ends() as events() would list them: (kind, what, reason)."""
    from nardrating.contract.batches import MatchBatch
    from nardrating.contract.events import Adjusted

    out = []
    for item in view.batched_events_with_ends():
        if isinstance(item, MatchBatch):
            out += [("match", i, item.reason(i) if i in item.excluded else None) for i in item.rows]
        elif isinstance(item, Adjusted):
            out.append(("adjust", item.adjust.seq, None))
        else:
            out.append(("tournament", item.tournament.id, None))
    return out


def test_batched_events_with_ends_are_events_in_the_same_order(tmp_path):
    # Entries of one day in journal order; a tournament ends after every entry of its last day, also
    # one written before them (t ends 2009-03-02: after m003, m004 and the adjustment of that day).
    j = Journal().rated("a", 1800).rated("b", 1700).rated("c", 1600)
    j.tournament("t", "swiss", "2009-03-01", "2009-03-02")
    j.match("2009-03-01", "a", "b", "1-0", tournament="t")
    j.match("2009-03-02", "b", "c", "0-1", tournament="t")
    j.match("2009-03-02", "a", "c", "1-0")
    j.adjust("2009-03-02", "c", delta=5)
    j.match("2009-03-02", "a", "b", "0-1")
    j.match("2009-03-03", "b", "c", "1-0")
    j.blocks.append('[[void]]\nmatch = "m004"\ndate = 2009-03-04\nreason = "entered twice"\n')
    from nardrating.contract.events import Adjusted, MatchPlayed
    from nardrating.replay.view import build_view

    ledger = load_club(j.write(tmp_path / "fed"), use_cache=False)
    view = build_view(ledger, ledger.config.rating("fed"), "long-nardy", None)
    expected = [("match", e.index, e.reason) if isinstance(e, MatchPlayed) else
                ("adjust", e.adjust.seq, None) if isinstance(e, Adjusted) else ("tournament", e.tournament.id, None)
                for e in view.events()]
    kinds = [k for k, _, _ in expected]
    # By hand: three imports (2008-12-31), m001 (03-01), m002 m003 (03-02), the adjustment, m004,
    # then t's end, then m005 (03-03); m004 voided.
    assert kinds == ["adjust"] * 3 + ["match"] * 3 + ["adjust", "match", "tournament", "match"]
    assert [r for k, _, r in expected if k == "match"] == [None, None, None, "voided", None]
    assert flattened(view) == expected
