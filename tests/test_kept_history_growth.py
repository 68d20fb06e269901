"""The kept histories over appended matches (replay/cachehistory.py): an `add-match` after every
entry adds a generation to the history file, its two players' grown parts and an index, instead of
writing the whole file again; what `history` then shows is what a full read shows, without a
replay. A file grown past twice what it holds is written anew; a generation half written is not
read (the list is replayed); a file that is no longer the one read is not appended to."""
from __future__ import annotations

import json
import os

import pytest

from nardrating.replay import cachehistory
from nardrating.replay.cachedir import CacheFolder
from nardrating.replay.loader import load_club

from .conftest import no_cache
from .test_kept_history import copied, counting_runs, histories, kept_file

RATING = "fide"


def evening(cli, tmp_path):
    """The sample chess club under a fide list with every history kept, and two of its players
    (their matches after every entry: each waits for the next list, and its line is carried)."""
    club = copied(tmp_path, "fide-club")
    histories(cli, club, RATING, ["novik"], formats=("json",))
    return club, "novik", "zhukov"


def file_state(club):
    folder, name = kept_file(club)
    with folder:
        st = os.stat(name, dir_fd=folder.fd)
        return (st.st_dev, st.st_ino), folder.read(name)[0]


def add(cli, club, a, b, day):
    result = cli("add-match", a, b, "--winner", a, "--date", day, "--yes", "--club", club)
    assert result.exit_code == 0, result.output


def full_reads(cli, club, players):
    with no_cache():
        return histories(cli, club, RATING, players, formats=("json",))


def test_an_appended_match_adds_a_generation_to_the_file_and_history_reads_it(cli, tmp_path, monkeypatch):
    club, a, b = evening(cli, tmp_path)
    inode, before = file_state(club)
    add(cli, club, a, b, "2025-03-20")
    add(cli, club, b, a, "2025-03-21")
    same, after = file_state(club)
    # The same file, what it held kept byte for byte, two generations after it (each smaller than
    # the whole file: two players' parts and the index).
    assert same == inode and after[:len(before)] == before and len(before) < len(after) < 3 * len(before)
    with monkeypatch.context() as patch:
        replays = counting_runs(patch)
        kept = histories(cli, club, RATING, [a, b], formats=("json",))
    assert not replays
    assert kept == full_reads(cli, club, [a, b])
    days = [e["date"] for e in json.loads(kept[0]) if e["kind"] == "match"]
    assert days[-2:] == ["2025-03-20", "2025-03-21"]   # (both matches: the test can fail)


def test_a_file_grown_past_twice_what_it_holds_is_written_anew(cli, tmp_path, monkeypatch):
    club, a, b = evening(cli, tmp_path)
    inode, _ = file_state(club)
    monkeypatch.setattr(cachehistory, "_SLACK", -(1 << 40))   # any generation is one too many
    add(cli, club, a, b, "2025-03-20")
    other, data = file_state(club)
    assert other != inode   # a new file, of one generation: the parts, then one index and trailer
    assert data.count(b"nrhist2\n") == 1
    with monkeypatch.context() as patch:
        replays = counting_runs(patch)
        kept = histories(cli, club, RATING, [a, b], formats=("json",))
    assert not replays and kept == full_reads(cli, club, [a, b])


@pytest.mark.parametrize("damage", ["cut short", "garbage after it"])
def test_a_generation_half_written_is_not_read(cli, tmp_path, monkeypatch, damage):
    club, a, b = evening(cli, tmp_path)
    add(cli, club, a, b, "2025-03-20")
    folder, name = kept_file(club)
    with folder:
        data = folder.read(name)[0]
        # cut inside the last generation's index, or something after its trailer (a write cut off)
        folder.write(name, data[:-200] if damage == "cut short" else data + b'[0,"x"]')
    with monkeypatch.context() as patch:
        replays = counting_runs(patch)
        kept = histories(cli, club, RATING, [a], formats=("json",))
    assert replays   # not read: replayed, and right
    assert kept == full_reads(cli, club, [a])


def test_a_file_that_is_not_the_one_read_is_not_appended_to(tmp_path):
    club = copied(tmp_path, "fide-club")
    config = load_club(club / "nardrating.toml").config
    name = "history-0123456789abcdef.bin"
    with CacheFolder(config, create=True) as folder:
        stat = folder.write(name, b"kept")
        identity = (stat.st_dev, stat.st_ino)
        for file, size in ((identity, 3), ((stat.st_dev, stat.st_ino + 1), 4)):   # grown since; another file
            with pytest.raises(FileExistsError):
                folder.append(name, file, size, [b"more"])
        assert folder.read(name)[0] == b"kept"
        folder.append(name, identity, 4, [b" and ", memoryview(b"more")])
        assert folder.read(name)[0] == b"kept and more"
        folder.remove(name)
        os.mkfifo(name, dir_fd=folder.fd)   # a FIFO in its place: refused at once, no wait for a reader
        with pytest.raises(OSError):
            folder.append(name, identity, 13, [b"x"])


# --- the snapshot is not written again for matches appended after every entry -------------------

def snapshot_token(club) -> str:
    folder, _ = kept_file(club)
    with folder:
        manifest = json.loads(folder.read("manifest.json")[0])
    return manifest["token"]


def test_matches_appended_are_recorded_and_the_snapshot_is_not_written_again(cli, tmp_path, monkeypatch):
    # The journal after them is the snapshot plus the manifest's record of the matches (as after any
    # writer's append): the standings and histories are kept under that key, and the leaderboard and
    # history after them read them, without a replay, as a full read shows them.
    club, a, b = evening(cli, tmp_path)
    token = snapshot_token(club)
    for day in ("2025-03-20", "2025-03-21"):
        add(cli, club, a, b, day)
        assert snapshot_token(club) == token
        with monkeypatch.context() as patch:
            replays = counting_runs(patch)
            board = cli("leaderboard", "--club", club, "--format", "json")
            kept = histories(cli, club, RATING, [a, b], formats=("json",))
        assert not replays and board.exit_code == 0
        with no_cache():
            assert json.loads(board.stdout) == json.loads(cli("leaderboard", "--club", club, "--format", "json").stdout)
        assert kept == full_reads(cli, club, [a, b])


def test_a_match_appended_by_hand_after_them_is_not_read_from_what_was_kept(cli, tmp_path, monkeypatch):
    # The same counts, other matches: what was kept for the recorded matches is not for these.
    club, a, b = evening(cli, tmp_path)
    add(cli, club, a, b, "2025-03-20")
    journal = club / "journal.toml"
    text = journal.read_text(encoding="utf-8")
    last = text.rindex("[[match]]")
    # the match add-match wrote, entered by hand with the other result instead
    journal.write_text(text[:last] + text[last:].replace(f'winner = "{a}"', f'winner = "{b}"'), encoding="utf-8")
    with monkeypatch.context() as patch:
        replays = counting_runs(patch)
        board = json.loads(cli("leaderboard", "--club", club, "--format", "json").stdout)
        kept = histories(cli, club, RATING, [a, b], formats=("json",))
    assert replays
    with no_cache():
        assert board == json.loads(cli("leaderboard", "--club", club, "--format", "json").stdout)
    assert kept == full_reads(cli, club, [a, b])
