"""Journal files stay in the club: every path resolves inside the club folder, only regular
files are read (a FIFO or a folder is an error at once, never a hang), and a symlinked
journal is written through to its target, the link staying a link."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nardrating.errors import ActionRefused
from nardrating.journal.writer import LOCK_NAME, append_block, club_lock

from .conftest import ELO_CONFIG, make_club

PLAYER = '[[player]]\nid = "anna"\n'


def _club(folder: Path, journal: str, text: str = PLAYER) -> Path:
    """A club whose [club] journal (line 3 of the config) is `journal`."""
    return make_club(folder, text, config=ELO_CONFIG.replace('["journal.toml"]', f'["{journal}"]'))


def _snapshot(folder: Path) -> dict:
    return {p.name: (p.is_symlink(), p.read_bytes() if p.is_file() else None) for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("name", ["../x.toml", "x/../../x.toml", "ABSOLUTE"])
def test_a_journal_outside_the_club_folder_is_a_config_error(tmp_path, cli, name):
    outside = tmp_path / "x.toml"
    outside.write_text(PLAYER)  # a valid journal: only the rule refuses it
    name = str(outside) if name == "ABSOLUTE" else name
    club = _club(tmp_path / "club", name)
    for args in (("check",), ("add-player", "boris")):
        result = cli(*args, "--club", club)
        assert result.exit_code == 1, result.output
        assert (f"nardrating.toml:3: [club] journal: '{name}' is outside the club folder; journal files "
                "must live in the club folder (or a folder below it)") in result.stderr
    assert outside.read_text() == PLAYER  # add-player wrote nothing there


def test_a_symlink_pointing_out_of_the_club_is_refused_and_named(tmp_path, cli):
    outside = tmp_path / "elsewhere.toml"
    outside.write_text(PLAYER)
    club = _club(tmp_path / "club", "link.toml")
    (club / "link.toml").symlink_to(outside)
    for args in (("leaderboard", "--as-of", "2020-01-01"), ("add-player", "boris")):
        result = cli(*args, "--club", club)
        assert result.exit_code == 1, result.output
        assert (f"nardrating.toml:3: [club] journal: 'link.toml' (a symbolic link to '{outside}') "
                "is outside the club folder") in result.stderr
    assert outside.read_text() == PLAYER
    assert (club / "link.toml").is_symlink()


def test_paths_that_stay_inside_are_read(tmp_path, cli):
    club = _club(tmp_path / "club", "sub/../journal.toml")
    (club / "sub").mkdir()
    result = cli("check", "--club", club)
    assert result.exit_code == 0, result.output
    assert "ok: 1 player," in result.stdout


def test_a_symlinked_journal_inside_the_club_is_written_through(tmp_path, cli):
    club = _club(tmp_path / "club", "link.toml")
    (club / "journal.toml").unlink()
    (club / "data").mkdir()
    target = club / "data" / "journal.toml"
    target.write_text(PLAYER)
    (club / "link.toml").symlink_to("data/journal.toml")
    result = cli("add-player", "boris", "--club", club)
    assert result.exit_code == 0, result.output
    assert (club / "link.toml").is_symlink() and os.readlink(club / "link.toml") == "data/journal.toml"
    assert target.read_text() == PLAYER + '\n[[player]]\nid = "boris"\n'
    assert sorted(p.name for p in (club / "data").iterdir()) == ["journal.toml"]  # no temporary file left
    assert "ok: 2 players" in cli("check", "--club", club, env={"NARDRATING_NO_CACHE": "1"}).stdout


def test_a_link_retargeted_out_of_the_club_before_the_write_is_refused(tmp_path):
    outside = tmp_path / "elsewhere.toml"
    outside.write_text(PLAYER)
    club = _club(tmp_path / "club", "link.toml")
    (club / "link.toml").symlink_to(outside)
    with club_lock(club), pytest.raises(ActionRefused, match="outside the club folder"):
        append_block(club / "link.toml", '[[player]]\nid = "boris"\n')
    assert outside.read_text() == PLAYER


def test_a_folder_as_journal_is_an_error(tmp_path, cli):
    club = _club(tmp_path / "club", "journal.toml")
    (club / "journal.toml").unlink()
    (club / "journal.toml").mkdir()
    result = cli("check", "--club", club)
    assert result.exit_code == 1
    assert result.stderr.endswith("journal.toml: is a folder, not a regular file; a journal must be a regular file\n")


def _run(args, cwd=None):
    """The CLI in its own process: a hang ends the test at the timeout instead of the suite."""
    env = {**os.environ, "NARDRATING_CLUB": ""}
    return subprocess.run([sys.executable, "-m", "nardrating", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=20)


@pytest.mark.parametrize("command", [("check",), ("add-player", "boris")])
def test_a_fifo_journal_is_an_error_at_once(tmp_path, command):
    club = _club(tmp_path / "club", "journal.toml")
    (club / "journal.toml").unlink()
    os.mkfifo(club / "journal.toml")
    done = _run([*command, "--club", club])
    assert done.returncode == 1, done.stderr
    assert done.stderr.endswith("journal.toml: is a named pipe (FIFO), not a regular file; "
                                "a journal must be a regular file\n")


def test_a_fifo_journal_behind_a_cache_is_an_error_at_once(tmp_path, cli):
    """The cache has seen the journal: a FIFO put in its place is still never opened to read."""
    club = _club(tmp_path / "club", "journal.toml")
    assert cli("leaderboard", "--club", club, "--as-of", "2020-01-01").exit_code == 0
    (club / "journal.toml").unlink()
    os.mkfifo(club / "journal.toml")
    done = _run(["leaderboard", "--club", club, "--as-of", "2020-01-01"])
    assert done.returncode == 1 and done.stderr.endswith("journal.toml: is a named pipe (FIFO), not a regular "
                                                         "file; a journal must be a regular file\n"), done.stderr


def test_a_fifo_config_is_an_error_at_once(tmp_path):
    club = tmp_path / "club"
    club.mkdir()
    os.mkfifo(club / "nardrating.toml")
    expected = "is a named pipe (FIFO), not a regular file; a club config must be a regular file\n"
    done = _run(["check", "--club", club])
    assert done.returncode == 1 and done.stderr.endswith("nardrating.toml: " + expected), done.stderr
    done = _run(["check"], cwd=club)  # found by the search upward
    assert done.returncode == 1 and done.stderr == "nardrating.toml: " + expected


def test_the_lock_is_never_taken_through_a_symlink(tmp_path, cli):
    club = _club(tmp_path / "club", "journal.toml")
    elsewhere = tmp_path / "not-the-club.lock"
    (club / LOCK_NAME).symlink_to(elsewhere)
    before = (club / "journal.toml").read_bytes()
    result = cli("add-player", "boris", "--club", club)
    assert result.exit_code == 1
    assert "the lock file is a symbolic link; nothing was written" in result.stderr
    assert not elsewhere.exists() and (club / "journal.toml").read_bytes() == before


def test_only_our_own_temporary_files_are_removed(tmp_path, cli):
    club = _club(tmp_path / "club", "journal.toml")
    outside = tmp_path / "precious"
    outside.write_text("keep")
    (club / ".journal.toml.a1b2c3d4.tmp").write_text("left by a killed writer")  # mkstemp's 8 characters
    (club / ".journal.toml.notours.tmp").write_text("someone else's")
    (club / ".journal.toml.zzzzzzzz.tmp").symlink_to(outside)
    assert cli("add-player", "boris", "--club", club).exit_code == 0
    left = _snapshot(club)
    assert ".journal.toml.a1b2c3d4.tmp" not in left
    assert left[".journal.toml.notours.tmp"] == (False, b"someone else's")
    assert left[".journal.toml.zzzzzzzz.tmp"][0] is True and outside.read_text() == "keep"


@pytest.mark.skipif(os.sep == "\\", reason="Windows reads \\ between folders")
def test_a_path_written_with_windows_separators_says_how_to_write_it(tmp_path, cli):
    # A club folder sent from Windows: journal = ["data\\journal.toml"]. Here \ is part of a name, so
    # the file is not found; the message names the path to write, with /, which works everywhere.
    club = _club(tmp_path / "club", "data\\\\journal.toml")
    (club / "data").mkdir()
    (club / "journal.toml").rename(club / "data" / "journal.toml")
    result = cli("check", "--club", club)
    assert result.exit_code == 1, result.output
    assert ("data\\journal.toml: journal file not found: its path has \\ between folders, which only Windows reads "
            "so; write data/journal.toml in [club] journal in nardrating.toml") in result.stderr
    # Where no file is there either way, the usual words.
    (club / "data" / "journal.toml").unlink()
    result = cli("check", "--club", club)
    assert "data\\journal.toml: journal file not found; create it" in result.stderr


@pytest.mark.parametrize("beside", ["journal.toml.txt", "Journal.TOML"])
def test_a_journal_or_config_saved_under_a_near_name_is_named(tmp_path, cli, monkeypatch, beside):
    # A club folder sent from Windows: Notepad saved journal.toml as journal.toml.txt (Windows hides the
    # .txt), or a program wrote Journal.TOML; here neither is journal.toml.
    club = make_club(tmp_path / "club")
    (club / "journal.toml").rename(club / beside)
    result = cli("check", "--club", club)
    assert result.exit_code == 1
    assert (f"journal.toml: journal file not found; its folder has {beside}: rename it journal.toml, or name it in "
            f"[club] journal in nardrating.toml") in result.stderr
    (club / beside).rename(club / "journal.toml")
    (club / "nardrating.toml").rename(club / beside.replace("journal", "nardrating").replace("Journal", "Nardrating"))
    said = f"no club config here, but the folder has {beside.replace('journal', 'nardrating').replace('Journal', 'Nardrating')}"
    assert f"{said}: rename it nardrating.toml" in cli("check", "--club", club).stderr
    monkeypatch.chdir(club)   # found from the folder it runs in (no club above tmp_path)
    assert f"{said}: rename it nardrating.toml" in cli("check").stderr
