"""Synthetic clubs for the benchmark: 1,000,000-match CSV journals (LF, CRLF, after a TOML file) and a
100,000-match TOML one; and a 1,000,000-game chess CSV rated by elo, glicko and glicko2.

    python bench/generate.py [--out bench/out] [--matches 1000000] [--toml-matches 100000] [--period-matches 200000]

10,000 players, matches spread over 10 years (2010–2019, 120 months), lengths 1–9, two disciplines
(long-nardy, short-nardy), rated by the fibs engine. The chess games: the same players and
years, 10% draws, one discipline; three clubs share the one file (a hard link where the file
system allows it), each with one list: elo (seed 003's K 20, no pair limit), glicko and glicko2
(monthly periods, the papers' defaults: c 34.6; σ 0.06, τ 0.5). And one club per other engine:
chips over the whole nardy CSV; mfsnb (seed 000's quarterly lists) over its first --period-matches
matches; fide (quarterly lists, seed 002) over the first --period-matches chess games, every player
rated on an imported list; placement (seed 001) over the whole nardy CSV, each week's matches of a
discipline one tournament. Deterministic (seeded).
"""
from __future__ import annotations

import argparse
import csv
import os
import random
import shutil
from datetime import date, timedelta
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


def write_csv_club(folder: Path, n: int, players: int, seed: int = 1, newline: str = "\n",
                   journal: str = '["matches.csv", "journal.toml"]') -> None:
    """`newline="\r\n"`: the CRLF file of csv.writer and Excel; `journal`: the files' order."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    (folder / "nardrating.toml").write_text(CONFIG.format(journal=journal))
    (folder / "journal.toml").write_text("# new matches are appended here\n")
    with open(folder / "matches.csv", "w", encoding="utf-8", newline="") as out:
        out.write(f"id,date,player_a,player_b,result,length,discipline,tournament,rated{newline}")
        for row in matches(n, players, rng):
            out.write(f"{row[0]},{row[1]},{row[2]},{row[3]},{row[4]},{row[5]},{row[6]},,{newline}")


CHESS_LISTS = {"elo": "pair_limit_per_day = 0\n", "glicko": "", "glicko2": ""}
CHESS_CONFIG = """[club]
name = "Benchmark chess club"
journal = ["games.csv", "journal.toml"]
default_discipline = "chess"

[rating.{engine}]
engine = "{engine}"
{params}"""


def games(n: int, players: int, rng: random.Random):
    first = date(2010, 1, 1).toordinal()
    days = date(2019, 12, 31).toordinal() - first
    for k in range(n):
        day = date.fromordinal(first + k * days // n)
        a = rng.randrange(players)
        b = rng.randrange(players - 1)
        b += b >= a
        roll = rng.random()
        yield f"c{k + 1}", day.isoformat(), f"p{a}", f"p{b}", "1/2-1/2" if roll < 0.1 else "1-0" if roll < 0.55 else "0-1"


def write_chess_clubs(out: Path, n: int, players: int, seed: int = 3) -> dict:
    """The chess clubs {engine: folder}, sharing one games.csv."""
    rng = random.Random(seed)
    clubs = {engine: out / f"{engine}-club" for engine in CHESS_LISTS}
    shared = out / "chess-games.csv"
    with open(shared, "w", encoding="utf-8", newline="") as f:
        f.write("id,date,player_a,player_b,result\n")
        for row in games(n, players, rng):
            f.write(",".join(row) + "\n")
    for engine, folder in clubs.items():
        write_chess_config(folder, engine)
        target = folder / "games.csv"
        target.unlink(missing_ok=True)
        try:
            os.link(shared, target)
        except OSError:
            shutil.copyfile(shared, target)
    return clubs


NEW_GAMES = "# new games are appended here\n"


def write_chess_config(folder: Path, engine: str) -> None:
    """A chess club's config, and its journal.toml with no game yet: add-match appends there."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "nardrating.toml").write_text(CHESS_CONFIG.format(engine=engine, params=CHESS_LISTS[engine]))
    (folder / "journal.toml").write_text(NEW_GAMES)


PER_ENGINE_CONFIG = """[club]
name = "Benchmark {engine} club"
journal = {journal}
default_discipline = "{discipline}"

[rating.{engine}]
engine = "{engine}"
{params}"""


