"""The [fast] extra (numba: the CSV split, the loops of fibs, elo, glicko and glicko2) gives exactly what
the pure-Python path gives.

Random journals (fixed seeds): LF and CRLF CSV files, ids given and derived, TOML files
before or after them with players, matches, voids and adjustments, unrated and forfeited
matches, pair limits, both experience units, with and without the boost. Each is read and
replayed by both paths; the journal's columns, the standings and every history record must
be equal — the same values of the same types, bit for bit. Journals the fast path declines
(quoted cells, a winner column, a bad cell, inactivity penalties) must still come out equal,
by the pure path. The chess clubs (random_chess_club) do the same for elo, glicko and glicko2:
draws, voids, forfeits, unrated games, pair limits, provisional players, every kind of
adjustment the engine takes (set or delta, rd, volatility), inactivity, whole and fractional
starts, days, weeks and months as rating periods. Runs only where the extra is installed; the
default suite forces the pure path (tests/conftest.py sets NARDRATING_FAST=0).
"""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from datetime import date, timedelta
from pathlib import Path

import pytest

from nardrating.replay.loader import load_club

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def fast(monkeypatch):
    """The extra's modules, with every use of them counted: {"csv": [taken?…], "fibs": [taken?…]}."""
    pytest.importorskip("numba")
    from nardrating.fast import csvread, fibsloop

    from nardrating.fast import eloloop, glickoloop

    used: dict[str, list[bool]] = {"csv": [], "fibs": [], "elo": [], "glicko": []}
    read, replay = csvread.read_csv, fibsloop.replay
    replay_elo, replay_glicko = eloloop.replay, glickoloop.replay

    def counted_read(*args):
        done = read(*args)
        used["csv"].append(done)
        return done

    def counted_replay(view):
        state = replay(view)
        used["fibs"].append(state is not None)
        return state

    def counted_elo(view):
        state = replay_elo(view)
        used["elo"].append(state is not None)
        return state

    def counted_glicko(view, engine):
        state = replay_glicko(view, engine)
        used["glicko"].append(state is not None)
        return state

    monkeypatch.setattr(csvread, "read_csv", counted_read)
    monkeypatch.setattr(fibsloop, "replay", counted_replay)
    monkeypatch.setattr(eloloop, "replay", counted_elo)
    monkeypatch.setattr(glickoloop, "replay", counted_glicko)
    monkeypatch.setenv("NARDRATING_NO_CACHE", "1")
    return used


PLAYERS = [f"p{k}" for k in range(40)]


