"""Every player's history of a federation list kept in the cache (replay/cachehistory.py), read by
`history`: what it shows from them is what a full read shows, for every player, in every format and
as of every date asked; only for the journal exactly as it was replayed (an appended match: its
line is there); a damaged file is not read; and nothing but `history` without --details or a chart
reads them."""
from __future__ import annotations

import json
import random
import shutil
from datetime import date, timedelta
from pathlib import Path

import pytest

from nardrating.engines.base import HistoryEvent
from nardrating.engines.kepthistory import NotPlain, event_back, event_data
from nardrating.engines.registry import engine_class
from nardrating.replay import cachehistory
from nardrating.replay.cachedir import CacheFolder
from nardrating.replay.loader import load_club

from .federation_support import random_singles
from .mfsnb_support import CONFIG
from .conftest import no_cache

SAMPLES = Path(__file__).parent.parent / "sample_ledgers"
FORMATS = ("table", "json", "csv", "md")


def copied(tmp_path: Path, name: str) -> Path:
    club = tmp_path / name
    shutil.copytree(SAMPLES / name, club)
    return club


def histories(cli, club: Path, rating: str, players: list[str], day: str | None = None,
              formats: tuple[str, ...] = FORMATS) -> list[str]:
    out = []
    for player in players:
        for fmt in formats:
            result = cli("history", player, "--club", club, "--rating", rating, "--format", fmt,
                         *(["--as-of", day] if day else []))
            assert result.exit_code == 0, result.output
            out.append(result.stdout.replace(str(club), "CLUB"))
    return out


def counting_runs(monkeypatch) -> list[tuple]:
    from nardrating.replay.ledger import Ledger

    run = Ledger.run
    replays: list[tuple] = []
    monkeypatch.setattr(Ledger, "run", lambda self, *args, **kw: replays.append(args) or run(self, *args, **kw))
    return replays


def typed(events: list[HistoryEvent]) -> list[tuple]:
    """The events with each value's type beside it: 1200 and 1200.0 are equal, but not shown alike."""
    return [tuple((v, type(v)) for v in (e.date, e.entry, e.kind, e.opponent, e.result, e.before, e.change, e.after,
                                         e.rated, e.reason)) + tuple((k, v, type(v)) for k, v in e.extra.items())
            for e in events]


# (the default date by default; two dates asked for in the slow run)
@pytest.mark.parametrize("days", [(None,), pytest.param(("2009-05-31", "2009-12-31"), marks=pytest.mark.slow)])
def test_a_federation_players_history_from_the_cache_is_a_full_reads(cli, tmp_path, monkeypatch, days):
    club = copied(tmp_path, "federation-2009")
    players = sorted(load_club(club / "nardrating.toml").journal.players)
    for day in days:   # (one file per list: a date asked for replaces the one before)
        formats = FORMATS if day is None else ("table", "json")   # (every format once: the rendering is shared)
        with no_cache():
            full = histories(cli, club, "federation", players, day, formats)
        histories(cli, club, "federation", players[:1], day)   # (the snapshot, then every history, written)
        with monkeypatch.context() as patch:
            replays = counting_runs(patch)
            kept = histories(cli, club, "federation", players, day, formats)
        assert kept == full
        assert replays == []   # every one of them from the kept histories


def test_a_changed_config_is_not_read_from_the_kept_histories(cli, tmp_path):
    # The histories are of the snapshot, and a snapshot of the config's very text: monthly lists give
    # other lines than the quarterly ones kept.
    club = copied(tmp_path, "federation-2009")
    players = sorted(load_club(club / "nardrating.toml").journal.players)
    quarterly = histories(cli, club, "federation", players, formats=("json",))
    config = club / "nardrating.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('period = "quarter"', 'period = "month"'),
                      encoding="utf-8")
    monthly = histories(cli, club, "federation", players, formats=("json",))
    with no_cache():
        assert monthly == histories(cli, club, "federation", players, formats=("json",)) != quarterly


def cards(cli, club: Path, rating: str, players: list[str]) -> list[str]:
    """`player` of each, and `head-to-head` of each with the next, as a table and as JSON (what
    they read is the same in every format)."""
    out = []
    for k, player in enumerate(players):
        for args in (("player", player), ("head-to-head", player, players[k - 1])):
            for fmt in ("table", "json"):
                result = cli(*args, "--club", club, "--rating", rating, "--format", fmt)
                assert result.exit_code == 0, result.output
                out.append(result.stdout.replace(str(club), "CLUB"))
    return out


