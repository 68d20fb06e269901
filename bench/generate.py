"""Synthetic clubs for the benchmark: a 1,000,000-match CSV journal and a 100,000-match TOML one.

    python bench/generate.py [--out bench/out] [--matches 1000000] [--toml-matches 100000]

10,000 players, matches spread over 10 years (2010–2019), lengths 1–9, two disciplines
(long-nardy, short-nardy), rated by the fibs engine. Deterministic (seeded).
"""
from __future__ import annotations

import argparse
import random
from datetime import date
from pathlib import Path

CONFIG = """[club]
name = "Benchmark club"
journal = {journal}
default_discipline = "long-nardy"

[rating.fibs]
engine = "fibs"
"""


def matches(n: int, players: int, rng: random.Random):
    first = date(2010, 1, 1).toordinal()
    days = date(2019, 12, 31).toordinal() - first
    for k in range(n):
        day = date.fromordinal(first + k * days // n)  # in date order, as a real journal grows
        a = rng.randrange(players)
        b = rng.randrange(players - 1)
        b += b >= a
        yield (f"g{k + 1}", day.isoformat(), f"p{a}", f"p{b}", "1-0" if rng.random() < 0.5 else "0-1",
               rng.randint(1, 9), "long-nardy" if rng.random() < 0.6 else "short-nardy")


def write_csv_club(folder: Path, n: int, players: int, seed: int = 1) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    (folder / "nardrating.toml").write_text(CONFIG.format(journal='["matches.csv", "journal.toml"]'))
    (folder / "journal.toml").write_text("# new matches are appended here\n")
    with open(folder / "matches.csv", "w", encoding="utf-8", newline="") as out:
        out.write("id,date,player_a,player_b,result,length,discipline,tournament,rated\n")
        for row in matches(n, players, rng):
            out.write(f"{row[0]},{row[1]},{row[2]},{row[3]},{row[4]},{row[5]},{row[6]},,\n")


def write_toml_club(folder: Path, n: int, players: int, seed: int = 2) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    (folder / "nardrating.toml").write_text(CONFIG.format(journal='["journal.toml"]'))
    with open(folder / "journal.toml", "w", encoding="utf-8") as out:
        for p in range(players):
            out.write(f'[[player]]\nid = "p{p}"\n\n')
        for row in matches(n, players, rng):
            out.write(f'[[match]]\nid = "{row[0]}"\ndate = {row[1]}\nplayers = ["{row[2]}", "{row[3]}"]\n'
                      f'result = "{row[4]}"\nlength = {row[5]}\ndiscipline = "{row[6]}"\n\n')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "out")
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--toml-matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    args = parser.parse_args()
    write_csv_club(args.out / "csv-club", args.matches, args.players)
    write_toml_club(args.out / "toml-club", args.toml_matches, args.players)
    print(f"wrote {args.out / 'csv-club'} and {args.out / 'toml-club'}")


if __name__ == "__main__":
    main()
