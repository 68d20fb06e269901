"""The cache is derived data of this user's own runs: where it lives, what it may touch, and
that no damage to it changes an answer, ends in a traceback or hangs."""
import json
import os
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nardrating.replay import cache
from nardrating.replay.loader import load_club
from tests.conftest import SAMPLES
from tests.test_cache import MUTATIONS, cache_folder, full_replay, mutate_cache, snapshot, write_club

COMMANDS = [["leaderboard", "--as-of", "2025-03-31"], ["history", "vagif"], ["players"], ["check"],
            ["leaderboard", "--rating", "elo", "--as-of", "2025-03-31"], ["report", "--period", "2025-Q1"]]


@pytest.fixture
def club(tmp_path):
    folder = tmp_path / "nardy-club"
    shutil.copytree(SAMPLES / "nardy-club", folder)
    return folder


def outputs(cli, club: Path, commands=COMMANDS, env=None) -> list:
    results = [cli(*command, "--club", club, env=env) for command in commands]
    return [(r.exit_code, r.stdout, repr(r.exception) if r.exit_code not in (0, 1) else None) for r in results]


def test_the_cache_lives_in_the_users_cache_directory(club, cli):
    assert cli("leaderboard", "--club", club).exit_code == 0
    folder = cache_folder(club)
    assert folder.parent == Path(os.environ["XDG_CACHE_HOME"]) / "nardrating"
    assert {p.name.split("-")[0] for p in folder.iterdir()} >= {"manifest.json", "journal", "matches", "result"}
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert not (club / ".nardrating").exists()  # nothing derived travels with the club folder


def test_without_an_absolute_xdg_cache_home_it_is_under_home(tmp_path, monkeypatch):
    write_club(tmp_path / "club", [])
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for value in (None, "relative/cache"):
        if value is None:
            monkeypatch.delenv("XDG_CACHE_HOME")
        else:
            monkeypatch.setenv("XDG_CACHE_HOME", value)
        assert load_club(tmp_path / "club").cache_token is not None
        assert (tmp_path / "home" / ".cache" / "nardrating").is_dir()
        assert stat.S_IMODE((tmp_path / "home" / ".cache").stat().st_mode) == 0o700


def test_a_symlinked_dot_nardrating_in_the_club_is_never_touched(club, cli, tmp_path):
    # Where the cache used to be: a link to a folder of files named like cache files. Reading,
    # recalculating and writing the club must leave every one of them, old as they are.
    target = tmp_path / "elsewhere"
    target.mkdir()
    names = [".x", "journal-1", "matches-2", "a.tmp", "manifest.json", "journal-000000000000.json"]
    for name in names:
        (target / name).write_text("keep me")
        os.utime(target / name, (0, 0))
    (club / ".nardrating").symlink_to(target)
    for command in (["leaderboard"], ["recalc"], ["add-match", "vagif", "nina", "--winner", "nina", "--date", "2025-04-01"],
                    ["leaderboard"]):
        result = cli(*command, "--club", club)
        assert result.exit_code == 0, result.output
    assert sorted(p.name for p in target.iterdir()) == sorted(names)
    assert all((target / name).read_text() == "keep me" for name in names)


def test_a_symlinked_cache_folder_is_neither_read_nor_written(club, cli, tmp_path):
    commands = COMMANDS[:2]
    expected = outputs(cli, club, commands, env={"NARDRATING_NO_CACHE": "1"})
    outputs(cli, club, commands)  # a good cache…
    target = tmp_path / "moved-cache"
    cache_folder(club).rename(target)
    cache_folder(club).symlink_to(target)  # …reached through a symlink is not this user's folder
    before = {p.name: p.read_bytes() for p in target.iterdir()}
    assert outputs(cli, club, commands) == expected
    assert {p.name: p.read_bytes() for p in target.iterdir()} == before


def test_only_its_own_files_are_deleted(tmp_path):
    write_club(tmp_path, [])
    load_club(tmp_path)
    folder = cache_folder(tmp_path)
    strangers = ["notes.txt", "journal-zz.json", "matches-0123456789ab.bin.keep", ".x", "a.tmp"]
    for name in strangers:
        (folder / name).write_text("theirs")
    outside = tmp_path / "outside.bin"
    outside.write_text("theirs")
    (folder / "matches-0123456789ab.bin").symlink_to(outside)  # named like ours, but a link
    (folder / "journal-ba9876543210.json").write_text("{}")    # ours: a stale snapshot
    for name in [*strangers, "journal-ba9876543210.json"]:
        os.utime(folder / name, (0, 0))
    (tmp_path / "journal.toml").write_text("# an edit\n" + (tmp_path / "journal.toml").read_text())
    load_club(tmp_path)  # a full read writes a new snapshot and removes stale ones
    left = {p.name for p in folder.iterdir()}
    assert set(strangers) | {"matches-0123456789ab.bin"} <= left
    assert "journal-ba9876543210.json" not in left
    assert outside.read_text() == "theirs"


