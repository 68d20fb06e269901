"""The kept standings after an add-match as a patch on those it was worked out from
(replay/cachestandings.py `_save_delta`, replay/cachedelta.py): a fide match that waits for its
list moves two players' last dates and two counts of the list's state, so the write keeps the
change, not 10,000 standings again. What `leaderboard` then shows is a full read's, without a
replay; the standings file itself is not written again; a damaged patch, or one on standings
that are no longer those kept, is not used (the list is replayed)."""
from __future__ import annotations

import math

import pytest

from nardrating.replay import cachestandings
from nardrating.replay.cachecheck import Bad
from nardrating.replay.cachedelta import SAME, diff, patch, same, size
from nardrating.replay.cachedir import CacheFolder
from nardrating.replay.loader import load_club

from .conftest import no_cache
from .test_cache_standings import board
from .test_kept_history import copied, counting_runs

RATING = "fide"


def test_a_patch_gives_the_new_value_exactly_and_leaves_the_old_one_as_it_was():
    old = {"in_force": 734503, "players": ["a", "b", "c"],
           "columns": {"singles": [0, 2, 5], "other": [False, False, True], "rating": [2100.0, 0.0, 1990]}}
    new = {**old, "columns": {**old["columns"], "singles": [0, 3, 6], "rating": [2100.0, -0.0, 1990.0]}}
    change = diff(old, new)
    # Only what changed: two counts, and the two ratings JSON keeps otherwise (-0.0; 1990.0 for 1990)
    assert change == {"d": {"columns": {"d": {"singles": {"l": [[1, 3], [2, 6]]},
                                              "rating": {"l": [[1, -0.0], [2, 1990.0]]}}}}}
    assert size(change) == 4
    made = patch(old, change)
    assert same(made, new) and made["columns"]["singles"] == [0, 3, 6]
    assert math.copysign(1, made["columns"]["rating"][1]) == -1 and type(made["columns"]["rating"][2]) is float
    assert old["columns"]["singles"] == [0, 2, 5]   # (the old value untouched)
    assert made["players"] is old["players"]        # (what is unchanged stays the very object)
    assert diff(old, dict(old)) is SAME and diff(old, made) is not SAME
    # True, 1 and 1.0 are equal in Python, not in JSON
    assert diff([1, 1, 1], [True, 1.0, 1]) == {"l": [[0, True], [1, 1.0]]}
    # A list grown at its end: the items added (an open period's records); other keys, or a list
    # shorter than before: the value whole
    assert diff([1, 2], [1, 5, 3, 4]) == {"l": [[1, 5]], "+": [3, 4]} and patch([1, 2], diff([1, 2], [1, 5, 3, 4])) == [1, 5, 3, 4]
    assert size(diff([1, 2], [1, 5, 3, 4])) == 3
    assert diff({"a": 1}, {"b": 1}) == {"v": {"b": 1}} and diff([1, 2, 3], [1, 2]) == {"v": [1, 2]}


@pytest.mark.parametrize("change", [{"l": [[3, 1]]}, {"l": [[-1, 1]]}, {"d": {"x": {"v": 1}}}, {"q": 1},
                                    {"l": [[0]]}, {"v": 1, "l": []}, {"d": {"a": {"l": [[0, 1]]}}},
                                    {"l": [], "+": 5}, {"v": 1, "+": []}])
def test_a_patch_that_does_not_fit_its_value_is_refused(change):
    with pytest.raises(Bad):
        patch({"a": 5, "b": [1, 2, 3]} if "d" in change else [1, 2, 3], change)


def files(club):
    config = load_club(club / "nardrating.toml").config
    with CacheFolder(config, create=False) as folder:
        return {name: folder.read(name)[0] for name in folder.names() if name.startswith("standings")}


def add(cli, club, a, b, day):
    result = cli("add-match", a, b, "--winner", a, "--date", day, "--yes", "--club", club)
    assert result.exit_code == 0, result.output


def kept_board(cli, club, monkeypatch):
    with monkeypatch.context() as patched:
        replays = counting_runs(patched)
        shown = board(cli, club, RATING, None)
    return shown, replays


def full_board(cli, club):
    with no_cache():
        return board(cli, club, RATING, None)


def evening(cli, tmp_path, monkeypatch, share=1):
    """The sample chess club under a fide list, its standings kept (novik and zhukov's matches after
    every entry each wait for the next list: worked out from the kept standings, not replayed).
    Its 15 players are few: a patch is kept while it changes at most 1/`share` of them (a quarter
    on a real list)."""
    monkeypatch.setattr(cachestandings, "_PATCH_SHARE", share)
    club = copied(tmp_path, "fide-club")
    assert cli("recalc", "--club", club).exit_code == 0
    board(cli, club, RATING, None)
    return club


