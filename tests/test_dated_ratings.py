"""A tournament's start list holds its entrants' ratings the day before it starts (reports/tournaments.py
start_ratings), which `pair`, `standings`, `crosstable` and `entrants` read after every round: a replay up
to that day, kept in the cache while only later matches are appended (replay/cachedated.py).

On random journals of every engine (the chess and nardy clubs of test_exact_corrections.py: elo, glicko,
glicko2, fide; fibs twice, chips, placement, mfsnb), every list's ratings as of the day read from the kept
file equal a full read's (each value and its type), with no replay; a match on the day or before it, a void,
an adjustment, a player declared, or a match read since the snapshot changed in place is replayed, and equals
a full read too.
"""
import json
import random
from datetime import timedelta

import pytest

from nardrating.engines.registry import engine_class
from nardrating.replay import cachedated
from nardrating.replay.loader import load_club

from .conftest import make_club, no_cache
from .test_exact_corrections import CHESS, NARDY, block, random_entries, text
from .test_kept_history import counting_runs


def lists(ledger):
    return [(rating, discipline) for rating in ledger.config.ratings.values() for discipline in ledger.disciplines(rating)]


def typed(ratings):
    return sorted((p, v, type(v).__name__) for p, v in ratings.items())


def full_read(folder, day):
    """Every list's ratings as of `day` by a replay of the journal read in full, without the cache."""
    with no_cache():
        ledger = load_club(folder)
        return {(r.name, d): typed({p: s.rating for p, s in ledger.run(r, d, day).standings.items()}) for r, d in lists(ledger)}


def through_cache(folder, day, monkeypatch):
    """Every list's ratings as of `day` by Ledger.ratings_on, and how many replays it took."""
    ledger = load_club(folder)
    with monkeypatch.context() as patch:
        replays = counting_runs(patch)
        got = {(r.name, d): typed(ledger.ratings_on(r, d, day)) for r, d in lists(ledger)}
    return got, len(replays), len(lists(ledger))


def append(folder, entries):
    with open(folder / "journal.toml", "a", encoding="utf-8") as f:
        f.write(text(entries))


def later_matches(rng, players, day, start, count):
    """`count` single matches dated after `day` (on or after `start`), ids not used before."""
    out = []
    for k in range(count):
        a, b = rng.sample(players, 2)
        out.append(("match", {"id": f"x{start + k}", "date": day + timedelta(days=rng.randint(1, 9)),
                              "players": [a, b], "result": rng.choice(["1-0", "0-1"])}))
    return out


