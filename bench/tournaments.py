"""Benchmark: the tournament director's two speed targets, as CPU seconds and ratios to a yardstick.

    python bench/tournaments.py [--runs 5] [--players 300] [--rounds 9]

A synthetic Swiss of --players (ratings spread, 5 % absent, a few half-point byes, withdrawals
and forfeits, fixed seed) is paired by the Dutch system (py4swiss, the `pairing` extra) for
--rounds − 1 rounds and played; then, in each of --runs rounds, interleaved:
  - the yardstick: a fixed pure-Python loop (sorting and summing 300,000 floats, 5 times);
  - a Dutch round: pairing round 2 (the largest score groups) and round --rounds of the event
    (issue target: ≤ 3 s);
  - standings of the event after its --rounds rounds, with the default Swiss tie-breaks and all
    ten FIDE tie-breaks (issue target: ≤ 0.3 s).
Prints the median CPU time (user + system of this process) of each and its ratio to the
yardstick's median. With --cli, the event is also written as a club's journal (its players,
[[tournament]], [[round]]s and [[match]]es) and whole processes are timed the same way:
`nardrating pair T --dry-run` (round --rounds) and `nardrating standings T`, against the yardstick
`python -c 'import typer, rich, pydantic'`.
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from nardrating.tournaments.dutch import DutchPairer  # noqa: E402
from nardrating.tournaments.model import Entrant, Tournament  # noqa: E402
from nardrating.tournaments.pairing import next_round  # noqa: E402
from nardrating.tournaments.standings import standings  # noqa: E402
from nardrating.tournaments.names import TIEBREAKS  # noqa: E402

TARGETS = {"Dutch round 2": 3.0, "Dutch round": 3.0, "standings": 0.3}


def cpu() -> float:
    return time.process_time()


def yardstick() -> None:
    rng = random.Random(1)
    values = [rng.random() for _ in range(300_000)]
    for _ in range(5):
        sum(sorted(values))


def play(state: Tournament, paired, rng: random.Random, strength: dict[str, float]) -> Tournament:
    boards = []
    for b in paired.boards:
        if rng.random() < 0.02:
            result = rng.choice(("+-", "-+"))
        else:
            edge = strength[b.white] - strength[b.black]
            u = rng.random()
            result = "1/2-1/2" if u < 0.25 else "1-0" if rng.random() < 1 / (1 + 10 ** (-edge / 400)) else "0-1"
        boards.append(replace(b, result=result))
    return state.with_round(replace(paired, boards=tuple(boards)))


def event(players: int, rounds: int, seed: int = 20) -> tuple[list[Tournament], random.Random, dict[str, float]]:
    """The event after each round, up to rounds − 1, ready to pair the last one."""
    rng = random.Random(seed)
    entrants = tuple(Entrant(k, f"p{k}", f"Player {k}", 2600 - 1500 * (k - 1) / players) for k in range(1, players + 1))
    state = Tournament("bench", "Bench open", "dutch", rounds, entrants)
    strength = {e.player: (e.rating or 1500) + rng.gauss(0, 150) for e in entrants}
    states = [state]
    for number in range(1, rounds):
        if number > 1:
            gone = {e.player for e in state.entrants if e.active_in(number) and rng.random() < 0.01}
            state = replace(state, entrants=tuple(replace(e, withdrawn=number) if e.player in gone else e
                                                  for e in state.entrants), _cells=None)
        active = [e.player for e in state.entrants if e.active_in(number)]
        away = [p for p in active if rng.random() < 0.05]
        halves = [p for p in active if p not in away and rng.random() < 0.02]
        state = play(state, next_round(state, DutchPairer(), absent=away, half_byes=halves), rng, strength)
        states.append(state)
    return states, rng, strength


def write_club(state: Tournament, folder: Path) -> None:
    """The event as a club: elo, its players, the tournament and its rounds and results."""
    from nardrating.journal.writer import entry_block

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "nardrating.toml").write_text('[club]\nname = "Bench"\njournal = ["journal.toml"]\n\n'
                                            '[rating.club]\nengine = "elo"\n', encoding="utf-8")
    blocks = [entry_block("player", {"id": e.player, "name": e.name}) for e in state.entrants]
    blocks.append(entry_block("tournament", {
        "id": state.id, "name": state.name, "system": "swiss", "start": "2025-01-04", "end": "2025-03-01",
        "pairing": "dutch", "rounds": state.rounds_planned, "players": [e.player for e in state.entrants]}))
    from datetime import date, timedelta

    number = 0
    for r in state.rounds:
        day = date(2025, 1, 4) + timedelta(days=7 * (r.number - 1))
        for e in state.entrants:
            if e.withdrawn == r.number:
                blocks.append(entry_block("withdraw", {"tournament": state.id, "player": e.player,
                                                       "round": r.number, "date": day}))
        blocks.append(entry_block("round", {
            "tournament": state.id, "round": r.number, "date": day,
            "boards": [{"board": b.board, "white": b.white, "black": b.black} for b in r.boards] or None,
            "byes": [{"player": b.player, "kind": b.kind} for b in r.byes] or None}))
        for b in r.boards:
            number += 1
            forfeit = b.result in ("+-", "-+")
            result = {"+-": "1-0", "-+": "0-1"}.get(b.result or "", b.result)
            blocks.append(entry_block("match", {"id": f"m{number:05d}", "date": day, "players": [b.white, b.black],
                                                "result": result, "tournament": state.id, "round": r.number,
                                                "forfeit": forfeit or None}))
    text = "\n".join(blocks).replace("= None\n", "")
    (folder / "journal.toml").write_text(text, encoding="utf-8")


def process(argv: list[str]) -> float:
    """CPU seconds (user + system) of one whole process."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr.read().decode() if proc.stderr else ''}")
    return usage.ru_utime + usage.ru_stime


