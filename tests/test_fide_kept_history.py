"""A fide list's histories kept as plain data for the cache (engines/fide/kept.py): every player's
lines made again from them are the result's own, value for value and type for type, on the sample
club and on random clubs of every ruleset; an item of another kind is not kept."""
from __future__ import annotations

import json
import random
import shutil
from datetime import date, timedelta
from pathlib import Path

import pytest

from nardrating.engines.base import HistoryEvent
from nardrating.engines.kepthistory import NotPlain
from nardrating.engines.registry import engine_class
from nardrating.replay import cachehistory
from nardrating.replay.loader import load_club

from .federation_support import random_singles
from .conftest import SAMPLES, no_cache


def typed(events: list[HistoryEvent]) -> list[tuple]:
    """The events with each value's type beside it: 1200 and 1200.0 are equal, but not shown alike."""
    return [tuple((v, type(v)) for v in (e.date, e.entry, e.kind, e.opponent, e.result, e.before, e.change, e.after,
                                         e.rated, e.reason)) + tuple((k, v, type(v)) for k, v in e.extra.items())
            for e in events]


def assert_kept_gives_every_history(ledger, days) -> set[str]:
    """For each date: every player's lines from the kept data (through JSON) are the result's. The kinds of items kept."""
    rating = ledger.rating("fide")
    engine = engine_class(rating.engine)()
    kinds: set[str] = set()
    for discipline in ledger.disciplines(rating):
        for day in days:
            result = ledger.run(rating, discipline, day)
            kinds |= {type(item).__name__ for items in result.events.kept.values() for item in items}
            meta, kept = engine.kept_histories(result)
            stored = {player: json.loads(json.dumps(items, allow_nan=False)) for player, items in kept}
            meta = json.loads(json.dumps(meta, allow_nan=False))
            assert set(stored) == set(result.events)
            for player, items in stored.items():
                events = result.history(player)
                back = engine.history_from_kept(meta, player, items)
                assert back == events, player
                assert typed(back) == typed(events), player
    return kinds


def test_the_sample_clubs_histories_come_back_from_their_kept_data(tmp_path):
    club = tmp_path / "fide-club"
    shutil.copytree(SAMPLES / "fide-club", club)
    with no_cache():
        ledger = load_club(club / "nardrating.toml")
    days = (None, date(2024, 3, 15), date(2025, 6, 1))
    assert assert_kept_gives_every_history(ledger, days) == {"HistoryEvent", "EventRecord", "RatedSingle"}


# --- random clubs ------------------------------------------------------------------------------

CONFIG = """\
[club]
journal = ["journal.toml"]
default_discipline = "chess"

[rating.fide]
engine = "fide"
ruleset = "{ruleset}"
list_every = "{every}"
inactive_months = {inactive}
"""