def test_a_cache_of_another_club_is_ignored(tmp_path):
    # Two clubs with the same config and journal bytes: the one's cache, copied to where the
    # other's lives, is bound to the first club's config path and is not used.
    write_club(tmp_path / "one", [{"date": cache_date(1), "players": ["a", "b"], "winner": "a"}])
    write_club(tmp_path / "two", [{"date": cache_date(1), "players": ["a", "b"], "winner": "b"}])
    snapshot(tmp_path / "one")
    shutil.copytree(cache_folder(tmp_path / "one"), cache_folder(tmp_path / "two"))
    with pytest.raises(cache.Bad, match="another club"):
        cache.load(load_club(tmp_path / "two", config_only=True).config)
    assert snapshot(tmp_path / "two") == full_replay(tmp_path / "two") != snapshot(tmp_path / "one")


def cache_date(n):
    from datetime import date

    return date(2009, 1, n)


def test_a_change_of_the_programs_code_invalidates_the_cache(tmp_path, monkeypatch):
    write_club(tmp_path, [])
    config = load_club(tmp_path).config
    cache.load(config)
    monkeypatch.setattr(cache, "_source_digest", "0" * 64)  # as if any .py file had changed
    with pytest.raises(cache.Bad, match="program"):
        cache.load(config)


def test_the_source_hash_covers_every_module(monkeypatch):
    # Every .py file of the package counts, engines included, and hashing them all takes ms.
    monkeypatch.setattr(cache, "_source_digest", None)
    started = time.perf_counter()
    digest = cache.source_digest()
    assert time.perf_counter() - started < 0.5 and len(digest) == 64


def _sources(folder: Path) -> Path:
    (folder / "engines").mkdir(parents=True)
    (folder / "cli.py").write_text("print('cli')\n")
    (folder / "engines" / "elo.py").write_text("K = 20\n")
    (folder / "engines" / "notes.txt").write_text("not code\n")
    return folder