def cli_rows(state: Tournament, runs: int) -> None:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="nardrating-bench-") as folder:
        club = Path(folder) / "club"
        write_club(state, club)
        cli = [sys.executable, "-m", "nardrating"]
        items = {"python -c 'import typer, rich, pydantic'": [sys.executable, "-c", "import typer, rich, pydantic"],
                 f"pair --dry-run, round {len(state.rounds) + 1}": [*cli, "pair", state.id, "--date", "2025-03-01",
                                                                    "--dry-run", "--club", str(club)],
                 f"standings after round {len(state.rounds)}": [*cli, "standings", state.id, "--club", str(club)]}
        process([*cli, "check", "--club", str(club)])  # reads the journal once, writes its cache
        times: dict[str, list[float]] = {label: [] for label in items}
        for _ in range(runs):
            for label, argv in items.items():
                times[label].append(process(argv))
        base = statistics.median(next(iter(times.values())))
        print(f"\nwhole processes, {len(state.entrants)} players ({len(state.rounds)} rounds in the journal):")
        for label, values in times.items():
            value = statistics.median(values)
            print(f"{label:<45} {value:7.3f} {value / base:6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--cli", action="store_true", help="also time whole pair and standings processes")
    args = parser.parse_args()
    try:
        import py4swiss  # noqa: F401
    except ImportError:
        raise SystemExit("the Dutch round needs the pairing extra: pip install -e '.[pairing]'") from None
    started = cpu()
    states, rng, strength = event(args.players, args.rounds)
    second, state = states[1], states[-1]
    print(f"{args.players}-player event, {args.rounds - 1} rounds paired by the Dutch system in "
          f"{cpu() - started:.1f} s of CPU")
    final = play(state, next_round(state, DutchPairer()), rng, strength)
    last = f"Dutch round {args.rounds}"
    TARGETS[last] = TARGETS["Dutch round"]
    times: dict[str, list[float]] = {"yardstick": [], "Dutch round 2": [], last: [], "standings": [],
                                     "standings, all ten": []}
    for _ in range(args.runs):
        for label, work in (("yardstick", yardstick), ("Dutch round 2", lambda: next_round(second, DutchPairer())),
                            (last, lambda: next_round(state, DutchPairer())),
                            ("standings", lambda: standings(replace(final, _cells=None))),
                            ("standings, all ten", lambda: standings(replace(final, _cells=None), TIEBREAKS))):
            t = cpu()
            work()
            times[label].append(cpu() - t)
    base = statistics.median(times["yardstick"])
    print(f"{'work':<40} {'CPU s':>7} {'ratio':>6}  target")
    for label, values in times.items():
        value = statistics.median(values)
        target = TARGETS.get(label)
        verdict = "" if target is None else f"≤ {target:g} s: " + ("met" if value <= target else "missed")
        ratio = "" if label == "yardstick" else f"{value / base:6.2f}"
        print(f"{label + (f', {args.players} players' if label != 'yardstick' else ''):<40} {value:7.3f} {ratio:>6}  "
              f"{verdict or '(yardstick)' if label == 'yardstick' else verdict}")
    if args.cli:
        cli_rows(state, args.runs)


if __name__ == "__main__":
    main()
