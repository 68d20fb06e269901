"""Benchmark: a journal of a million tournaments (about 100 MB of TOML), as ratios to yardsticks of
the same run.

    python bench/many_tournaments.py [--runs 3] [--tournaments 1000000] [--out bench/out] [--python PYTHON]

The club has two players, no match and N [[tournament]] entries (one elo list). Each round runs,
interleaved: the yardsticks, `python -c 'import typer, rich, pydantic'` (for the daily commands)
and a bare `tomllib.load` of the journal (for a full read); then `check` with the cache off (a full
read), `leaderboard` (the cached journal), `add-player` (a real append: the journal grows by one
player a round), `leaderboard` after it (the cached journal and its tail) and `players`. Prints per
process the median CPU time (user + system), its ratio to its yardstick, the median wall time and
the peak resident memory. `--python` runs another interpreter's nardrating (the code before a
change, say) against the same clubs and yardsticks. The processes run in the output folder, so
that `-m nardrating` is the interpreter's installed package, not a source tree beside it.
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
from datetime import date, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
CONFIG = '[club]\nname = "A million tournaments"\njournal = ["journal.toml"]\ndefault_discipline = "chess"\n\n' \
         '[rating.club]\nengine = "elo"\n'
IMPORTS, BARE = "python -c 'import typer, rich, pydantic'", "bare tomllib.load of the journal"


def write_club(folder: Path, n: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "nardrating.toml").write_text(CONFIG)
    first = date(2000, 1, 1)
    with open(folder / "journal.toml", "w", encoding="utf-8") as out:
        out.write('[[player]]\nid = "anna"\n\n[[player]]\nid = "boris"\n\n')
        for k in range(n):
            day = first + timedelta(days=k % 9000)
            out.write(f'[[tournament]]\nid = "t{k:07d}"\nname = "Cup {k}"\nsystem = "swiss"\nstart = {day}\nend = {day}\n\n')


def timed(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, float]:
    """(wall s, CPU s, peak resident MB) of one process."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    assert proc.stderr is not None
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr.read().decode()}")
    proc.stderr.close()
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tournaments", type=int, default=1_000_000)
    parser.add_argument("--out", type=Path, default=HERE / "out")
    parser.add_argument("--python", default=sys.executable, help="the interpreter whose nardrating is measured")
    args = parser.parse_args()

    out = args.out.resolve()
    club = out / f"tournaments-{args.tournaments}"
    if not (club / "journal.toml").exists():
        write_club(club, args.tournaments)
    cache = out / "tournaments-cache"
    shutil.rmtree(cache, ignore_errors=True)
    env = {**os.environ, "NARDRATING_CLUB": "", "XDG_CACHE_HOME": str(cache),
           "PYTHONPYCACHEPREFIX": str(out / "pycache"), "NARDRATING_FAST": "0"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cli = [args.python, "-m", "nardrating"]
    # The first command of a run reads the journal in full and writes the cache.
    timed([*cli, "leaderboard", "--club", str(club)], env, out)
    plan: list[tuple[str, list[str], dict[str, str], str]] = [
        (IMPORTS, [sys.executable, "-c", "import typer, rich, pydantic"], {}, ""),
        (BARE, [sys.executable, "-c", f"import tomllib; tomllib.load(open({str(club / 'journal.toml')!r}, 'rb'))"], {}, ""),
        ("check, full read (no cache)", [*cli, "check", "--club", str(club)], {"NARDRATING_NO_CACHE": "1"}, BARE),
        ("leaderboard, cached", [*cli, "leaderboard", "--club", str(club)], {}, IMPORTS),
        ("add-player", [*cli, "add-player", "{player}", "--club", str(club)], {}, IMPORTS),
        ("leaderboard after add-player", [*cli, "leaderboard", "--club", str(club)], {}, IMPORTS),
        ("players, cached", [*cli, "players", "--club", str(club)], {}, IMPORTS),
    ]
    seen: dict[str, list[tuple[float, float, float]]] = {label: [] for label, *_ in plan}
    for run in range(args.runs):
        for label, argv, extra, _yardstick in plan:
            argv = [a.replace("{player}", f"p{os.getpid()}x{run}") for a in argv]
            seen[label].append(timed(argv, {**env, **extra}, out))

    def median(label: str, k: int) -> float:
        return statistics.median(r[k] for r in seen[label])

    print(f"nardrating benchmark, {args.tournaments:,} tournaments: {platform.python_implementation()} "
          f"{platform.python_version()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; "
          f"median of {args.runs} interleaved runs; nardrating of {args.python}")
    print(f"{'process':<44} {'CPU s':>7} {'ratio':>6} {'wall s':>7} {'peak MB':>8}  yardstick")
    for label, _argv, _extra, yardstick in plan:
        ratio = f"{median(label, 1) / median(yardstick, 1):.2f}" if yardstick else ""
        print(f"{label:<44} {median(label, 1):>7.2f} {ratio:>6} {median(label, 0):>7.2f} "
              f"{max(r[2] for r in seen[label]):>8.0f}  {'tomllib' if yardstick == BARE else 'imports' if yardstick else '(yardstick)'}")


if __name__ == "__main__":
    main()
