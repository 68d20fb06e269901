"""Appends to any journal file, not only the last: the cache resumes only when the replay order a
full read gives is provably the same, and whatever it does, a command sees what a full replay sees."""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import nardrating.replay.parallel as parallel
import nardrating.replay.resume as resume
from nardrating.journal.writer import append_block, entry_block
from nardrating.replay.loader import load_club
from tests.test_cache import CONFIG, PLAYERS, day, full_replay, snapshot

CSV_HEADER = "id,date,player_a,player_b,winner,length,discipline\n"
LAYOUTS = [["journal.toml", "bulk.csv"], ["journal.toml", "late.toml"],
           ["bulk.csv", "journal.toml", "late.toml"], ["journal.toml", "bulk.csv", "late.toml"]]


def make_club(folder, layout, matches) -> None:
    """Players declared in journal.toml; the matches spread over the files in turn, by date."""
    folder.mkdir(parents=True, exist_ok=True)
    files = ", ".join(f'"{name}"' for name in layout)
    (folder / "nardrating.toml").write_text(CONFIG.format(journal=f"[{files}]", factor=4))
    for name in layout:
        (folder / name).write_text(CSV_HEADER if name.endswith(".csv") else "")
    (folder / "journal.toml").write_text("".join(f'[[player]]\nid = "{p}"\n\n' for p in PLAYERS))
    for k, entry in enumerate(sorted(matches, key=lambda e: e["date"])):
        add(folder, layout[k % len(layout)], {"id": f"m{k}", **entry})


def add(folder, name: str, entry: dict) -> None:
    if name.endswith(".csv"):
        a, b = entry["players"]
        with open(folder / name, "a") as f:
            f.write(f"{entry['id']},{entry['date']},{a},{b},{entry['winner']},{entry.get('length', 1)},"
                    f"{entry.get('discipline', '')}\n")
    else:
        append_block(folder / name, entry_block("match", entry))


def match(n: int, a: str, b: str, discipline: str = "long-nardy") -> dict:
    return {"date": day(n), "players": [a, b], "winner": a, "length": 3, "discipline": discipline}


def replayed(monkeypatch):
    """The number of matches each fibs run is given (a resumed run: only the new ones)."""
    from nardrating.engines.fibs import FibsEngine

    given_matches, replay = [], FibsEngine._replay  # both run (everything) and resume (from a state)
    monkeypatch.setattr(FibsEngine, "_replay", lambda self, view, resume: (
        given_matches.append((len(view.order), resume is not None)), replay(self, view, resume))[1])
    return given_matches


def test_an_append_to_the_first_file_dated_after_everything_resumes(tmp_path, monkeypatch):
    # journal.toml first, bulk.csv after: add-match appends to journal.toml. A match dated after
    # every cached entry is the last in a full read's order too, so the replay resumes with it.
    make_club(tmp_path, ["journal.toml", "bulk.csv"], [match(k, "a", "b") for k in range(6)])
    before = snapshot(tmp_path)
    add(tmp_path, "journal.toml", {"id": "new", **match(10, "c", "a")})
    runs = replayed(monkeypatch)
    ledger = load_club(tmp_path)
    assert ledger.cache_token is not None and ledger.dirty  # the cached snapshot plus a tail
    ledger.run("fibs", "long-nardy")
    assert runs == [(1, True)]  # resumed with the one new match, not all seven replayed
    monkeypatch.undo()
    assert snapshot(tmp_path) == full_replay(tmp_path) != before


def test_an_append_to_the_first_file_on_the_last_date_is_replayed_in_full(tmp_path, monkeypatch):
    # Day 5's csv match m5 (a beats b) and a new journal.toml match on day 5 (b beats a): a full read
    # replays the journal.toml one first (file order within a date). Resuming would replay it after
    # m5, which changes the ratings, so the cache must not resume.
    make_club(tmp_path, ["journal.toml", "bulk.csv"], [match(k, "a", "b") for k in range(6)])
    snapshot(tmp_path)
    add(tmp_path, "journal.toml", {"id": "new", **match(5, "b", "a")})
    runs = replayed(monkeypatch)
    ledger = load_club(tmp_path)
    ledger.run("fibs", "long-nardy")
    assert runs == [(7, False)] and not ledger.dirty  # read and replayed in full, cached anew
    monkeypatch.undo()
    assert snapshot(tmp_path) == full_replay(tmp_path)


def test_an_append_to_a_middle_file_that_names_a_new_discipline_is_read_in_full(tmp_path):
    make_club(tmp_path, ["journal.toml", "bulk.csv"], [match(k, "a", "b") for k in range(4)])
    snapshot(tmp_path)
    add(tmp_path, "journal.toml", {"id": "new", **match(9, "a", "c", "short-nardy")})
    ledger = load_club(tmp_path)
    assert not ledger.dirty and ledger.journal.disciplines() == ["long-nardy", "short-nardy"]
    assert snapshot(tmp_path) == full_replay(tmp_path)


new_match = st.tuples(st.integers(0, 9), st.permutations(PLAYERS).map(lambda p: p[:2]),
                      st.sampled_from(["long-nardy", "short-nardy"]))  # (day, players, discipline)


