"""The journal snapshot keeps the players as columns and the names the CSV files gave as runs of one
file (replay/cacheplayers.py). Read back, they are the very players and names of a full read; a
snapshot whose values do not fit is not used, even with its hash rewritten to match (as a hand-made
cache could be): the answer is the full read's."""
import hashlib
import json

import pytest

from nardrating.replay import cache
from nardrating.replay.cachecheck import Bad
from nardrating.replay.loader import load_club
from tests.test_cache import cache_folder, full_replay, snapshot, write_club


def csv_club(tmp_path):
    folder = tmp_path / "club"
    write_club(folder, [{"date": "2009-01-02", "players": ["a", "b"], "winner": "a"}], csv=True)
    with open(folder / "bulk.csv", "a", encoding="utf-8") as bulk:
        bulk.write("c1,2009-01-03,c,d,c,1,long-nardy,\nc2,2009-01-04,e,a,a,3,short-nardy,\n")
    return folder


def snapshot_file(folder):
    cached = cache_folder(folder)
    manifest = json.loads((cached / "manifest.json").read_text())
    return cached / f"journal-{manifest['token']}.json", manifest


def whole(columns):
    """The columns with each one of one value alone (stored as {"all": value, "n": count}) a list."""
    return [[column["all"]] * column["n"] if isinstance(column, dict) else column for column in columns]


def rewrite(folder, change):
    """Change the snapshot's JSON (its players' and adjustments' columns each a list), and write
    its new hash into the manifest, so that only the value checks stand between the change and its use."""
    path, manifest = snapshot_file(folder)
    meta = json.loads(path.read_text())
    meta["players"], meta["adjusts"] = whole(meta["players"]), whole(meta["adjusts"])
    change(meta)
    raw = json.dumps(meta).encode("utf-8")
    path.write_bytes(raw)
    manifest["journal_sha256"] = hashlib.sha256(raw).hexdigest()
    (cache_folder(folder) / "manifest.json").write_text(json.dumps(manifest))


def test_players_and_csv_names_come_back_as_a_full_read_has_them(tmp_path):
    folder = csv_club(tmp_path)
    fresh = load_club(folder, use_cache=False).journal
    load_club(folder)   # writes the snapshot
    meta = json.loads(snapshot_file(folder)[0].read_text())
    # Nine columns of five players (a to e, declared in journal.toml, file 0); c, d, e and a named by
    # bulk.csv (file 1), in the order the CSV reader met them: one run.
    assert len(meta["players"]) == 9 and meta["players"][0] == ["a", "b", "c", "d", "e"]
    assert meta["players"][6] == {"all": 0, "n": 5}   # (one value alone: all of file 0)
    assert meta["players"][2] == {"all": None, "n": 5}   # (no aliases)
    assert set(fresh.csv_named) == {"a", "c", "d", "e"}
    assert meta["csv_named"] == [[1, list(fresh.csv_named)]]
    cached = cache.load(load_club(folder, config_only=True).config)[1]
    assert list(cached.csv_named.items()) == list(fresh.csv_named.items())
    assert {p: (x.id, x.name, x.file, x.line, x.declared) for p, x in cached.players.items()} == \
        {p: (x.id, x.name, x.file, x.line, x.declared) for p, x in fresh.players.items()}


def _uneven(meta):
    meta["players"][1].pop()


def _unknown_file(meta):
    meta["players"][6][0] = 2   # two journal files: 0 and 1


def _id_not_text(meta):
    meta["players"][0][0] = 7


def _name_twice(meta):
    meta["csv_named"].append([0, ["c"]])


def _run_of_unknown_file(meta):
    meta["csv_named"][0][0] = 5


def _rows_again(meta):   # the old shape: a row per player
    meta["players"] = [list(row) for row in zip(*meta["players"])]


@pytest.mark.parametrize("change", [_uneven, _unknown_file, _id_not_text, _name_twice, _run_of_unknown_file,
                                    _rows_again])
def test_a_snapshot_whose_players_do_not_fit_is_not_used(tmp_path, change):
    refused_for_a_full_read(csv_club(tmp_path), change)


def refused_for_a_full_read(folder, change):
    """The snapshot written, changed as `change` does (its hash rewritten), refused when read; every
    list and history as a full read has them."""
    expected = full_replay(folder)
    assert snapshot(folder) == expected   # writes the cache
    rewrite(folder, change)
    with pytest.raises(Bad):
        cache.load(load_club(folder, config_only=True).config)
    assert snapshot(folder) == expected