def random_club(folder: Path, seed: int, ruleset: str) -> Path:
    """A fide club over two years: players imported by [[adjust]] (some near the floor, some over 2650, some
    with the list's K and games), unrated ones entering by their pools, titled ones; single matches (wins,
    draws, unrated, forfeited, voided), round-robin and swiss tournaments and matches (with standings or
    without; some official), adjustments by set and delta, breaks long enough for inactivity."""
    rng = random.Random(seed)
    fide = ruleset != "seed"
    folder.mkdir()
    (folder / "nardrating.toml").write_text(CONFIG.format(
        ruleset=ruleset, every=rng.choice(["month", "quarter"]), inactive=rng.choice([3, 12])), encoding="utf-8")
    players = [f"p{k}" for k in range(16)]
    start = date(2024, 6, 1) if ruleset == "fide-2025" else date(2023, 1, 1)
    blocks = []
    for p in players:
        title = rng.choice([None, None, None, "FM", "IM"])
        blocks.append(f'[[player]]\nid = "{p}"\n' + (f'title = "{title}"\n' if title else ""))
        if rng.random() < 0.6:    # rated from the start; the others enter by their pools (or never)
            rating = rng.choice([1010, 1420, rng.randint(1500, 2300), 2450, 2700])
            fields = ""
            if fide and rng.random() < 0.5:
                fields = rng.choice(["k = 40\ngames = 12\n", "k = 40\ngames = 40\n", "k = 10\n", "games = 3\n"])
            blocks.append(f'[[adjust]]\ndate = {start}\nplayer = "{p}"\nset = {rating}\n{fields}reason = "import"\n')
    day, n, cups = start, 0, 0
    for _ in range(80):
        day += timedelta(days=rng.choice([1, 2, 5, 10, 20, 45, 200 if rng.random() < 0.05 else 9]))
        active = rng.sample(players, rng.randint(2, 9))
        if rng.random() < 0.3:
            cups += 1
            system = rng.choice(["round-robin", "swiss", "match"])
            if system == "match":
                active = active[:2]
            end = day + timedelta(days=rng.choice([0, 2, 6]))
            lines = [f'[[tournament]]\nid = "cup{cups}"\nsystem = "{system}"\nstart = {day}\nend = {end}\n'
                     f'official = {"true" if rng.random() < 0.4 else "false"}\n']
            if rng.random() < 0.5:
                lines.append("standings = [" + ", ".join(
                    f'{{ player = "{p}", place = {k + 1} }}' for k, p in enumerate(rng.sample(active, len(active))))
                    + "]\n")
            blocks.append("".join(lines))
            rounds = 3 if system == "match" else 1
            for _round in range(rounds):
                for k, a in enumerate(active):
                    for b in active[k + 1:]:
                        n += 1
                        played = day + timedelta(days=rng.randint(0, (end - day).days))
                        blocks.append(f'[[match]]\nid = "g{n}"\ndate = {played}\nplayers = ["{a}", "{b}"]\n'
                                      f'result = "{rng.choice(["1-0", "0-1", "1/2-1/2"])}"\ntournament = "cup{cups}"\n')
            continue
        n = random_singles(rng, active, day, n, blocks, most=6, unrated=0.05, forfeit=0.09)
        if rng.random() < 0.1:
            field = rng.choice(["set = 1650", "delta = -25", "delta = 40", "set = 1005"])
            blocks.append(f'[[adjust]]\ndate = {day}\nplayer = "{rng.choice(players)}"\n{field}\nreason = "commission"\n')
    (folder / "journal.toml").write_text("\n".join(blocks), encoding="utf-8")
    return folder


RULESETS = ("seed", "fide-2024", "fide-2025")


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seed", range(3))
def test_every_random_clubs_history_comes_back_from_its_kept_data(tmp_path, seed, ruleset):
    club = random_club(tmp_path / "club", seed, ruleset)
    with no_cache():
        ledger = load_club(club / "nardrating.toml")
    days = (None, date(2024, 2, 20), date(2025, 1, 31))
    assert assert_kept_gives_every_history(ledger, days) == {"HistoryEvent", "EventRecord", "RatedSingle"}


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_many_random_clubs_histories_come_back_from_their_kept_data(tmp_path, ruleset):
    for seed in range(3, 30):
        club = random_club(tmp_path / f"club{seed}", seed, ruleset)
        with no_cache():
            ledger = load_club(club / "nardrating.toml")
        assert_kept_gives_every_history(ledger, (None, date(2024, 7, 1)))


def test_an_item_of_another_kind_is_not_kept(tmp_path):
    club = random_club(tmp_path / "club", 0, "seed")
    with no_cache():
        ledger = load_club(club / "nardrating.toml")
    result = ledger.run(ledger.rating("fide"))
    player = next(iter(result.events.kept))
    result.events.kept[player].append(object())
    meta, kept = engine_class("fide")().kept_histories(result)
    with pytest.raises(NotPlain):
        dict(kept)


def test_another_result_has_no_kept_histories(tmp_path):
    from nardrating.engines.base import RatingResult

    assert engine_class("fide")().kept_histories(RatingResult("fide", "chess", "fide", {}, {})) is None


def test_the_sample_clubs_histories_are_read_back_from_the_cache(tmp_path):
    # Through the file (replay/cachehistory.py): every history kept, none of them refused.
    club = tmp_path / "fide-club"
    shutil.copytree(SAMPLES / "fide-club", club)
    ledger = load_club(club / "nardrating.toml")
    assert ledger.cache_token is not None
    rating = ledger.rating("fide")
    discipline = ledger.discipline(rating, None)
    engine = engine_class(rating.engine)
    result = ledger.run(rating, discipline)
    players = sorted(result.events)
    cachehistory.save(ledger, engine, rating, discipline, None, result)
    kept = cachehistory.load(ledger, engine, rating, discipline, None, players)
    assert kept is not None and sorted(kept.events) == players
    for player in players:
        assert typed(kept.history(player)) == typed(result.history(player)), player
