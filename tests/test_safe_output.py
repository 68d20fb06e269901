"""Every file nardrating writes besides the journal (init's files, -o/FILE outputs, charts, plots):
never through a symbolic link, never over a device, a FIFO or one of the club's own files, whole
or not at all (a full disk leaves the target as it was, with a plain message and exit 1)."""
from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from .conftest import fill, make_club

JOURNAL = """\
[[player]]
id = "anna"

[[player]]
id = "boris"

[[match]]
id = "m0001"
date = 2024-01-10
players = ["anna", "boris"]
winner = "anna"
"""


@pytest.fixture
def club(tmp_path):
    return make_club(tmp_path / "club", JOURNAL)


def no_temporary_files(folder: Path) -> None:
    assert not [p.name for p in folder.iterdir() if p.name.startswith(".") and p.name.endswith(".tmp")]


# --- init ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["journal.toml", "nardrating.toml"])
def test_init_never_writes_through_a_dangling_link(cli, tmp_path, name):
    folder, outside = tmp_path / "club", tmp_path / "elsewhere" / "victim.toml"
    folder.mkdir()
    outside.parent.mkdir()
    os.symlink(outside, folder / name)
    result = cli("init", folder)
    assert result.exit_code == 1, result.output
    assert "symbolic link" in result.stderr and "nothing was written" in result.stderr
    assert not outside.exists()                        # nothing outside the folder
    assert os.readlink(folder / name) == str(outside)  # the link is left as it was
    assert sorted(p.name for p in folder.iterdir()) == [name]


def test_init_that_fails_leaves_no_half_club(cli, tmp_path, monkeypatch):
    # The disk fills while the second file (the journal) is written: the config written before it
    # is taken back, and so is the folder init made.
    real, calls = os.fsync, []

    def fsync(fd):
        if stat.S_ISREG(os.fstat(fd).st_mode):  # files, not folders
            calls.append(fd)
            if len(calls) == 2:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    result = cli("init", tmp_path / "new" / "club")
    assert result.exit_code == 1, result.output
    assert "the disk is full" in result.stderr and "Traceback" not in result.output
    assert not (tmp_path / "new").exists()


def test_init_writes_whole_files_where_nothing_was(cli, tmp_path):
    assert cli("init", tmp_path / "club").exit_code == 0
    mode = stat.S_IMODE(os.stat(tmp_path / "club" / "journal.toml").st_mode)
    assert mode == 0o666 & ~_umask()  # a file of the user's, not a private temporary one
    assert cli("check", "--club", tmp_path / "club").exit_code == 0
    no_temporary_files(tmp_path / "club")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# --- outputs named by the user ------------------------------------------------------------

def test_an_output_never_replaces_the_clubs_own_files(cli, club, tmp_path):
    # By name, or by a hard link to one of them (another name of the very file).
    for name in ("chart.svg", "plot.svg", "board.xlsx"):
        os.link(club / "journal.toml", tmp_path / name)
    commands = [["leaderboard", "--club", club, "-f", "xlsx", "-o", club / "journal.toml"],
                ["leaderboard", "--club", club, "-f", "xlsx", "-o", club / "nardrating.toml"],
                ["leaderboard", "--club", club, "-f", "xlsx", "-o", tmp_path / "board.xlsx"],
                ["history", "anna", "--club", club, "--chart", tmp_path / "chart.svg"],
                ["backtest", "--club", club, "--plot", tmp_path / "plot.svg"]]
    before = (club / "journal.toml").read_bytes(), (club / "nardrating.toml").read_bytes()
    for args in commands:
        result = cli(*args)
        assert result.exit_code == 1, (args, result.output)
        assert "the club's own file" in result.stderr and "nothing was written" in result.stderr
        assert ((club / "journal.toml").read_bytes(), (club / "nardrating.toml").read_bytes()) == before
    assert os.stat(club / "journal.toml").st_nlink == 4  # every link still names the journal
    assert cli("check", "--club", club).exit_code == 0


def test_an_output_is_never_a_fifo_a_device_or_a_link(cli, club, tmp_path):
    fifo, victim, link = tmp_path / "out.fifo", tmp_path / "victim.txt", tmp_path / "link.xlsx"
    os.mkfifo(fifo)
    victim.write_text("someone else's file")
    os.symlink(victim, link)
    targets = [fifo, link]
    if os.geteuid() == 0:  # a device node of our own (as /dev/full is), where we may make one
        device = tmp_path / "full"
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 7))
        targets.append(device)
    for target in targets:
        kind = os.lstat(target).st_mode
        result = cli("leaderboard", "--club", club, "-f", "xlsx", "-o", target)
        assert result.exit_code == 1, (target, result.output)
        assert "nothing was written" in result.stderr
        assert stat.S_IFMT(os.lstat(target).st_mode) == stat.S_IFMT(kind)  # still what it was
    assert victim.read_text() == "someone else's file"
    link_svg = tmp_path / "chart.svg"
    os.symlink(victim, link_svg)
    result = cli("history", "anna", "--club", club, "--chart", link_svg)
    assert result.exit_code == 1 and "symbolic link" in result.stderr, result.output
    assert victim.read_text() == "someone else's file" and link_svg.is_symlink()
    no_temporary_files(tmp_path)


def test_an_output_replaces_a_regular_file_whole_and_keeps_its_mode(cli, club, tmp_path):
    target = tmp_path / "board.xlsx"
    target.write_bytes(b"an older board")
    os.chmod(target, 0o640)
    result = cli("leaderboard", "--club", club, "-f", "xlsx", "-o", target)
    assert result.exit_code == 0, result.output
    assert target.read_bytes().startswith(b"PK")  # a zip: an .xlsx workbook
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    new = tmp_path / "new.svg"
    assert cli("history", "anna", "--club", club, "--chart", new).exit_code == 0
    assert stat.S_IMODE(os.stat(new).st_mode) == 0o666 & ~_umask()
    no_temporary_files(tmp_path)


def test_a_full_disk_while_writing_an_output_is_a_plain_refusal(cli, club, tmp_path, monkeypatch):
    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    old = tmp_path / "old.xlsx"
    old.write_bytes(b"the board of last week")
    monkeypatch.setattr(os, "fsync", full)
    for args, target in ((["leaderboard", "--club", club, "-f", "xlsx", "-o", old], old),
                         (["history", "anna", "--club", club, "--chart", tmp_path / "c.svg"], tmp_path / "c.svg"),
                         (["history", "anna", "--club", club, "--chart", tmp_path / "c.png"], tmp_path / "c.png")):
        result = cli(*args)
        assert result.exit_code == 1, result.output
        assert "the disk is full" in result.stderr and "unexpectedly" not in result.stderr
        assert not target.exists() or target.read_bytes() == b"the board of last week"
    no_temporary_files(tmp_path)


def test_a_really_full_disk_leaves_no_file(cli, club, tiny_disk):
    fill(tiny_disk)
    for args in (["leaderboard", "--club", club, "-f", "xlsx", "-o", tiny_disk / "board.xlsx"],
                 ["history", "anna", "--club", club, "--chart", tiny_disk / "chart.svg"]):
        result = cli(*args)
        assert result.exit_code == 1, result.output
        assert "the disk is full" in result.stderr
    assert sorted(p.name for p in tiny_disk.iterdir()) == ["filler"]
