"""The cache is only an optimisation: whatever happens to the journal, config and cache
files, a command reading through the cache sees exactly what a full replay sees."""
import os
import shutil
from dataclasses import replace
import time
from datetime import date, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from nardrating.replay.cachedir import club_key, root
from nardrating.errors import LedgerError
from nardrating.journal.writer import append_block, entry_block
from nardrating.replay.loader import load_club
from nardrating.reports.asof import last_entry_date

CONFIG = """[club]
journal = {journal}
default_discipline = "long-nardy"

[rating.fibs]
engine = "fibs"
factor = {factor}

[rating.club]
engine = "elo"
"""
# fibs and elo resume a cached replay over appended matches; glicko and glicko2 (a period rated
# as a whole) use a cached one only for the journal exactly as it was replayed (Engine.cacheable).
GLICKO = """
[rating.g1]
engine = "glicko"
period = "week"

[rating.g2]
engine = "glicko2"
"""
# chips decays every rating up to the day it is read, and "idle" penalises breaks too: a kept
# replay stops before that, and is finished as of the last entry or a later day (Engine.cacheable).
CHIPS = """
[rating.chips]
engine = "chips"

[rating.idle]
engine = "chips"
daily_decay = 0.1
inactivity = [[1, 3], [2, 7.5]]
inactive_after_months = 2
provisional_games = 2
"""
PLAYERS = ["a", "b", "c", "d", "e"]
CSV_HEADER = "id,date,player_a,player_b,winner,length,discipline,note\n"


def cache_folder(club: Path) -> Path:
    """Where the cache of the club in `club` lives: the user's cache directory, keyed by its path."""
    return root() / club_key(SimpleNamespace(path=club / "nardrating.toml"))


def write_config(folder: Path, factor: int = 4, csv: bool = False, glicko: bool = False, chips: bool = False) -> None:
    files = '["journal.toml", "bulk.csv"]' if csv else '["journal.toml"]'
    (folder / "nardrating.toml").write_text(CONFIG.format(journal=files, factor=factor) + (GLICKO if glicko else "")
                                            + (CHIPS if chips else ""))


def write_club(folder: Path, matches: list, factor: int = 4, csv: bool = False, inline: bool = False,
               glicko: bool = False, chips: bool = False) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    write_config(folder, factor, csv, glicko, chips)
    text = "".join(f'[[player]]\nid = "{p}"\n\n' for p in PLAYERS)
    if inline:  # the players as one inline array of tables at the top: no [[player]] may follow
        text = "player = [" + ", ".join(f'{{id = "{p}"}}' for p in PLAYERS) + "]\n\n"
    (folder / "journal.toml").write_text(text)
    if csv:
        (folder / "bulk.csv").write_text(CSV_HEADER)
    for entry in matches:
        append_block(folder / "journal.toml", entry_block("match", entry))


def snapshot(folder: Path):
    """Everything a user can see of both lists: standings and every history; or the problems."""
    try:
        ledger = load_club(folder)
        seen = {}
        last = last_entry_date(ledger.journal)
        for name in ledger.config.ratings:   # every list of the config
            for discipline in ("long-nardy", "short-nardy"):
                result = ledger.run(name, discipline)
                # Values with their types (1200 and 1200.0 differ), the standings in their order,
                # with their extras (Glicko's RD and volatility) and as the leaderboard reads them
                # (as of the last entry: Glicko's deviations grown to it); and as of a day after it
                # (chips decayed and penalised up to it).
                later = ledger.run(name, discipline, last + timedelta(days=75)) if last is not None else result
                seen[name, discipline] = (
                    standings(result), history(result),
                    [(p, s.rating, s.status, s.extra) for p, s in ledger.run(name, discipline, last).standings.items()],
                    standings(later), history(later),
                )
        seen["lists"] = [(x.path, x.sha256, x.date, x.line) for x in ledger.journal.lists]
        # Every match as the journal holds it, by id: its file and line (where errors point), its
        # players' and discipline's names. (Not its index: a match appended to a file before
        # another is stored after every cached match, and replayed in the same order: resume.py.)
        journal = ledger.journal
        seen["matches"] = sorted((m.id, replace(m, index=0)) for m in map(journal.match, range(journal.match_count())))
        return seen
    except LedgerError as exc:
        return ("refused", [str(p) for p in exc.problems])


