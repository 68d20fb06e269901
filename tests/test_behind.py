"""The entries behind a change (lists/behind.py): the matches a span or a last day takes, found by
bisection where the journal is in date order, are those the rule names, taken match by match."""
import random
from datetime import date, timedelta

import pytest

from nardrating.lists.behind import Entries, everything
from nardrating.replay.loader import load_club

from .conftest import make_club, no_cache

CONFIG = """[club]
name = "Two disciplines"
journal = ["journal.toml"]
default_discipline = "chess"

[rating.club]
engine = "elo"
"""


def journal(rng, in_order):
    days = [date(2021, 3, 1) + timedelta(days=rng.randrange(30)) for _ in range(120)]
    if in_order:
        days.sort()
    blocks = [f'[[player]]\nid = "{p}"\n' for p in ("ann", "bob", "cid", "dan")]
    for k, day in enumerate(days, start=1):
        a, b = rng.sample(["ann", "bob", "cid", "dan"], 2)
        blocks.append(f'[[match]]\nid = "g{k}"\ndate = {day}\nplayers = ["{a}", "{b}"]\nresult = "1-0"\n'
                      f'discipline = "{rng.choice(["chess", "chess", "blitz"])}"\n')
    return "\n".join(blocks)


def by_the_rule(ledger, discipline, last_day, span):
    """Every match of the discipline, row by row: after the span's start and on or before its end,
    or on or before the last day."""
    found = []
    for i in range(ledger.journal.match_count()):
        m = ledger.journal.match(i)
        if m.discipline != discipline:
            continue
        if span is not None and not span[0] < m.date <= span[1]:
            continue
        if span is None and last_day is not None and m.date > last_day:
            continue
        found.append(m.id)
    return found


@pytest.mark.parametrize("in_order", [True, False], ids=["in-date-order", "out-of-order"])
def test_the_matches_behind_are_those_of_the_rule(tmp_path, in_order):
    rng = random.Random(5)
    club = make_club(tmp_path / "club", journal(rng, in_order), CONFIG)
    with no_cache():
        ledger = load_club(club)
    assert ledger.journal.dates_sorted() is in_order
    first = date(2021, 3, 1)
    asked = [(None, None), (first + timedelta(days=10), None), (first - timedelta(days=1), None)]
    for _ in range(30):
        low, high = sorted(first + timedelta(days=rng.randrange(-2, 33)) for _ in range(2))
        asked += [(None, (low, high)), (high, None)]
    for discipline in ("chess", "blitz"):
        entries = Entries(ledger, "club", discipline)
        for last_day, span in asked:
            found = [r.id for r in entries.refs(everything, last_day, span) if r.kind == "match"]
            expected = by_the_rule(ledger, discipline, last_day, span)
            # (refs lists them in file order: the journal's order, as the rule's pass)
            assert found == expected, (discipline, last_day, span)
    assert any(by_the_rule(ledger, "chess", None, span) for _, span in asked if span)