def random_club(folder: Path, seed: int, rows: int = 400, crlf: bool = False) -> dict:
    """A club whose journal is a CSV and a TOML file, drawn from `seed`; what was drawn."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    players = PLAYERS[: rng.randint(3, len(PLAYERS))]
    limit = rng.choice([0, 0, 1, 2])
    params = [f"pair_limit_per_day = {limit}", f'experience_unit = "{rng.choice(["points", "games"])}"',
              f"boost = {rng.choice(['true', 'false'])}", f"start = {rng.choice([1500, 1234.5])}",
              f"factor = {rng.choice([4, 10, 3.7])}", f"scale = {rng.choice([2000, 400])}",
              f"inactive_after_months = {rng.choice([0, 0, 1])}"]
    toml_first = rng.random() < 0.5
    files = '["journal.toml", "games.csv"]' if toml_first else '["games.csv", "journal.toml"]'
    (folder / "nardrating.toml").write_text(
        f'[club]\nname = "Fast"\njournal = {files}\ndefault_discipline = "long-nardy"\n\n'
        f'[rating.fibs]\nengine = "fibs"\n' + "\n".join(params) + "\n", encoding="utf-8")
    with_ids, with_forfeit = rng.random() < 0.8, rng.random() < 0.5
    header = ["date", "player_a", "player_b", "result", "length", "discipline", "rated"]
    header = (["id"] if with_ids else []) + header + (["forfeit"] if with_forfeit else [])
    rng.shuffle(header)
    first = date(2015, 1, 1)
    ids = []
    lines = [",".join(header)]
    for k in range(rows):
        a, b = rng.sample(players, 2)
        cells = {"id": rng.choice([f"m{k}", f"m{k}", ""]), "date": (first + timedelta(days=rng.randint(0, 30))).isoformat(),
                 "player_a": a, "player_b": b, "result": rng.choice(["1-0", "0-1", "1 - 0"]),
                 "length": rng.choice(["", "1", "3", "5", "7", "13"]), "discipline": rng.choice(["", "long-nardy", "short-nardy"]),
                 "rated": rng.choice(["", "", "", "false", "true", "no", "1"]), "forfeit": rng.choice(["", "", "", "", "true", "false"])}
        ids.append(cells["id"] if with_ids and cells["id"] else f"games-{k + 1}")
        lines.append(",".join(cells[h] for h in header))
    newline = "\r\n" if crlf else "\n"
    (folder / "games.csv").write_bytes((newline.join(lines) + newline).encode("utf-8"))
    toml = []
    for p in rng.sample(players, rng.randint(0, len(players))):
        toml.append(f'[[player]]\nid = "{p}"\nname = "Player {p}"\n')
    for k in range(rng.randint(0, 12)):
        a, b = rng.sample(players, 2)
        toml.append(f'[[match]]\nid = "t{k}"\ndate = {first + timedelta(days=rng.randint(0, 30))}\n'
                    f'players = ["{a}", "{b}"]\nwinner = "{rng.choice([a, b])}"\nlength = {rng.randint(1, 9)}\n')
    for match in rng.sample(ids, min(len(ids), rng.randint(0, 6))):
        toml.append(f'[[void]]\nmatch = "{match}"\ndate = 2015-03-01\nreason = "entered twice"\n')
    for _ in range(rng.randint(0, 5)):
        change = f"set = {rng.choice([1400, 1612.25])}" if rng.random() < 0.5 else f"delta = {rng.choice([-25, 7.5])}"
        toml.append(f'[[adjust]]\ndate = {first + timedelta(days=rng.randint(0, 31))}\nplayer = "{rng.choice(players)}"\n'
                    f'discipline = "{rng.choice(["long-nardy", "short-nardy"])}"\n{change}\nreason = "commission"\n')
    (folder / "journal.toml").write_text("\n".join(toml), encoding="utf-8")
    return {"limit": limit}


def exact(value):
    """A value as its type and repr: 1 and 1.0, or a float and a numpy float, differ."""
    if isinstance(value, dict):
        return {k: exact(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [exact(v) for v in value]
    return (type(value).__name__, repr(value))


def everything(folder: Path, fast: str) -> dict:
    """The journal's columns (codes as names), the standings and every history event, by one path."""
    os.environ["NARDRATING_FAST"] = fast
    try:
        ledger = load_club(folder, use_cache=False)
        journal = ledger.journal
        m = journal.matches
        names = {"a": journal.player_codes.names, "b": journal.player_codes.names,
                 "discipline": journal.discipline_codes.names, "tournament": journal.tournament_codes.names}
        columns = {c: [names[c][v] if c in names and v >= 0 else int(v) if c in ("rated", "forfeit") else v
                       for v in getattr(m, c)]
                   for c in ("dates", "a", "b", "score_a", "length", "discipline", "tournament", "rated", "forfeit",
                             "seq", "source", "line")}
        out = {"ids": list(m.ids), "columns": exact(columns), "extra": exact(dict(m.extra)),
               "players": exact({p: [x.name, Path(x.file).name, x.line, x.declared] for p, x in sorted(journal.players.items())}),
               "max_date": journal.max_date, "next_seq": journal.next_seq,
               # the order players were numbered and first named in (csvfast._in_row_order)
               "order": [list(journal.player_codes.names), list(journal.csv_named)]}
        for discipline in ("long-nardy", "short-nardy"):
            result = ledger.run("fibs", discipline)
            out[discipline] = {
                "standings": exact({p: [s.rating, s.games, s.status, s.last_played, s.extra] for p, s in sorted(result.standings.items())}),
                "history": exact({p: [[e.date, e.entry, e.kind, e.opponent, e.result, e.before, e.change, e.after, e.rated,
                                       e.reason, e.extra] for e in events] for p, events in sorted(result.events.items())}),
                "records": exact([tuple(r) for r in result.records]),
            }
        return out
    finally:
        os.environ["NARDRATING_FAST"] = "0"


@pytest.mark.parametrize("seed", range(12))
def test_fast_path_equals_pure_path_on_random_journals(tmp_path, fast, seed):
    drawn = random_club(tmp_path, seed, crlf=seed % 2 == 1)
    pure = everything(tmp_path, "0")
    assert fast == {"csv": [], "fibs": [], "elo": [], "glicko": []}
    assert everything(tmp_path, "1") == pure
    assert fast["csv"] == [True]  # the fast path did the work: the comparison is not pure against pure
    assert fast["fibs"] == [True, True]
    assert drawn["limit"] or True


def test_crlf_and_lf_twins_read_alike_by_the_fast_path(tmp_path, fast):
    random_club(tmp_path / "lf", 99)
    random_club(tmp_path / "crlf", 99, crlf=True)
    assert (tmp_path / "crlf" / "games.csv").read_bytes().count(b"\r\n") == 401
    assert everything(tmp_path / "lf", "1") == everything(tmp_path / "crlf", "1") == everything(tmp_path / "crlf", "0")
    assert fast["csv"] == [True, True]


@pytest.mark.parametrize("change, why", [
    (lambda text: text.replace("p1,", '"p1",', 1), "quoted cells"),
    (lambda text: text.replace("\n", "\n\n", 3), "blank lines"),
    (lambda text: text.replace("\n", "\r", 1), "a lone CR"),
    (lambda text: text.replace("1-0", "1-0 ", 1), "a result with a space: read alike"),
    (lambda text: text.replace(",13,", ",013,", 1), "a length written 013: read alike"),
])
def test_unusual_files_come_out_as_the_pure_path_reads_them(tmp_path, fast, change, why):
    random_club(tmp_path, 5)
    path = tmp_path / "games.csv"
    path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")
    assert everything(tmp_path, "1") == everything(tmp_path, "0"), why