def layouts(matches: int, ops: int):
    """Arguments of check_layout: initial matches on days 0-6, appends on days 0-9 (before, on and after)."""
    return dict(layout=st.sampled_from(LAYOUTS), resave_after=st.sampled_from([0, 5000]),
                initial=st.lists(new_match.filter(lambda m: m[0] <= 6), max_size=matches),
                ops=st.lists(st.tuples(st.integers(0, 2), st.lists(new_match, min_size=1, max_size=4)),
                             min_size=1, max_size=ops))


def check_layout(folder, layout, initial, ops, resave_after, monkeypatch) -> None:
    monkeypatch.setattr(resume, "RESAVE_AFTER", resave_after)  # 0: every resumed journal is cached anew
    make_club(folder, layout, [match(n, a, b, d) for n, (a, b), d in initial])
    assert snapshot(folder) == full_replay(folder)
    ids = 0
    for pick, entries in ops:
        name = layout[pick % len(layout)]
        for n, (a, b), discipline in entries:  # dates before, on and after the last one
            ids += 1
            add(folder, name, {"id": f"x{ids}", **match(n, a, b, discipline)})
        assert snapshot(folder) == full_replay(folder), (name, entries)
        assert snapshot(folder) == full_replay(folder), (name, entries)  # the cache this wrote, read back


@settings(max_examples=7, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(**layouts(matches=8, ops=4))
def test_appends_to_any_file_equal_a_full_replay(tmp_path_factory, monkeypatch, layout, resave_after, initial, ops):
    check_layout(tmp_path_factory.mktemp("club"), layout, initial, ops, resave_after, monkeypatch)


@pytest.mark.slow
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(**layouts(matches=12, ops=8))
def test_appends_to_any_file_equal_a_full_replay_many(tmp_path_factory, monkeypatch, layout, resave_after, initial, ops):
    check_layout(tmp_path_factory.mktemp("club"), layout, initial, ops, resave_after, monkeypatch)


def test_parallel_recalc_only_where_it_pays(monkeypatch):
    # Forked replays need spare cores: never below PARALLEL_MIN_CORES or on busy ones, never for a
    # small journal; NARDRATING_PARALLEL=1 / 0 forces either way.
    monkeypatch.delenv("NARDRATING_PARALLEL", raising=False)
    monkeypatch.setattr(parallel, "PARALLEL_AFTER", 1000)
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert not parallel.parallel_pays(10**6)  # two idle cores are still too few
    monkeypatch.setattr(parallel.os, "cpu_count", lambda: 8)
    assert parallel.parallel_pays(10**6) and not parallel.parallel_pays(999)
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (6.5, 6.0, 6.0))  # 1.5 cores idle
    assert not parallel.parallel_pays(10**6)
    monkeypatch.setenv("NARDRATING_PARALLEL", "1")
    assert parallel.parallel_pays(10**6)
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    monkeypatch.setenv("NARDRATING_PARALLEL", "0")
    assert not parallel.parallel_pays(10**6)


def test_forced_parallel_recalc_equals_a_full_replay(tmp_path, monkeypatch):
    forks = []
    fork = parallel._fork
    monkeypatch.setattr(parallel, "_fork", lambda work: forks.append(1) or fork(work))
    monkeypatch.setattr(parallel, "PARALLEL_AFTER", 0)
    monkeypatch.setenv("NARDRATING_PARALLEL", "1")
    make_club(tmp_path, ["journal.toml", "bulk.csv"],
              [match(k % 9, PLAYERS[k % 5], PLAYERS[(k + 1) % 5], ["long-nardy", "short-nardy"][k % 2]) for k in range(30)])
    parallel.replay_all(tmp_path)
    assert len(forks) == 4  # the journal's cache and three of the four replays (two lists, two disciplines)
    monkeypatch.delenv("NARDRATING_PARALLEL")
    assert snapshot(tmp_path) == full_replay(tmp_path)


def test_a_tail_that_must_be_replayed_in_full_is_stored_with_its_result(tmp_path, monkeypatch):
    # The first command after the cache was lost writes (add-match): the journal is cached from its
    # full read, but nothing replayed from its preview is. The next command reads that snapshot plus
    # the appended match and has no result to resume: it replays everything once and stores the
    # snapshot with the tail and the result, so the command after it replays nothing.
    from nardrating.engines.fibs import FibsEngine

    make_club(tmp_path, ["journal.toml"], [match(n, "a", "b") for n in range(5)])
    ledger = load_club(tmp_path)  # a full read: the journal's snapshot, no replayed result yet
    assert ledger.cache_token is not None and not ledger.dirty
    add(tmp_path, "journal.toml", {"id": "m9", **match(9, "b", "c")})
    replayed = []
    replay = FibsEngine._replay
    monkeypatch.setattr(FibsEngine, "_replay", lambda self, view, resume: (
        replayed.append(len(view.order)), replay(self, view, resume))[1])
    load_club(tmp_path).run("fibs", "long-nardy")
    assert replayed == [6]  # no result to resume from: all six replayed
    ledger = load_club(tmp_path)
    assert not ledger.dirty  # the snapshot now holds the appended match
    ledger.run("fibs", "long-nardy")
    assert replayed == [6]  # the stored result was used: nothing replayed again
    monkeypatch.undo()
    assert snapshot(tmp_path) == full_replay(tmp_path)
