"""The matches appended since the cached snapshot are kept in its manifest (replay/cachetail.py):
the command after `add-match` parses nothing, and sees exactly what a full read sees."""
import json
import os
import subprocess
import sys
from datetime import date
from pathlib import Path

from nardrating.journal.actions import add_match
from nardrating.journal.writer import append_block, entry_block
from nardrating.replay.loader import load_club

from tests.test_cache import cache_folder, full_replay, snapshot, write_club

# What a command in a fresh process loads, and which of the modules that parse entries it imported.
PROBE = """
import json, sys
from nardrating.replay.loader import load_club
ledger = load_club(sys.argv[1], light=True)
result = ledger.run("fibs", "long-nardy")
print(json.dumps({"parsed": sorted(m for m in ("nardrating.journal.reader", "nardrating.journal.entries", "pydantic")
                                   if m in sys.modules),
                  "standings": {p: s.rating for p, s in result.standings.items()},
                  "lines": [ledger.journal.match(i).line for i in range(ledger.journal.match_count())]}))
"""


def probe(club: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE, str(club)], capture_output=True, text=True,
                          env={**os.environ, "NARDRATING_DEBUG": "1"}, check=True)
    assert "cache not used" not in done.stderr, done.stderr
    return json.loads(done.stdout)


def header_lines(path: Path) -> list[int]:
    """The line of each [[match]] header in the file, counted by hand from its text."""
    return [n for n, line in enumerate(path.read_text().splitlines(), 1) if line == "[[match]]"]


def full_standings(club: Path) -> dict:
    """The fibs list's ratings by a full read of the journal, without the cache."""
    os.environ["NARDRATING_NO_CACHE"] = "1"
    try:
        return {p: s.rating for p, s in load_club(club).run("fibs", "long-nardy").standings.items()}
    finally:
        del os.environ["NARDRATING_NO_CACHE"]


def club_with_a_snapshot(folder: Path) -> Path:
    write_club(folder, [{"id": f"m{k}", "date": date(2009, 1, 1 + k), "players": ["a", "b"], "winner": "a",
                         "length": 3} for k in range(4)])
    snapshot(folder)  # a read-only command: the snapshot is written
    load_club(folder, light=True)  # and the checked config (replay/configcache.py), as leaderboard keeps it
    return folder


def test_the_command_after_add_match_parses_nothing(tmp_path):
    club = club_with_a_snapshot(tmp_path / "club")
    for k, (winner, loser) in enumerate([("c", "d"), ("a", "c")]):
        add_match(load_club(club, config_only=True), winner, loser, winner=winner, day=date(2009, 2, 1 + k), length=5)
    seen = probe(club)
    assert seen["parsed"] == []  # no TOML read, no entry model built
    assert seen["standings"] == full_standings(club)
    # The two new matches are the file's fifth and sixth [[match]]: their lines are their headers'.
    assert seen["lines"] == header_lines(club / "journal.toml")
    assert snapshot(club) == full_replay(club)


def test_without_the_record_the_tail_is_parsed_as_before(tmp_path):
    # Proof that the probe sees a parse: the same append, the record taken out of the manifest.
    club = club_with_a_snapshot(tmp_path / "club")
    add_match(load_club(club, config_only=True), "c", "d", winner="c", day=date(2009, 2, 1))
    manifest = cache_folder(club) / "manifest.json"
    data = json.loads(manifest.read_text())
    assert len(data.pop("tail")["rows"]) == 1
    manifest.write_text(json.dumps(data))
    # (The reader parses it; a [[match]] as add-match writes it needs no entry model: journal/plainmatch.py.)
    assert probe(club)["parsed"] == ["nardrating.journal.reader"]
    # …and that read keeps the record for the command after it
    assert probe(club)["parsed"] == []


def test_a_match_typed_after_add_match_is_read_alone_and_recorded(tmp_path):
    club = club_with_a_snapshot(tmp_path / "club")
    add_match(load_club(club, config_only=True), "c", "d", winner="d", day=date(2009, 2, 1))
    with open(club / "journal.toml", "a") as f:  # by hand, no blank line before it
        f.write('[[match]]\ndate = 2009-02-02\nplayers = ["a", "d"]\nwinner = "d"\n')
    assert snapshot(club) == full_replay(club)
    rows = json.loads((cache_folder(club) / "manifest.json").read_text())["tail"]["rows"]
    # add-match's id, then the typed match's: it has none, so it is named by its file and place
    # there, the sixth [[match]] of journal.toml, as a full read names it
    assert [row[0] for row in rows] == ["m0004", "journal-6"]
    assert probe(club)["lines"] == header_lines(club / "journal.toml")
    assert snapshot(club) == full_replay(club)


