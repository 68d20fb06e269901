"""Benchmark: whole `nardrating` processes on synthetic clubs, as ratios to yardsticks of the same run.

    python bench/run.py [--runs 5] [--matches 1000000] [--toml-matches 100000] [--out bench/out] [--only PREFIX…]

Generates the clubs with bench/generate.py when they are missing (10,000 players; 1,000,000
matches as CSV with LF and with CRLF line ends, and after a TOML file; 100,000 as TOML; fibs;
and 1,000,000 chess games, 10% draws, rated by elo, glicko and glicko2, one club each; chips over the
1M nardy CSV, mfsnb over its first 200,000 matches, fide over the first 200,000 chess games,
placement over the 1M nardy CSV in weekly tournaments).
Each of --runs rounds runs every process once, interleaved (on a shared machine the speed
drifts from minute to minute): the yardsticks — bench/bare.py (a bare `csv.reader` + FIBS
loop over the 1M CSV), bench/plain.py (a bare `csv.reader` + the elo, glicko or glicko2
formulas over the chess games) and `python -c 'import typer, rich, pydantic'` — then `recalc`
(serial and forked), and after it `leaderboard`, `history`, `players`, `add-match` (a real
append: the journal grows by one match per round), `leaderboard` after it, `--help`,
`backtest` of the TOML club over a 10-value grid, and per chess engine `recalc` (pure and
[fast]) and `leaderboard` and `history` (which read the replay the cache keeps); and per other
engine (chips, mfsnb, fide, placement) `recalc` against bench/plain.py's loop of its formulas over the same CSV,
and `leaderboard` and `history` (mfsnb and fide: also the first `history` after the recalc, which
replays the list and keeps every player's history for the next, and `add-match` of a game after
the club's last day and `leaderboard` after it).

Prints per process the median CPU time (user + system, steadier than wall time on a busy
machine), its ratio to its yardstick's median, the median wall time and the peak resident
memory over the rounds.
"""
from __future__ import annotations

import argparse
import importlib.util
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

BARE, IMPORTS = "bare csv.reader + FIBS loop", "python -c 'import typer, rich, pydantic'"
CHESS = ("elo", "glicko", "glicko2")
# The other engines, each on its own club (bench/generate.py write_other_clubs): (label, folder).
OTHERS = {"chips": "1M CSV, chips", "mfsnb": "200k CSV, mfsnb", "fide": "200k chess CSV, fide",
          "placement": "1M CSV, placement"}
PLAIN = {engine: f"plain csv.reader + {engine} formulas" for engine in CHESS + tuple(OTHERS)}
# (label prefix, yardstick, target ratio) of the targets
TARGETS = [("recalc", BARE, 1.2), ("recalc [fast]", BARE, 0.5), ("--help", IMPORTS, 1.2)] + [
    (command, IMPORTS, 2.0) for command in ("leaderboard", "history", "players", "add-match")] + [
    (f"recalc {engine}", PLAIN[engine], 1.2) for engine in CHESS] + [
    (f"recalc [fast] {engine}", PLAIN[engine], 0.5) for engine in CHESS] + [
    (f"{command} {engine}", IMPORTS, 2.0) for engine in CHESS for command in ("leaderboard", "history", "add-match")] + [
    (f"recalc {engine}", PLAIN[engine], 1.2) for engine in OTHERS] + [
    (f"{command} {engine}", IMPORTS, 2.0) for engine in OTHERS for command in ("leaderboard", "history", "add-match")] + [
    # the "leaderboard after an append": the read right after an add-match, on every club
    (f"leaderboard after add-match{f' {engine}' if engine else ''}", IMPORTS, 2.0)
    for engine in ("", *CHESS, *OTHERS)] + [
    (f"history after add-match {engine}", IMPORTS, 2.0) for engine in ("mfsnb", "fide")]
SHORT = {BARE: "bare loop", IMPORTS: "imports", **{stick: f"plain {engine}" for engine, stick in PLAIN.items()}}


