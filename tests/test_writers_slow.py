"""The writers besides the journal's append, under kills, concurrency and random targets: an output
named by -o/FILE, init's files and the published site are the old ones or the new ones, whole,
never written through a link or over something else, and nothing outside the named place changes.
(The journal's own writers have theirs in test_robustness.py and test_writer_fuzz.py.)"""
from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from nardrating import safewrite
from nardrating.exchange.publish import output as site_output

from .conftest import make_club

pytestmark = pytest.mark.slow

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
LATER = '\n[[match]]\nid = "m0002"\ndate = 2024-01-11\nplayers = ["anna", "boris"]\nwinner = "boris"\n'


def tree(folder: Path) -> dict[str, bytes | str]:
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        found[key] = f"link to {os.readlink(path)}" if path.is_symlink() else "folder" if path.is_dir() \
            else path.read_bytes()
    return found


def whole_workbook(path: Path) -> bool:
    try:
        with zipfile.ZipFile(path) as book:
            return book.testzip() is None and "xl/workbook.xml" in book.namelist()
    except (zipfile.BadZipFile, OSError):
        return False


# --- kills at every step of a write ---------------------------------------------------------

def _traced(module_file: str, on_call) -> None:
    """Call on_call(k) before the k-th call made from code of `module_file`."""
    calls = 0

    def profile(frame, event, arg):
        nonlocal calls
        caller = frame if event == "c_call" else frame.f_back
        if event in ("call", "c_call") and caller is not None and caller.f_code.co_filename == module_file:
            on_call(calls)
            calls += 1

    sys.setprofile(profile)


