"""The cache is only an optimisation: whatever happens to the journal, config and cache
files, a command reading through the cache sees exactly what a full replay sees."""
import os
import shutil
from datetime import date, timedelta
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from nardrating.journal.writer import append_block, entry_block
from nardrating.ledger import load_club

CONFIG = """[club]
journal = ["journal.toml"]
default_discipline = "long-nardy"

[rating.fibs]
engine = "fibs"
factor = {factor}

[rating.club]
engine = "elo"
"""
PLAYERS = ["a", "b", "c", "d", "e"]


def write_club(folder: Path, matches: list, factor: int = 4) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "nardrating.toml").write_text(CONFIG.format(factor=factor))
    text = "".join(f'[[player]]\nid = "{p}"\n\n' for p in PLAYERS)
    (folder / "journal.toml").write_text(text)
    for entry in matches:
        append_block(folder / "journal.toml", entry_block("match", entry))


def snapshot(folder: Path) -> dict:
    """Everything a user can see of both lists: standings and every history."""
    ledger = load_club(folder)
    seen = {}
    for name in ("fibs", "club"):
        for discipline in ("long-nardy", "short-nardy"):
            result = ledger.run(name, discipline)
            seen[name, discipline] = (
                {p: (s.rating, s.games, s.status, s.last_played) for p, s in result.standings.items()},
                {p: [(e.entry, e.before, e.change, e.after, e.rated, e.reason) for e in result.history(p)]
                 for p in PLAYERS},
            )
    return seen


def full_replay(folder: Path) -> dict:
    os.environ["NARDRATING_NO_CACHE"] = "1"
    try:
        return snapshot(folder)
    finally:
        del os.environ["NARDRATING_NO_CACHE"]


match_entry = st.builds(
    lambda day, pair, winner, length, discipline, rated: {
        "date": date(2009, 1, 1) + timedelta(days=day), "players": list(pair),
        "winner": pair[winner], "length": length, "discipline": discipline,
        "rated": None if rated else False},
    st.integers(0, 60), st.permutations(PLAYERS).map(lambda p: p[:2]), st.integers(0, 1),
    st.integers(1, 9), st.sampled_from(["long-nardy", "short-nardy"]), st.booleans())

operation = st.one_of(
    st.tuples(st.just("append"), st.lists(match_entry, min_size=1, max_size=4)),
    st.tuples(st.just("edit"), st.integers(0, 1000)),
    st.tuples(st.just("config"), st.integers(1, 9)),
    st.tuples(st.just("drop-cache"), st.sampled_from(["all", "results", "manifest", "columns"])),
)


def apply(folder: Path, op, state: dict) -> None:
    kind, arg = op
    journal = folder / "journal.toml"
    if kind == "append":
        for entry in arg:  # dates may go back in time: then nothing can be resumed
            append_block(journal, entry_block("match", entry))
    elif kind == "edit":
        # Flip one winner in the middle of the file: an edit, not an append.
        text = journal.read_text()
        winners = [k for k in range(len(text)) if text.startswith("winner = ", k)]
        if winners:
            k = winners[arg % len(winners)]
            line_end = text.index("\n", k)
            block_start = text.rindex("players = ", 0, k)
            pair = text[block_start:text.index("\n", block_start)].split('"')[1::2]
            current = text[k:line_end].split('"')[1]
            other = pair[1] if current == pair[0] else pair[0]
            journal.write_text(text[:k] + f'winner = "{other}"' + text[line_end:])
    elif kind == "config":
        state["factor"] = arg
        (folder / "nardrating.toml").write_text(CONFIG.format(factor=arg))
    else:
        cache = folder / ".nardrating"
        if not cache.exists():
            return
        if arg == "all":
            shutil.rmtree(cache)
            return
        for path in cache.iterdir():
            if (arg == "results" and path.name.startswith("result-")) or \
               (arg == "manifest" and path.name == "manifest.json") or \
               (arg == "columns" and path.name.startswith("matches-")):
                path.unlink()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(initial=st.lists(match_entry, max_size=8), ops=st.lists(operation, min_size=1, max_size=6))
def test_cached_equals_full_replay(tmp_path_factory, initial, ops):
    folder = tmp_path_factory.mktemp("club")
    write_club(folder, sorted(initial, key=lambda e: e["date"]))
    state = {"factor": 4}
    assert snapshot(folder) == full_replay(folder)
    for op in ops:
        apply(folder, op, state)
        # Same file size and time after an edit would fool any cache: tell the truth about time.
        assert snapshot(folder) == full_replay(folder), op


def test_appends_resume_from_the_cached_replay(tmp_path):
    # Matches appended after a recalc: the next command parses only the new bytes and resumes
    # the cached fibs replay instead of replaying everything (checked by the cache's own record).
    matches = [{"date": date(2009, 1, 1) + timedelta(days=k), "players": ["a", "b"], "winner": "a",
                "length": 3, "discipline": "long-nardy"} for k in range(5)]
    write_club(tmp_path, matches)
    before = snapshot(tmp_path)
    append_block(tmp_path / "journal.toml", entry_block("match", {
        "date": date(2009, 2, 1), "players": ["b", "c"], "winner": "c", "length": 5, "discipline": "long-nardy"}))
    ledger = load_club(tmp_path)
    assert ledger.cache_token is not None and ledger.dirty  # snapshot + an unsaved tail
    result = ledger.run("fibs", "long-nardy")
    assert result.state.records.__class__.__name__ == "ColumnRecords"  # resumed, not replayed
    assert snapshot(tmp_path) == full_replay(tmp_path) != before


def test_a_hostile_cache_is_ignored(tmp_path):
    write_club(tmp_path, [{"date": date(2009, 1, 1), "players": ["a", "b"], "winner": "a",
                           "discipline": "long-nardy"}])
    expected = full_replay(tmp_path)
    snapshot(tmp_path)
    for path in (tmp_path / ".nardrating").iterdir():
        path.write_bytes(b"\x80\x04 not json, not arrays" * 3)
    assert snapshot(tmp_path) == expected


def test_recalc_in_parallel_processes_equals_a_full_replay(tmp_path, monkeypatch):
    # Big journals are replayed by forked processes, one per list and discipline, each writing
    # its part of the cache; forcing that path on a small club must change nothing a user sees.
    import nardrating.ledger as ledger_module

    matches = [{"date": date(2009, 1, 1) + timedelta(days=k % 40), "players": [PLAYERS[k % 5], PLAYERS[(k + 2) % 5]],
                "winner": PLAYERS[k % 5], "length": 1 + k % 7,
                "discipline": "long-nardy" if k % 3 else "short-nardy"} for k in range(60)]
    write_club(tmp_path, sorted(matches, key=lambda e: e["date"]))
    monkeypatch.setattr(ledger_module, "PARALLEL_AFTER", 0)
    ledger, replays = ledger_module.replay_all(tmp_path)
    assert {(r.name, d) for r, d, _ in replays} == {(n, d) for n in ("fibs", "club") for d in ("long-nardy", "short-nardy")}
    assert len(list((tmp_path / ".nardrating").glob("result-*.state"))) == 2  # fibs, two disciplines
    assert snapshot(tmp_path) == full_replay(tmp_path)
    for rating, discipline, players in replays:
        assert players == len(full_replay_result(tmp_path, rating.name, discipline).standings)


def full_replay_result(folder, rating, discipline):
    os.environ["NARDRATING_NO_CACHE"] = "1"
    try:
        return load_club(folder).run(rating, discipline)
    finally:
        del os.environ["NARDRATING_NO_CACHE"]