def test_the_source_digest_sees_every_change_of_code(tmp_path):
    package = _sources(tmp_path / "package")
    later = time.time_ns() + 10_000_000_000   # every file changed long before: their stats are used
    digest = cache.digest_of_sources(str(package), later)
    assert cache.digest_of_sources(str(package), later) == digest
    (package / "engines" / "notes.txt").write_text("other notes\n")   # not a .py file: no change
    assert cache.digest_of_sources(str(package), later) == digest
    elo = package / "engines" / "elo.py"
    st = os.stat(elo)
    elo.write_text("K = 32\n")   # the same size, its modification time set back: the change time moved
    os.utime(elo, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(elo).st_size == st.st_size and os.stat(elo).st_mtime_ns == st.st_mtime_ns
    assert cache.digest_of_sources(str(package), later + 10_000_000_000) != digest


def test_a_source_changed_within_two_seconds_is_hashed_by_its_bytes(tmp_path, monkeypatch):
    # An edit in the same clock tick as the look keeps every stat; the bytes tell it.
    package = _sources(tmp_path / "package")
    elo = package / "engines" / "elo.py"
    st = os.stat(elo)
    now = max(st.st_mtime_ns, st.st_ctime_ns) + 1_000_000_000   # 1 s after the last change: racy
    digest = cache.digest_of_sources(str(package), now)
    assert cache.digest_of_sources(str(package), now) == digest
    original = os.stat
    elo.write_text("K = 32\n")

    def same_stat(path, *args, **kwargs):   # as if the edit had kept the file's stat exactly
        return st if str(path) == str(elo) else original(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", same_stat)
    assert cache.digest_of_sources(str(package), now) != digest


def test_racily_clean_journals_are_hashed(tmp_path):
    # A same-size edit whose stat ends up exactly as recorded (as when it lands in the same
    # clock tick as the read) is found by hashing, because the file changed within 2 s of being
    # read; the same stat with times well before the read is trusted without hashing.
    write_club(tmp_path, [{"date": cache_date(1), "players": ["a", "b"], "winner": "a"}])
    journal = tmp_path / "journal.toml"
    config = load_club(tmp_path).config  # writes the cache
    text = journal.read_text()
    journal.write_text(text.replace('winner = "a"', 'winner = "b"'))
    manifest_path = cache_folder(tmp_path) / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    st = os.stat(journal)
    manifest["states"][0].update(size=st.st_size, mtime_ns=st.st_mtime_ns, ctime_ns=st.st_ctime_ns,
                                 ino=st.st_ino, dev=st.st_dev)
    manifest_path.write_text(json.dumps(manifest))
    with pytest.raises(cache.Bad, match="edit"):  # hashed: the winner changed
        cache.load(config)
    assert snapshot(tmp_path) == full_replay(tmp_path)
    # Not racy: the recorded read happened long after the recorded times.
    manifest = json.loads(manifest_path.read_text())
    manifest["states"][0]["seen_ns"] = max(st.st_mtime_ns, st.st_ctime_ns) + 3_000_000_000
    manifest["states"][0]["sha256"] = "0" * 64  # would fail any hash comparison
    manifest_path.write_text(json.dumps(manifest))
    assert cache.load(config)[2] == []  # trusted by its stat alone


def test_an_edit_keeping_size_and_modification_time_is_seen(tmp_path):
    write_club(tmp_path, [{"date": cache_date(1), "players": ["a", "b"], "winner": "a"}])
    journal = tmp_path / "journal.toml"
    old = os.stat(journal)
    os.utime(journal, ns=(old.st_atime_ns, old.st_mtime_ns - 10_000_000_000))
    snapshot(tmp_path)
    st = os.stat(journal)
    journal.write_text(journal.read_text().replace('winner = "a"', 'winner = "b"'))
    os.utime(journal, ns=(st.st_atime_ns, st.st_mtime_ns))  # size and mtime as before; ctime moved
    assert snapshot(tmp_path) == full_replay(tmp_path)


def cache_files(club: Path) -> list[str]:
    return sorted(p.name for p in cache_folder(club).iterdir())


def damage_each_file(club: Path, look, how: str, tmp_path: Path, seeds=(0,)) -> None:
    """Damage each cache file in turn (from a pristine copy): `look(club)` gives the full-read answer."""
    os.environ["NARDRATING_NO_CACHE"] = "1"
    try:
        expected = look(club)
    finally:
        del os.environ["NARDRATING_NO_CACHE"]
    assert look(club) == expected  # writes the cache, results included
    pristine = tmp_path / "pristine"
    shutil.copytree(cache_folder(club), pristine, symlinks=True)
    other = tmp_path / "other"
    write_club(other, [{"date": cache_date(2), "players": ["c", "a"], "winner": "a", "length": 3}])
    snapshot(other)
    for seed in seeds:
        for pick, name in enumerate(cache_files(club)):
            shutil.rmtree(cache_folder(club))
            shutil.copytree(pristine, cache_folder(club), symlinks=True)
            mutate_cache(cache_folder(club), pick, how, seed=seed * 7919 + pick, other=cache_folder(other))
            assert look(club) == expected, (name, how, seed)


# (two kinds of damage by default: a flipped bit, another club's file; every kind in the slow run)
@pytest.mark.parametrize("how", [how if how in ("flip", "other-club")
                                 else pytest.param(how, marks=pytest.mark.slow) for how in MUTATIONS])
def test_every_cache_file_damaged_gives_the_full_read_answer(how, tmp_path):
    # Every standing and every history of both lists, in both disciplines (see test_cache.snapshot).
    club = tmp_path / "club"
    write_club(club, [{"date": cache_date(1 + k % 9), "players": [p, q], "winner": q, "length": 1 + k % 5,
                       "discipline": ("long-nardy", "short-nardy")[k % 2]}
                      for k, (p, q) in enumerate([("a", "b"), ("c", "d"), ("e", "a"), ("b", "c")] * 3)])
    damage_each_file(club, snapshot, how, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("how", MUTATIONS)
def test_every_cache_file_of_a_sample_club_damaged(club, cli, how, tmp_path):
    damage_each_file(club, lambda folder: outputs(cli, folder), how, tmp_path, seeds=(0, 1))


@pytest.mark.slow
@pytest.mark.parametrize("how", MUTATIONS)
def test_damaged_cache_in_real_processes(club, how, tmp_path):
    # The same in real processes with a timeout: no traceback, no hang, the full-read answer.
    env = {**os.environ, "COLUMNS": "100", "NARDRATING_CLUB": ""}

    def run_all(extra=None):
        found = []
        for command in (COMMANDS[0], COMMANDS[1], COMMANDS[3]):
            done = subprocess.run([sys.executable, "-m", "nardrating", *command, "--club", str(club)],
                                  capture_output=True, text=True, timeout=60, env={**env, **(extra or {})})
            assert "Traceback" not in done.stderr, done.stderr
            found.append((done.returncode, done.stdout))
        return found

    expected = run_all({"NARDRATING_NO_CACHE": "1"})
    assert run_all() == expected
    pristine = tmp_path / "pristine"
    shutil.copytree(cache_folder(club), pristine, symlinks=True)
    other = tmp_path / "other"
    write_club(other, [])
    snapshot(other)
    for seed in range(1):
        for pick, name in enumerate(cache_files(club)):
            shutil.rmtree(cache_folder(club))
            shutil.copytree(pristine, cache_folder(club), symlinks=True)
            mutate_cache(cache_folder(club), pick, how, seed=seed * 131 + pick, other=cache_folder(other))
            assert run_all() == expected, (name, how, seed)


@pytest.mark.parametrize("what", ["fifo", "file"])
def test_a_cache_folder_that_is_no_folder_is_ignored_at_once(tmp_path, what):
    write_club(tmp_path, [{"date": cache_date(1), "players": ["a", "b"], "winner": "a"}])
    snapshot(tmp_path)
    shutil.rmtree(cache_folder(tmp_path))
    if what == "fifo":
        os.mkfifo(cache_folder(tmp_path))
    else:
        cache_folder(tmp_path).write_text("not a folder")
    assert snapshot(tmp_path) == full_replay(tmp_path)  # no hang, no traceback: no cache
    os.unlink(cache_folder(tmp_path))