def standings(result):
    return [(p, typed(s.rating), s.games, s.status, s.last_played, s.extra) for p, s in result.standings.items()]


def history(result):
    return {p: [(e.date, e.kind, e.entry, typed(e.before), typed(e.change), typed(e.after), e.rated, e.reason, e.extra)
                for e in result.history(p)] for p in PLAYERS}


def typed(value):
    return type(value).__name__, repr(value)


def full_replay(folder: Path):
    os.environ["NARDRATING_NO_CACHE"] = "1"
    try:
        return snapshot(folder)
    finally:
        del os.environ["NARDRATING_NO_CACHE"]


def day(n: int) -> date:
    return date(2009, 1, 1) + timedelta(days=n)


match_entry = st.builds(
    lambda n, pair, winner, length, discipline, rated: {
        "date": day(n), "players": list(pair),
        "winner": pair[winner], "length": length, "discipline": discipline,
        "rated": None if rated else False},
    st.integers(0, 60), st.permutations(PLAYERS).map(lambda p: p[:2]), st.integers(0, 1),
    st.integers(1, 9), st.sampled_from(["long-nardy", "short-nardy"]), st.booleans())

# Text typed by hand at the end of the journal: entries, comments and keys, with and without a
# final newline, notes in triple quotes that hold lines looking like headers.
HAND_TYPED = [
    '[[match]]\ndate = 2009-03-01\nplayers = ["a", "b"]\nwinner = "a"\n',
    '[[match]]\ndate = 2009-03-02\nplayers = ["c", "d"]\nwinner = "d"\nlength = 3',
    '# a comment without a newline',
    '# a comment\n',
    '\n[[match]] # typed late\ndate = 2009-03-03\nplayers = ["a", "c"]\nwinner = "c"\n',
    '[[match]]\ndate = 2009-03-04\nplayers = ["b", "e"]\nwinner = "b"\nnote = """two\n[[match]]\nlines"""\n',
    "[[match]]\ndate = 2009-03-05\nplayers = [\"d\", \"e\"]\nwinner = \"e\"\nnote = '''open\n",
    'note = "a key after the last entry"\n',
    '[match.extra]\nx = 1\n',
    '[[void]]\nmatch = "m0"\ndate = 2009-03-06\nreason = "typed"\n',
    '[[adjust]]\ndate = 2009-03-07\nplayer = "a"\nrating = "fibs"\ndelta = 5\nreason = "r"\n',
    '[[player]]\nid = "f"\n',
    # a published list: it rates nothing, but the cache keeps it as a full read does
    '[[list]]\nfile = "lists/x.json"\nsha256 = "' + "a" * 64 + '"\ndate = 2009-03-10\n',
    # renames and merges rewrite ids already cached; later rows naming the old id follow them
    '[[rename]]\nplayer = "e"\nto = "e2"\ndate = 2009-03-08\n',
    '[[merge]]\nplayer = "d"\ninto = "c"\ndate = 2009-03-09\n',
]
CSV_TYPED = [
    "m900,2009-03-01,a,b,a,3,long-nardy,\n",
    "m901,2009-03-02,c,d,d,1,short-nardy,x",
    'm902,2009-03-03,a,e,e,5,long-nardy,"a note\nover two lines"\n',
    'm903,2009-03-04,b,c,b,1,long-nardy,"open\n',
    "m904,2009-01-02,b,c,c,1,long-nardy,\n",
]
MUTATIONS = ["truncate", "flip", "fifo", "symlink", "folder", "other-club", "json-types", "empty"]

