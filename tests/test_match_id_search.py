"""A match id asked for once a match read (Journal.has_match_id): a TOML file of many matches read
after a big CSV file whose ids are one blob (the cache's, or the [fast] reader's). A few questions
are byte searches of the blob; from BLOB_SCANS on, the set of ids answers (made once), and every
answer is the one a full read gives: a new id is new, a used one refused with where it is used."""
import pytest

import nardrating.journal.model as model
from nardrating.journal.columns import IdColumn
from nardrating.journal.writer import append_block, entry_block
from nardrating.replay.loader import load_club

from .conftest import make_club, no_cache

CONFIG = """[club]
journal = ["games.csv", "journal.toml"]
default_discipline = "long-nardy"

[rating.fibs]
engine = "fibs"
"""
PLAYERS = "".join(f'[[player]]\nid = "p{k}"\n\n' for k in range(4))


def club_with_csv(tmp_path, rows: int):
    club = make_club(tmp_path / "club", PLAYERS, CONFIG)
    lines = ["id,date,player_a,player_b,winner,length"] + [
        f"g{k},2009-01-{1 + k % 28:02d},p{k % 4},p{(k + 1) % 4},p{k % 4},3" for k in range(rows)]
    (club / "games.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return club


def match(match_id: str, day: int) -> str:
    from datetime import date

    return entry_block("match", {"id": match_id, "date": date(2009, 2, day), "players": ["p1", "p2"],
                                 "winner": "p1", "length": 3})


@pytest.fixture
def searches(monkeypatch):
    """How many byte searches of an ids' blob are made."""
    made = []
    search = IdColumn._search
    monkeypatch.setattr(IdColumn, "_search", lambda self, match_id: (made.append(match_id), search(self, match_id))[1])
    return made


def test_many_matches_appended_after_a_cached_csv_ask_the_set_after_a_few_searches(tmp_path, searches):
    # 100 CSV matches, cached; then 80 TOML matches appended (t0 … t79): the cached journal reads
    # them as its tail, each id asked for once. 48 searches (BLOB_SCANS), then the set.
    club = club_with_csv(tmp_path, 100)
    load_club(club)   # the snapshot
    for k in range(80):
        append_block(club / "journal.toml", match(f"t{k}", 1 + k % 28))
    searches.clear()
    ledger = load_club(club)
    assert ledger.cache_token is not None and ledger.journal.match_count() == 180
    assert len(searches) == model.BLOB_SCANS == 48
    with no_cache():
        assert load_club(club).journal.match_count() == 180


@pytest.mark.parametrize("reused", ["g5", "t3", "t55"])
def test_a_used_id_after_the_set_is_made_is_refused_as_a_full_read_refuses_it(tmp_path, searches, reused):
    # The 61st appended match reuses a CSV id (g5: games.csv's line 7), an appended one read before
    # the set was made (t3) or after (t55, added to it as read): asked after the set is made, it is
    # found there, and the read reports it as a full read does.
    from nardrating.errors import LedgerError

    club = club_with_csv(tmp_path, 100)
    load_club(club)
    for k in range(60):
        append_block(club / "journal.toml", match(f"t{k}", 1 + k % 28))
    append_block(club / "journal.toml", match(reused, 28))
    with no_cache(), pytest.raises(LedgerError) as full:
        load_club(club)
    with pytest.raises(LedgerError) as cached:
        load_club(club)
    where = "games.csv:7" if reused == "g5" else "journal.toml:"
    assert [p.message for p in cached.value.problems] == [p.message for p in full.value.problems]
    assert any(f"match id {reused!r} is already used at" in p.message and where in p.message
               for p in cached.value.problems)


def test_a_match_asked_for_with_its_date_is_found_among_that_days_rows(tmp_path):
    # (explain asks for each event's match with its date: in a journal in date order only that
    # day's rows are searched.) Rows k = 0..59 dated 2009-01-(1 + k % 28): not in date order, then
    # sorted by date, the same matches either way; each found with its date as without it, and a
    # wrong date falls back to the whole search.
    from datetime import date

    club = club_with_csv(tmp_path, 60)
    unsorted = load_club(club, use_cache=False).journal
    assert not unsorted.dates_sorted()
    csv = club / "games.csv"
    header, *rows = csv.read_text(encoding="utf-8").splitlines()
    csv.write_text("\n".join([header] + sorted(rows, key=lambda row: row.split(",")[1])) + "\n", encoding="utf-8")
    for journal in (unsorted, load_club(club, use_cache=False).journal):
        for k in range(60):
            day = date(2009, 1, 1 + k % 28)
            found = journal.match_by_id(f"g{k}", day)
            assert (found.id, found.date, found.a) == (f"g{k}", day, f"p{k % 4}")
            assert journal.match_by_id(f"g{k}", date(2009, 3, 1)).id == f"g{k}"
        assert journal.match_by_id("g60", date(2009, 1, 5)) is None


@pytest.mark.parametrize("stages", [
    # each stage's dates (day numbers), appended in turn; the answer after each is checked
    [[1, 2, 3], [3, 4], [5]],         # in order throughout
    [[1, 2, 3], [2, 4]],              # the border broken: 3 then 2
    [[1, 3, 2], [4, 5]],              # broken before, stays broken
    [[5], [1, 2]],                    # a row before, one after
    [[], [1, 2], [2, 2, 3]],          # from an empty journal
])
def test_the_date_order_of_appended_rows_is_judged_as_the_whole_journal_s(stages):
    """Journal.dates_sorted judges only the rows appended since its last answer (the [fast] reader
    judges a bulk file's, then a TOML file's matches follow it); every answer is a full pass's, also
    after a rollback and rows appended again."""
    from nardrating.journal.model import Journal
    from nardrating.journal.reader import add_match

    journal, n = Journal(), 0
    journal.files.append("j.toml")

    def append(days):
        nonlocal n
        for day in days:
            n += 1
            add_match(journal, f"m{n}", 733000 + day, "a", "b", 1.0, 1, "long-nardy", None, True, False, n, 0, n, {}, [])

    for days in stages:
        append(days)
        dates = list(journal.matches.dates)
        assert journal.dates_sorted() == (dates == sorted(dates)), dates
    checkpoint = journal.checkpoint()
    before = list(journal.matches.dates)
    append([1, 9])                    # (this one's order, forgotten by the rollback)
    journal.dates_sorted()
    journal.rollback(checkpoint)
    append([40, 41])
    dates = list(journal.matches.dates)
    assert dates == before + [733040, 733041]
    assert journal.dates_sorted() == (dates == sorted(dates))