@pytest.mark.parametrize("chess", [True, False], ids=["chess", "nardy"])
@pytest.mark.parametrize("seed", [3, 11])
def test_the_ratings_of_a_day_are_kept_while_later_matches_are_appended(tmp_path, monkeypatch, chess, seed):
    rng = random.Random(seed)
    entries = random_entries(seed, chess, days=24)
    days = sorted({f["date"] for kind, f in entries if kind == "match"})
    day = days[len(days) // 2]
    folder = make_club(tmp_path / "club", text([e for e in entries if e[0] == "player" or e[1].get("date", day) <= day
                                                 and not (e[0] == "tournament" and e[1]["end"] > day)]),
                       CHESS if chess else NARDY)
    players = [f"p{k}" for k in range(8)]

    # The journal ends on the day: the cached replay's ratings, kept.
    got, replays, count = through_cache(folder, day, monkeypatch)
    assert got == full_read(folder, day)
    assert count >= 4 and replays == count

    # Matches dated after the day, appended twice (read since the snapshot, then after a snapshot of them):
    # the kept ratings, no replay.
    for start in (100, 200):
        append(folder, later_matches(rng, players, day, start, 12))
        got, replays, _ = through_cache(folder, day, monkeypatch)
        assert replays == 0
        assert got == full_read(folder, day)

    # Each of these moves the day's ratings, or may: replayed, then kept again for the next read.
    on_the_day = ("match", {"id": "y1", "date": day, "players": players[:2], "result": "1-0"})
    void = ("void", {"match": "g2", "date": day + timedelta(days=20), "reason": "entered twice"})
    adjust = ("adjust", {"date": day - timedelta(days=1), "player": "p3", "rating": "club" if chess else "fibs",
                         "delta": -15})
    declared = ("player", {"id": "p99"})
    for k, entry in enumerate([on_the_day, void, adjust, declared]):
        append(folder, [entry])
        got, replays, count = through_cache(folder, day, monkeypatch)
        assert replays == count, entry
        assert got == full_read(folder, day)
        append(folder, later_matches(rng, players, day, 300 + 10 * k, 3))
        got, replays, _ = through_cache(folder, day, monkeypatch)
        assert replays == 0, entry
        assert got == full_read(folder, day)

    # A tournament that ends after the day is not read by a replay up to it; one that ends by the day
    # is, by the lists whose engine reads tournaments' ends (placement, mfsnb, fide).
    discipline = "chess" if chess else "long-nardy"
    ledger = load_club(folder)
    reading = sum(engine_class(r.engine).tournament_ends for r, _ in lists(ledger))
    for k, (start, end, expected) in enumerate([(day + timedelta(days=2), day + timedelta(days=3), 0),
                                               (day - timedelta(days=3), day, reading)]):
        append(folder, [("tournament", {"id": f"late{k}", "system": "round-robin", "start": start, "end": end,
                                        "discipline": discipline})])
        got, replays, _ = through_cache(folder, day, monkeypatch)
        assert replays == expected
        assert got == full_read(folder, day)

    # The first match's result changed in place: a journal read in full, another snapshot: replayed.
    first = next(f for kind, f in entries if kind == "match")
    journal = folder / "journal.toml"
    body = journal.read_text(encoding="utf-8")
    other = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}[first["result"]]
    assert body.count(block("match", first)) == 1
    journal.write_text(body.replace(block("match", first), block("match", {**first, "result": other})), encoding="utf-8")
    got, replays, count = through_cache(folder, day, monkeypatch)
    assert replays == count
    assert got == full_read(folder, day)


def test_a_match_read_since_the_snapshot_and_changed_in_place_is_replayed(tmp_path, monkeypatch):
    # The ratings are kept for the snapshot and the matches read since it (the cache's record of them):
    # a result among those matches changed in place, and a match dated after the day appended, is a
    # journal the cache reads as the snapshot plus other matches. It is replayed.
    entries = random_entries(5, True, days=16)
    day = max(f["date"] for kind, f in entries if kind == "match")
    folder = make_club(tmp_path / "club", text(entries), CHESS)
    load_club(folder)   # (the snapshot)
    late = [("match", {"id": f"z{k}", "date": day - timedelta(days=k), "players": ["p1", f"p{k + 2}"], "result": "1-0"})
            for k in range(4)]
    # (and one after the day: the replay as of the day is not the whole journal's, which would be
    # written as a new snapshot, taking the matches read since into it)
    append(folder, [*late, ("match", {"id": "z8", "date": day + timedelta(days=1), "players": ["p1", "p2"], "result": "1-0"})])
    ledger = load_club(folder)
    assert ledger.dirty and ledger.cache_base.matches == ledger.journal.match_count() - 5
    token = ledger.cache_token
    got, replays, count = through_cache(folder, day, monkeypatch)
    assert got == full_read(folder, day) and replays == count
    journal = folder / "journal.toml"
    body = journal.read_text(encoding="utf-8")
    changed = block("match", late[2][1])
    assert body.count(changed) == 1
    journal.write_text(body.replace(changed, changed.replace('"1-0"', '"0-1"')), encoding="utf-8")
    append(folder, [("match", {"id": "z9", "date": day + timedelta(days=1), "players": ["p1", "p2"], "result": "1-0"})])
    assert load_club(folder).cache_token == token   # (the snapshot and other matches read since it)
    got, replays, count = through_cache(folder, day, monkeypatch)
    assert replays == count
    assert got == full_read(folder, day)


FIDE_FIRST = CHESS.replace('[rating.club]', '[rating.fide]\nengine = "fide"\nlist_every = "quarter"\n\n[rating.club]', 1
                           ).rsplit("[rating.fide]", 1)[0]