def _run_in_child(args: list[str], module_file: str, kill_at: int | None) -> int:
    """Fork; the child runs the command in-process, SIGKILLed before its kill_at-th call from the module."""
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            sys.stdout = sys.stderr = open(os.devnull, "w")
            from nardrating.cli import app

            if kill_at is not None:
                _traced(module_file, lambda k: k == kill_at and os.kill(os.getpid(), signal.SIGKILL))
            app([str(a) for a in args], prog_name="nardrating")
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 0
        finally:
            os._exit(code)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def _calls(args: list[str], module_file: str) -> int:
    """How many calls the module's code makes in one uninterrupted run (in a child, counted there)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        seen = [0]
        sys.stdout = sys.stderr = open(os.devnull, "w")
        from nardrating.cli import app

        _traced(module_file, lambda k: seen.__setitem__(0, k + 1))
        try:
            app([str(a) for a in args], prog_name="nardrating")
        except SystemExit:
            pass
        sys.setprofile(None)
        os.write(write, str(seen[0]).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    with os.fdopen(read) as f:
        return int(f.read() or 0)


def test_an_output_killed_at_every_step_is_the_old_file_or_the_new_one(tmp_path):
    club = make_club(tmp_path / "club", JOURNAL)
    target = tmp_path / "out" / "board.xlsx"
    target.parent.mkdir()
    target.write_bytes(b"last week's board")
    args = ["leaderboard", "--club", club, "-f", "xlsx", "-o", target]
    club_before = tree(club)
    steps = _calls(args, safewrite.__file__)
    target.write_bytes(b"last week's board")
    assert steps >= 6
    for n in range(steps + 1):
        status = _run_in_child(args, safewrite.__file__, n)
        assert status in (0, -signal.SIGKILL), n
        data = target.read_bytes()
        assert data == b"last week's board" or whole_workbook(target), n
        left = [p.name for p in target.parent.iterdir() if p != target]
        assert all(name.startswith(".board.xlsx.") and name.endswith(".tmp") for name in left), (n, left)
        for name in left:  # (only a kill between naming the new file and its rename leaves one)
            os.unlink(target.parent / name)
        target.write_bytes(b"last week's board")
    assert {k: v for k, v in tree(club).items() if k != ".nardrating.lock"} == \
        {k: v for k, v in club_before.items() if k != ".nardrating.lock"}


def test_init_killed_at_every_step_leaves_no_half_club(tmp_path):
    folder = tmp_path / "new"
    steps = _calls(["init", folder], safewrite.__file__)
    (folder / "nardrating.toml").unlink()
    (folder / "journal.toml").unlink()
    assert steps >= 8
    for n in range(steps + 1):
        status = _run_in_child(["init", folder], safewrite.__file__, n)
        assert status in (0, -signal.SIGKILL), n
        names = sorted(p.name for p in folder.iterdir()) if folder.exists() else []
        # A killed init leaves its files whole (each made in one step) or not at all.
        assert set(names) <= {"journal.toml", "nardrating.toml"}, (n, names)
        for name in names:
            text = (folder / name).read_text()
            assert text.endswith("\n") and ("[club]" in text if name == "nardrating.toml" else "journal" in text)
        for name in names:
            (folder / name).unlink()


def test_publish_killed_at_every_step_leaves_the_old_site_or_the_new_one(tmp_path, cli):
    club = make_club(tmp_path / "club", JOURNAL)
    site = tmp_path / "site"
    assert cli("publish", site, "--club", club).exit_code == 0
    (site / "CNAME").write_text("ratings.example.org\n")
    old = tree(site)
    (club / "journal.toml").write_text(JOURNAL + LATER)
    reference = tmp_path / "reference"
    assert cli("publish", reference, "--club", club).exit_code == 0
    new = {**tree(reference), "CNAME": b"ratings.example.org\n"}
    args = ["publish", site, "--club", club]
    steps = _calls(args, site_output.__file__)
    assert tree(site) == new
    assert steps >= 20
    for n in range(0, steps + 1, max(1, steps // 60)):
        _restore(site, old)  # the old site back, exactly
        status = _run_in_child(args, site_output.__file__, n)
        assert status in (0, -signal.SIGKILL), n
        assert tree(site) in (old, new), n
        for left in tmp_path.iterdir():  # a killed publish may leave its hidden folder: never OUTDIR
            if left.name.startswith(".site."):
                subprocess.run(["rm", "-rf", str(left)], check=True)


def _restore(site: Path, wanted: dict[str, bytes | str]) -> None:
    subprocess.run(["rm", "-rf", str(site)], check=True)
    site.mkdir()
    for key, value in wanted.items():
        path = site / key
        if value == "folder":
            path.mkdir(parents=True, exist_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(value)  # type: ignore[arg-type]


# --- concurrency ----------------------------------------------------------------------------

def test_concurrent_publishes_into_one_folder_leave_one_whole_site(tmp_path, cli):
    club = make_club(tmp_path / "club", JOURNAL + LATER)
    site = tmp_path / "site"
    assert cli("publish", site, "--club", club).exit_code == 0
    (site / "CNAME").write_text("ratings.example.org\n")
    expected = {}
    for day in ("2024-01-10", "2024-01-11"):
        reference = tmp_path / f"ref-{day}"
        assert cli("publish", reference, "--club", club, "--as-of", day).exit_code == 0
        expected[day] = {**tree(reference), "CNAME": b"ratings.example.org\n"}
    procs = [subprocess.Popen([sys.executable, "-m", "nardrating", "publish", str(site), "--club", str(club),
                               "--as-of", ("2024-01-10", "2024-01-11")[k % 2]], cwd=tmp_path,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for k in range(8)]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err.decode()
        assert b"left there" not in err  # one at a time: none swapped in under another
    assert tree(site) in expected.values()
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")]


def test_concurrent_outputs_to_one_file_leave_one_whole_file(tmp_path):
    club = make_club(tmp_path / "club", JOURNAL)
    target = tmp_path / "board.xlsx"
    procs = [subprocess.Popen([sys.executable, "-m", "nardrating", "leaderboard", "--club", str(club), "-f", "xlsx",
                               "-o", str(target)], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(10)]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err.decode()
    assert whole_workbook(target)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "club") == ["board.xlsx"]


# --- random targets ------------------------------------------------------------------------

KINDS = ["missing", "regular", "link-outside", "link-to-journal", "dangling-link", "fifo", "folder",
         "hard-link-to-journal", "missing-folder", "read-only-folder"]


def _make_target(kind: str, folder: Path, club: Path, victim: Path, name: str) -> Path:
    target = folder / name
    if kind == "regular":
        target.write_bytes(b"old")
    elif kind == "link-outside":
        os.symlink(victim, target)
    elif kind == "link-to-journal":
        os.symlink(club / "journal.toml", target)
    elif kind == "dangling-link":
        os.symlink(folder / "nowhere" / "x", target)
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()
    elif kind == "hard-link-to-journal":
        os.link(club / "journal.toml", target)
    elif kind == "missing-folder":
        target = folder / "no-such-folder" / name
    elif kind == "read-only-folder":
        os.chmod(folder, 0o555)
    return target


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(KINDS), command=st.sampled_from(["xlsx", "svg", "png", "plot", "init-config", "init-journal"]))
def test_any_target_is_written_whole_or_refused_plainly(cli, tmp_path_factory, kind, command):
    base = tmp_path_factory.mktemp("target")
    club = make_club(base / "club", JOURNAL)
    victim = base / "victim.txt"
    victim.write_text("someone else's")
    folder = base / "out"
    folder.mkdir()
    name = {"xlsx": "board.xlsx", "svg": "chart.svg", "png": "chart.png", "plot": "plot.svg",
            "init-config": "nardrating.toml", "init-journal": "journal.toml"}[command]
    club_before = (club / "journal.toml").read_bytes(), (club / "nardrating.toml").read_bytes()
    try:
        target = _make_target(kind, folder, club, victim, name)
        before = target.lstat() if os.path.lexists(target) else None
        args = {"xlsx": ["leaderboard", "--club", club, "-f", "xlsx", "-o", target],
                "svg": ["history", "anna", "--club", club, "--chart", target],
                "png": ["history", "anna", "--club", club, "--chart", target],
                "plot": ["backtest", "--club", club, "--plot", target]}.get(command, ["init", target.parent])
        result = cli(*args)
    finally:
        os.chmod(folder, 0o755)
    assert result.exit_code in (0, 1), result.output
    assert "unexpectedly" not in result.stderr and "Traceback" not in result.output
    assert victim.read_text() == "someone else's"
    assert ((club / "journal.toml").read_bytes(), (club / "nardrating.toml").read_bytes()) == club_before
    if result.exit_code == 0:  # written only where a file of its own may be made or replaced
        may = {"missing", "regular"} if not command.startswith("init") else {"missing", "missing-folder"}
        assert kind in may or (kind == "read-only-folder" and os.geteuid() == 0), kind
        assert stat.S_ISREG(os.lstat(target).st_mode) and target.read_bytes() != b"old"
    elif before is not None:
        after = os.lstat(target)
        assert (stat.S_IFMT(after.st_mode), after.st_ino) == (stat.S_IFMT(before.st_mode), before.st_ino), kind
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]