def problems_by_both_paths(folder: Path) -> list[list[str]]:
    """The problems a load of the club reports with NARDRATING_FAST=1, then =0 (each must refuse it)."""
    from nardrating.errors import LedgerError

    said = []
    for switch in ("1", "0"):
        os.environ["NARDRATING_FAST"] = switch
        try:
            with pytest.raises(LedgerError) as caught:
                load_club(folder, use_cache=False)
        finally:
            os.environ["NARDRATING_FAST"] = "0"
        said.append([str(p) for p in caught.value.problems])
    return said


@pytest.mark.parametrize("bad, message", [
    (lambda text: text.replace("-01-", "-13-", 1), "is not an ISO date"),
    (lambda text: text.replace("p2,", "p 2,", 1), "p 2"),
    (lambda text: text.replace(",1-0,", ",2-0,", 1), "is not a result"),
    (lambda text: text + next(line for line in text.splitlines() if re.search(r"(^|,)m\d+(,|$)", line)) + "\n",
     "already used"),
])
def test_bad_cells_are_reported_as_the_pure_reader_reports_them(tmp_path, fast, bad, message):
    """The fast reader declines a bad file; the pure reader then reports it, the same way for both settings."""
    random_club(tmp_path, 3)
    path = tmp_path / "games.csv"
    text = path.read_text(encoding="utf-8")
    assert bad(text) != text
    path.write_text(bad(text), encoding="utf-8")
    said = problems_by_both_paths(tmp_path)
    assert said[0] == said[1] and message in "\n".join(said[0])
    assert fast["csv"] == [False]


def test_inactivity_penalties_are_left_to_the_pure_loop(tmp_path, fast):
    random_club(tmp_path, 8)
    config = tmp_path / "nardrating.toml"
    config.write_text(config.read_text() + "inactivity = [[1, 10]]\n")  # 10 points off after a month without a game
    assert everything(tmp_path, "1") == everything(tmp_path, "0")
    assert fast["fibs"] == [False, False] and fast["csv"] == [True]


def test_a_hand_worked_match_through_the_fast_path(tmp_path, fast):
    """Seed 004's formula by hand: equal ratings, a 1-point match: P = 1/(1 + 10^0) = 1/2,
    base = 4·√1·(1 − 1/2) = 2, both boosts 5 − 0/100 = 5: the winner gains 10, the loser loses 10."""
    (tmp_path / "nardrating.toml").write_text(
        '[club]\nname = "Hand"\njournal = ["games.csv"]\ndefault_discipline = "long-nardy"\n\n[rating.fibs]\nengine = "fibs"\n')
    (tmp_path / "games.csv").write_text("date,player_a,player_b,result,length\r\n2020-01-01,anna,boris,1-0,1\r\n")
    os.environ["NARDRATING_FAST"] = "1"
    try:
        result = load_club(tmp_path, use_cache=False).run("fibs", "long-nardy")
    finally:
        os.environ["NARDRATING_FAST"] = "0"
    assert result.standings["anna"].rating == 1510.0 and result.standings["boris"].rating == 1490.0
    assert result.events["anna"][0].extra["probability"] == 0.5 and result.events["anna"][0].extra["base"] == 2.0
    assert fast == {"csv": [True], "fibs": [True], "elo": [], "glicko": []}


def test_fast_recalc_then_daily_commands_equal_the_pure_ones(tmp_path, fast, monkeypatch):
    """Through the CLI and the cache: recalc by each path, then leaderboard and history from its cache."""
    monkeypatch.delenv("NARDRATING_NO_CACHE")
    random_club(tmp_path / "club", 21, rows=600, crlf=True)
    outputs = []
    for switch in ("0", "1"):
        env = {**os.environ, "NARDRATING_FAST": switch, "XDG_CACHE_HOME": str(tmp_path / f"cache{switch}"),
               "NARDRATING_CLUB": "", "COLUMNS": "100"}
        run = [[sys.executable, "-m", "nardrating", *args, "--club", str(tmp_path / "club")] for args in
               (("recalc",), ("leaderboard", "--all", "--format", "json"), ("history", "p1", "--format", "json"),
                ("players", "--format", "json"))]
        outputs.append([subprocess.run(argv, env=env, capture_output=True, text=True, check=True).stdout for argv in run])
    assert outputs[0][1:] == outputs[1][1:] and json.loads(outputs[1][2])
    assert sorted(outputs[0][0].splitlines()[1:-1]) == sorted(outputs[1][0].splitlines()[1:-1])


