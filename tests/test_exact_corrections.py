"""A correction gives the numbers of the result entered right the first time (seed 003: "после
изменения пересчитываются последующие партии"): `amend MATCH` replays the corrected match where the
wrong one was (its date and its place among that day's entries), for every engine.

Each test builds a journal, corrects one match through the CLI (amend, amend again, undo) and
compares every list's standings and every player's history, floats bit for bit, with the journal in
which the corrected match had been written right, under the new match's id, in the wrong one's
place. The only difference allowed: the amended journal's histories also list the voided matches.
"""
import os
import random
from datetime import date, timedelta

import pytest

from nardrating.replay.loader import load_club

from .conftest import make_club

CHESS = """[club]
name = "Chess"
journal = ["journal.toml"]
default_discipline = "chess"

[rating.club]
engine = "elo"
pair_limit_per_day = 2

[rating.glicko]
engine = "glicko"

[rating.glicko2]
engine = "glicko2"
period = "week"

[rating.fide]
engine = "fide"
list_every = "quarter"
"""

NARDY = """[club]
name = "Nardy"
journal = ["journal.toml"]
default_discipline = "long-nardy"

[rating.fibs]
engine = "fibs"
pair_limit_per_day = 3

[rating.site]
engine = "fibs"
preset = "nardy-site"

[rating.chips]
engine = "chips"

[rating.tournament]
engine = "placement"

[rating.federation]
engine = "mfsnb"
"""


def value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v + '"'
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    return str(v)


def block(kind, fields):
    return f"[[{kind}]]\n" + "".join(f"{k} = {value(v)}\n" for k, v in fields.items()) + "\n"


def random_entries(seed, chess, days=40):
    """[(kind, fields)]: eight players, evenings of 3 to 7 games (the same pair again and again, so that
    the pair limit bites), an adjustment or a tournament now and then."""
    rng = random.Random(seed)
    players = [f"p{k}" for k in range(8)]
    entries = [("player", {"id": p, "qualification": rng.choice(["KMS", "1", "2"])} if not chess else {"id": p})
               for p in players]
    day, n, cups = date(2021, 1, 4), 0, 0
    for _ in range(days):
        day += timedelta(days=rng.choice([1, 2, 7]))
        cup = None
        if not chess and rng.random() < 0.2:
            cups += 1
            cup = f"cup{cups}"
            entries.append(("tournament", {"id": cup, "system": "round-robin", "start": day, "end": day,
                                           "discipline": "long-nardy"}))
        regulars = rng.sample(players, 4)
        for k in range(rng.randint(3, 7)):
            a, b = rng.sample(regulars, 2) if rng.random() < 0.7 else rng.sample(players, 2)
            n += 1
            fields = {"id": f"g{n}", "date": day, "players": [a, b],
                      "result": rng.choice(["1-0", "0-1", "1/2-1/2"] if chess else ["1-0", "0-1"])}
            if not chess:
                fields.update(length=rng.choice([1, 3, 5]), chips=rng.randint(0, 9))
                if cup:
                    fields["tournament"] = cup
            entries.append(("match", fields))
            if k == 1 and rng.random() < 0.15:
                entries.append(("adjust", {"date": day, "player": rng.choice(players),
                                           "rating": "club" if chess else "fibs", "delta": rng.choice([-20, 15])}))
    return entries


def text(entries):
    return "".join(block(kind, fields) for kind, fields in entries)


def dump(folder, cache=True):
    """Every list's standings and every history, as plain values (the floats exactly)."""
    old = os.environ.get("NARDRATING_NO_CACHE")
    os.environ["NARDRATING_NO_CACHE"] = "" if cache else "1"
    try:
        ledger = load_club(folder)
        out = {}
        for rating in ledger.config.ratings.values():
            for discipline in ledger.disciplines(rating):
                result = ledger.run(rating, discipline)
                out[(rating.name, discipline, "standings")] = {
                    p: (s.rating, s.games, s.status, s.last_played, s.extra) for p, s in result.standings.items()}
                for p in ledger.journal.players:
                    out[(rating.name, discipline, p)] = [
                        (e.date, e.entry, e.kind, e.opponent, e.result, e.before, e.change, e.after, e.rated, e.reason,
                         e.extra) for e in result.history(p)]
        return out
    finally:
        if old is None:
            del os.environ["NARDRATING_NO_CACHE"]
        else:
            os.environ["NARDRATING_NO_CACHE"] = old


def without(dumped, voided):
    """The dump without the events of voided matches (the amended journal still lists them)."""
    return {key: [e for e in events if e[1] not in voided] if key[2] != "standings" else events
            for key, events in dumped.items()}


def busy_day(entries):
    """The matches of the day with the most games: their positions in `entries`."""
    days = {}
    for k, (kind, fields) in enumerate(entries):
        if kind == "match":
            days.setdefault(fields["date"], []).append(k)
    return max(days.values(), key=len)


def flipped(result, chess):
    return {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}[result]