operation = st.one_of(
    st.tuples(st.just("append"), st.lists(match_entry, min_size=1, max_size=4)),
    st.tuples(st.just("hand"), st.sampled_from(HAND_TYPED)),
    # add-match itself, which keeps what it appended in the cache's manifest (replay/cachetail.py)
    st.tuples(st.just("add-match"), match_entry),
    st.tuples(st.just("csv"), st.sampled_from(CSV_TYPED)),
    st.tuples(st.just("void"), st.integers(0, 30)),
    st.tuples(st.just("adjust"), st.tuples(st.sampled_from(PLAYERS), st.integers(-50, 50), st.integers(0, 90))),
    st.tuples(st.just("player"), st.integers(0, 9)),
    st.tuples(st.just("edit"), st.integers(0, 1000)),
    st.tuples(st.just("config"), st.integers(1, 9)),
    st.tuples(st.just("drop-cache"), st.sampled_from(["all", "results", "manifest", "columns"])),
    st.tuples(st.just("mutate"), st.tuples(st.integers(0, 20), st.sampled_from(MUTATIONS), st.integers(0, 1 << 16))),
)


def apply(folder: Path, op, state: dict) -> None:
    kind, arg = op
    journal = folder / "journal.toml"
    if kind == "append":
        for entry in arg:  # dates may go back in time: then nothing can be resumed
            state["ids"] += 1
            append_block(journal, entry_block("match", {"id": f"m{state['ids']}", **entry}))
    elif kind == "add-match":
        from nardrating.errors import ActionRefused
        from nardrating.journal.actions import add_match

        before = journal.read_bytes()
        a, b = arg["players"]
        try:
            add_match(load_club(folder, config_only=True), a, b, winner=arg["winner"], day=arg["date"],
                      length=arg["length"], discipline=arg["discipline"], rated=arg["rated"] is None)
        except (LedgerError, ActionRefused):  # a player renamed or merged away, a journal refused: nothing written
            assert journal.read_bytes() == before
    elif kind == "hand":
        with open(journal, "a") as f:
            f.write(arg)
    elif kind == "csv":
        if state["csv"]:
            with open(folder / "bulk.csv", "a") as f:
                f.write(arg)
    elif kind == "void":
        append_block(journal, entry_block("void", {"match": f"m{arg}", "date": day(61), "reason": "wrong"}))
    elif kind == "adjust":
        player, delta, n = arg
        # fibs's rating; or a Glicko list's, with a deviation (and glicko2's volatility) set too; or
        # a chips list's, set (on the last day, maybe: a rating not decayed since) or moved
        change = [{"rating": "fibs", "delta": delta}, {"rating": "g1", "delta": delta, "rd": 60 + abs(delta)},
                  {"rating": "g2", "delta": delta, "rd": 80.0, "volatility": 0.05},
                  {"rating": "chips", "set": delta}, {"rating": "idle", "delta": delta / 4}][n % 5]
        append_block(journal, entry_block("adjust", {"date": day(n), "player": player, **change, "reason": "decision"}))
    elif kind == "player":
        append_block(journal, entry_block("player", {"id": f"p{arg}", "name": f"Player {arg}"}))
    elif kind == "edit":
        # Flip one winner in the middle of the file: an edit, not an append.
        text = journal.read_text()
        winners = [k for k in range(len(text)) if text.startswith('winner = "', k)]
        if winners:
            k = winners[arg % len(winners)]
            line_end = text.index("\n", k)
            block_start = text.rindex("players = ", 0, k)
            pair = text[block_start:text.index("\n", block_start)].split('"')[1::2]
            current = text[k:line_end].split('"')[1]
            other = pair[1] if current == pair[0] else pair[0]
            journal.write_text(text[:k] + f'winner = "{other}"' + text[line_end:])
    elif kind == "config":
        write_config(folder, arg, state["csv"], glicko=True, chips=True)
    elif kind == "drop-cache":
        drop_cache(cache_folder(folder), arg)
    else:
        mutate_cache(cache_folder(folder), *arg, other=state.get("other"))


def drop_cache(cache: Path, what: str) -> None:
    if not cache.exists():
        return
    if what == "all":
        shutil.rmtree(cache)
        return
    for path in cache.iterdir():
        if (what == "results" and path.name.startswith("result-")) or \
           (what == "manifest" and path.name == "manifest.json") or \
           (what == "columns" and path.name.startswith("matches-")):
            if path.is_dir() and not path.is_symlink():   # (a file mutate_cache made a folder)
                shutil.rmtree(path)
            else:
                path.unlink()