def timed(argv: list[str], env: dict) -> tuple[float, float, float]:
    """(wall s, CPU s, peak resident MB) of one process."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr.read().decode()}")
    proc.stderr.close()
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "nardrating", *args]


def plan(clubs: dict, sample: Path) -> list[tuple[str, list[str], dict, str]]:
    """(label, argv, extra environment, yardstick) of every process of one round, in order."""
    csv1m = clubs["1M CSV"] / "matches.csv"
    items = [(BARE, [sys.executable, str(HERE / "bare.py"), str(csv1m)], {}, ""),
             (IMPORTS, [sys.executable, "-c", "import typer, rich, pydantic"], {}, ""),
             ("--help", cli("--help"), {}, IMPORTS),
             ("leaderboard, sample chess club", cli("leaderboard", "--club", str(sample)), {}, IMPORTS)]
    add = ("add-match", "p1", "p2", "--winner", "p1", "--date", "2019-12-31", "--discipline", "long-nardy")
    for name, club in clubs.items():
        if name.startswith("1M chess CSV") or name in OTHERS.values():
            continue  # below
        c = ("--club", str(club))
        recalcs = [("recalc", {"NARDRATING_PARALLEL": "0"})]
        if name == "1M CSV":
            recalcs.append(("recalc, forked", {"NARDRATING_PARALLEL": "1"}))
        for label, env in recalcs:
            items.append((f"{label}, {name}", cli("recalc", *c), env, BARE))
        items += [(f"{label}, {name}", cli(*args, *c), {}, IMPORTS) for label, args in (
            ("leaderboard", ("leaderboard",)), ("history", ("history", "p1")), ("players", ("players",)),
            ("add-match", add), ("leaderboard after add-match", ("leaderboard",)))]
    # With the [fast] extra (numba), where it is installed; every other row is pure Python.
    if importlib.util.find_spec("numba"):
        for name in ("1M CSV", "1M CSV, CRLF"):
            items.append((f"recalc [fast], {name}", cli("recalc", "--club", str(clubs[name])),
                          {"NARDRATING_PARALLEL": "0", "NARDRATING_FAST": "1"}, BARE))
    else:
        print("no [fast] rows: pip install 'nardrating[fast]' to measure them", file=sys.stderr)
    # Per chess engine: recalc of the 1M games, pure and [fast], against the plain loop of its formulas.
    fast = importlib.util.find_spec("numba") is not None
    for engine in CHESS:
        games = clubs[f"1M chess CSV, {engine}"]
        items.append((PLAIN[engine], [sys.executable, str(HERE / "plain.py"), engine, str(games / "games.csv")], {}, ""))
        c = ("--club", str(games))
        items.append((f"recalc {engine}, 1M chess CSV", cli("recalc", *c), {"NARDRATING_PARALLEL": "0"}, PLAIN[engine]))
        # The daily commands read the cached replay (every chess engine keeps it, and resumes it over
        # appended games: glicko's from just before its last period, rated again with them).
        chess_add = ("add-match", "p1", "p2", "--winner", "p1", "--date", "2019-12-31")
        items += [(f"{label} {engine}, 1M chess CSV", cli(*args, *c), {}, IMPORTS)
                  for label, args in (("leaderboard", ("leaderboard",)), ("history", ("history", "p1")),
                                      ("add-match", chess_add), ("leaderboard after add-match", ("leaderboard",)),
                                      ("report --period", ("report", "--period", "2019-Q3")),
                                      ("explain", ("explain", "c500000")))]
        if engine == "elo":   # a new player checked against the 10,000 (a writer's near-duplicate warnings)
            items.append(("add-player --dry-run, 1M chess CSV", cli("add-player", "newcomer", "--name", "New Comer",
                                                                   "--dry-run", *c), {}, IMPORTS))
        if fast:
            items.append((f"recalc [fast] {engine}, 1M chess CSV", cli("recalc", *c),
                          {"NARDRATING_PARALLEL": "0", "NARDRATING_FAST": "1"}, PLAIN[engine]))
    # The other engines: recalc against the plain loop of their formulas over the same CSV.
    for engine, name in OTHERS.items():
        club = clubs[name]
        extra = [str(club / "ratings.toml")] if engine == "fide" else []
        items.append((PLAIN[engine], [sys.executable, str(HERE / "plain.py"), engine, str(club / "matches.csv"), *extra], {}, ""))
        items.append((f"recalc {engine}, {name.split(', ')[0]}", cli("recalc", "--club", str(club)),
                      {"NARDRATING_PARALLEL": "0"}, PLAIN[engine]))
        # The daily reads: chips and placement keep their replay in the cache; mfsnb's and fide's
        # leaderboard reads the standings kept beside the journal's snapshot (recalc keeps them), and
        # their first history after a recalc replays the list and keeps every player's history, which
        # every history after it reads (the row without "after recalc").
        # mfsnb and fide: also a game entered after the club's last day (2012-01-01), and the
        # leaderboard and a player's history after it (both read the standings and histories
        # add-match kept, worked out over the game and carried over it).
        reads = (("leaderboard", ("leaderboard",)),) + (
            (("history after recalc", ("history", "p2")),) if engine in ("mfsnb", "fide") else ()) + (
            ("history", ("history", "p1")),) + ((
            ("add-match", ("add-match", "p1", "p2", "--winner", "p1", "--date", "2012-01-15")),
            ("leaderboard after add-match", ("leaderboard",)),
            ("history after add-match", ("history", "p1"))) if engine in ("mfsnb", "fide") else ())
        items += [(f"{label} {engine}, {name.split(', ')[0]}", cli(*args, "--club", str(club)), {}, IMPORTS)
                  for label, args in reads]
    # backtest: ten candidates (one list over ten values of factor), each a replay of the 100k
    # TOML journal, scored; against the bare loop, which reads ten times as many matches once.
    grid = "factor=2,3,4,5,6,7,8,9,10,12"
    items.append(("backtest, 10-value grid, 100k TOML",
                  cli("backtest", "--param", grid, "--format", "json", "--club", str(clubs["100k TOML"])), {}, BARE))
    return items


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--toml-matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--out", type=Path, default=HERE / "out")
    parser.add_argument("--regenerate", action="store_true")
    parser.add_argument("--only", nargs="*", action="extend", default=[], metavar="PREFIX",
                        help="only the processes whose label starts with one of these (and the yardsticks); "
                             "leading dashes are ignored, so `help` or `--only=--help` selects --help")
    args = parser.parse_args()

    names = ("csv-club", "crlf-club", "toml-first-club", "toml-club") + tuple(f"{engine}-club" for engine in CHESS + tuple(OTHERS))
    if args.regenerate or not all((args.out / name).exists() for name in names):
        shutil.rmtree(args.out, ignore_errors=True)
    clubs = generate.write_all(args.out, args.matches, args.toml_matches, args.players) \
        if not (args.out / names[0]).exists() else \
        dict(zip(("1M CSV", "1M CSV, CRLF", "1M, TOML first", "100k TOML") + tuple(f"1M chess CSV, {e}" for e in CHESS)
                 + tuple(OTHERS.values()), (args.out / n for n in names)))
    for engine in CHESS:   # (their games added by add-match in an earlier run dropped; older outputs given one)
        generate.write_chess_config(clubs[f"1M chess CSV, {engine}"], engine)
    for engine, name in OTHERS.items():   # (the same for mfsnb's and fide's)
        generate.write_other_config(clubs[name], engine)
    cache = args.out / "cache"
    shutil.rmtree(cache, ignore_errors=True)  # starts without a cache
    # Bytecode cached as an installed program has it (outside the source tree), even where
    # PYTHONDONTWRITEBYTECODE is set: else every process compiles the package anew.
    env = {**os.environ, "NARDRATING_CLUB": "", "XDG_CACHE_HOME": str(cache),
           "PYTHONPYCACHEPREFIX": str(args.out / "pycache"), "NARDRATING_FAST": "0"}  # [fast] rows say =1
    for name in ("NARDRATING_PARALLEL", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    items = plan(clubs, HERE.parent / "sample_ledgers" / "chess-club")
    if args.only:
        prefixes = tuple(prefix.lstrip("-") for prefix in args.only)
        items = [item for item in items if not item[3] or item[0].lstrip("-").startswith(prefixes)]
    seen: dict[str, list] = {label: [] for label, *_ in items}
    for _ in range(args.runs):
        for label, argv, extra, _yardstick in items:
            seen[label].append(timed(argv, {**env, **extra}))

    def median(label: str, k: int) -> float:
        return statistics.median(r[k] for r in seen[label])

    print(f"nardrating benchmark: {platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} cores, {platform.machine()}, load average {os.getloadavg()[0]:.1f}; "
          f"median of {args.runs} interleaved runs")
    print(f"{'process':<44} {'CPU s':>7} {'ratio':>6} {'wall s':>7} {'w.ratio':>7} {'peak MB':>8}  yardstick")
    for label, _argv, _extra, yardstick in items:
        ratio = f"{median(label, 1) / median(yardstick, 1):.2f}" if yardstick else ""
        wall_ratio = f"{median(label, 0) / median(yardstick, 0):.2f}" if yardstick else ""
        print(f"{label:<44} {median(label, 1):>7.2f} {ratio:>6} {median(label, 0):>7.2f} {wall_ratio:>7} "
              f"{max(r[2] for r in seen[label]):>8.0f}  {SHORT.get(yardstick, '(yardstick)')}")
    print("\ntargets (CPU ratio; peak memory of recalc ≤ 400 MB):")
    for label, _argv, _extra, yardstick in items:
        for prefix, stick, limit in TARGETS:
            if label.split(",")[0] == prefix and stick == yardstick and "forked" not in label and (
                    "1M CSV" in label if prefix == "recalc" else "1M" in label or "200k" in label or prefix == "--help"):
                ratio = median(label, 1) / median(yardstick, 1)
                peak = max(r[2] for r in seen[label])
                memory_ok = not label.startswith("recalc") or peak <= 400
                verdict = "met" if ratio <= limit and memory_ok else (
                    f"missed: {ratio:.2f}× > {limit}×" if ratio > limit else "") + (
                    "" if memory_ok else f"{'; ' if ratio > limit else 'missed: '}{peak:.0f} MB > 400 MB")
                print(f"  {label:<44} ≤ {limit}×: {verdict}")
                break
    # Forked recalc is used only where it wins (replay/parallel.py): here, against serial.
    for label in seen:
        serial = label.replace("recalc, forked,", "recalc,")
        if label.startswith("recalc, forked,") and serial in seen and seen[label] and seen[serial]:
            print(f"  {label:<44} {median(label, 1) / median(serial, 1):.2f}× the serial recalc's CPU")


if __name__ == "__main__":
    main()
