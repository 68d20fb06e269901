"""The kept histories over appended matches (replay/cachehistory.py): an `add-match` after every
entry adds a generation to the history file, its two players' grown parts and an index, instead of
writing the whole file again; what `history` then shows is what a full read shows, without a
replay. A file grown past twice what it holds is written anew; a generation half written is not
read (the list is replayed); a file that is no longer the one read is not appended to."""
from __future__ import annotations

import json
import os
import random
from datetime import date, timedelta

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


# --- an evening of writers and hand edits, every read against a full read ------------------------

PLAYERS = ["aleksandrov", "belov", "vasiliev", "grigoriev", "novik", "zhukov", "ivanov", "usova"]


def evening_steps(seed: int, steps: int):
    """A random evening after the sample's last entry: games entered by add-match (in order, some the
    same day, some unrated), games appended to the journal by hand, a void, a leaderboard between."""
    rng = random.Random(seed)
    day = date(2025, 3, 10)
    for n in range(steps):
        day += timedelta(days=rng.choice([0, 0, 1, 2, 9, 25]))
        a, b = rng.sample(PLAYERS, 2)
        kind = rng.choice(["add", "add", "add", "unrated", "hand", "hand", "void", "board"])
        yield n, kind, day, a, b, rng.choice(["1-0", "0-1", "1/2-1/2"])


@pytest.mark.parametrize("seed", [3, *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(4, 12))])
def test_an_evening_of_writers_and_hand_edits_reads_as_a_full_read(cli, tmp_path, seed):
    club = copied(tmp_path, "fide-club")
    assert cli("recalc", "--club", club).exit_code == 0
    histories(cli, club, RATING, ["novik"], formats=("json",))   # (every history kept)
    journal = club / "journal.toml"
    voided: set[str] = set()
    for n, kind, day, a, b, result in evening_steps(seed, 10):
        if kind in ("add", "unrated"):
            flags = ["--unrated"] if kind == "unrated" else []
            done = cli("add-match", a, b, "--result", result, "--date", day, "--yes", *flags, "--club", club)
            assert done.exit_code == 0, done.output
        elif kind == "hand":
            with open(journal, "a", encoding="utf-8") as f:
                f.write(f'\n[[match]]\nid = "h{seed}x{n}"\ndate = {day}\nplayers = ["{a}", "{b}"]\nresult = "{result}"\n')
        elif kind == "void":
            last = json.loads(cli("history", a, "--club", club, "--format", "json").stdout)
            entries = [e["entry"] for e in last if e["kind"] == "match" and e["entry"] and e["entry"] not in voided]
            if entries:
                voided.add(entries[-1])
                done = cli("void", entries[-1], "--reason", "entered twice", "--club", club)
                assert done.exit_code == 0, done.output
        board = json.loads(cli("leaderboard", "--club", club, "--format", "json").stdout)
        shown = histories(cli, club, RATING, [a, b], formats=("json",))
        with no_cache():
            assert board == json.loads(cli("leaderboard", "--club", club, "--format", "json").stdout), (n, kind)
        assert shown == full_reads(cli, club, [a, b]), (n, kind)