def test_a_player_of_no_journal_file_is_stored_and_then_refused(tmp_path):
    # Where a player's or a CSV name's file were none of the journal's (no reader makes one), the
    # snapshot is still written, with -1 for the file, and refused when read: a full read answers.
    from dataclasses import replace

    from nardrating.replay.loader import read_valid_journal

    folder = csv_club(tmp_path)
    config = load_club(folder, config_only=True).config
    journal, states = read_valid_journal(config)
    assert cache.save_journal(config, journal, states, []) is not None
    assert cache.load(config)[1].players["a"].file == journal.players["a"].file   # as read: used
    journal.players["a"] = replace(journal.players["a"], file="elsewhere.toml")
    assert cache.save_journal(config, journal, states, []) is not None
    meta = json.loads(snapshot_file(folder)[0].read_text())
    assert whole(meta["players"])[6][0] == -1
    with pytest.raises(Bad, match="unknown file"):
        cache.load(config)
    journal, states = read_valid_journal(config)
    journal.csv_named["c"] = ("elsewhere.csv", None)
    assert cache.save_journal(config, journal, states, []) is not None
    assert [-1, ["c"]] in json.loads(snapshot_file(folder)[0].read_text())["csv_named"]
    with pytest.raises(Bad, match="bad integer"):   # (a run's file: an index, 0 or more)
        cache.load(config)


ADJUSTS = """
[[adjust]]
date = 2009-01-01
player = "a"
rating = "club"
set = 1600.5
reason = "imported list"

[[adjust]]
date = 2009-01-05
player = "b"
rating = "fibs"
delta = -12
reason = "commission"
"""


def adjusted_club(tmp_path):
    folder = csv_club(tmp_path)
    with open(folder / "journal.toml", "a", encoding="utf-8") as journal:
        journal.write(ADJUSTS)
    return folder


def test_adjustments_are_kept_a_column_at_a_time_and_come_back_as_a_full_read_has_them(tmp_path):
    folder = adjusted_club(tmp_path)
    fresh = load_club(folder, use_cache=False).journal
    load_club(folder)   # writes the snapshot
    meta = json.loads(snapshot_file(folder)[0].read_text())
    # fourteen fields, a column each, of the two entries in the journal's order; a column of one
    # value alone as that value and the count (no discipline given, the same file; the ratings,
    # floats, always whole)
    assert len(meta["adjusts"]) == 14 and meta["adjusts"][:7] == [
        ["2009-01-01", "2009-01-05"], ["a", "b"], ["club", "fibs"], {"all": None, "n": 2}, [1600.5, None],
        [None, -12], ["imported list", "commission"]]
    assert meta["adjusts"][7]["n"] == 2 and meta["adjusts"][7]["all"].endswith("journal.toml")
    cached = cache.load(load_club(folder, config_only=True).config)[1]
    assert list(cached.adjusts) == list(fresh.adjusts) and len(fresh.adjusts) == 2


def _adjusts_uneven(meta):
    meta["adjusts"][5].pop()


def _adjusts_as_rows(meta):   # the old shape: a row per entry
    meta["adjusts"] = [list(row) for row in zip(*meta["adjusts"])]


def _adjusts_number_as_text(meta):
    meta["adjusts"][4][0] = "1600.5"


def _adjusts_infinite(meta):
    meta["adjusts"][5][1] = 1e999   # (json writes Infinity)


def _adjusts_bad_date(meta):
    meta["adjusts"][0][1] = "2009-13-05"


def _adjusts_unknown_file(meta):
    meta["adjusts"][7][0] = "elsewhere.toml"


def _adjusts_one_value_too_many(meta):   # a column of one value alone, of another count
    meta["adjusts"][3] = {"all": None, "n": 3}


def _adjusts_one_value_a_float(meta):   # (0.0 and -0.0: never stored so)
    meta["adjusts"][4] = {"all": 1600.5, "n": 2}


def _adjusts_every_column_one_value(meta):   # (the journal order differs: one column is whole)
    meta["adjusts"] = [{"all": column[0], "n": 2} for column in meta["adjusts"]]


@pytest.mark.parametrize("change", [_adjusts_uneven, _adjusts_as_rows, _adjusts_number_as_text, _adjusts_infinite,
                                    _adjusts_bad_date, _adjusts_unknown_file, _adjusts_one_value_too_many,
                                    _adjusts_one_value_a_float, _adjusts_every_column_one_value])
def test_a_snapshot_whose_adjustments_do_not_fit_is_not_used(tmp_path, change):
    refused_for_a_full_read(adjusted_club(tmp_path), change)
