"""A placement list's replay kept in the cache (engines/placementstate.py; Engine.cacheable): the
state before the last halving is stored for the journal exactly as it was replayed and finished as
of the day read. Everything read from it (leaderboards as of any later day, every player's history,
a year's report, every tournament's and halving's explanation) is what a full replay shows, byte for
byte, on random clubs with tournaments placed by standings and by matches (shared places, draws,
voids, unrated and forfeited games, matches outside tournaments) and whole and fractional
adjustments; and it is read with no replay."""
from __future__ import annotations

import json
import random
from datetime import date, timedelta
from pathlib import Path

import pytest

from nardrating.engines.placement import PlacementEngine

from .conftest import no_cache

FIRST = date(2025, 1, 1)


def tournament_block(tid: str, start: date, end: date, standings: list[tuple[str, object]] | None) -> str:
    text = f'[[tournament]]\nid = "{tid}"\nsystem = "round-robin"\nstart = {start}\nend = {end}\n'
    if standings:
        text += "standings = [" + ", ".join(
            f'{{ player = "{p}", place = {json.dumps(place)} }}' for p, place in standings) + "]\n"
    return text + "\n"


def random_club(folder: Path, seed: int) -> dict:
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    players = [f"p{k}" for k in range(rng.randint(4, 14))]
    params = [f"monthly_factor = {rng.choice([0.5, 0.75])}", f"points = {rng.choice([10, 7.5])}"]
    (folder / "nardrating.toml").write_text(
        '[club]\nname = "Places"\njournal = ["journal.toml"]\ndefault_discipline = "long-nardy"\n\n'
        '[rating.places]\nengine = "placement"\n' + "\n".join(params) + "\n", encoding="utf-8")
    blocks = [f'[[player]]\nid = "{p}"\n\n' for p in players]
    match_ids: list[str] = []
    tournaments: list[str] = []

    def match(day: date, a: str, b: str, tid: str | None) -> None:
        mid = f"m{len(match_ids)}"
        match_ids.append(mid)
        text = (f'[[match]]\nid = "{mid}"\ndate = {day}\nplayers = ["{a}", "{b}"]\n'
                f'result = "{rng.choice(["1-0", "0-1", "1-0", "1/2-1/2"])}"\n')
        if tid:
            text += f'tournament = "{tid}"\n'
        if rng.random() < 0.08:
            text += "rated = false\n"
        elif rng.random() < 0.05:
            text += "forfeit = true\n"
        blocks.append(text + "\n")

    for k in range(rng.randint(2, 9)):
        start = FIRST + timedelta(days=rng.randint(0, 240))
        end = start + timedelta(days=rng.randint(0, 3))
        tid = f"t{k}"
        tournaments.append(tid)
        field = rng.sample(players, rng.randint(2, len(players)))
        if rng.random() < 0.5:   # places from the standings, a shared place now and then
            standings: list[tuple[str, object]] = []
            place = 1
            while place <= len(field):
                if place < len(field) and rng.random() < 0.3:
                    standings += [(field[place - 1], f"{place}-{place + 1}"), (field[place], f"{place}-{place + 1}")]
                    place += 2
                else:
                    standings.append((field[place - 1], place))
                    place += 1
            blocks.append(tournament_block(tid, start, end, standings))
        else:                    # places from its matches
            blocks.append(tournament_block(tid, start, end, None))
            for _ in range(rng.randint(1, 12)):
                a, b = rng.sample(field, 2)
                match(start + timedelta(days=rng.randint(0, (end - start).days)), a, b, tid)
    for _ in range(rng.randint(0, 25)):   # club evenings: no tournament, no rating moved
        a, b = rng.sample(players, 2)
        match(FIRST + timedelta(days=rng.randint(0, 250)), a, b, None)
    for mid in rng.sample(match_ids, min(len(match_ids), rng.randint(0, 3))):
        blocks.append(f'[[void]]\nmatch = "{mid}"\ndate = 2025-12-01\nreason = "entered twice"\n\n')
    for _ in range(rng.randint(0, 4)):
        change = rng.choice(["set = 12", "set = 7.5", "delta = -3", "delta = 2.25"])
        blocks.append(f'[[adjust]]\ndate = {FIRST + timedelta(days=rng.randint(0, 250))}\n'
                      f'player = "{rng.choice(players)}"\n{change}\nreason = "commission"\n\n')
    (folder / "journal.toml").write_text("".join(blocks), encoding="utf-8")
    return {"players": players, "tournaments": tournaments}


def shown(cli, club: Path, drawn: dict) -> list[str]:
    """What the commission and the players read of the list, every number in JSON."""
    def out(*args: str) -> str:
        result = cli(*args, "--club", club, "--format", "json")
        assert result.exit_code == 0, result.output
        return result.stdout

    texts = [out("leaderboard", "--all"), out("leaderboard", "--all", "--as-of", "2026-02-10"),
             out("leaderboard", "--as-of", "2025-04-30"), out("report", "--period", "2025"),
             out("players")]
    for player in drawn["players"]:
        history = out("history", player)
        texts.append(history)
        for event in json.loads(history):
            if event["kind"] in ("tournament", "decay"):
                texts.append(out("explain", f"{player}@{event['date']}"))
    return texts