def mutate_cache(cache: Path, pick: int, how: str, seed: int, other: Path | None = None) -> None:
    """Damage one cache file the way a disk, a person or a copy might."""
    import random

    if not cache.exists() or not (names := sorted(p.name for p in cache.iterdir() if p.is_file())):
        return
    path = cache / names[pick % len(names)]
    data = path.read_bytes()
    rng = random.Random(seed)
    time.sleep(0.02)  # past the filesystem's clock tick: a change in place moves the file's times
    path.unlink()
    if how == "truncate":
        path.write_bytes(data[: rng.randrange(len(data) + 1)])
    elif how == "flip":
        flipped = bytearray(data) or bytearray(b"\0")
        flipped[rng.randrange(len(flipped))] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(flipped))
    elif how == "fifo":
        os.mkfifo(path)
    elif how == "symlink":
        target = cache / names[(pick + 1) % len(names)]
        os.symlink(target if target != path else "/dev/zero", path)
    elif how == "folder":
        path.mkdir()
    elif how == "other-club" and other is not None and other.exists():
        kind = path.name.split("-")[0].split(".")[0]
        same_kind = sorted(p for p in other.iterdir() if p.name.split("-")[0].split(".")[0] == kind)
        path.write_bytes(same_kind[seed % len(same_kind)].read_bytes() if same_kind else b"")
    elif how == "json-types":
        import json

        try:
            value = json.loads(data)
        except ValueError:
            value = None
        path.write_text(json.dumps(_retype(value, rng)))
    else:
        path.write_bytes(b"")


def _retype(value, rng):
    """The same JSON with values of the wrong types, numbers out of range, lists cut short."""
    if isinstance(value, dict):
        return {k: _retype(v, rng) if rng.random() < 0.7 else rng.choice([None, "x", -1, 1e308, [], {}])
                for k, v in value.items()}
    if isinstance(value, list):
        items = [_retype(v, rng) for v in value]
        return items[: rng.randrange(len(items) + 1)] if rng.random() < 0.3 else items
    return rng.choice([value, None, "2009-13-45", -(1 << 40), 1 << 70, 0.5, True, "x"])


@pytest.fixture(scope="module")
def other_cache(tmp_path_factory):
    """A second club's cache, whose files are copied over this club's."""
    folder = tmp_path_factory.mktemp("other")
    write_club(folder, [{"date": day(k), "players": ["a", "c"], "winner": "c", "length": 3} for k in range(3)],
               glicko=True, chips=True)
    snapshot(folder)
    return cache_folder(folder)


def check_equivalence(folder: Path, initial, ops, csv: bool, other: Path, inline: bool = False) -> None:
    write_club(folder, [{"id": f"m{k}", **e} for k, e in enumerate(sorted(initial, key=lambda e: e["date"]))],
               csv=csv, inline=inline, glicko=True, chips=True)
    state = {"ids": len(initial), "csv": csv, "other": other}
    assert snapshot(folder) == full_replay(folder)
    for op in ops:
        apply(folder, op, state)
        assert snapshot(folder) == full_replay(folder), op
        assert snapshot(folder) == full_replay(folder), op  # the cache this wrote, read back


# A few small clubs by default, many bigger ones in the slow run.
FEW = {"initial": st.lists(match_entry, max_size=6), "ops": st.lists(operation, min_size=1, max_size=5),
       "csv": st.booleans()}
MANY = {"initial": st.lists(match_entry, max_size=12), "ops": st.lists(operation, min_size=1, max_size=10),
        "csv": st.booleans()}
FIXTURES = [HealthCheck.function_scoped_fixture]


def with_every_tail_kept_apart(club: Path, initial, ops, csv, other_cache) -> None:
    # A big journal's few appended rows stay beside its mapped columns (columns.Appended) for the
    # code that reads a few rows (Journal.matches_for); a journal this small has them joined.
    # Here every such reader gets them as kept, as in a journal of a million matches.
    from nardrating.journal.model import Journal

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Journal, "matches_for", lambda journal, rows: Journal._kept.fget(journal))
        check_equivalence(club, initial, ops, csv, other_cache)