def test_the_standings_after_add_match_are_kept_as_a_patch_and_read_as_a_full_reads(cli, tmp_path, monkeypatch):
    club = evening(cli, tmp_path, monkeypatch)
    kept = files(club)
    add(cli, club, "novik", "zhukov", "2025-03-20")
    after = files(club)
    # The standings and their state not written again; the patch beside them
    delta = [name for name in after if name.startswith("standings-delta-")]
    assert len(delta) == 1 and {n: d for n, d in after.items() if n not in delta} == kept
    shown, replays = kept_board(cli, club, monkeypatch)
    assert replays == [] and shown == full_board(cli, club)
    # A second match: its patch is on the same kept standings, and holds both matches' changes
    add(cli, club, "zhukov", "novik", "2025-03-21")
    again = files(club)
    assert {n: d for n, d in again.items() if n not in delta} == kept and again[delta[0]] != after[delta[0]]
    shown, replays = kept_board(cli, club, monkeypatch)
    assert replays == [] and shown == full_board(cli, club)
    assert '"last_played": "2025-03-21"' in shown[2]   # (the json: both players' last game; the test can fail)


def test_a_damaged_patch_is_not_read(cli, tmp_path, monkeypatch):
    club = evening(cli, tmp_path, monkeypatch)
    add(cli, club, "novik", "zhukov", "2025-03-20")
    config = load_club(club / "nardrating.toml").config
    with CacheFolder(config, create=False) as folder:
        name = next(n for n in folder.names() if n.startswith("standings-delta-"))
        data = bytearray(folder.read(name)[0])
        data[-5] ^= 1
        folder.write(name, bytes(data))
    shown, replays = kept_board(cli, club, monkeypatch)
    assert replays and shown == full_board(cli, club)


def test_a_patch_on_standings_no_longer_kept_is_not_read(cli, tmp_path, monkeypatch):
    # The standings file replaced (here by those of another day: --as-of) after the patch was
    # written: the patch names the standings it is on, and those are gone.
    club = evening(cli, tmp_path, monkeypatch)
    add(cli, club, "novik", "zhukov", "2025-03-20")
    assert cli("leaderboard", "--club", club, "--as-of", "2025-03-01").exit_code == 0
    shown, replays = kept_board(cli, club, monkeypatch)
    assert replays and shown == full_board(cli, club)


def test_a_patch_of_more_than_a_quarter_of_the_players_keeps_the_standings_whole(cli, tmp_path, monkeypatch):
    # Two standings (novik's and zhukov's last dates) and two counts of the state (their games
    # waiting) of 15 players: more than a quarter; the standings and state are kept whole.
    club = evening(cli, tmp_path, monkeypatch, share=4)
    assert len(load_club(club / "nardrating.toml").run(RATING, "chess").standings) == 15
    kept = files(club)
    add(cli, club, "novik", "zhukov", "2025-03-20")
    after = files(club)
    assert not any(n.startswith("standings-delta-") for n in after) and set(after) == set(kept) and after != kept
    shown, replays = kept_board(cli, club, monkeypatch)
    assert replays == [] and shown == full_board(cli, club)


def test_the_state_read_through_a_patch_is_a_replays(cli, tmp_path, monkeypatch):
    # What the next add-match works on: the list's state kept whole, patched by both matches (each
    # player's games waiting for the list), as a replay of the journal with them makes it.
    from nardrating.engines.registry import engine_class
    from nardrating.reports.asof import as_of

    club = evening(cli, tmp_path, monkeypatch)
    add(cli, club, "novik", "zhukov", "2025-03-20")
    add(cli, club, "zhukov", "novik", "2025-03-21")
    ledger = load_club(club / "nardrating.toml")
    engine, rating = engine_class("fide"), ledger.rating(RATING)
    day = as_of(ledger, None).day
    key = cachestandings.list_key(ledger, engine, rating, "chess", day)
    head, standings, state, _base = cachestandings._kept(ledger, rating, "chess", key, True)
    assert "base" in head   # (read through the patch)
    with no_cache():
        replayed = load_club(club / "nardrating.toml").run(RATING, "chess", day)
    assert state == engine().standings_state(replayed)
    at = state["players"].index("novik")
    kept_whole = next(cachestandings._file(ledger, n)["state"] for n in files(club) if n.startswith("standings-state-"))
    assert state["columns"]["singles"][at] == kept_whole["columns"]["singles"][at] + 2   # (both matches waiting)
