"""extend_packed (journal/columns.py): a list packed into a machine array by struct, a block at a
time, is the very array array() makes of it, across a block's edge, for every type code the cache
and the views use."""
import random
import struct
from array import array

import pytest

from nardrating.journal.columns import PACK_BLOCK, extend_packed


@pytest.mark.parametrize("code", ["i", "q", "d", "b"])
def test_packed_is_what_array_makes(code):
    rng = random.Random(7)
    low, high = (-100, 100) if code == "b" else (-2**31, 2**31 - 1)
    values = [rng.uniform(-1e6, 1e6) if code == "d" else rng.randint(low, high) for _ in range(PACK_BLOCK + 3)]
    assert extend_packed(array(code), values) == array(code, values)
    assert extend_packed(array(code, values[:2]), values[2:5]) == array(code, values[:5])   # appended to
    assert extend_packed(array(code), []) == array(code)


def test_a_value_out_of_range_is_refused_as_array_refuses_it():
    with pytest.raises(struct.error):   # (array("b", [300]) raises OverflowError: refused either way)
        extend_packed(array("b"), [1, 300])