CHECKS = [pytest.param(check_equivalence, id="tail-joined", marks=pytest.mark.slow),   # (in the slow run)
          pytest.param(with_every_tail_kept_apart, id="tail-kept-apart")]


@pytest.mark.parametrize("check", CHECKS)
@settings(max_examples=4, deadline=None, suppress_health_check=FIXTURES)
@given(**FEW)
@example(initial=[], ops=[("mutate", (3, "folder", 0)), ("drop-cache", "results")], csv=False)  # (found by the slow run)
def test_cached_equals_full_replay(tmp_path_factory, other_cache, check, initial, ops, csv):
    check(tmp_path_factory.mktemp("club"), initial, ops, csv, other_cache)


@pytest.mark.slow
@pytest.mark.parametrize("check", CHECKS)
@settings(max_examples=300, deadline=None, suppress_health_check=FIXTURES)
@given(**MANY)
def test_cached_equals_full_replay_many(tmp_path_factory, other_cache, check, initial, ops, csv):
    check(tmp_path_factory.mktemp("club"), initial, ops, csv, other_cache)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(initial=st.lists(match_entry, max_size=4), ops=st.lists(operation, min_size=1, max_size=4))
def test_cached_equals_full_replay_after_an_inline_array_of_tables(tmp_path_factory, other_cache, initial, ops):
    # `player = [{id = "a"}, …]` at the top: an appended [[player]] (or a hand-typed one) makes the
    # file one a full parse refuses; a read of the cached journal plus the tail must refuse it too.
    check_equivalence(tmp_path_factory.mktemp("club"), initial, [("player", 1), *ops], False, other_cache, inline=True)


def test_a_table_after_an_inline_array_of_them_is_refused_through_the_cache(tmp_path):
    write_club(tmp_path, [{"id": "m1", "date": day(1), "players": ["a", "b"], "winner": "a"}], inline=True)
    assert snapshot(tmp_path) == full_replay(tmp_path) and isinstance(snapshot(tmp_path), dict)
    with open(tmp_path / "journal.toml", "a") as f:
        f.write('\n[[player]]\nid = "f"\n')
    cached, full = snapshot(tmp_path), full_replay(tmp_path)
    assert full[0] == "refused" and "Cannot mutate immutable namespace" in full[1][0]
    assert cached == full


def test_appends_resume_from_the_cached_replay(tmp_path, monkeypatch):
    # Matches appended after a first read: the next command parses only the new bytes and resumes
    # the cached fibs replay with just the new match, instead of replaying all six.
    from nardrating.engines.fibs import FibsEngine

    matches = [{"date": day(k), "players": ["a", "b"], "winner": "a", "length": 3} for k in range(5)]
    write_club(tmp_path, matches)
    before = snapshot(tmp_path)
    append_block(tmp_path / "journal.toml", entry_block("match", {
        "date": date(2009, 2, 1), "players": ["b", "c"], "winner": "c", "length": 5}))
    given_matches = []
    replay = FibsEngine._replay  # both run (everything) and resume (from a state) go through it
    monkeypatch.setattr(FibsEngine, "_replay", lambda self, view, resume: (
        given_matches.append(len(view.order)), replay(self, view, resume))[1])
    ledger = load_club(tmp_path)
    assert ledger.cache_token is not None and ledger.dirty  # snapshot + an unsaved tail
    ledger.run("fibs", "long-nardy")
    assert given_matches == [1]  # resumed with the one new match, not all six replayed
    monkeypatch.undo()
    assert snapshot(tmp_path) == full_replay(tmp_path) != before