@pytest.mark.slow   # (a real process's imports or memory: a speed guard, in the slow run)
def test_small_journals_and_the_plain_install_never_import_polars_or_numba(tmp_path):
    """Below the thresholds (and with NARDRATING_FAST=0, or without the extra) neither library is loaded."""
    random_club(tmp_path, 4)
    code = ("import sys; from nardrating.replay.parallel import replay_all; replay_all(sys.argv[1]); "
            "print(sorted(m for m in ('polars', 'numba', 'numpy') if m in sys.modules))")
    for switch in ("", "0"):
        env = {**os.environ, "NARDRATING_FAST": switch, "XDG_CACHE_HOME": str(tmp_path / "cache")}
        done = subprocess.run([sys.executable, "-c", code, str(tmp_path)], env=env, capture_output=True, text=True, check=True)
        assert done.stdout.strip() == "[]", done.stderr


def test_forcing_the_fast_path_without_the_extra_says_what_to_install(tmp_path, monkeypatch, capsys):
    import importlib.util

    import nardrating.fast as fast_module

    random_club(tmp_path, 6)
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    monkeypatch.setattr(fast_module, "_said", set())
    monkeypatch.setenv("NARDRATING_FAST", "1")
    ledger = load_club(tmp_path, use_cache=False)
    ledger.run("fibs", "long-nardy")
    err = capsys.readouterr().err
    assert "pip install 'nardrating[fast]'" in err and err.count("numba is not installed") == 1 and "polars" not in err


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(12, 40))
def test_fast_path_equals_pure_path_on_many_and_bigger_journals(tmp_path, fast, seed):
    random_club(tmp_path, seed, rows=random.Random(seed).choice([50, 2000, 20000]), crlf=seed % 3 == 0)
    assert everything(tmp_path, "1") == everything(tmp_path, "0")
    assert fast["csv"] == [True] and fast["fibs"] == [True, True]


# --- elo, glicko and glicko2 ------------------------------------------------------------------

CHESS_LISTS = ("elo", "glicko", "glicko2")


