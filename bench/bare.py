"""The yardstick for recalc: a bare `csv.reader` over the journal CSV and the FIBS loop, per discipline,
keeping each match's record for history (as recalc does), in one plain Python process.

    python bench/bare.py matches.csv

No checks, no cache, no output but a count: the least a pure-Python recalc has to do.
"""
import csv
import math
import sys
from array import array


def main(path: str) -> None:
    ratings: dict = {}
    experience: dict = {}
    history = [array("d"), array("d"), array("d"), array("i")]  # before, change, probability, experience
    with open(path, newline="", encoding="utf-8") as f:
        rows = csv.reader(f)
        header = next(rows)
        col = {name: k for k, name in enumerate(header)}
        ia, ib, ir, il, idisc = col["player_a"], col["player_b"], col["result"], col["length"], col["discipline"]
        for row in rows:
            disc = row[idisc]
            a, b = (disc, row[ia]), (disc, row[ib])
            n = int(row[il] or 1)
            ra, rb = ratings.get(a, 1500.0), ratings.get(b, 1500.0)
            ea, eb = experience.get(a, 0), experience.get(b, 0)
            root = math.sqrt(n)
            p = 1.0 / (1.0 + 10.0 ** (-(ra - rb) * root / 2000.0))
            won = row[ir] == "1-0"
            base = 4.0 * root * ((1.0 - p) if won else p)
            change_a = base * max(1.0, 5.0 - ea / 100.0) * (1 if won else -1)
            change_b = -base * max(1.0, 5.0 - eb / 100.0) * (1 if won else -1)
            ratings[a], ratings[b] = ra + change_a, rb + change_b
            experience[a], experience[b] = ea + n, eb + n
            history[0].append(ra)
            history[1].append(change_a)
            history[2].append(p)
            history[3].append(ea)
    print(len(ratings), len(history[0]))


if __name__ == "__main__":
    main(sys.argv[1])