def test_a_hand_typed_match_after_a_comment_without_newline(tmp_path):
    # "# last" + "[[match]]…" typed straight after it: the header is part of the comment for a
    # full parse, so the next lines are keys of the previous match (a duplicate key). The cached
    # path must not read the tail on its own and accept it.
    write_club(tmp_path, [{"id": "m1", "date": day(1), "players": ["a", "b"], "winner": "a"}])
    with open(tmp_path / "journal.toml", "a") as f:
        f.write("# last")
    assert snapshot(tmp_path) == full_replay(tmp_path)  # cache written for the comment-ended file
    with open(tmp_path / "journal.toml", "a") as f:
        f.write('[[match]]\ndate = 2009-01-05\nplayers = ["c", "d"]\nwinner = "c"\n')
    cached, full = snapshot(tmp_path), full_replay(tmp_path)
    assert cached == full and full[0] == "refused", (cached, full)


def test_a_key_typed_after_the_last_entry_belongs_to_it(tmp_path):
    # `length = 9` typed at the end is the last match's key in a full parse (a duplicate here):
    # the tail cannot be read on its own.
    write_club(tmp_path, [{"id": "m1", "date": day(1), "players": ["a", "b"], "winner": "a"}])
    assert snapshot(tmp_path) == full_replay(tmp_path)
    with open(tmp_path / "journal.toml", "a") as f:
        f.write("note = 'late'\n")
    assert snapshot(tmp_path) == full_replay(tmp_path)
    assert load_club(tmp_path).journal.matches.extra[0]["note"] == "late"


def test_recalc_in_parallel_processes_equals_a_full_replay(tmp_path, monkeypatch):
    # Big journals are replayed by forked processes, one per list and discipline, each writing
    # its part of the cache; forcing that path on a small club must change nothing a user sees.
    import nardrating.replay.parallel as parallel

    matches = [{"date": day(k % 40), "players": [PLAYERS[k % 5], PLAYERS[(k + 2) % 5]],
                "winner": PLAYERS[k % 5], "length": 1 + k % 7,
                "discipline": "long-nardy" if k % 3 else "short-nardy"} for k in range(60)]
    write_club(tmp_path, sorted(matches, key=lambda e: e["date"]), glicko=True, chips=True)
    monkeypatch.setattr(parallel, "PARALLEL_AFTER", 0)
    ledger, replays = parallel.replay_all(tmp_path)
    assert {(r.name, d) for r, d, _ in replays} == {(n, d) for n in ("fibs", "club", "g1", "g2", "chips", "idle")
                                                    for d in ("long-nardy", "short-nardy")}
    # fibs and elo (both resume), glicko, glicko2 and both chips lists (kept for the journal as it
    # is), two disciplines each
    assert len(list(cache_folder(tmp_path).glob("result-*.state"))) == 12
    assert snapshot(tmp_path) == full_replay(tmp_path)
    for rating, discipline, players in replays:
        assert players == len(full_replay_result(tmp_path, rating.name, discipline).standings)


def full_replay_result(folder, rating, discipline):
    os.environ["NARDRATING_NO_CACHE"] = "1"
    try:
        return load_club(folder).run(rating, discipline)
    finally:
        del os.environ["NARDRATING_NO_CACHE"]


def test_renames_and_merges_through_the_cache_equal_a_full_read(tmp_path, other_cache):
    """A rename and a merge appended to a cached journal, then rows that still name the old ids."""
    initial = [{"date": day(k), "players": list(pair), "winner": pair[0], "length": 3, "discipline": "long-nardy"}
               for k, pair in enumerate([("a", "b"), ("c", "e"), ("d", "a"), ("e", "b")])]
    ops = [("hand", HAND_TYPED[-2]), ("csv", "m905,2009-03-10,e,a,e,1,long-nardy,\n"),
           ("hand", HAND_TYPED[-1]), ("append", [{"date": day(70), "players": ["d", "b"], "winner": "b",
                                                 "length": 1, "discipline": "long-nardy", "rated": None}])]
    check_equivalence(tmp_path / "club", initial, ops, True, other_cache)
    ledger = load_club(tmp_path / "club")
    assert "e2" in ledger.journal.players and "e" not in ledger.journal.players
    assert "d" not in ledger.journal.players  # merged into c
    assert ledger.run("fibs", "long-nardy").standings["c"].games == 3  # c–e, then d's: d–a and the appended d–b
