"""Benchmark: whole `nardrating` processes on synthetic clubs; prints one table.

    python bench/run.py [--runs 5] [--matches 1000000] [--toml-matches 100000] [--out bench/out]

Generates the clubs with bench/generate.py when they are missing (10,000
players; 1,000,000 matches as CSV; 100,000 as TOML; fibs), then times, as
separate processes, the median of --runs runs of: `recalc`; after it
`leaderboard`, `history`, `add-match` (each append is real: the journal
grows by one match per run); `nardrating --help`; and `backtest` of the
TOML club over a 10-value grid. Peak memory is the
largest resident set of any of those processes.
"""
from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402


def timed(args: list[str], env: dict) -> tuple[float, float]:
    """(wall seconds, peak resident MB) of one process."""
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "nardrating", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"nardrating {' '.join(args)} failed: {proc.stderr.read().decode()}")
    return wall, usage.ru_maxrss / 1024


def measure(label: str, args: list[str], runs: int, env: dict, rows: list) -> None:
    results = [timed(args, env) for _ in range(runs)]
    walls = [w for w, _ in results]
    rows.append((label, statistics.median(walls), min(walls), max(walls), max(m for _, m in results)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--toml-matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--out", type=Path, default=HERE / "out")
    parser.add_argument("--regenerate", action="store_true")
    args = parser.parse_args()

    csv_club, toml_club = args.out / "csv-club", args.out / "toml-club"
    if args.regenerate or not csv_club.exists() or not toml_club.exists():
        shutil.rmtree(args.out, ignore_errors=True)
        generate.write_csv_club(csv_club, args.matches, args.players)
        generate.write_toml_club(toml_club, args.toml_matches, args.players)
    env = {**os.environ, "NARDRATING_CLUB": ""}
    rows: list = []
    sample = HERE.parent / "sample_ledgers" / "chess-club"
    measure("--help", ["--help"], args.runs, env, rows)
    measure("leaderboard, sample chess club", ["leaderboard", "--club", str(sample)], args.runs, env, rows)
    for name, club in (("1M CSV", csv_club), ("100k TOML", toml_club)):
        env["XDG_CACHE_HOME"] = str(args.out / f"cache-{club.name}")  # starts without a cache
        shutil.rmtree(env["XDG_CACHE_HOME"], ignore_errors=True)
        c = ["--club", str(club)]
        measure(f"recalc, {name}", ["recalc", *c], args.runs, env, rows)
        measure(f"leaderboard, {name}", ["leaderboard", *c], args.runs, env, rows)
        measure(f"leaderboard --format json, {name}", ["leaderboard", "--format", "json", *c], args.runs, env, rows)
        measure(f"history, {name}", ["history", "p1", *c], args.runs, env, rows)
        measure(f"add-match, {name}", ["add-match", "p1", "p2", "--winner", "p1", "--date", "2019-12-31",
                                        "--discipline", "long-nardy", *c], args.runs, env, rows)
        measure(f"leaderboard after add-match, {name}", ["leaderboard", *c], args.runs, env, rows)
    # Ten candidates (one list over ten values of factor), each a replay of the 100k journal, scored.
    grid = "factor=2,3,4,5,6,7,8,9,10,12"
    measure("backtest, 10-value grid, 100k TOML", ["backtest", "--param", grid, "--format", "json",
                                                   "--club", str(toml_club)], args.runs, env, rows)

    print(f"nardrating benchmark: {platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} cores, {platform.machine()}; median of {args.runs} runs")
    print(f"{'command':<44} {'median s':>9} {'min s':>7} {'max s':>7} {'peak MB':>8}")
    for label, median, low, high, peak in rows:
        print(f"{label:<44} {median:>9.2f} {low:>7.2f} {high:>7.2f} {peak:>8.0f}")


if __name__ == "__main__":
    main()