def random_chess_club(folder: Path, seed: int, rows: int = 400) -> dict:
    """A chess club (chess and blitz) of one elo, glicko and glicko2 list each, drawn from `seed`:
    a CSV of games with draws, forfeits and unrated ones, and a TOML file of players, games, voids
    and adjustments of every kind the lists take. What was drawn."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    players = PLAYERS[: rng.randint(3, len(PLAYERS))]
    limit = rng.choice([0, 0, 1, 2])
    elo = [f"pair_limit_per_day = {limit}", f"start = {rng.choice([1200, 1234.5])}", f"k = {rng.choice([20, 32, 10.5])}",
           f"provisional_games = {rng.choice([0, 5, 20])}", f"inactive_after_months = {rng.choice([0, 0, 1])}",
           f"exclude_after_months = {rng.choice([0, 0, 3])}"]
    glicko = [f'period = "{rng.choice(["day", "week", "month"])}"', f"c = {rng.choice([34.6, 80, 0])}",
              f"start = {rng.choice([1500, 1450.5])}", f"provisional_rd = {rng.choice([110, 300])}"]
    glicko2 = [f'period = "{rng.choice(["day", "week", "month"])}"', f"tau = {rng.choice([0.5, 0.3, 1.2])}",
               f"sigma = {rng.choice([0.06, 0.09])}", f"start = {rng.choice([1500, 1600.0])}", rng.choice(["max_rd = 350", "max_rd = 300\nrd = 250"])]
    toml_first = rng.random() < 0.5
    files = '["journal.toml", "games.csv"]' if toml_first else '["games.csv", "journal.toml"]'
    (folder / "nardrating.toml").write_text(
        f'[club]\nname = "Fast chess"\njournal = {files}\ndefault_discipline = "chess"\n\n'
        + "".join(f'[rating.{name}]\nengine = "{name}"\n' + "\n".join(params) + "\n\n"
                  for name, params in zip(CHESS_LISTS, (elo, glicko, glicko2))), encoding="utf-8")
    header = ["id", "date", "player_a", "player_b", "result", "discipline", "rated", "forfeit"]
    rng.shuffle(header)
    first = date(2015, 1, 1)
    span = rng.choice([20, 90, 400])   # days: a few periods of a day, a week or a month, or many
    ids = []
    lines = [",".join(header)]
    for k in range(rows):
        a, b = rng.sample(players, 2)
        cells = {"id": f"c{k}", "date": (first + timedelta(days=rng.randint(0, span))).isoformat(),
                 "player_a": a, "player_b": b, "result": rng.choice(["1-0", "0-1", "1/2-1/2", "1-0", "0-1"]),
                 "discipline": rng.choice(["", "chess", "blitz"]), "rated": rng.choice(["", "", "", "", "false"]),
                 "forfeit": rng.choice(["", "", "", "", "", "true"])}
        ids.append(cells["id"])
        lines.append(",".join(cells[h] for h in header))
    (folder / "games.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    toml = [f'[[player]]\nid = "{p}"\nname = "Player {p}"\n' for p in rng.sample(players, rng.randint(0, len(players)))]
    for k in range(rng.randint(0, 12)):
        a, b = rng.sample(players, 2)
        toml.append(f'[[match]]\nid = "t{k}"\ndate = {first + timedelta(days=rng.randint(0, span))}\n'
                    f'players = ["{a}", "{b}"]\nresult = "{rng.choice(["1-0", "1/2-1/2"])}"\ndiscipline = "chess"\n')
    for match in rng.sample(ids, min(len(ids), rng.randint(0, 8))):
        toml.append(f'[[void]]\nmatch = "{match}"\ndate = 2015-03-01\nreason = "entered twice"\n')
    for _ in range(rng.randint(0, 10)):
        rating = rng.choice(CHESS_LISTS)
        change = f"set = {rng.choice([1400, 1612.25])}" if rng.random() < 0.5 else f"delta = {rng.choice([-25, 7.5])}"
        if rating != "elo" and rng.random() < 0.5:
            change += f"\nrd = {rng.choice([60, 200.5])}"
        if rating == "glicko2" and rng.random() < 0.5:
            change += f"\nvolatility = {rng.choice([0.04, 0.1])}"
        toml.append(f'[[adjust]]\ndate = {first + timedelta(days=rng.randint(0, span + 10))}\nplayer = "{rng.choice(players)}"\n'
                    f'rating = "{rating}"\ndiscipline = "{rng.choice(["chess", "blitz"])}"\n{change}\nreason = "commission"\n')
    (folder / "journal.toml").write_text("\n".join(toml), encoding="utf-8")
    return {"limit": limit}


def chess_everything(folder: Path, fast: str, as_of: date | None = None) -> dict:
    """Every list's and discipline's standings, history (in its order) and records, by one path."""
    os.environ["NARDRATING_FAST"] = fast
    try:
        ledger = load_club(folder, use_cache=False)
        out = {}
        for name in CHESS_LISTS:
            for discipline in ("chess", "blitz"):
                result = ledger.run(name, discipline, as_of)
                out[name, discipline] = {
                    "standings": exact([[p, s.rating, s.games, s.status, s.last_played, s.extra] for p, s in result.standings.items()]),
                    "history": exact([[p, [[e.date, e.entry, e.kind, e.opponent, e.result, e.before, e.change, e.after, e.rated,
                                            e.reason, e.extra] for e in events]] for p, events in result.events.items()]),
                    "one": exact({p: [[e.entry, e.before, e.after, e.extra] for e in result.history(p)] for p in sorted(result.standings)}),
                    "records": exact([tuple(r) for r in result.records]),
                }
                kept = getattr(result, "replayed", None)   # a Glicko replay's end, and its last period's start
                if kept is not None:
                    out[name, discipline]["kept"] = exact(
                        [kept.r, kept.phi, kept.sigma, kept.last, kept.games, kept.played, kept.order, kept.event_order,
                         [list(c) for c in (kept.periods.phi_before, kept.periods.phi, kept.periods.volatility,
                                            kept.periods.last_row)],
                         [list(f) for f in kept.records.columns[3]],   # (an unrated game's fields too)
                         vars(kept.last_period)])
        return out
    finally:
        os.environ["NARDRATING_FAST"] = "0"


@pytest.mark.parametrize("seed", range(10))
def test_elo_and_glicko_fast_loops_equal_the_pure_replays_on_random_journals(tmp_path, fast, seed):
    random_chess_club(tmp_path, seed)
    pure = chess_everything(tmp_path, "0")
    assert fast["elo"] == fast["glicko"] == []
    assert chess_everything(tmp_path, "1") == pure   # standings and history in the same order, too
    assert fast["elo"] == [True, True] and fast["glicko"] == [True] * 4   # the loops did the work


@pytest.mark.parametrize("seed", [3, 4])
def test_glicko_fast_loop_keeps_the_last_period_start_as_the_pure_replay(tmp_path, fast, seed):
    # Adjustments dated on the last game's day fall in the last period: they apply before it is
    # rated, so the state a resumed replay starts from (LastPeriod) holds them, on both paths.
    random_chess_club(tmp_path, seed)
    rows = (tmp_path / "games.csv").read_text(encoding="utf-8").splitlines()
    at = rows[0].split(",").index("date")
    last = max(row.split(",")[at] for row in rows[1:])
    with open(tmp_path / "journal.toml", "a", encoding="utf-8") as f:
        for name in ("glicko", "glicko2"):
            f.write(f'\n[[adjust]]\ndate = {last}\nplayer = "p0"\nrating = "{name}"\ndiscipline = "chess"\n'
                    f'delta = 11\nrd = 70\nreason = "late"\n')
    pure = chess_everything(tmp_path, "0")
    assert chess_everything(tmp_path, "1") == pure
    for name in ("glicko", "glicko2"):
        kept = pure[name, "chess"]["kept"][-1]
        assert kept["index"] != ("NoneType", "None")   # a period was pending at the end: p0's adjustment in it


def test_elo_and_glicko_fast_loops_as_of_a_date(tmp_path, fast):
    random_chess_club(tmp_path, 31, rows=300)
    as_of = date(2015, 1, 20)
    assert chess_everything(tmp_path, "1", as_of) == chess_everything(tmp_path, "0", as_of)
    assert fast["glicko"] and all(fast["glicko"])


def test_elo_inactivity_penalties_are_left_to_the_pure_loop(tmp_path, fast):
    random_chess_club(tmp_path, 7)
    config = tmp_path / "nardrating.toml"
    config.write_text(config.read_text().replace("[rating.glicko]", "inactivity = [[1, 10]]\n\n[rating.glicko]"))
    assert chess_everything(tmp_path, "1") == chess_everything(tmp_path, "0")
    assert fast["elo"] == [False, False]


def test_seed_003_and_glickmans_example_through_the_fast_loops(tmp_path, fast):
    """Seed 003, example 1: both 1200, E = 0.5, Anna wins: 20·(1 − 0.5) = +10, Boris −10.
    Glickman's example ("The Glicko system"; "Example of the Glicko-2 system"): a player 1500, RD 200,
    beats 1400/RD 30 and loses to 1550/RD 100 and 1700/RD 300 in one period: r' = 1464, RD' = 151.4
    (Glicko-1); r' = 1464.06, RD' = 151.52 (Glicko-2, σ 0.06, τ 0.5)."""
    players = {"a": (1500, 200), "b": (1400, 30), "c": (1550, 100), "d": (1700, 300)}
    toml = "".join(f'[[adjust]]\ndate = 2024-01-01\nplayer = "{p}"\nrating = "{name}"\nset = {r}\nrd = {rd}\n'
                   + ('volatility = 0.06\n' if name == "glicko2" else "") + 'reason = "the example"\n\n'
                   for name in ("glicko", "glicko2") for p, (r, rd) in players.items())
    (tmp_path / "journal.toml").write_text(toml)
    (tmp_path / "games.csv").write_text("date,player_a,player_b,result,discipline\n2024-01-10,a,b,1-0,chess\n"
                                        "2024-01-11,a,c,0-1,chess\n2024-01-12,a,d,0-1,chess\n2024-01-13,anna,boris,1-0,blitz\n")
    (tmp_path / "nardrating.toml").write_text(
        '[club]\nname = "Examples"\njournal = ["journal.toml", "games.csv"]\ndefault_discipline = "chess"\n\n'
        '[rating.elo]\nengine = "elo"\ndisciplines = ["blitz"]\n\n[rating.glicko]\nengine = "glicko"\ndisciplines = ["chess"]\n\n'
        '[rating.glicko2]\nengine = "glicko2"\ndisciplines = ["chess"]\n')
    os.environ["NARDRATING_FAST"] = "1"
    try:
        ledger = load_club(tmp_path, use_cache=False)
        elo, glicko, glicko2 = ledger.run("elo", "blitz"), ledger.run("glicko", "chess"), ledger.run("glicko2", "chess")
    finally:
        os.environ["NARDRATING_FAST"] = "0"
    assert fast["elo"] == [True] and fast["glicko"] == [True, True]
    assert elo.standings["anna"].rating == 1210.0 and elo.standings["boris"].rating == 1190.0
    assert elo.events["anna"][0].extra["expected"] == 0.5
    assert round(glicko.standings["a"].rating) == 1464 and round(glicko.standings["a"].extra["rd"], 1) == 151.4
    assert abs(glicko2.standings["a"].rating - 1464.06) < 0.01 and round(glicko2.standings["a"].extra["rd"], 2) == 151.52


def test_the_compiled_sum_adds_as_pythons_sum(fast):
    """Glicko-2's Δ = v·sum(terms): the loop's sum is Python's, bit for bit (a plain left-to-right sum
    up to 3.11, Neumaier's compensated one from 3.12 on), on sums that cancel and mix magnitudes."""
    import numpy as np

    from nardrating.fast.glickoloop import COMPENSATED_SUM, _kernel, py_sum

    _kernel()
    from nardrating.fast import glickoloop

    rng = random.Random(5)
    for n in (0, 1, 2, 3, 7, 50):
        for _ in range(200):
            values = [rng.choice([1.0, -1.0]) * 10.0 ** rng.uniform(-17, 3) for _ in range(n)]
            array = np.array([0.0] + values + [0.0])
            assert glickoloop.py_sum(array, 1, n + 1, COMPENSATED_SUM) == sum(values)
            assert py_sum(array, 1, n + 1, COMPENSATED_SUM) == sum(values)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(40, 64))
