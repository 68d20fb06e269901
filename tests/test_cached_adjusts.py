"""A cached journal's [[adjust]] entries (replay/cacheadjusts.py): made only when one is asked for,
and then exactly the entries a full read makes, in order, appended ones included; their number and
dates are known without making them."""
from __future__ import annotations

from datetime import date

from nardrating.journal.model import Adjust
from nardrating.replay.cacheadjusts import CachedAdjusts, adjust_ordinals, stored_columns
from nardrating.replay.loader import load_club

from .conftest import make_club, no_cache

CONFIG = """\
[club]
journal = ["journal.toml"]
default_discipline = "chess"

[rating.fed]
engine = "fide"
"""

JOURNAL = """\
[[player]]
id = "anna"

[[player]]
id = "boris"

[[adjust]]
date = 2024-01-01
player = "anna"
rating = "fed"
set = 1800
reason = "imported"
k = 20
games = 40

[[adjust]]
date = 2024-01-01
player = "boris"
rating = "fed"
set = 1650
reason = "imported"

[[match]]
id = "m1"
date = 2024-02-03
players = ["anna", "boris"]
result = "1-0"
"""

MORE = """
[[adjust]]
date = 2024-03-05
player = "boris"
delta = -10
reason = "commission"
"""


def rows() -> list[list]:
    # (day, player, rating, discipline, set, delta, reason, file, line, seq, k, games, rd, volatility)
    return [[date(2024, 1, 1), "anna", "fed", None, 1800, None, "imported", "a.toml", 7, 1, 20, 40, None, None],
            [date(2024, 5, 2), "boris", None, None, None, -10.5, "commission", "a.toml", 16, 2, None, None, None, None]]


def columns(rows: list[list]) -> list[list]:
    """As the cached journal stores them: a column per field."""
    return [list(column) for column in zip(*rows)]


def test_the_entries_are_made_once_asked_for_and_are_the_rows():
    adjusts = CachedAdjusts(columns(rows()), {"a.toml": "journal/a.toml"})
    # their number and dates (the journal's last entry) make none
    assert len(adjusts) == 2 and adjust_ordinals(adjusts) == [date(2024, 1, 1).toordinal(), date(2024, 5, 2).toordinal()]
    assert adjusts._made is None
    made = [Adjust(date(2024, 1, 1), "anna", "fed", None, 1800, None, "imported", "journal/a.toml", 7, 1, 20, 40),
            Adjust(date(2024, 5, 2), "boris", None, None, None, -10.5, "commission", "journal/a.toml", 16, 2)]
    assert adjusts == made and list(adjusts) == made and adjusts[1] == made[1] and adjusts[-1:] == made[1:]
    extra = Adjust(date(2024, 6, 1), "anna", None, None, 1700, None, "set", "b.toml", 3, 3)
    adjusts.append(extra)   # (a tail read after the snapshot)
    assert len(adjusts) == 3 and adjusts[2] is extra and adjust_ordinals(adjusts)[-1] == date(2024, 6, 1).toordinal()
    assert adjust_ordinals(made) == adjust_ordinals(adjusts)[:2]


def test_entries_never_made_are_stored_again_from_their_columns_as_the_made_ones_are():
    # As written by hand: the date as ISO text, the file as this command shows it (relabelled).
    stored = [["2024-01-01", "anna", "fed", None, 1800, None, "imported", "journal/a.toml", 7, 1, 20, 40, None, None],
              ["2024-05-02", "boris", None, None, None, -10.5, "commission", "journal/a.toml", 16, 2, None, None, None, None]]
    adjusts = CachedAdjusts(columns(rows()), {"a.toml": "journal/a.toml"})
    assert stored_columns(adjusts) == columns(stored) and adjusts._made is None      # none made
    assert stored_columns(list(adjusts)) == columns(stored)                          # the entries, made: the same
    adjusts.append(Adjust(date(2024, 6, 1), "anna", None, None, 1700, None, "set", "b.toml", 3, 3))
    assert stored_columns(adjusts) == columns([*stored, ["2024-06-01", "anna", None, None, 1700, None, "set", "b.toml",
                                                         3, 3, None, None, None, None]])
    # none at all: fourteen empty columns, made or not
    assert stored_columns([]) == stored_columns(CachedAdjusts([[] for _ in range(14)], {})) == [[]] * 14
    assert len(CachedAdjusts([[] for _ in range(14)], {})) == 0 and adjust_ordinals(CachedAdjusts([[]] * 14, {})) == []


def test_a_cached_journal_reads_its_adjustments_and_those_appended_after_it_as_a_full_read(tmp_path):
    club = make_club(tmp_path / "club", JOURNAL, CONFIG)
    ledger = load_club(club)                 # (the snapshot written)
    cached = load_club(club)
    assert isinstance(cached.journal.adjusts, CachedAdjusts)
    with no_cache():
        full = load_club(club)
    assert cached.journal.adjusts == full.journal.adjusts
    with open(tmp_path / "club" / "journal.toml", "a", encoding="utf-8") as f:
        f.write(MORE)
    grown = load_club(club)
    with no_cache():
        full = load_club(club)
    assert list(grown.journal.adjusts) == list(full.journal.adjusts) and len(grown.journal.adjusts) == 3
    for a, b in ((grown, full), (ledger, full)):
        assert a.run("fed").standings.keys() == b.run("fed").standings.keys()
    assert {p: s.rating for p, s in grown.run("fed").standings.items()} == \
        {p: s.rating for p, s in full.run("fed").standings.items()}