def test_a_players_card_and_head_to_head_from_the_cache_are_a_full_reads(cli, tmp_path, monkeypatch):
    # They read the player's history, their opponents' (the rating each had before a win), the standings.
    club = copied(tmp_path, "federation-2009")
    players = sorted(load_club(club / "nardrating.toml").journal.players)
    with no_cache():
        full = cards(cli, club, "federation", players)
    histories(cli, club, "federation", players[:1])
    with monkeypatch.context() as patch:
        replays = counting_runs(patch)
        assert cards(cli, club, "federation", players) == full
    assert replays == []


def test_the_kept_histories_are_for_the_journal_as_it_is(cli, tmp_path):
    club = copied(tmp_path, "federation-2009")
    players = sorted(load_club(club / "nardrating.toml").journal.players)
    a, b = players[:2]
    histories(cli, club, "federation", [a])
    added = cli("add-match", a, b, "--winner", a, "--date", "2009-12-30", "--club", club)
    assert added.exit_code == 0, added.output
    entry = json.loads(cli("history", a, "--club", club, "--format", "json").stdout)
    with no_cache():
        full = json.loads(cli("history", a, "--club", club, "--format", "json").stdout)
    assert entry == full and any(e["date"] == "2009-12-30" and e["kind"] == "match" for e in entry)


def test_the_kept_histories_of_an_older_snapshot_are_removed_with_it(cli, tmp_path):
    # As the older snapshots' files: once a newer snapshot is written and they are over two minutes
    # old (a command that began before may still read them).
    import os
    import time

    club = copied(tmp_path, "federation-2009")
    player = sorted(load_club(club / "nardrating.toml").journal.players)[0]
    histories(cli, club, "federation", [player])
    folder, name = kept_file(club)
    assert cli("recalc", "--club", club).exit_code == 0      # a newer snapshot: the file is recent, kept
    with folder:
        assert name in folder.names()
        old = time.time() - 300
        os.utime(name, (old, old), dir_fd=folder.fd)
    assert cli("recalc", "--club", club).exit_code == 0
    with CacheFolder(load_club(club / "nardrating.toml").config, create=False) as again:
        assert name not in again.names()


def kept_file(club: Path) -> tuple[CacheFolder, str]:
    config = load_club(club / "nardrating.toml").config
    folder = CacheFolder(config, create=False)
    names = [n for n in folder.names() if n.startswith("history-")]
    assert len(names) == 1
    return folder, names[0]


@pytest.mark.parametrize("where", ["head", pytest.param("a player's part", marks=pytest.mark.slow), "cut short"])
def test_a_damaged_file_is_not_read(cli, tmp_path, monkeypatch, where):
    club = copied(tmp_path, "federation-2009")
    players = sorted(load_club(club / "nardrating.toml").journal.players)
    with no_cache():
        full = histories(cli, club, "federation", players, formats=("json",))
    histories(cli, club, "federation", players[:1])
    folder, name = kept_file(club)
    with folder:
        data = bytearray(folder.read(name)[0])
        if where == "cut short":
            data = data[:-3]
        else:   # a digit of the head's JSON (the key), or the first player's part (at the file's start)
            k = data.index(b'"format"') + 10 if where == "head" else 5
            data[k] = ord("7") if data[k] != ord("7") else ord("8")
        folder.write(name, bytes(data))
    with monkeypatch.context() as patch:
        replays = counting_runs(patch)
        assert histories(cli, club, "federation", players, formats=("json",)) == full
    assert replays   # not read: replayed


def test_details_and_charts_replay(cli, tmp_path, monkeypatch):
    # Their steps and curves read the whole result, not the lines alone.
    club = copied(tmp_path, "federation-2009")
    player = sorted(load_club(club / "nardrating.toml").journal.players)[0]
    histories(cli, club, "federation", [player])
    with monkeypatch.context() as patch:
        replays = counting_runs(patch)
        assert cli("history", player, "--club", club, "--details", "--format", "json").exit_code == 0
    assert replays


# --- the engine's encoding, on random federation clubs ------------------------------------------

PARAMS = """\
period = "{period}"
round_robin = "{round_robin}"
protect_direction = "{direction}"
exclude_after_months = {exclude}
official_only = {official}
inactivity = [[2, 5], [4, 15]]"""


def toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (date, int)):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def random_club(folder: Path, seed: int) -> Path:
    """A federation club over two years: single matches (wins, draws, unrated, forfeited, voided), round-robin
    and swiss tournaments (with standings or by their games; some official), adjustments (set and delta,
    whole numbers), breaks long enough for penalties and exclusion, players with and without qualification."""
    rng = random.Random(seed)
    folder.mkdir()
    (folder / "nardrating.toml").write_text(CONFIG.format(params=PARAMS.format(
        period=rng.choice(["month", "quarter"]), round_robin=rng.choice(["seed", "strict"]),
        direction=rng.choice(["any", "stronger"]), exclude=rng.choice([0, 6, 24]),
        official=toml(rng.random() < 0.2))), encoding="utf-8")
    players = [f"p{k}" for k in range(14)]
    blocks = []
    for p in players:
        qualification = rng.choice([None, "MS", "KMS", "1", "2", "3"])
        blocks.append(f'[[player]]\nid = "{p}"\n' + (f'qualification = "{qualification}"\n' if qualification else ""))
    day, n, cups = date(2020, 1, 6), 0, 0
    for _ in range(70):
        day += timedelta(days=rng.choice([1, 3, 7, 20, 60]))
        active = rng.sample(players, rng.randint(2, 8))
        if rng.random() < 0.25 and len(active) >= 3:
            cups += 1
            end = day + timedelta(days=rng.choice([0, 2]))
            standings = rng.random() < 0.5
            lines = [f'[[tournament]]\nid = "cup{cups}"\nsystem = "{rng.choice(["round-robin", "swiss"])}"\n'
                     f"start = {day}\nend = {end}\nofficial = {toml(rng.random() < 0.5)}\n"]
            if standings:
                lines.append("standings = [" + ", ".join(
                    f'{{ player = "{p}", place = {k + 1} }}' for k, p in enumerate(rng.sample(active, len(active))))
                    + "]\n")
            blocks.append("".join(lines))
            for k, a in enumerate(active):
                for b in active[k + 1:]:
                    n += 1
                    blocks.append(f'[[match]]\nid = "g{n}"\ndate = {end}\nplayers = ["{a}", "{b}"]\n'
                                  f'result = "{rng.choice(["1-0", "0-1", "1/2-1/2"])}"\ntournament = "cup{cups}"\n')
            continue
        n = random_singles(rng, active, day, n, blocks, most=5, unrated=0.06, forfeit=0.1)
        if rng.random() < 0.08:
            field = rng.choice(["set = 1650", "delta = -25", "delta = 40"])
            blocks.append(f'[[adjust]]\ndate = {day}\nplayer = "{rng.choice(players)}"\n{field}\n'
                          f'reason = "commission"\n')
    (folder / "journal.toml").write_text("\n".join(blocks), encoding="utf-8")
    return folder


@pytest.mark.parametrize("seed", range(6))
def test_every_history_comes_back_from_its_kept_data(tmp_path, seed):
    club = random_club(tmp_path / "club", seed)
    with no_cache():
        ledger = load_club(club / "nardrating.toml")
    rating = ledger.rating("fed")
    engine = engine_class(rating.engine)()
    for discipline in ledger.disciplines(rating):
        for day in (None, date(2020, 9, 30)):
            result = ledger.run(rating, discipline, day)
            meta, kept = engine.kept_histories(result)
            stored = {player: json.loads(json.dumps(items)) for player, items in kept}
            meta = json.loads(json.dumps(meta))
            assert set(stored) == set(result.events)
            kinds = set()
            for player, items in stored.items():
                events = result.history(player)
                assert typed(engine.history_from_kept(meta, player, items)) == typed(events)
                kinds |= {e.kind for e in events}
            assert {"match", "competition", "list"} <= kinds


def test_an_event_keeps_its_values_and_their_types():
    e = HistoryEvent(date(2009, 3, 31), "m1", "adjust", None, None, 1500, -25, 1475, True, "commission",
                     {"penalty": 10, "expected": 0.25, "note": None})
    back = event_back(json.loads(json.dumps(event_data(e))))
    assert typed([back]) == typed([e])
    for odd in ({"x": float("nan")}, {"x": (1, 2)}, {1: 2}):
        with pytest.raises(NotPlain):
            event_data(HistoryEvent(date(2009, 3, 31), None, "adjust", None, None, None, None, None, True, None, odd))


def test_an_item_of_another_kind_is_not_kept(tmp_path):
    club = random_club(tmp_path / "club", 0)
    ledger = load_club(club / "nardrating.toml")
    result = ledger.run(ledger.rating("fed"))
    player = next(iter(result.book.events))
    result.book.events[player].append(object())
    meta, kept = engine_class("mfsnb")().kept_histories(result)
    with pytest.raises(NotPlain):
        dict(kept)


def test_no_kept_histories_for_a_journal_not_in_the_cache(tmp_path):
    club = random_club(tmp_path / "club", 1)
    with no_cache():
        ledger = load_club(club / "nardrating.toml")
    rating = ledger.rating("fed")
    result = ledger.run(rating)
    cachehistory.save(ledger, engine_class("mfsnb"), rating, ledger.discipline(rating, None), None, result)
    assert ledger.cache_token is None
    assert cachehistory.load(ledger, engine_class("mfsnb"), rating, "long-nardy", None, ["p1"]) is None
