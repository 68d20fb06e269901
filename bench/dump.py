"""Every number the engines give, dumped: the equality check for changes that must not move one.

    python bench/dump.py OUT.json [--clubs 6] [--matches 400]

For the four sample ledgers and a few random clubs (written to a temporary folder, fixed seeds;
busy days, draws, voids, amends, forfeits, unrated games, adjustments, tournaments with and without
standings, long breaks; and as many chess clubs of elo, glicko and glicko2 lists adjusted in
every way they allow: set or delta, rd, volatility), every rating list and discipline is replayed in full (no cache) and its
standings and every player's history written out, floats as `repr` (every bit). Run it on the code
before and after a change (e.g. `git stash`, or a second checkout on PYTHONPATH) and compare the
files: `cmp before.json after.json`.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHESS = """[club]
name = "Random chess club"
journal = ["journal.toml"]
default_discipline = "chess"

[rating.club]
engine = "elo"
pair_limit_per_day = 2
inactivity = [[3, 25], [6, 50]]
inactive_after_months = 9

[rating.glicko]
engine = "glicko"

[rating.glicko2]
engine = "glicko2"
period = "week"

[rating.fide]
engine = "fide"
list_every = "quarter"

[rating.fide2025]
engine = "fide"
ruleset = "fide-2025"
list_every = "month"
"""

NARDY = """[club]
name = "Random nardy club"
journal = ["journal.toml"]
default_discipline = "long-nardy"

[rating.fibs]
engine = "fibs"
pair_limit_per_day = 3
disciplines = ["long-nardy", "short-nardy"]

[rating.site]
engine = "fibs"
preset = "nardy-site"
inactivity = [[2, 10]]

[rating.chips]
engine = "chips"
inactivity = [[2, 10]]

[rating.tournament]
engine = "placement"

[rating.federation]
engine = "mfsnb"
disciplines = ["long-nardy"]
inactivity = [[3, 25], [6, 50]]
"""


# Per-game and per-period lists with every kind of adjustment they take (set or delta, rd, volatility).
RATED = """[club]
name = "Random rated club"
journal = ["journal.toml"]
default_discipline = "chess"

[rating.club]
engine = "elo"
pair_limit_per_day = 0
start = 1234.5
provisional_games = 3

[rating.limited]
engine = "elo"
k = 32
pair_limit_per_day = 1
inactive_after_months = 2

[rating.glicko]
engine = "glicko"
period = "day"
c = 60

[rating.glicko2]
engine = "glicko2"
start = 1600.0
tau = 0.3