def right_first_time(tmp_path, name, config, entries, at, fields):
    """The journal with the match at position `at` written as `fields` in the first place."""
    fixed = list(entries)
    fixed[at] = ("match", fields)
    return make_club(tmp_path / name, text(fixed), config)


@pytest.mark.parametrize("chess", [True, False], ids=["chess", "nardy"])
@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_an_amend_gives_the_numbers_of_the_right_first_time_journal(cli, tmp_path, chess, where):
    config = CHESS if chess else NARDY
    entries = random_entries(7 if chess else 8, chess)
    day = busy_day(entries)
    assert len(day) >= 5
    at = {"first": day[0], "middle": day[len(day) // 2], "last": day[-1]}[where]
    original = entries[at][1]
    club = make_club(tmp_path / "amended", text(entries), config)
    new_result = flipped(original["result"], chess)
    done = cli("amend", original["id"], "--result", new_result, "--club", club)
    assert done.exit_code == 0, done.output
    new_id = f"m{1:04d}"  # the first id add-match writes in a journal of g-numbered matches
    assert f"added match {new_id}" in done.stdout
    right = right_first_time(tmp_path, "right", config, entries, at, {**original, "id": new_id, "result": new_result})
    expected = dump(right, cache=False)
    assert without(dump(club, cache=False), {original["id"]}) == expected
    assert without(dump(club), {original["id"]}) == expected  # through the cache: the same


def test_the_test_sees_a_correction_replayed_at_the_end_of_its_day(tmp_path):
    # The same journal with the corrected match written after the day's other games (where an
    # amend used to be replayed) gives other numbers: the comparison above can fail.
    entries = random_entries(7, True)
    day = busy_day(entries)
    original = entries[day[0]][1]
    fixed = {**original, "result": flipped(original["result"], True)}
    at_place = list(entries)
    at_place[day[0]] = ("match", fixed)
    at_end = [e for k, e in enumerate(entries) if k != day[0]]
    at_end.insert(day[-1], ("match", fixed))
    assert dump(make_club(tmp_path / "a", text(at_place), CHESS), False) != \
        dump(make_club(tmp_path / "b", text(at_end), CHESS), False)


@pytest.mark.parametrize("chess", [True, False], ids=["chess", "nardy"])
def test_two_amends_of_one_match_and_an_undo(cli, tmp_path, chess):
    config = CHESS if chess else NARDY
    entries = random_entries(11, chess)
    day = busy_day(entries)
    at = day[1]
    original = entries[at][1]
    club = make_club(tmp_path / "amended", text(entries), config)
    first = flipped(original["result"], chess)
    assert cli("amend", original["id"], "--result", first, "--club", club).exit_code == 0
    # the amend's match amended again: m0002 amends m0001, and takes the original's place
    second = "1/2-1/2" if chess else original["result"]
    done = cli("amend", "m0001", "--result", second, "--club", club)
    assert done.exit_code == 0, done.output
    right = right_first_time(tmp_path, "right", config, entries, at, {**original, "id": "m0002", "result": second})
    assert without(dump(club, False), {original["id"], "m0001"}) == dump(right, False)
    assert without(dump(club), {original["id"], "m0001"}) == dump(right, False)
    # undo of that amend: m0002 voided, the match it corrected (m0001) entered again as m0003
    done = cli("undo", "--yes", "--club", club)
    assert done.exit_code == 0, done.output
    right = right_first_time(tmp_path, "right-undo", config, entries, at, {**original, "id": "m0003", "result": first})
    assert without(dump(club, False), {original["id"], "m0001", "m0002"}) == dump(right, False)
    assert without(dump(club), {original["id"], "m0001", "m0002"}) == dump(right, False)


def test_undo_of_an_amend_gives_the_journal_as_it_was(cli, tmp_path):
    entries = random_entries(5, True)
    at = busy_day(entries)[0]
    original = entries[at][1]
    club = make_club(tmp_path / "club", text(entries), CHESS)
    before = dump(club, False)
    assert cli("amend", original["id"], "--result", flipped(original["result"], True), "--club", club).exit_code == 0
    assert cli("undo", "--yes", "--club", club).exit_code == 0
    # m0002 is the original again, in its place: the numbers of the journal before the amend
    right = right_first_time(tmp_path, "right", CHESS, entries, at, {**original, "id": "m0002"})
    after = dump(club, False)
    assert without(after, {original["id"], "m0001"}) == dump(right, False)
    assert {k: v for k, v in after.items() if k[2] == "standings"} == \
        {k: v for k, v in before.items() if k[2] == "standings"}


def test_the_cache_does_not_resume_past_an_amend_placed_earlier(tmp_path):
    # The amend is written by hand, its void first: the cached results of the resumable lists (fibs)
    # then hold the whole journal with the void, and the appended match, dated on the last replayed
    # day, would be resumed at the end of that day. It takes the place of the match it amends: a
    # full replay.
    entries = random_entries(3, False)
    last_day = max(fields["date"] for kind, fields in entries if kind == "match") + timedelta(days=1)
    for k, pair in enumerate((["p0", "p1"], ["p0", "p2"], ["p1", "p2"])):  # a last evening, p0 in two games
        entries.append(("match", {"id": f"last{k}", "date": last_day, "players": pair, "result": "1-0", "length": 3}))
    day = [k for k, (kind, fields) in enumerate(entries) if kind == "match" and fields["date"] == last_day]
    original = entries[day[0]][1]
    club = make_club(tmp_path / "club", text(entries), NARDY)
    dump(club)  # the cache: the journal and every resumable list's result
    with open(club / "journal.toml", "a", encoding="utf-8") as f:
        f.write(block("void", {"match": original["id"], "date": last_day, "reason": "wrong"}))
    dump(club)  # stored again, with the void
    fixed = {**original, "id": "fix1", "result": flipped(original["result"], False), "amends": original["id"]}
    with open(club / "journal.toml", "a", encoding="utf-8") as f:
        f.write(block("match", fixed))
    cached, full = dump(club), dump(club, False)
    assert cached == full
    right = right_first_time(tmp_path, "right", NARDY, entries, day[0], {**original, "id": "fix1",
                                                                          "result": fixed["result"]})
    assert without(full, {original["id"]}) == dump(right, False)


def test_a_void_and_a_new_match_is_a_new_game_in_its_own_place(cli, tmp_path):
    # Worked by hand (elo, start 1200, K 20): one evening, m1 anna beats boris, m2 anna beats vera,
    # m3 boris beats vera. Voiding m1 and adding boris's win over anna on the same date puts the new
    # game after m3 (it amends nothing): m2 anna 1200 beats vera 1200 → 1210, vera 1190; m3 boris
    # 1200 beats vera 1190 (d = 10, E = 0.51439): +9.71 → 1209.71, vera 1180.29; then boris 1209.71
    # beats anna 1210 (E = 0.49959): +10.01 → boris 1219.72, anna 1199.99.
    # `amend m1 --result 0-1` instead replays the corrected game first: boris 1210, anna 1190;
    # m2 anna 1190 beats vera 1200 (E = 0.48561): +10.29 → 1200.29, vera 1189.71; m3 boris 1210
    # beats vera 1189.71 (d = 20.29, E = 0.52918): +9.42 → 1219.42, vera 1180.30.
    journal = "".join(block("player", {"id": p}) for p in ("anna", "boris", "vera")) + "".join(
        block("match", {"id": f"m{k}", "date": date(2009, 1, 15), "players": list(pair), "result": "1-0"})
        for k, pair in enumerate((("anna", "boris"), ("anna", "vera"), ("boris", "vera")), start=1))
    config = CHESS.split("[rating.glicko]")[0]
    voided = make_club(tmp_path / "voided", journal, config)
    assert cli("void", "m1", "--reason", "wrong", "--club", voided).exit_code == 0
    assert cli("add-match", "boris", "anna", "--winner", "boris", "--date", "2009-01-15",
               "--club", voided).exit_code == 0
    amended = make_club(tmp_path / "amended", journal, config)
    assert cli("amend", "m1", "--result", "0-1", "--club", amended).exit_code == 0

    def ratings(club):
        return {p: round(s.rating, 2) for p, s in load_club(club).run("club").standings.items()}

    assert ratings(voided) == {"anna": 1199.99, "boris": 1219.72, "vera": 1180.29}
    assert ratings(amended) == {"anna": 1200.29, "boris": 1219.42, "vera": 1180.30}


@pytest.mark.parametrize("chess", [True, False], ids=["chess", "nardy"])
def test_an_amend_in_a_journal_out_of_date_order(cli, tmp_path, chess):
    # The first evening's games entered last, after every later evening (a sheet typed in late): the
    # replay takes them by date, first. An amend of a later busy day's game must leave them there and
    # put the corrected game in the wrong one's place: ordered by date, then by the journal's order
    # with the amend in the amended match's place (not by that order alone, which would replay the
    # late sheet last; nor by date alone, which would replay the amend at the end of its day).
    config = CHESS if chess else NARDY
    entries = random_entries(13 if chess else 14, chess)
    matches = [fields for kind, fields in entries if kind == "match"]
    first_day = matches[0]["date"]
    late = [e for e in entries if e[0] == "match" and e[1]["date"] == first_day and "tournament" not in e[1]]
    entries = [e for e in entries if not any(e is x for x in late)] + late
    day = busy_day(entries)
    at = day[0]
    original = entries[at][1]
    assert original["date"] > first_day and at < len(entries) - len(late)
    club = make_club(tmp_path / "amended", text(entries), config)
    done = cli("amend", original["id"], "--result", flipped(original["result"], chess), "--club", club)
    assert done.exit_code == 0, done.output
    right = right_first_time(tmp_path, "right", config, entries, at,
                             {**original, "id": "m0001", "result": flipped(original["result"], chess)})
    expected = dump(right, cache=False)
    assert without(dump(club, cache=False), {original["id"]}) == expected
    assert without(dump(club), {original["id"]}) == expected