def test_a_damaged_record_is_not_used(tmp_path):
    club = club_with_a_snapshot(tmp_path / "club")
    add_match(load_club(club, config_only=True), "c", "d", winner="c", day=date(2009, 2, 1), length=5)
    manifest = cache_folder(club) / "manifest.json"
    data = json.loads(manifest.read_text())
    data["tail"]["rows"][0][5] = 1  # length 5 → 1, its seal left as it was
    manifest.write_text(json.dumps(data))
    assert probe(club)["parsed"] != []   # read again from the journal…
    assert snapshot(club) == full_replay(club)  # …and the same as a full read


def test_a_record_of_other_files_is_not_used(tmp_path):
    # The journal edited after the record was kept (not an append): a full read, the same as without a cache.
    club = club_with_a_snapshot(tmp_path / "club")
    add_match(load_club(club, config_only=True), "c", "d", winner="c", day=date(2009, 2, 1), length=5)
    path = club / "journal.toml"
    path.write_text(path.read_text().replace("length = 5", "length = 7"))
    assert snapshot(club) == full_replay(club)
    assert snapshot(club)[("fibs", "long-nardy")] == full_replay(club)[("fibs", "long-nardy")]


def test_a_new_player_is_not_recorded_but_stored_in_a_new_snapshot(tmp_path):
    # Only matches go into the record: the [[player]] typed after the snapshot makes add-match
    # (reading the journal under the lock) store a new snapshot with it; its match is the record.
    club = club_with_a_snapshot(tmp_path / "club")
    manifest = cache_folder(club) / "manifest.json"
    token = json.loads(manifest.read_text())["token"]
    append_block(club / "journal.toml", entry_block("player", {"id": "f"}))
    add_match(load_club(club, config_only=True), "f", "a", winner="f", day=date(2009, 2, 1))
    data = json.loads(manifest.read_text())
    assert data["token"] != token and data["count"] == 4
    assert [row[0] for row in data["tail"]["rows"]] == ["m0004"]
    assert probe(club)["parsed"] == []
    assert snapshot(club) == full_replay(club)


def test_after_an_upgrade_one_add_match_replays_in_full_and_the_next_resumes(tmp_path, monkeypatch):
    # A new version of the program (or any change of its source) cannot use the old cache: the
    # first add-match reads and replays everything. It stores what it computed once its append
    # has landed, so the second resumes from it instead of replaying everything again.
    import shutil

    from nardrating.replay import view

    club = club_with_a_snapshot(tmp_path / "club")
    shutil.rmtree(cache_folder(club))  # what an upgrade does to the cache: nothing of it is used
    full = []
    real_replay = view.replay
    monkeypatch.setattr(view, "replay", lambda *args: full.append(args[1].name) or real_replay(*args))
    add_match(load_club(club, config_only=True), "c", "d", winner="c", day=date(2009, 2, 1))
    assert sorted(full) == ["club", "fibs"]  # both lists rate long nardy: each replayed once
    full.clear()
    add_match(load_club(club, config_only=True), "a", "d", winner="d", day=date(2009, 2, 2))
    assert full == []
    load_club(club, light=True)  # (the checked config, which went with the old cache)
    assert probe(club)["parsed"] == []
    assert snapshot(club) == full_replay(club)


def test_a_tail_stored_as_a_new_snapshot_is_what_a_later_record_is_of(tmp_path):
    # A full replay of a snapshot plus its tail stores the two as a new snapshot (ledger._save_tail);
    # what a writer then records must be relative to that one: its match count and its files' states.
    club = club_with_a_snapshot(tmp_path / "club")
    add_match(load_club(club, config_only=True), "c", "d", winner="c", day=date(2009, 2, 1))
    for path in cache_folder(club).glob("result-*"):
        path.unlink()  # no replay to resume: the next run replays in full
    ledger = load_club(club)
    assert ledger.dirty and ledger.cache_base.matches == 4  # the snapshot of four, plus the tail of one
    ledger.run("fibs", "long-nardy")
    data = json.loads((cache_folder(club) / "manifest.json").read_text())
    assert not ledger.dirty and data["count"] == 5 and data["token"] == ledger.cache_token
    assert ledger.cache_base.matches == 5 and ledger.cache_states == data["states"]


