"""A player's rows of a cached result's records (engines/compact.py ColumnRecords.positions_of): a
byte search of the two player columns for the first SEARCHES players asked of, then an index of
every player's rows made in one pass. Both give the same rows, and a club's every history read
through the cache (past SEARCHES players: the index) is the full replay's."""
import os
import random
from array import array
from datetime import date, timedelta

from nardrating.engines import compact
from nardrating.engines.compact import ColumnRecords, positions_in, rows_by_player
from nardrating.replay.loader import load_club

from .conftest import make_club


def test_the_index_gives_the_rows_the_search_finds():
    rng = random.Random(3)
    for _ in range(20):
        n, players = rng.randint(0, 400), rng.randint(1, 300)   # codes up to 299: bytes that meet across items
        a = array("i", (rng.randrange(players) for _ in range(n)))
        b = array("i", (rng.randrange(players) for _ in range(n)))
        index = rows_by_player(a, memoryview(b))   # (a column mapped from the cache is a view)
        for code in range(players + 2):
            searched = sorted({*positions_in(a, code), *positions_in(b, code)})
            assert index.get(code, []) == searched
            # and by the rule itself: the rows whose a or b is the code, ascending
            assert searched == [k for k in range(n) if a[k] == code or b[k] == code]


def test_records_past_the_searches_answer_from_the_index(monkeypatch):
    monkeypatch.setattr(compact, "SEARCHES", 3)
    rng = random.Random(4)
    a = array("i", (rng.randrange(50) for _ in range(500)))
    b = array("i", (rng.randrange(50) for _ in range(500)))
    records = ColumnRecords((array("i", range(500)), a, b, [array("d", [0.0] * 500)]), {})
    for code in [*range(50), *range(50)]:
        assert records.positions_of(code) == [k for k in range(500) if a[k] == code or b[k] == code]
    assert records._by_player is not None   # (the index was made, and answered the rest)


CONFIG = """[club]
name = "Many players"
journal = ["journal.toml"]
default_discipline = "chess"

[rating.club]
engine = "elo"

[rating.glicko]
engine = "glicko"
"""


def test_every_players_history_asked_one_by_one_is_the_one_built_for_everyone(tmp_path, monkeypatch):
    # One by one, past SEARCHES players: from the index; for everyone at once (LazyEvents._build_all):
    # a pass over every record in order, which reads no player's rows. Through the cache and without.
    monkeypatch.setattr(compact, "SEARCHES", 5)
    rng = random.Random(6)
    players = [f"p{k}" for k in range(40)]
    text = "".join(f'[[player]]\nid = "{p}"\n\n' for p in players)
    day = date(2020, 1, 1)
    for k in range(600):
        a, b = rng.sample(players, 2)
        day += timedelta(days=rng.choice([0, 0, 1]))
        text += (f'[[match]]\nid = "g{k}"\ndate = {day}\nplayers = ["{a}", "{b}"]\n'
                 f'result = "{rng.choice(["1-0", "0-1", "1/2-1/2"])}"\n\n')
    club = make_club(tmp_path / "club", text, CONFIG)
    for cache in ("1", "", ""):   # a full read; the read that writes the cache; one from it
        os.environ["NARDRATING_NO_CACHE"] = cache
        try:
            for rating in ("club", "glicko"):
                one_by_one = load_club(club).run(rating, "chess")
                asked = {p: one_by_one.history(p) for p in players}
                assert isinstance(one_by_one.records, ColumnRecords) and one_by_one.records._by_player is not None
                at_once = load_club(club).run(rating, "chess")
                everyone = dict(at_once.events.items())
                assert asked == {p: everyone.get(p, []) for p in players}
                assert sum(map(len, asked.values())) == 2 * 600
        finally:
            del os.environ["NARDRATING_NO_CACHE"]