@pytest.mark.parametrize("config", [CHESS, FIDE_FIRST], ids=["elo", "fide"])
def test_the_start_list_after_a_round_is_read_from_the_kept_ratings(cli, tmp_path, monkeypatch, config):
    # A round-robin of four on a chess club whose first list is elo, or fide (which reads tournaments'
    # ends): add-tournament keeps the ratings of the day before the start (for its start list in FIDE's
    # order); after round 1 is paired and entered, the start list is read without a replay, and its
    # ratings are a replay's as of that day.
    entries = random_entries(7, True, days=12)
    last = max(f["date"] for kind, f in entries if kind == "match")
    folder = make_club(tmp_path / "club", text(entries), config)
    first = next(iter(load_club(folder).config.ratings))
    start = last + timedelta(days=3)
    assert cli("add-tournament", "rr", "--name", "Club cup", "--system", "round-robin", "--start", start,
               "--end", start + timedelta(days=2), "--pairing", "berger", "--players", "p1,p2,p3,p4",
               "--club", folder).exit_code == 0
    with monkeypatch.context() as patch:
        replays = counting_runs(patch)
        before = cli("entrants", "rr", "--club", folder, "--format", "json")
        paired = cli("pair", "rr", "--date", start, "--club", folder, "--format", "json")
    assert paired.exit_code == 0, paired.output
    assert replays == []
    boards = json.loads(paired.stdout)["pairs"]
    (tmp_path / "round1.txt").write_text("".join(f"{b['white']} {b['black']} 1-0\n" for b in boards), encoding="utf-8")
    assert cli("results", "rr", tmp_path / "round1.txt", "--club", folder).exit_code == 0
    with monkeypatch.context() as patch:
        replays = counting_runs(patch)
        after = cli("entrants", "rr", "--club", folder, "--format", "json")
    assert after.exit_code == 0, after.output
    assert replays == []
    assert after.stdout == before.stdout
    with no_cache():
        ledger = load_club(folder)
        expected = ledger.run(first, "chess", start - timedelta(days=1)).standings
    shown = {row["player"]: row["rating"] for row in json.loads(after.stdout)}
    assert shown == {p: expected[p].rating for p in ("p1", "p2", "p3", "p4")}


def test_a_damaged_or_foreign_dated_file_is_replayed(tmp_path, monkeypatch):
    # Each kind of damage: the list is replayed up to the day, the same ratings as a full read.
    import hashlib

    from nardrating.replay.cachedir import CacheFolder

    entries = random_entries(6, True, days=16)
    days = sorted({f["date"] for kind, f in entries if kind == "match"})
    day, other_day = days[len(days) // 2], days[len(days) // 3]
    folder = make_club(tmp_path / "club", text(entries), CHESS)
    expected = full_read(folder, day)
    through_cache(folder, other_day, monkeypatch)
    through_cache(folder, day, monkeypatch)
    ledger = load_club(folder)
    rating = ledger.rating("club")
    name = cachedated._name("club", "chess", day)
    with CacheFolder(ledger.config, create=False) as cache:
        good, _ = cache.read(name)
        foreign, _ = cache.read(cachedated._name("club", "chess", other_day))
    body = json.loads(good[32:])

    def sealed(changed):
        data = json.dumps({**body, **changed}).encode()
        return hashlib.sha256(data).digest() + data

    damages = {"a bit flipped": good[:40] + bytes([good[40] ^ 1]) + good[41:], "cut short": good[: len(good) // 2],
               "another day's": foreign, "a rating as text": sealed({"ratings": ["1200"] + body["ratings"][1:]}),
               "a player short": sealed({"players": body["players"][1:]}),
               "a rating not a number": sealed({"ratings": [float("nan")] + body["ratings"][1:]}),
               "the counts changed": sealed({"base": body["count"] + 1}),
               "not an object": hashlib.sha256(b"[1]").digest() + b"[1]"}
    assert rating.name == "club"
    for what, damaged in damages.items():
        with CacheFolder(ledger.config, create=False) as cache:
            cache.write(name, damaged)
        ledger = load_club(folder)
        with monkeypatch.context() as patch:
            replays = counting_runs(patch)
            got = typed(ledger.ratings_on("club", "chess", day))
        assert replays and got == expected[("club", "chess")], what