def test_elo_and_glicko_fast_loops_on_many_and_bigger_journals(tmp_path, fast, seed):
    random_chess_club(tmp_path, seed, rows=random.Random(seed).choice([60, 3000, 20000]))
    assert chess_everything(tmp_path, "1") == chess_everything(tmp_path, "0")
    assert all(fast["elo"]) and all(fast["glicko"]) and len(fast["glicko"]) == 4


@pytest.mark.slow
def test_the_compiled_split_on_a_big_file_equals_the_pure_reader(tmp_path, fast):
    """120,000 rows: 3,000 + 2,900 players (some named in Cyrillic), 336 dates, two disciplines, ids
    given except every 7th row's (derived): the split's hash table grows twice past its first
    4,096 slots (at 2,048 and 4,096 distinct texts), and the ids' table holds 120,000. Read by both
    paths, everything is equal; polars is never imported."""
    import sys

    def name(k: int, letter: str) -> str:
        return ("Игрок" if letter == "p" else "Соперник") + str(k) if k % 10 == 0 else f"{letter}{k}"

    rows = "".join(f"{'' if k % 7 == 0 else f'm{k}'},2010-{k % 12 + 1:02d}-{k % 28 + 1:02d},{name(k % 3000, 'p')},"
                   f"{name(k % 2900, 'q')},{'1-0' if k % 3 else '0-1'},{k % 9 + 1},{'long-nardy' if k % 5 else 'short-nardy'}\n"
                   for k in range(120_000))
    (tmp_path / "games.csv").write_text("id,date,player_a,player_b,result,length,discipline\n" + rows, encoding="utf-8")
    (tmp_path / "nardrating.toml").write_text(
        '[club]\nname = "Big"\njournal = ["games.csv"]\ndefault_discipline = "long-nardy"\n\n[rating.fibs]\nengine = "fibs"\n')
    pure = everything(tmp_path, "0")
    assert everything(tmp_path, "1") == pure
    assert fast["csv"] == [True] and "polars" not in sys.modules
    assert len(pure["ids"]) == 120_000 and pure["ids"][:2] == ["games-1", "m1"]  # row 1 (k = 0) has no id
    assert len({p for p in pure["columns"]["a"]}) == 3000 and pure["columns"]["a"][10] == ("str", "'Игрок10'")