def write_other_clubs(out: Path, nardy: Path, chess: Path, period_n: int, players: int, seed: int = 4) -> dict:
    """One club per remaining engine, {engine: folder}: chips over the whole nardy CSV (a hard link);
    mfsnb over its first `period_n` matches (quarterly lists); fide over the first `period_n` chess
    games, every player rated on an imported list (an [[adjust]] the day before the first game);
    placement over the whole nardy CSV, each week's matches of a discipline a tournament (places
    from its matches)."""
    rng = random.Random(seed)
    clubs = {engine: out / f"{engine}-club" for engine in ("chips", "mfsnb", "fide", "placement")}
    for folder in clubs.values():
        folder.mkdir(parents=True, exist_ok=True)
    (clubs["chips"] / "matches.csv").unlink(missing_ok=True)
    try:
        os.link(nardy, clubs["chips"] / "matches.csv")
    except OSError:
        shutil.copyfile(nardy, clubs["chips"] / "matches.csv")
    for engine, source in (("mfsnb", nardy), ("fide", chess)):
        with open(source, encoding="utf-8", newline="") as f, \
                open(clubs[engine] / "matches.csv", "w", encoding="utf-8", newline="") as target:
            for _row in range(period_n + 1):  # the header and period_n rows
                line = f.readline()
                if not line:
                    break
                target.write(line)
    with open(clubs["fide"] / "ratings.toml", "w", encoding="utf-8") as f:
        for p in range(players):
            f.write(f'[[adjust]]\ndate = 2009-12-31\nplayer = "p{p}"\nset = {rng.randint(1400, 2500)}\n'
                    f'reason = "imported list"\n\n')
    write_weekly_tournaments(nardy, clubs["placement"])
    for engine, folder in clubs.items():
        write_other_config(folder, engine)
    return clubs


# (journal, default discipline, the list's parameters) of each other engine's club; mfsnb's and
# fide's take new games in a journal.toml of their own (the federation's evening: add-match, then
# leaderboard).
OTHER_SETTINGS = {"chips": ('["matches.csv"]', "long-nardy", ""),
                  "mfsnb": ('["matches.csv", "journal.toml"]', "long-nardy", ""),
                  "placement": ('["tournaments.toml", "matches.csv"]', "long-nardy", ""),
                  "fide": ('["ratings.toml", "matches.csv", "journal.toml"]', "chess", 'list_every = "quarter"\n')}


def write_other_config(folder: Path, engine: str) -> None:
    """Another engine's club config, and its journal.toml with no game yet where it has one."""
    journal, discipline, params = OTHER_SETTINGS[engine]
    (folder / "nardrating.toml").write_text(PER_ENGINE_CONFIG.format(
        engine=engine, journal=journal, discipline=discipline, params=params))
    if "journal.toml" in journal:
        (folder / "journal.toml").write_text(NEW_GAMES)


def week_tournament(day: date, discipline: str) -> tuple[str, date, date]:
    """(id, first day, last day) of the week's tournament of a discipline: weeks from Monday 4 January 2010."""
    week = (day.toordinal() - FIRST_MONDAY) // 7
    first = date.fromordinal(FIRST_MONDAY + 7 * week)
    return f"{discipline[0]}{week:03d}", first, first + timedelta(days=6)


FIRST_MONDAY = date(2010, 1, 4).toordinal() - 7   # (1-3 January 2010 are week 0)


def write_weekly_tournaments(nardy: Path, folder: Path) -> None:
    """The nardy CSV with each match in its week's tournament of its discipline, and the tournaments."""
    seen: dict[str, tuple[date, date, str]] = {}
    with open(nardy, encoding="utf-8", newline="") as f, \
            open(folder / "matches.csv", "w", encoding="utf-8", newline="") as target:
        header = next(csv.reader([f.readline()]))
        target.write(",".join(header) + "\n")
        at = {name: k for k, name in enumerate(header)}
        for row in csv.reader(f):
            tid, first, last = week_tournament(date.fromisoformat(row[at["date"]]), row[at["discipline"]])
            seen.setdefault(tid, (first, last, row[at["discipline"]]))
            row[at["tournament"]] = tid
            target.write(",".join(row) + "\n")
    with open(folder / "tournaments.toml", "w", encoding="utf-8") as f:
        for tid, (first, last, discipline) in seen.items():
            f.write(f'[[tournament]]\nid = "{tid}"\nsystem = "swiss"\nstart = {first}\nend = {last}\n'
                    f'discipline = "{discipline}"\n\n')


def write_all(out: Path, n: int, toml_n: int, players: int, period_n: int = 200_000) -> dict:
    """Every benchmark club: {name: folder}."""
    clubs = {"1M CSV": out / "csv-club", "1M CSV, CRLF": out / "crlf-club",
             "1M, TOML first": out / "toml-first-club", "100k TOML": out / "toml-club"}
    write_csv_club(clubs["1M CSV"], n, players)
    write_csv_club(clubs["1M CSV, CRLF"], n, players, newline="\r\n")
    # Imported history in a CSV, new games in TOML: add-match appends to journal.toml, the first file.
    write_csv_club(clubs["1M, TOML first"], n, players, journal='["journal.toml", "matches.csv"]')
    write_toml_club(clubs["100k TOML"], toml_n, players)
    clubs.update({f"1M chess CSV, {engine}": folder for engine, folder in write_chess_clubs(out, n, players).items()})
    others = write_other_clubs(out, clubs["1M CSV"] / "matches.csv", out / "chess-games.csv", period_n, players)
    clubs.update({"1M CSV, chips": others["chips"], "200k CSV, mfsnb": others["mfsnb"],
                  "200k chess CSV, fide": others["fide"], "1M CSV, placement": others["placement"]})
    return clubs


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
    parser.add_argument("--period-matches", type=int, default=200_000)
    args = parser.parse_args()
    clubs = write_all(args.out, args.matches, args.toml_matches, args.players, args.period_matches)
    print("wrote " + ", ".join(str(folder) for folder in clubs.values()))


if __name__ == "__main__":
    main()
