"""The checks a cached result's per-player arrays pass before they are used (replay/cachecheck.py):
every double finite, every count not negative. Looked at in C by each value's top byte; they must
answer exactly as math.isfinite and min() do, value by value."""
import math
import random
import struct
from array import array

import pytest

from nardrating.replay.cachecheck import all_finite, all_non_negative


def test_by_hand():
    assert all_finite(array("d", [1500.0, -0.0, 1e308, -1e308, 2.0 ** 1009, 5e-324]))
    assert not all_finite(array("d", [1500.0, math.inf]))
    assert not all_finite(array("d", [-math.inf]))
    assert not all_finite(array("d", [1.0, math.nan, 2.0]))
    # a NaN with a sign bit and a payload: still not finite
    assert not all_finite(array("d", struct.unpack("<d", bytes.fromhex("0100000000f8ffff"))))
    assert all_finite(array("d")) and all_non_negative(array("q"))
    assert all_non_negative(array("q", [0, 1, 2 ** 62])) and not all_non_negative(array("q", [5, -1]))
    assert all_non_negative(array("i", [2 ** 31 - 1])) and not all_non_negative(array("i", [-2 ** 31]))
    assert all_non_negative(array("b", [127, 0])) and not all_non_negative(array("b", [-128]))
    assert all_non_negative(array("B", [255])) and all_non_negative(array("Q", [2 ** 64 - 1]))   # unsigned


@pytest.mark.parametrize("seed", range(5))
def test_random_arrays_as_value_by_value(seed):
    rng = random.Random(seed)
    specials = [math.inf, -math.inf, math.nan, 1e308, -1e308, 2.0 ** 1009, -2.0 ** 1010, 0.0, -0.0, 5e-324]
    for _ in range(200):
        values = [rng.uniform(-3000, 3000) for _ in range(rng.randint(0, 50))]
        for _ in range(rng.choice([0, 0, 1, 2])):
            if values:
                values[rng.randrange(len(values))] = rng.choice(specials)
        column = array("d", values)
        assert all_finite(column) == all(map(math.isfinite, values))
        for code, low, high in (("q", -2 ** 63, 2 ** 63 - 1), ("i", -2 ** 31, 2 ** 31 - 1), ("b", -128, 127)):
            ints = [rng.randint(0, high) for _ in range(rng.randint(0, 50))]
            if ints and rng.random() < 0.5:
                ints[rng.randrange(len(ints))] = rng.randint(low, -1)
            assert all_non_negative(array(code, ints)) == (min(ints, default=0) >= 0)


@pytest.mark.parametrize("damage", ["nan", "negative"])
def test_a_stored_result_with_a_bad_value_is_refused_and_the_list_replayed(cli, tmp_path, damage):
    # The result file's per-player arrays changed (a rating NaN, or a count of games -1) and its
    # hash written anew, so that only the value checks stand between the change and its use: the
    # read refuses the stored result, replays the list, and shows what a full read shows.
    import hashlib
    import json

    from .conftest import no_cache
    from .test_cache import cache_folder
    from .test_cache_snapshot import csv_club

    club = csv_club(tmp_path)
    assert cli("recalc", "--club", club).exit_code == 0
    for state in cache_folder(club).glob("result-*.state"):
        data = bytearray(state.read_bytes())
        size = int.from_bytes(data[:8], "little")
        head = json.loads(bytes(data[40:40 + size]))
        rows = {name: (code, offset) for name, code, offset, _ in head["players"]}
        code, offset = rows["rating" if damage == "nan" else "games"]
        at = 40 + size + offset
        value = struct.pack("<d", math.nan) if damage == "nan" else struct.pack(f"<{code}", -1)
        data[at:at + len(value)] = value
        data[8:40] = hashlib.sha256(bytes(data[40:])).digest()
        state.write_bytes(bytes(data))
    shown = cli("leaderboard", "--club", club, "--all", "--format", "json")
    with no_cache():
        full = cli("leaderboard", "--club", club, "--all", "--format", "json")
    assert shown.exit_code == full.exit_code == 0 and shown.stdout == full.stdout
    assert "NaN" not in shown.stdout and '"games": -1' not in shown.stdout