def test_the_split_confirms_equal_hashes_byte_by_byte(monkeypatch):
    """With every hash made equal (the FNV prime set to 0: a cell's hash no longer depends on its
    bytes), the split and the id check must still tell texts apart by their bytes: the first 16 in
    two words, the rest one by one. Run as plain Python (the loops' source, uncompiled) on a
    hand-made file (L = abcdefghijklmnop, 16 letters):

        id,date,player_a,player_b,result      row   player_a      player_b
        m1,2010-01-01,ab,b,1-0                0     ab → 0        b → 0
        m2,2010-01-01,a,ab,0-1                1     a → 1         ab → 1 (its own column's numbering)
        ,2010-01-02,ab,a,1-0                  2     ab → 0        a → 2; the id derived: games-3
        m4,2010-01-02,Lq,Lr,1-0               3     Lq → 2        Lr → 3 (equal in their first 16 bytes)
        m5,2010-01-02,Lr,Lq,0-1               4     Lr → 3        Lq → 4
    """
    pytest.importorskip("numpy")
    import numpy as np

    from nardrating.fast import csvsplit

    monkeypatch.setattr(csvsplit, "_FNV_PRIME", np.uint64(0))
    monkeypatch.setattr(csvsplit, "_loops", lambda: (csvsplit._fill, csvsplit._rehash))
    long = "abcdefghijklmnop"
    raw = (f"id,date,player_a,player_b,result\nm1,2010-01-01,ab,b,1-0\nm2,2010-01-01,a,ab,0-1\n,2010-01-02,ab,a,1-0\n"
           f"m4,2010-01-02,{long}q,{long}r,1-0\nm5,2010-01-02,{long}r,{long}q,0-1\n").encode()
    cut = csvsplit.split(raw, raw.index(b"\n") + 1, 5, 5, 0, False)
    assert cut.bad_row == -1
    assert cut.codes[2].tolist() == [0, 1, 0, 2, 3] and cut.codes[3].tolist() == [0, 1, 2, 3, 4]
    assert cut.codes[1].tolist() == [0, 0, 1, 1, 1] and cut.codes[4].tolist() == [0, 1, 0, 0, 1]
    assert cut.texts == [[], ["2010-01-01", "2010-01-02"], ["ab", "a", long + "q", long + "r"],
                         ["b", "ab", "a", long + "r", long + "q"], ["1-0", "0-1"]]
    monkeypatch.setattr(csvsplit, "_id_loops", lambda: (csvsplit._ids, csvsplit._unique))
    blob, starts, problem = csvsplit.file_ids(raw, cut, 5, "games", None)
    assert problem == "" and blob == b"m1\nm2\ngames-3\nm4\nm5\n" and starts.tolist() == [0, 3, 6, 14, 17, 20]
    assert csvsplit.file_ids(raw, cut, 5, "games", (b"m0\nm4\n", np.array([0, 3, 6])))[2] == "a match id used twice"

    def unique(blob, starts):
        return csvsplit._unique(blob, starts, np.full(16, -1, np.int64), np.zeros(16, np.uint64))

    def lines(*ids: bytes):
        text = b"".join(i + b"\n" for i in ids)
        return np.frombuffer(text, dtype=np.uint8), np.cumsum([0] + [len(i) + 1 for i in ids]).astype(np.int64)

    assert unique(*lines(b"a", b"b", b"ab", b"ba")) and unique(*lines(b"ab", b"a"))
    assert not unique(*lines(b"a", b"ab", b"b", b"ab"))
    # A CR other than a CRLF file's line end, and a short row, are refused at their rows.
    for bad_raw, row in ((b"id,date,player_a,player_b,result\nm1,2010-01-01,a\r,b,1-0\n", 0),
                         (b"id,date,player_a,player_b,result\nm1,2010-01-01,a,b,1-0\nm2,2010-01-01,a,b\n", 1)):
        assert csvsplit.split(bad_raw, bad_raw.index(b"\n") + 1, 2 if row else 1, 5, 0, False).bad_row == row
    # The table's growth (4,096 slots, more than half full at 2,049 texts: 8,192, then 16,384), with the
    # real hash: 2,500 rows of new players on both sides are 5,002 distinct texts, numbered in order.
    monkeypatch.setattr(csvsplit, "_FNV_PRIME", np.uint64(0x100000001B3))
    raw = b"id,date,player_a,player_b,result\n" + b"".join(b"m%d,2010-01-01,p%d,q%d,1-0\n" % (k, k, k) for k in range(2500))
    with np.errstate(over="ignore"):  # numpy's scalars wrap around as the compiled loop's do, and say so
        cut = csvsplit.split(raw, raw.index(b"\n") + 1, 2500, 5, 0, False)
    assert cut.bad_row == -1 and cut.texts[2] == [f"p{k}" for k in range(2500)] and cut.texts[3][-1] == "q2499"
    assert cut.codes[2].tolist() == cut.codes[3].tolist() == list(range(2500)) and set(cut.codes[1].tolist()) == {0}


