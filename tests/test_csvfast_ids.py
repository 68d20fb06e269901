"""Match ids packed for the cache (IdColumn.packed) and found in its blob (IdColumn.row_of), a view's rows found by numpy (fast.rows_where) and a CSV block's values put into machine columns (extend_column)."""
from __future__ import annotations

from array import array

import pytest

from nardrating.journal.columns import IdColumn


def test_ids_appended_to_a_blob_are_packed_on_as_if_joined_whole():
    """A file's ids as one blob (as the [fast] reader or the cache keep them) and three ids appended by a
    TOML file after it: packed, the blob is "g1\\ng2\\nm1\\nлевый\\nm3\\n" and each id starts after the
    previous one's newline: 0, 3, 6, 9, 9 + 11 (л, е, в, ы, й: two UTF-8 bytes each, and the newline), 23."""
    column = IdColumn(b"g1\ng2\n", array("q", [0, 3, 6]))
    column.extend(["m1", "левый", "m3"])
    blob, starts = column.packed()
    assert blob == "g1\ng2\nm1\nлевый\nm3\n".encode("utf-8")
    assert list(starts) == [0, 3, 6, 9, 20, 23]
    assert (blob, list(starts)) == (lambda p: (p[0], list(p[1])))(IdColumn.of(list(column)).packed())


def test_ids_mapped_from_the_cache_are_packed_too():
    column = IdColumn(memoryview(b"a\nbb\n"), memoryview(array("q", [0, 2, 5]).tobytes()).cast("q"))
    column.append("c")
    blob, starts = column.packed()
    assert blob == b"a\nbb\nc\n" and list(starts) == [0, 2, 5, 7]


def test_an_id_searched_for_twice_is_found_where_it_is_each_time():
    # Blob "g1\ng2\ng3\n": g1 is row 0 (the first id, found without a newline before it), g3 row 2;
    # "g4" is in no row until appended (row 3: three in the blob), and in none again when cut off.
    column = IdColumn(memoryview(b"g1\ng2\ng3\n"), array("q", [0, 3, 6, 9]))
    assert [column.row_of(x) for x in ("g1", "g3", "g4", "g")] == [0, 2, None, None]
    assert "g4" not in column
    column.append("g4")
    assert column.row_of("g4") == 3 and "g4" in column and column.row_of("g3") == 2
    del column[3:]
    assert column.row_of("g4") is None and column.row_of("g1") == 0


def test_rows_of_a_discipline_by_numpy_are_the_rows_the_pure_loop_finds(monkeypatch):
    """Disciplines 0 1 0 0 1, dates 10 11 12 13 14: discipline 0 is rows 0, 2, 3; up to date 12, rows 0 and 2."""
    pytest.importorskip("numpy")
    import numpy  # noqa: F401  # loaded, as the extra's reader or loop loads it

    from nardrating.fast import rows_where

    monkeypatch.setenv("NARDRATING_FAST", "1")
    disc, dates = array("i", [0, 1, 0, 0, 1]), array("i", [10, 11, 12, 13, 14])
    assert rows_where(disc, 0, dates, None) == array("i", [0, 2, 3])
    assert rows_where(disc, 0, dates, 12) == array("i", [0, 2])
    assert rows_where(disc, 1, memoryview(dates.tobytes()).cast("i"), 13) == array("i", [1])
    assert rows_where(disc, 0, list(dates), 12) is None  # a list column: left to the pure loop
    monkeypatch.setenv("NARDRATING_FAST", "0")
    assert rows_where(disc, 0, dates, None) is None


@pytest.mark.parametrize("text", ["p1", "a-b_9", "x" * 100, "Иванов", "é", "e\u0301", "", "a\n", "x²", "a b", "x" * 101,
                                  "\u0301a", "١٢"])
def test_the_plain_id_shortcut_agrees_with_the_id_rule(text):
    """csvcells.is_id: a plain ASCII id at once, anything else by id_problem (the journal's one id rule)."""
    from nardrating.journal.csvcells import is_id
    from nardrating.journal.entries import id_problem

    assert is_id(text) == (id_problem(text) is None)


def test_crlf_bytes_become_lf_only_when_every_cr_ends_a_line_outside_quotes():
    from nardrating.journal.csvjournal import _lf_only

    assert _lf_only(b"a,b\r\n1,2\r\n") == b"a,b\n1,2\n"
    assert _lf_only(b"a,b\r\n1,2") == b"a,b\n1,2"
    for kept in (b"a,b\r1,2\r\n", b'a,b\r\n"1\r\n2",3\r\n', b"a,b\n1,2\n", b"a,b\r\n1,2\r\r\n"):
        assert _lf_only(kept) is kept


def test_crlf_text_split_in_small_chunks_reads_as_its_lf_twin(monkeypatch):
    """csvfast's own CRLF split (text that reaches it with its CRs): chunk borders between CR and LF,
    and a last row without a line end. Three rows, g1 to g3, on lines 2 to 4."""
    from nardrating.journal import csvfast
    from nardrating.journal.model import Journal

    monkeypatch.setattr(csvfast, "CHUNK", 20)
    lf = ("id,date,player_a,player_b,result,length\ng1,2009-01-01,anna,boris,1-0,3\n"
          "g2,2009-01-02,vera,anna,0-1,\ng3,2009-01-03,boris,vera,1-0,5")
    got = []
    for text in (lf, lf.replace("\n", "\r\n")):
        journal, problems = Journal(), []
        csvfast.read_csv_rows(text, "games.csv", 0, journal, "long-nardy", problems)
        m = journal.matches
        got.append((problems, list(m.ids), list(m.length), list(m.line), [journal.player_codes.names[a] for a in m.a]))
    assert got[0] == got[1] == ([], ["g1", "g2", "g3"], [3, 1, 5], [2, 3, 4], ["anna", "vera", "boris"])


