"""latest_after (journal/columns.py): the latest match date of the files after file k, which
decides whether matches appended to an earlier file keep a full read's order (replay/resume.py).
Read a run of rows at a time where the file indices fit a byte; checked by hand and against the
plain row-by-row definition, on machine arrays, mapped views and a view with rows appended."""
import random
from array import array

import pytest

from nardrating.journal.columns import Appended, latest_after


def plain(dates, source, k):
    return max((d for d, f in zip(dates, source) if f > k), default=0)


def test_by_hand():
    dates = array("i", [10, 50, 30, 40, 20])
    source = array("i", [0, 1, 0, 2, 1])
    assert latest_after(dates, source, 0) == 50   # rows 1, 3, 4: 50, 40, 20
    assert latest_after(dates, source, 1) == 40   # row 3 alone (file 2)
    assert latest_after(dates, source, 2) == 0    # no later file
    assert latest_after(array("i"), array("i"), 0) == 0
    assert latest_after([10, 50], [0, 1], 0) == 50   # plain lists: read row by row


def test_file_indices_beyond_a_byte_are_read_row_by_row():
    # Index 256's low byte is 0: read by its low byte alone, row 1 would look like file 0.
    dates, source = array("i", [10, 99, 30]), array("i", [0, 256, 1])
    assert latest_after(dates, source, 0) == 99
    assert latest_after(dates, source, 1) == 99
    assert latest_after(dates, source, 255) == 99


@pytest.mark.parametrize("files", [1, 3, 40, 300])
def test_random_columns_as_the_plain_definition(files):
    rng = random.Random(files)
    for _ in range(30):
        n = rng.randint(0, 400)
        dates = array("i", (rng.randint(700000, 740000) for _ in range(n)))
        source, f = array("i"), 0
        while len(source) < n:   # runs of one file, as a journal's rows come
            f = rng.randrange(files)
            source.extend([f] * rng.randint(1, 30))
        del source[n:]
        for k in range(-1, min(files, 5) + 1):
            want = plain(dates, source, k)
            assert latest_after(dates, source, k) == want
            assert latest_after(memoryview(dates), memoryview(source), k) == want   # as mapped from the cache
            cut = rng.randint(0, n)   # a mapped head and rows appended after it, read apart
            head_d, head_s = Appended(memoryview(dates[:cut])), Appended(memoryview(source[:cut]))
            head_d.extend(dates[cut:])
            head_s.extend(source[cut:])
            assert latest_after(head_d, head_s, k) == want