def test_a_match_against_oneself_is_found_by_numpy_as_by_the_pure_check(tmp_path, fast):
    """The fast read takes the file (it is plain); the self-match check then runs by numpy on its
    columns (fast.any_same) and must report row 3 (line 3: the header is line 1) as the pure path does."""
    from nardrating.fast import any_same

    (tmp_path / "games.csv").write_text("id,date,player_a,player_b,result\nm1,2015-01-01,p1,p2,1-0\n"
                                        "m2,2015-01-02,p3,p3,1-0\nm3,2015-01-03,p2,p3,0-1\n")
    (tmp_path / "nardrating.toml").write_text(
        '[club]\nname = "Self"\njournal = ["games.csv"]\ndefault_discipline = "long-nardy"\n\n[rating.fibs]\nengine = "fibs"\n')
    said = problems_by_both_paths(tmp_path)
    assert said[0] == said[1] and len(said[0]) == 1
    assert said[0][0].endswith("games.csv:3: m2: a match needs two different players, not 'p3' against themself")
    assert fast["csv"] == [True]
    from array import array

    os.environ["NARDRATING_FAST"] = "1"
    try:  # codes 0 1 2 / 1 2 2: the third rows agree; from row 0 and from row 2 on, not from row 3
        a, b = array("i", [0, 1, 2]), array("i", [1, 2, 2])
        assert any_same(a, b, 0) is True and any_same(a, b, 2) is True and any_same(a, b, 3) is False
        assert any_same([0, 1], [1, 0], 0) is None  # a list (a journal read in pure Python): the pure check
    finally:
        os.environ["NARDRATING_FAST"] = "0"


@pytest.mark.parametrize("engine", ["glicko", "glicko2"])
def test_games_appended_to_what_the_compiled_loop_kept_are_rated_in_place_as_a_full_read(cli, tmp_path, monkeypatch,
                                                                                          engine):
    """`recalc` by the compiled Glicko loop keeps the state the cache stores; games appended to its last
    period are then rated in place from that state (engines/glickoresume.py), and every read, and the
    kept state itself, equal a full read's by the pure path."""
    pytest.importorskip("numba")
    from nardrating.engines import glickoresume
    from nardrating.fast import glickoloop

    from .conftest import make_club, no_cache
    from .test_glicko_resume import CONFIG, PLAYERS, journal, kept_state
    from .test_cache_glicko import outputs

    rng = random.Random(11)
    text, day = journal(rng, 80)
    club = make_club(tmp_path / "club", text, CONFIG.format(engine=engine, period="month"))
    compiled, in_place = [], []
    loop, rerated = glickoloop.replay, glickoresume.resumed_in_place
    monkeypatch.setattr(glickoloop, "replay", lambda *args: (lambda s: (compiled.append(s is not None), s)[1])(loop(*args)))
    monkeypatch.setattr(glickoresume, "resumed_in_place",
                        lambda *args: (lambda s: (in_place.append(s is not None), s)[1])(rerated(*args)))
    monkeypatch.setenv("NARDRATING_FAST", "1")
    assert cli("recalc", "--club", club).exit_code == 0
    monkeypatch.setenv("NARDRATING_FAST", "0")
    assert compiled == [True]
    reads = [("leaderboard",), ("players",), *[("history", p) for p in ("p0", "p5")]]
    for step in range(3):
        a, b = rng.sample(PLAYERS[:8], 2)
        added = cli("add-match", a, b, "--winner", a, "--date", day.isoformat(), "--club", club)
        assert added.exit_code == 0, added.output
        resumed = outputs(cli, club, reads)
        with no_cache():
            assert outputs(cli, club, reads) == resumed, step
        assert kept_state(load_club(club)) == kept_state(load_club(club, use_cache=False)), step
    assert True in in_place