def test_an_id_is_found_in_the_cached_blob_only_as_a_whole_id():
    ids = ["m1", "a.b", "ж-7", "m10", "x+y"]
    column = IdColumn.of(ids)
    column = IdColumn(memoryview(column.packed()[0]), column.packed()[1])  # as mapped from the cache
    assert [x in column for x in ids] == [True] * 5
    # parts of ids, ids with their neighbour's newline, and regular-expression look-alikes are not ids
    assert [x in column for x in ["m", "1", "m1\na.b", "axb", "a.", "ж", "xxy", "x+yy", "", 7]] == [False] * 10
    column.append("new")
    assert "new" in column and "ne" not in column


def test_an_id_s_row_is_found_in_the_cached_blob_split_or_not_and_among_appended_ids():
    ids = ["m1", "a.b", "ж-7", "m10", "x+y"]
    packed = IdColumn.of(ids).packed()
    column = IdColumn(memoryview(packed[0]), packed[1])   # as mapped from the cache: a byte search
    column.append("new")
    expected = {"m1": 0, "a.b": 1, "ж-7": 2, "m10": 3, "x+y": 4, "new": 5}   # each id's place in the list above
    assert {x: column.row_of(x) for x in expected} == expected
    assert [column.row_of(x) for x in ["m", "1", "m1\na.b", "axb", "ж", "", 7]] == [None] * 7
    list(column)   # split once (iterating): then found in the list
    assert {x: column.row_of(x) for x in expected} == expected and column.row_of("m") is None
    assert IdColumn.of([]).row_of("m1") is None


def test_ids_taken_by_rows_are_the_ids_of_those_rows_in_that_order():
    """take(rows) cuts ASCII ids from the blob decoded once; ids of other alphabets (byte offsets are
    not character offsets), ids appended since, or ids split already are read one by one: each way,
    rows 3, 0, 3, 1 of g1 g22 g333 g4444 are g4444 g1 g4444 g22."""
    def mapped(ids: list[str]) -> IdColumn:
        blob, starts = IdColumn.of(ids).packed()
        return IdColumn(memoryview(blob), starts)   # as mapped from the cache

    rows = [3, 0, 3, 1]
    ascii_ids = mapped(["g1", "g22", "g333", "g4444"])
    assert ascii_ids.take(rows) == ["g4444", "g1", "g4444", "g22"]
    assert ascii_ids.take(range(4)) == ["g1", "g22", "g333", "g4444"]   # the text decoded once, read again
    assert mapped(["g1", "ж22", "g333", "левый"]).take(rows) == ["левый", "g1", "левый", "ж22"]
    grown = mapped(["g1", "g22", "g333"])
    grown.append("g4444")
    assert grown.take(rows) == ["g4444", "g1", "g4444", "g22"]
    split = mapped(["g1", "g22", "g333", "g4444"])
    assert list(split) == ["g1", "g22", "g333", "g4444"]  # (iterating splits the blob once)
    assert split.take(rows) == ["g4444", "g1", "g4444", "g22"]


@pytest.mark.parametrize("code, values, expected", [
    ("i", [7, 7, 7], [7, 7, 7]),                 # one value: repeated
    ("b", [True, True], [1, 1]),                  # rated: flags as 1
    ("q", range(5, 9), [5, 6, 7, 8]),             # seq: a range
    ("i", range(2, 2), []),                       # an empty block
    ("i", [3, 3, 4], [3, 3, 4]),                  # not one value: item by item
    ("i", [-1, -1], [-1, -1]),                    # no tournament
])
def test_a_block_extends_a_machine_column_by_its_values(code, values, expected):
    """extend_column: a column that already holds 1, 2 gets the block's values after them, in order."""
    from nardrating.journal.csvcells import extend_column

    column = array(code, [1, 2])
    extend_column(column, values)
    assert column == array(code, [1, 2, *expected])


def test_a_block_refuses_a_value_its_column_cannot_hold():
    """The repeated value is converted as the item-by-item path converts each: 300 is no signed byte."""
    from nardrating.journal.csvcells import extend_column

    with pytest.raises(OverflowError):
        extend_column(array("b"), [300, 300])


@pytest.mark.parametrize("bad_row, cell, wrong, message", [
    (7, "date", "2009-02-30", "date '2009-02-30' is not an ISO date"),
    (7, "player_b", "Bad Name", "player_b: "),
    (7, "result", "2-0", "result '2-0' is not a result"),
    (7, "length", "0", "length: '0' is not"),
])
def test_a_refused_cell_in_a_later_block_is_found_though_its_column_was_clean_so_far(monkeypatch, bad_row, cell,
                                                                                    wrong, message):
    """csvfast converts each block's column through the file's dict of texts, which says whether any
    text was refused (Judged.refused) instead of the block looking through the dict: a refused text
    first met in the fourth block of ten is reported at its own line (the row's line: row k on line k + 2)."""
    from nardrating.journal import csvfast
    from nardrating.journal.model import Journal

    monkeypatch.setattr(csvfast, "CHUNK", 40)   # about one row a block
    header = ["id", "date", "player_a", "player_b", "result", "length"]
    rows = [[f"g{k}", f"2009-01-{k + 1:02d}", "anna", "boris", "1-0", "3"] for k in range(10)]
    rows[bad_row][header.index(cell)] = wrong
    text = "\n".join(",".join(row) for row in [header] + rows) + "\n"
    journal, problems = Journal(), []
    csvfast.read_csv_rows(text, "games.csv", 0, journal, "long-nardy", problems)
    assert [(p.line, p.message.startswith(message)) for p in problems] == [(bad_row + 2, True)], problems