[rating.fide2024]
engine = "fide"
ruleset = "fide-2024"
list_every = "month"
"""
ADJUSTABLE = {"club": (), "limited": (), "glicko": ("rd",), "glicko2": ("rd", "volatility")}


def value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + "}"
    return str(v)  # numbers and dates are written as TOML writes them


def entry(kind: str, fields: dict[str, object]) -> str:
    return f"[[{kind}]]\n" + "".join(f"{k} = {value(v)}\n" for k, v in fields.items()) + "\n"


def random_club(folder: Path, seed: int, chess: bool, matches: int, rated: bool = False) -> None:
    """A journal of `matches` matches among a dozen players over two years, busy evenings included;
    `rated`: a chess club of the RATED lists, adjusted in each of them now and then."""
    rng = random.Random(seed)
    players = [f"p{k}" for k in range(12)]
    out = []
    for k, p in enumerate(players):
        fields: dict[str, object] = {"id": p, "name": f"Player {k}"}
        if not chess and k % 3 == 0:
            fields["qualification"] = rng.choice(["MS", "KMS", "1", "2", "3"])
        out.append(entry("player", fields))
    if rated:   # an imported list for two players in three (the third play as unrated, against them too)
        out += [entry("adjust", {"date": date(2020, 1, 1), "player": p, "rating": "fide2024", "discipline": "chess",
                                 "set": 1400 + 110 * k}) for k, p in enumerate(players) if k % 3]
    disciplines = ["chess"] if chess else ["long-nardy", "short-nardy"]
    day = date(2020, 1, 6)
    ids: list[str] = []
    played: dict[str, dict[str, object]] = {}   # the evening matches, which an amend may correct
    n = 0
    tournament = 0
    while n < matches:
        day += timedelta(days=rng.choice([1, 1, 2, 3, 7, 7, 14, 100]))
        if rng.random() < 0.1:   # a tournament of 4-6 players over two days
            tournament += 1
            tid = f"t{tournament}"
            field = rng.sample(players, rng.randint(4, 6))
            discipline = rng.choice(disciplines)
            t: dict[str, object] = {"id": tid, "name": f"Cup {tournament}", "system": "round-robin", "start": day,
                                    "end": day + timedelta(days=1), "discipline": discipline}
            if rng.random() < 0.5:
                t["standings"] = [{"player": p, "place": k + 1} for k, p in enumerate(field)]
            block = [entry("tournament", t)]
            for i, a in enumerate(field):
                for b in field[i + 1:]:
                    n += 1
                    ids.append(f"m{n}")
                    game: dict[str, object] = {"id": f"m{n}", "date": day + timedelta(days=rng.randint(0, 1)),
                                               "players": [a, b], "result": rng.choice(["1-0", "0-1"]),
                                               "length": rng.choice([1, 3, 5]), "discipline": discipline,
                                               "tournament": tid}
                    roll = rng.random()   # (a forfeit counts for places, a game marked unrated does not)
                    if roll < 0.03:
                        game["forfeit"] = True
                    elif roll < 0.06:
                        game["rated"] = False
                    elif roll < 0.07:
                        game.update(forfeit=True, rated=False)
                    block.append(entry("match", game))
            out += block
            day += timedelta(days=1)
            continue
        for _ in range(rng.choice([1, 1, 2, 5, 9])):   # an evening: several games, the same pair again
            a, b = rng.sample(players, 2)
            n += 1
            ids.append(f"m{n}")
            fields = {"id": f"m{n}", "date": day, "players": [a, b],
                      "result": rng.choice(["1-0", "0-1", "1/2-1/2"] if chess else ["1-0", "0-1"]),
                      "length": 1 if chess else rng.choice([1, 3, 5, 7]), "discipline": rng.choice(disciplines)}
            if not chess:
                fields["chips"] = rng.randint(0, 9)
            roll = rng.random()
            if roll < 0.04:
                fields["forfeit"] = True
            elif roll < 0.08:
                fields["rated"] = False
            out.append(entry("match", fields))
            played[fields["id"]] = fields
        if ids and rng.random() < 0.08:
            voided = ids.pop(rng.randrange(len(ids)))
            out.append(entry("void", {"match": voided, "date": day, "reason": "entered wrong"}))
            if voided in played and rng.random() < 0.6:   # an amend: the match again, its result corrected
                n += 1
                fields = dict(played[voided], id=f"m{n}", amends=voided,
                              result={"1-0": "0-1", "0-1": "1-0"}.get(str(played[voided]["result"]), "1-0"))
                out.append(entry("match", fields))
        if rated and rng.random() < 0.1:
            rating = rng.choice(list(ADJUSTABLE))
            change: dict[str, object] = {"date": day, "player": rng.choice(players), "rating": rating, "discipline": "chess"}
            change.update({"set": rng.choice([1500, 1612.25])} if rng.random() < 0.4 else {"delta": rng.choice([-20, 7.5])})
            if "rd" in ADJUSTABLE[rating] and rng.random() < 0.5:
                change["rd"] = rng.choice([50, 120.5])
            if "volatility" in ADJUSTABLE[rating] and rng.random() < 0.5:
                change["volatility"] = rng.choice([0.04, 0.09])
            out.append(entry("adjust", change))
        elif not rated and rng.random() < 0.03:
            rating = "club" if chess else rng.choice(["fibs", "tournament", "chips"])
            out.append(entry("adjust", {"date": day, "player": rng.choice(players), "rating": rating,
                                        "discipline": disciplines[0], "delta": rng.choice([-20, 15])}))
    (folder / "nardrating.toml").write_text(RATED if rated else CHESS if chess else NARDY, encoding="utf-8")
    (folder / "journal.toml").write_text("".join(out), encoding="utf-8")


def number(value: object) -> object:
    return repr(value) if isinstance(value, float) else str(value) if isinstance(value, date) else value


def plain(value: object) -> object:
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return number(value)


def dump_club(folder: Path) -> dict[str, object]:
    from nardrating.replay.loader import load_club

    ledger = load_club(folder, use_cache=False)
    out: dict[str, object] = {}
    for rating in ledger.config.ratings.values():
        for discipline in ledger.disciplines(rating):
            result = ledger.run(rating, discipline)
            standings = {p: plain([s.rating, s.games, s.status, s.last_played, s.extra])
                         for p, s in sorted(result.standings.items())}
            history = {p: [plain([e.date, e.entry, e.kind, e.opponent, e.result, e.before, e.change, e.after,
                                  e.rated, e.reason, e.extra]) for e in result.history(p)]
                       for p in sorted(result.standings)}
            out[f"{rating.name}/{discipline}"] = {"standings": standings, "history": history}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--clubs", type=int, default=6)
    parser.add_argument("--matches", type=int, default=400)
    args = parser.parse_args()
    os.environ["NARDRATING_NO_CACHE"] = "1"
    os.environ.setdefault("NARDRATING_FAST", "0")
    sys.path.insert(0, os.environ.get("NARDRATING_TREE", str(ROOT)))
    dumped: dict[str, object] = {}
    for sample in sorted((ROOT / "sample_ledgers").iterdir()):
        dumped[sample.name] = dump_club(sample)
    with tempfile.TemporaryDirectory(prefix="nardrating-dump-") as tmp:
        for seed in range(args.clubs):
            folder = Path(tmp) / f"random-{seed}"
            folder.mkdir()
            random_club(folder, seed, chess=seed % 2 == 0, matches=args.matches)
            dumped[folder.name] = dump_club(folder)
        for seed in range(args.clubs):
            folder = Path(tmp) / f"random-rated-{seed}"
            folder.mkdir()
            random_club(folder, 100 + seed, chess=True, matches=args.matches, rated=True)
            dumped[folder.name] = dump_club(folder)
    Path(args.out).write_text(json.dumps(dumped, ensure_ascii=False, indent=0, sort_keys=True), encoding="utf-8")
    lists = sum(len(v) for v in dumped.values() if isinstance(v, dict))
    print(f"{len(dumped)} clubs, {lists} lists and disciplines dumped to {args.out}")


if __name__ == "__main__":
    main()
