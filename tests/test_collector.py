import gc

import pytest

from nardrating.collector import collector_paused


def test_the_collector_is_paused_inside_and_as_it_was_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), collector_paused():
        raise ValueError
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # a caller's own pause is left alone
    finally:
        gc.enable()


@pytest.mark.slow   # (a real process's imports or memory: a speed guard, in the slow run)
@pytest.mark.parametrize("one_command", [False, True])
def test_what_a_pause_built_is_frozen_only_in_a_one_command_process(one_command):
    """100,000 lists built in a pause: in the command line's own process they are frozen (the
    collector never scans them again); anywhere else, as Python leaves them, the first collection
    after the pause scans them all and moves them on to the middle generation. In a fresh process:
    freezing is for good."""
    import subprocess
    import sys

    code = ("import gc\nfrom nardrating.collector import collector_paused, one_command_process\n"
            + ("one_command_process()\n" if one_command else "")
            + "with collector_paused():\n    kept = [[i] for i in range(100_000)]\n"
            "print(gc.get_freeze_count() >= 100_000, len(gc.get_objects(generation=1)) >= 100_000)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == (["True", "False"] if one_command else ["False", "True"])


@pytest.mark.slow   # (a real process's imports or memory: a speed guard, in the slow run)
def test_the_command_line_freezes_what_is_left_when_its_command_is_done():
    """nardrating's own main(): after the command (here --version, which replays nothing), every
    object is frozen: Python's collection at exit then scans none of them."""
    import subprocess
    import sys

    code = ("import gc, sys\nfrom nardrating.cli import main\nsys.argv = ['nardrating', '--version']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\nprint(gc.get_freeze_count() > 1000)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split()[-1] == "True"


@pytest.mark.slow   # (a real process's imports or memory: a speed guard, in the slow run)
def test_a_dropped_result_is_freed_at_once_no_cycle_left_to_the_collector():
    """What collector.py relies on: a list's result (and what it built, its history read) is in no
    reference cycle, so dropping it frees it there and then, frozen or not. Every engine of the
    samples: the collection after dropping finds nothing."""
    from nardrating.replay.loader import load_club

    from .conftest import SAMPLES

    found = {}
    warmed: set[str] = set()
    for club in sorted(SAMPLES.iterdir()):
        ledger = load_club(club, use_cache=False)
        for rating in ledger.config.ratings.values():
            for discipline in ledger.disciplines(rating):
                # (an engine imports its replay on its first run, and an import leaves garbage of its
                # own, a NamedTuple's template class: an engine's first run, dropped, before the one
                # measured; each engine measured on its first list of the samples, a full collection
                # of the test process's heap each: the others add time, not engines)
                if rating.engine in warmed:
                    continue
                warmed.add(rating.engine)
                ledger.run(rating, discipline)
                ledger._runs.clear()
                gc.collect()   # (whatever else is garbage: before the result is made)
                result = ledger.run(rating, discipline)
                for player in list(result.standings)[:3]:
                    result.history(player)
                del result
                ledger._runs.clear()
                gc.set_debug(gc.DEBUG_SAVEALL)
                try:
                    gc.collect()
                    found[f"{club.name} {rating.name} {discipline}"] = len(gc.garbage)
                finally:
                    gc.set_debug(0)
                    gc.garbage.clear()
    assert found and set(found.values()) == {0}, found


@pytest.mark.slow   # (a real process's imports or memory: a speed guard, in the slow run)
@pytest.mark.parametrize("one_command", [False, True])
def test_a_result_kept_to_exit_is_never_freed_in_a_one_command_process(one_command):
    """kept_to_exit: in the command line's own process the object is held to the very end and
    not freed then either (its __del__ never runs: the end of the process takes the memory back);
    anywhere else nothing is held and it is freed as soon as it is dropped."""
    import subprocess
    import sys

    code = ("from nardrating.collector import command_done, kept_to_exit, one_command_process\n"
            "class Record:\n    def __del__(self):\n        print('freed', flush=True)\n"
            + ("one_command_process()\n" if one_command else "")
            + "record = Record()\nprint(kept_to_exit(record), flush=True)\ndel record\ncommand_done()\n"
            "print('end', flush=True)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == (["True", "end"] if one_command else ["False", "freed", "end"])


@pytest.mark.parametrize("one_command", [False, True])
def test_recalc_keeps_its_last_replay_only_in_a_one_command_process(one_command, tmp_path, monkeypatch):
    """replay_all drops each replay once cached; the last one it keeps to the end in the command
    line's process (the records of a big replay take a tenth of recalc's CPU to free one by one)."""
    import shutil

    from nardrating import collector
    from nardrating.replay.parallel import replay_all

    from .conftest import SAMPLES

    club = tmp_path / "club"
    shutil.copytree(SAMPLES / "chess-club", club)
    monkeypatch.setattr(collector, "_one_command", one_command)
    monkeypatch.setattr(collector, "_kept", [])
    ledger, replays = replay_all(club)
    assert replays
    assert (collector._kept == [ledger]) is one_command
    assert bool(ledger._runs) is one_command   # the last replay's result, not freed


@pytest.mark.parametrize("one_command", [False, True])
def test_a_read_command_keeps_what_it_replays_only_in_a_one_command_process(one_command, tmp_path, monkeypatch):
    """commands.common.load: the ledger a read command works on (and so every replay it runs, held in
    the ledger) lives to the end in the command line's process, not freed record by record when the
    command returns; anywhere else nothing is held."""
    import shutil

    from nardrating import collector
    from nardrating.commands.common import load

    from .conftest import SAMPLES

    club = tmp_path / "club"
    shutil.copytree(SAMPLES / "chess-club", club)
    monkeypatch.setattr(collector, "_one_command", one_command)
    monkeypatch.setattr(collector, "_slots", {})
    first = load(str(club))
    assert (collector._slots == {"ledger": first}) is one_command
    ledger = load(str(club))   # read again (as provenance.stamped does): only the last one is held
    assert (collector._slots == {"ledger": ledger}) is one_command


def test_a_cached_journal_and_a_resumed_result_are_built_with_the_collector_paused(tmp_path, monkeypatch):
    """The snapshot's rows and a resumed result's standings live as long as the command: a
    collection over them (7-10 ms of a cached leaderboard of 10,000 players) would find nothing."""
    from datetime import date

    from nardrating.engines.fibs import FibsEngine
    from nardrating.replay import cache
    from nardrating.replay.loader import load_club

    from .test_cache import snapshot, write_club

    club = tmp_path / "club"
    write_club(club, [{"id": f"m{k}", "date": date(2009, 1, 1 + k), "players": ["a", "b"], "winner": "a"} for k in range(3)])
    snapshot(club)   # the snapshot and the replayed results written
    seen = []
    read, finish = cache.read_journal, FibsEngine.finish
    monkeypatch.setattr(cache, "read_journal", lambda *args: seen.append(("read", gc.isenabled())) or read(*args))
    monkeypatch.setattr(FibsEngine, "finish",
                        lambda self, view, state: seen.append(("finish", gc.isenabled())) or finish(self, view, state))
    ledger = load_club(club, light=True)
    assert ledger.cache_token is not None
    ledger.run("fibs", "long-nardy")
    assert seen == [("read", False), ("finish", False)]
    assert gc.isenabled()


@pytest.mark.slow   # (a real process's imports or memory: a speed guard, in the slow run)
@pytest.mark.parametrize("one_command", [False, True])
def test_a_bulk_csv_read_is_frozen_only_in_a_one_command_process(one_command, tmp_path):
    """The CSV reader pauses the collector as the replays do, and freezes what it built only where
    the process ends with its command. A program that reads clubs again and again (a server, a test
    run) freezes nothing: each freeze would also keep the garbage of the moment to the end."""
    import subprocess
    import sys

    (tmp_path / "nardrating.toml").write_text('[club]\nname = "Bulk"\njournal = ["games.csv"]\n\n'
                                              '[rating.fibs]\nengine = "fibs"\n')
    (tmp_path / "games.csv").write_text("date,player_a,player_b,result\n2020-01-01,anna,boris,1-0\n")
    code = ("import gc\nfrom nardrating.collector import one_command_process\n"
            "from nardrating.replay.loader import load_club\n"
            + ("one_command_process()\n" if one_command else "")
            + f"load_club({str(tmp_path)!r}, use_cache=False)\nload_club({str(tmp_path)!r}, use_cache=False)\n"
            "print(gc.get_freeze_count() > 1000)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split()[-1] == str(one_command)