def test_rows_appended_to_a_big_cached_journal_are_kept_beside_its_mapped_columns(tmp_path):
    # The command after add-match appends the record's rows without copying the snapshot's columns
    # (columns.Appended): a replay resumed over them reads them there; a full pass joins them first.
    from nardrating.journal.columns import Appended

    club = tmp_path / "club"
    pairs = [("a", "b"), ("c", "d"), ("b", "e"), ("d", "a")]
    write_club(club, [{"id": f"m{k}", "date": date(2009, 1, 1 + k // 40), "players": list(pairs[k % 4]),
                       "winner": pairs[k % 4][k % 2], "length": 3} for k in range(130)])
    snapshot(club)
    add_match(load_club(club, config_only=True), "c", "e", winner="e", day=date(2009, 2, 1), length=5)
    ledger = load_club(club, light=True)
    kept = ledger.journal.matches_for(1)
    assert all(isinstance(getattr(kept, name), Appended) for name in ("dates", "a", "b", "score_a", "seq"))
    os.environ["NARDRATING_NO_CACHE"] = "1"
    try:
        full = load_club(club)
    finally:
        del os.environ["NARDRATING_NO_CACHE"]
    resumed, replayed = ledger.run("fibs", "long-nardy"), full.run("fibs", "long-nardy")
    assert resumed.standings == replayed.standings
    assert resumed.history("e") == replayed.history("e")
    assert isinstance(ledger.journal.matches_for(1).a, Appended)  # (the resumed replay read them as kept)
    joined = ledger.journal.matches
    assert not any(isinstance(getattr(joined, name), Appended) for name in ("dates", "a", "b", "score_a", "seq"))
    assert [list(getattr(joined, name)) for name in ("dates", "a", "b", "score_a", "length", "rated", "seq", "line")] == \
        [list(getattr(full.journal.matches, name)) for name in ("dates", "a", "b", "score_a", "length", "rated", "seq", "line")]


def test_an_appended_column_reads_as_one_sequence():
    from array import array

    from nardrating.journal.columns import Appended

    mapped = memoryview(array("b", [1, 0, 1]).tobytes()).cast("b")
    column = Appended(mapped)
    column.append(True)          # held as the array holds it: 1, not True
    column.extend([0, 1])
    plain = [1, 0, 1, 1, 0, 1]
    assert len(column) == 6 and list(column) == plain and [column[i] for i in range(-6, 6)] == plain + plain
    assert type(column[3]) is int
    assert list(column[3:]) == plain[3:] and list(column[4:5]) == [0] and list(column[1:4]) == plain[1:4]
    assert list(column[::2]) == plain[::2]
    for bad in (6, -7):
        try:
            column[bad]
        except IndexError:
            pass
        else:
            raise AssertionError(f"{bad} read")
    joined = column.joined()
    assert isinstance(joined, array) and list(joined) == plain
    del column[4:]
    assert list(column) == plain[:4]
    del column[2:]
    assert list(column) == plain[:2] and len(column) == 2
    column.append(1)
    assert list(column) == [1, 0, 1]


def test_the_command_after_an_entry_but_a_match_parses_nothing(tmp_path):
    # A writer's entry that is not a match (a player, a tournament, a name corrected) cannot be kept in
    # the manifest's record, which holds matches; the writer stores the journal as written as the new
    # snapshot, so the command after it parses nothing, and sees what a full read sees.
    from nardrating.journal.actions import add_player, add_tournament, edit_player

    club = club_with_a_snapshot(tmp_path / "club")
    writes = [lambda: add_player(load_club(club, config_only=True), "zed", name="Эдгар"),
              lambda: add_tournament(load_club(club, config_only=True), "cup", name="Cup", system="swiss",
                                     start=date(2009, 3, 1), end=date(2009, 3, 2)),
              lambda: edit_player(load_club(club, config_only=True), "a", {"name": "Анна"})]
    for write in writes:
        write()
        seen = probe(club)
        assert seen["parsed"] == []
        assert seen["standings"] == full_standings(club)
        assert snapshot(club) == full_replay(club)
