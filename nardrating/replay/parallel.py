"""`recalc`: read everything, cache it anew, and replay every rating list and discipline,
in forked processes where that measurably pays (parallel_pays)."""
from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

from ..collector import kept_to_exit
from ..config import RatingList, find_club
from ..i18n import _
from ..journal.model import Journal
from .ledger import Ledger
from .loader import Progress, checked_config, read_valid_journal


# Journals of at least this many matches are replayed in parallel by `recalc` (see replay_all),
# on a machine with at least PARALLEL_MIN_CORES cores of which two are idle. Forked children
# start with the parent's memory (0.4-1 GB for a million matches): on two busy cores their
# copy-on-write doubled the system time and forked recalc was 1.1-1.2x slower than serial
# (docs/performance.md). NARDRATING_PARALLEL=1 forks whatever the cores, =0 never.
PARALLEL_AFTER = int(os.environ.get("NARDRATING_PARALLEL_AFTER", 200_000))
PARALLEL_MIN_CORES = 4


def parallel_pays(matches: int) -> bool:
    """Whether recalc's replays of this many matches run in forked processes here."""
    forced = os.environ.get("NARDRATING_PARALLEL", "")
    if matches < PARALLEL_AFTER or not hasattr(os, "fork") or forced == "0":
        return False
    if forced == "1":
        return True
    cores = os.cpu_count() or 1
    try:
        idle = cores - os.getloadavg()[0]
    except (AttributeError, OSError):
        idle = cores
    return cores >= PARALLEL_MIN_CORES and idle >= 2


def replay_all(club: Any = None, progress: Progress | None = None) -> tuple[Ledger, list[tuple[RatingList, str, int]]]:
    """Read everything, cache it anew, and replay every rating list and discipline.

    Returns the ledger and (list, discipline, number of players) per replay. The
    replays are independent, and so is writing the journal's cache: on a big journal
    and a machine with several cores they run in forked processes, each writing its
    own part of the cache; any that fails is simply done again here.
    """
    from . import cache

    progress = progress or (lambda text: None)
    # The config as its last check left it (it is keyed by the config's text and the program): the
    # engines read their parameters by attribute only, as on the daily commands.
    config = checked_config(find_club(club), cache.enabled())
    journal, states = read_valid_journal(config, progress)
    _compact(journal)
    ledger = Ledger(config, journal)
    jobs = [(rating, discipline) for rating in config.ratings.values() for discipline in ledger.disciplines(rating)]
    done: dict[int, int] = {}
    if not cache.enabled():
        pass
    elif parallel_pays(len(journal.matches)):
        token = cache.new_token()
        ledger.cache_token = token
        children = [_fork(lambda: cache.save_journal(config, journal, states, [], token) and 0)]
        children += [_fork(functools.partial(_standings_count, ledger, *jobs[k])) for k in range(1, len(jobs))]
        if jobs:
            progress(_("replaying {rating} ({discipline}) and the rest in parallel").format(
                rating=jobs[0][0].name, discipline=jobs[0][1]))
            done[0] = _standings_count(ledger, *jobs[0])
        results = [_join(child) for child in children]
        if results[0] is None:  # the journal's cache was not written by the child: write it here
            ledger.cache_token = cache.save_journal(config, journal, states, [], token)
        done.update({k: n for k, n in enumerate(results[1:], start=1) if n is not None})
    else:
        ledger.cache_token = cache.save_journal(config, journal, states, [])
    last = len(jobs) - 1
    for k, (rating, discipline) in enumerate(jobs):
        if k not in done:
            progress(_("replaying {rating} ({discipline})").format(rating=rating.name, discipline=discipline))
            done[k] = _standings_count(ledger, rating, discipline)
            if k < last:
                ledger._runs.clear()  # stored in the cache; kept, it would only add to the next replay's memory
    # The last one: the command line's process keeps it to its end, not freed record by record
    # (a tenth of a big recalc's CPU: collector.py).
    if not kept_to_exit(ledger):
        ledger._runs.clear()
    return ledger, [(rating, discipline, done[k]) for k, (rating, discipline) in enumerate(jobs)]


def _standings_count(ledger: Ledger, rating: RatingList, discipline: str) -> int:
    """One list's replay; its number of players. A list whose replay the cache cannot keep (mfsnb,
    fide) is replayed as of the day `leaderboard` reads by default, and its standings are kept
    (cachestandings.py): the first leaderboard after a recalc reads them, not a replay of its own."""
    from ..engines.registry import engine_class

    if engine_class(rating.engine).can_cache(rating.params):
        return len(ledger.run(rating, discipline).standings)
    from ..reports.asof import as_of

    return len(ledger.standings_run(rating, discipline, as_of(ledger, None).day).standings)


def _compact(journal: Journal) -> None:
    """Hold a freshly read journal in less memory while it is replayed: its match ids as one
    blob, and no set of them (the bulk read's check of duplicates is done)."""
    from ..journal.columns import IdColumn

    if not isinstance(journal.matches.ids, IdColumn):
        journal.matches.ids = IdColumn.of(journal.matches.ids)  # type: ignore[assignment]  # a sequence of str
    journal._id_set = None


def _fork(work: Callable[[], Any]) -> tuple[int, int]:
    """Run work() in a child process; (pid, pipe) to read its integer answer from."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: do the work, report a number, leave without cleanup
        code = 1
        try:
            os.close(read_end)
            answer = work()
            os.write(write_end, str(int(answer)).encode())
            code = 0
        except BaseException:  # noqa: BLE001 - the parent does this work again itself
            pass
        finally:
            os._exit(code)
    os.close(write_end)
    return pid, read_end


def _join(child: tuple[int, int]) -> int | None:
    pid, read_end = child
    with os.fdopen(read_end, "rb") as pipe:
        answer = pipe.read()
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0 or not answer:
        return None
    return int(answer)
