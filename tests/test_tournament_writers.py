"""The tournament writers (pair, results, join, withdraw) survive concurrency, kills and hostile input:
each lands whole or not at all, and a journal a writer leaves is one a full read accepts."""
from __future__ import annotations

import random
import shutil
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nardrating.replay.loader import load_club

from .conftest import SAMPLES

CLI = [sys.executable, "-m", "nardrating"]
ROUND_4 = ["anna gleb 1/2-1/2", "zoya dina 0-1", "boris vera 1-0", "kira egor 1-0", "ivan lev 1-0"]


@pytest.fixture
def club(tmp_path):
    folder = tmp_path / "club"
    shutil.copytree(SAMPLES / "club-swiss", folder)
    return folder


def kinds(club: Path) -> dict[str, list[dict]]:
    return tomllib.loads((club / "journal.toml").read_text(encoding="utf-8"))


def loads(club: Path) -> None:
    load_club(club)                          # through whatever cache a writer left
    load_club(club, use_cache=False)         # and a full read: raises if it refuses the journal


@pytest.mark.slow
def test_concurrent_pairs_give_one_round_and_concurrent_results_every_board(club, tmp_path):
    # Eight processes pair the round-robin's round 3 at once: the first under the lock pairs it, the
    # others then find its boards without results and are refused, writing nothing.
    pair = [*CLI, "pair", "club-championship", "--date", "2025-04-19", "--club", str(club)]
    procs = [subprocess.Popen(pair, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(8)]
    codes = [p.wait(timeout=120) for p in procs]
    assert sorted(codes) == [0] + [1] * 7
    assert [r["round"] for r in kinds(club)["round"] if r["tournament"] == "club-championship"] == [1, 2, 3]
    # Five processes enter round 4's five boards of the spring open, one each, at once: all land.
    files = []
    for k, line in enumerate(ROUND_4):
        files.append(tmp_path / f"board-{k}.txt")
        files[-1].write_text(line + "\n", encoding="utf-8")
    procs = [subprocess.Popen([*CLI, "results", "spring-open", str(f), "--club", str(club)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for f in files]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()
    matches = [m for m in kinds(club)["match"] if m.get("round") == 4 and m["tournament"] == "spring-open"]
    assert len(matches) == 5 and len({m["id"] for m in matches}) == 5
    loads(club)


def _kill_runs(club: Path, argv: list[str], runs: int, seed: int) -> None:
    """Start `argv` again and again, killing it at a random moment; after each, the journal is the old
    one or the old one plus the whole new entry, and it loads."""
    rng = random.Random(seed)
    started = time.monotonic()
    trial = subprocess.run(argv, capture_output=True, check=False)
    whole = time.monotonic() - started
    assert trial.returncode in (0, 1), trial.stderr.decode()
    before = (club / "journal.toml").read_bytes()
    for _ in range(runs):
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0, whole * 1.1))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        after = (club / "journal.toml").read_bytes()
        assert after == before or after.startswith(before), "a killed writer changed bytes that were there"
        loads(club)
        before = after


@pytest.mark.slow
def test_pair_and_results_killed_at_random_moments(club, tmp_path):
    # pair: each run that lands appends one round, the next is refused (the round lacks results)
    # until results are entered; results: a run that lands enters its board, the next is refused.
    _kill_runs(club, [*CLI, "pair", "club-championship", "--date", "2025-04-19", "--club", str(club)], 12, 26)
    rounds = [r["round"] for r in kinds(club).get("round", []) if r["tournament"] == "club-championship"]
    assert rounds in ([1, 2], [1, 2, 3])
    board = tmp_path / "board.txt"
    board.write_text(ROUND_4[0] + "\n", encoding="utf-8")
    _kill_runs(club, [*CLI, "results", "spring-open", str(board), "--club", str(club)], 12, 27)
    entered = [m for m in kinds(club)["match"] if m.get("round") == 4 and m["players"] == ["anna", "gleb"]]
    assert len(entered) <= 1


AWKWARD = ["anna", "boris", "zed", "spring-open", "club-championship", "", " ", "\n", "\x1b[2J", "x²", "'", '"""',
           "[[round]]", "0", "-1", "99", "2025-03-29", "2025-04-19", "1900-01-01", "3000-01-01", "1-0", "+-", "--",
           "½-½", "a" * 150]
TEXT = st.one_of(st.sampled_from(AWKWARD), st.text(max_size=8))
LINES = st.lists(st.tuples(TEXT, TEXT, TEXT).map(" ".join), max_size=4).map("\n".join)


def _judge(cli, club: Path, args: list[str], text: str | None = None) -> None:
    from typer.testing import CliRunner

    from nardrating.cli import app

    before = (club / "journal.toml").read_bytes()
    result = CliRunner().invoke(app, [*args, "--club", str(club)], input=text,
                                env={"COLUMNS": "100", "NARDRATING_CLUB": ""})
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
    assert "Traceback" not in result.output and "failed unexpectedly" not in result.output, (args, result.output)
    if result.exit_code == 0:
        loads(club)
    else:
        assert (club / "journal.toml").read_bytes() == before, args


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(command=st.sampled_from(["pair", "results", "join", "withdraw"]), tournament=TEXT, player=TEXT, day=TEXT,
       lines=LINES, extra=st.lists(TEXT, max_size=2))
def test_hostile_arguments_never_break_the_journal(cli, club, command, tournament, player, day, lines, extra):
    if command == "pair":
        args = ["pair", tournament, "--date", day, *[part for p in extra for part in ("--absent", p)]]
        _judge(cli, club, [a for a in args if a != "--date" or day])
    elif command == "results":
        _judge(cli, club, ["results", tournament, "-", *(["--round", extra[0]] if extra else [])], lines)
    else:
        _judge(cli, club, [command, tournament, player, *(["--date", day] if day.strip() else [])])
