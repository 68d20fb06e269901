import atexit
import functools
import gzip
import json
import os
import shutil
import sys
import tempfile
import unicodedata
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir
from typer.testing import CliRunner

# Fixed examples (the same on every run) and no example database in the source tree; Hypothesis's
# own caches (unicode tables, constants) go to a folder of this test run, not ./.hypothesis.
settings.register_profile("nardrating", derandomize=True, database=None)
settings.load_profile("nardrating")
HYPOTHESIS_HOME = Path(tempfile.mkdtemp(prefix="nardrating-test-hypothesis-"))
set_hypothesis_home_dir(HYPOTHESIS_HOME)


def _utf8_table_for_hypothesis() -> None:
    """st.text() draws characters UTF-8 can encode; Hypothesis finds them by encoding each of the
    1,114,112 code points (4 s in each test process) unless its folder holds the answer, in its
    format of version 2. The answer is known: all but the surrogates, each decoding to itself.
    (Another format has another file name: Hypothesis then works it out, as before.)"""
    table = HYPOTHESIS_HOME / "unicode_data" / unicodedata.unidata_version / "codec-v2-utf-8.json.gz"
    table.parent.mkdir(parents=True)
    table.write_bytes(gzip.compress(json.dumps([[[0, 0xD7FF], [0xE000, sys.maxunicode]], []]).encode(), mtime=1))


_utf8_table_for_hypothesis()

# Derived data (the cache) goes to a folder of this test run, never into the source tree.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="nardrating-test-cache-")
# Both folders are this process's alone and go with it (a run's caches are some 20 MB a process).
for _folder in (HYPOTHESIS_HOME, Path(os.environ["XDG_CACHE_HOME"])):
    atexit.register(shutil.rmtree, _folder, ignore_errors=True)
# English, whatever the machine's locale (tests/test_languages.py sets the locale where it means to).
for _variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_variable, None)
os.environ["LANG"] = "C.UTF-8"
# The pure-Python path, even where the [fast] extra is installed (tests/test_fast_path.py compares the two).
os.environ["NARDRATING_FAST"] = "0"

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_ledgers"

ELO_CONFIG = """\
[club]
name = "Test club"
journal = ["journal.toml"]
default_discipline = "chess"

[rating.club]
engine = "elo"
start = 1200
k = 20
provisional_games = 5
pair_limit_per_day = 2
"""


def make_club(folder: Path, journal: str = "", config: str = ELO_CONFIG, name: str = "journal.toml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "nardrating.toml").write_text(config, encoding="utf-8")
    (folder / name).write_text(journal, encoding="utf-8")
    return folder


@contextmanager
def no_cache():
    """Inside the block every read is a full read of the journal (NARDRATING_NO_CACHE=1)."""
    os.environ["NARDRATING_NO_CACHE"] = "1"
    try:
        yield
    finally:
        del os.environ["NARDRATING_NO_CACHE"]


def sample_ledgers_state() -> dict[str, tuple[int, int]]:
    """Every file of sample_ledgers/ (and whether one was added): path → (size, modification time)."""
    return {str(p.relative_to(SAMPLES)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in sorted(SAMPLES.rglob("*")) if p.is_file() or p.is_dir()}


@pytest.fixture(autouse=True, scope="session")
def _sample_ledgers_untouched():
    """Tests read the sample ledgers and write only into copies of them (tmp_path): a test that
    writes into sample_ledgers/ (an entry, a lock, a cache folder) fails the run."""
    before = sample_ledgers_state()
    yield
    after = sample_ledgers_state()
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    assert not changed, f"the tests wrote into sample_ledgers/: {changed}"


@pytest.fixture(autouse=True)
def _keep_cwd(monkeypatch):
    """Tests may chdir into a club; monkeypatch puts the old folder back."""
    import os

    monkeypatch.chdir(os.getcwd())


def _build_the_app_once() -> None:
    """typer's CliRunner builds the whole app on every invoke (each command's parameters from its
    signature: 0.15 s, thirty times what a cached leaderboard itself costs). nardrating's app never
    changes after import, so each test process builds it once; any other Typer is built as before."""
    import typer.testing

    build = getattr(typer.testing, "_get_command", None)
    if build is None:  # another typer: every invoke builds the app, as it did
        return

    @functools.cache
    def whole_app(app):
        return build(app)

    def get_command(app):
        from nardrating.cli import app as nardrating_app

        return whole_app(app) if app is nardrating_app else build(app)

    typer.testing._get_command = get_command


_build_the_app_once()


@pytest.fixture
def cli():
    """Run the CLI in-process with a fixed terminal width; returns the Result."""
    runner = CliRunner()
    from nardrating.cli import app

    def run(*args, env=None):
        merged = {"COLUMNS": "100", "NARDRATING_CLUB": ""}
        merged.update(env or {})
        return runner.invoke(app, [str(a) for a in args], env=merged)

    return run


@pytest.fixture
def cli_json(cli):
    def run(*args):
        result = cli(*args, "--format", "json")
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    return run


@pytest.fixture
def tiny_disk(tmp_path):
    """A 256 kB filesystem of its own (tmpfs; root only, else the test is skipped): a full disk for real."""
    import subprocess

    folder = tmp_path / "tiny"
    folder.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)],
                                           capture_output=True).returncode != 0:
        pytest.skip("needs a small filesystem of its own (mount -t tmpfs, as root)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> None:
    """Fill the folder's filesystem up to its last byte with a file named filler."""
    with open(folder / "filler", "ab", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError:
            pass