def replays_counted(monkeypatch) -> list[int]:
    counted: list[int] = []
    replay = PlacementEngine._replay
    monkeypatch.setattr(PlacementEngine, "_replay", lambda self, view: counted.append(1) or replay(self, view))
    return counted


@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow), pytest.param(3, marks=pytest.mark.slow), pytest.param(4, marks=pytest.mark.slow),
                                  pytest.param(5, marks=pytest.mark.slow), pytest.param(6, marks=pytest.mark.slow)])
def test_what_a_kept_state_shows_is_a_full_replays(cli, tmp_path, monkeypatch, seed):
    club = tmp_path / "club"
    drawn = random_club(club, seed)
    with no_cache():
        full = shown(cli, club, drawn)
    first = shown(cli, club, drawn)     # (replayed once, the state kept)
    counted = replays_counted(monkeypatch)
    again = shown(cli, club, drawn)
    assert first == full and again == full
    # Only the leaderboard of 30 April (before the last entry) is replayed; the rest are finished
    # from the kept state.
    assert len(counted) == 1


def test_a_kept_state_by_hand(cli, tmp_path, monkeypatch):
    """Seed 001: a cup of four on 20 January, places 1, 2, shared 3-4: N = 4, log2 4 = 2, so
    a 10·2/1 = 20, b 10, c and d 20/3.5. Halved on 1 February and 1 March: as of 15 March a has
    20/4 = 5.0. e's rating is set to 12 on 25 January. A cup of two in February, after the halving of 1 February: N = 2, log2 2 = 1; b first
    (+10) from 5.0: 15.0, then 7.5 on 1 March; e second (+10/2 = 5) from 6.0: 11.0, then 5.5."""
    club = tmp_path / "club"
    club.mkdir()
    (club / "nardrating.toml").write_text('[club]\njournal = ["journal.toml"]\ndefault_discipline = "long-nardy"\n\n'
                                          '[rating.places]\nengine = "placement"\n', encoding="utf-8")
    journal = "".join(f'[[player]]\nid = "{p}"\n\n' for p in "abcde")
    journal += tournament_block("cup", date(2025, 1, 18), date(2025, 1, 20), [("a", 1), ("b", 2), ("c", "3-4"),
                                                                              ("d", "3-4")])
    journal += '[[adjust]]\ndate = 2025-01-25\nplayer = "e"\nset = 12\nreason = "transferred"\n\n'
    journal += tournament_block("feb", date(2025, 2, 10), date(2025, 2, 10), [("b", 1), ("e", 2)])
    (club / "journal.toml").write_text(journal, encoding="utf-8")

    def read() -> tuple[dict, list]:
        board = cli("leaderboard", "--club", club, "--as-of", "2025-03-15", "--format", "json")
        history = cli("history", "e", "--club", club, "--format", "json")
        assert board.exit_code == history.exit_code == 0, board.output + history.output
        return {r["player"]: r["rating"] for r in json.loads(board.stdout)}, json.loads(history.stdout)

    read()
    counted = replays_counted(monkeypatch)
    ratings, history = read()
    assert counted == []
    assert ratings == {"a": 5.0, "b": 7.5, "c": pytest.approx(20 / 3.5 / 4), "d": pytest.approx(20 / 3.5 / 4),
                       "e": 5.5}
    adjusted = next(e for e in history if e["kind"] == "adjust")
    assert (adjusted["before"], adjusted["after"]) == (0.0, 12.0)


def test_a_state_round_trips_through_the_cache_files(tmp_path):
    """pack and unpack (as the cache stores them: machine arrays and JSON) give a state that
    finishes to the very result the replay gave: standings and every history line, types and all."""
    from nardrating.engines import placementstate
    from nardrating.replay.loader import load_club
    from nardrating.replay.view import build_view

    from .test_fast_path import exact

    club = tmp_path / "club"
    random_club(club, 11)
    ledger = load_club(club, use_cache=False)
    rating = ledger.rating("places")
    view = build_view(ledger, rating, "long-nardy", None)
    engine = PlacementEngine()
    state = engine._replay(view)
    replayed = engine.finish(view, state)
    meta, players, tables = placementstate.pack(state)
    import array

    copied = {k: array.array(v.typecode, v.tobytes()) if isinstance(v, array.array) else v for k, v in tables.items()}
    back = placementstate.unpack(json.loads(json.dumps(meta)), {k: array.array(v.typecode, v.tobytes())
                                                                for k, v in players.items()}, lambda: copied)
    again = engine.finish(view, back)

    def whole(result) -> list:
        return [exact([s.__dict__ if hasattr(s, "__dict__") else [getattr(s, f) for f in s.__slots__]
                       for s in result.standings.values()]),
                [exact([[getattr(e, f) for f in e.__slots__] for e in result.history(p)]) for p in result.standings]]

    assert list(again.standings) == list(replayed.standings)
    assert whole(again) == whole(replayed)
