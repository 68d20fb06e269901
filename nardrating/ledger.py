"""A club loaded and checked: config + journal, ready to replay.

read → validate → (sort and replay, per rating list and discipline, on demand).
"""
from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any, TypeVar

from .config import ClubConfig, RatingList, display_path, find_club, load_config
from .errors import LedgerError, Problem, did_you_mean
from .journal.model import Journal


T = TypeVar("T")
State = dict[str, Any]               # what the cache remembers of a journal file (cache.file_state)
Progress = Callable[[str], None]     # told each stage of a long read

# Appended matches up to this many are parsed and replayed again by each command
# rather than written back to the cache (writing a million-match cache costs more).
RESAVE_AFTER = 5000


def read_journal(config: ClubConfig, progress: Progress | None = None) -> tuple[Journal, list[Problem], list[State]]:
    """Read every journal file; also the state (size, time, hash) of the bytes that were read."""
    from .errors import unreadable
    from .journal.reader import read_csv_journal, read_toml_journal
    from .journal.identities import apply_identities
    from .journal.validate import finish_players, validate
    from .safefile import read_regular

    journal = Journal()
    problems: list[Problem] = []
    states: list[State] = []
    for path in config.journal_paths():
        label = display_path(path)
        try:
            raw, stat = read_regular(path)  # a FIFO, device or folder is refused at once, never read
        except FileNotFoundError:
            problems.append(Problem(label, None, "journal file not found; create it (`nardrating init` makes an empty one) "
                                    "or fix [club] journal in nardrating.toml"))
            continue
        except OSError as exc:
            problems.append(unreadable(label, path, exc, "a journal"))
            continue
        states.append(state_of(raw, stat))
        reader = read_csv_journal if path.suffix == ".csv" else read_toml_journal
        if progress:
            progress(f"reading {label}")
        # Handed over, not kept here: the reader drops the bytes once decoded (a 50 MB file
        # would otherwise stay alive beside its text).
        handed = [raw]
        del raw
        reader(handed.pop(), path, label, journal, config.club.default_discipline, problems)
    finish_players(journal)
    problems += apply_identities(journal)
    if progress:
        progress("checking the journal")
    problems += validate(journal, config)
    return journal, problems, states


def state_of(raw: bytes, stat: os.stat_result) -> State:
    """What the cache remembers of a journal file just read: its stat, its bytes' hash, when."""
    import time

    from .cache import file_state

    return file_state(raw, stat, time.time_ns())


def _through_cache(work: Callable[..., T], *args: Any) -> T | None:
    """The one place the cache is used: `work(*args)`, or None on any problem with it.

    The cache is derived data: a damaged, foreign or stale file, a value out of
    range or any exception while using it means the caller reads and replays
    the journal itself (NARDRATING_DEBUG=1 says why on stderr).
    """
    try:
        return work(*args)
    except Exception as exc:  # noqa: BLE001 - nothing from the cache outranks the journal
        if os.environ.get("NARDRATING_DEBUG") == "1" and not isinstance(exc, FileNotFoundError):
            import sys  # (no cache yet is the usual first run, not worth a word)

            print(f"nardrating: cache not used: {type(exc).__name__}: {exc}", file=sys.stderr)
        return None


@dataclass
class Ledger:
    config: ClubConfig
    journal: Journal
    _runs: dict[tuple[str, str, date | None], Any] = field(default_factory=dict)
    cache_token: str | None = None   # the cached snapshot this journal is, if any
    cache_lineage: list[str] = field(default_factory=list)  # snapshots it only appended to
    dirty: bool = False              # not exactly the cached snapshot: an unsaved tail, or add-match's preview
    # An unsaved tail's file states, the lineage and counts it was read with: if a full replay is
    # needed anyway (no cached result to resume), the snapshot is written anew with the tail
    # so that the result can be stored too; else every command would replay all of it again.
    tail: tuple[list[State], list[str], dict[str, int]] | None = None

    def rating(self, name: str | None = None) -> RatingList:
        return self.config.rating(name)

    def disciplines(self, rating: RatingList) -> list[str]:
        """The disciplines this list rates that the journal has entries in."""
        present = self.journal.disciplines() or [self.config.club.default_discipline]
        return [d for d in present if rating.rates(d)]

    def discipline(self, rating: RatingList, discipline: str | None) -> str:
        """The discipline a command means: --discipline, else the obvious one."""
        if discipline is not None:
            if not rating.rates(discipline):
                raise LedgerError([Problem(str(self.config.path), rating.line,
                    f"rating list {rating.name!r} does not rate {discipline!r}{did_you_mean(discipline, rating.disciplines or [])}; "
                    f"it rates {', '.join(rating.disciplines or [])}")])
            return discipline
        candidates = self.disciplines(rating)
        default = self.config.club.default_discipline
        if default in candidates or not candidates:
            return default if rating.rates(default) or not rating.disciplines else rating.disciplines[0]
        return candidates[0]

    def run(self, rating: str | RatingList | None = None, discipline: str | None = None,
            as_of: date | None = None) -> Any:
        """Replay one rating list for one discipline up to `as_of` (inclusive)."""
        import copy

        from .engines.registry import engine_class
        from .replay import replay

        rating_list = rating if isinstance(rating, RatingList) else self.rating(rating)
        discipline = self.discipline(rating_list, discipline)
        engine = engine_class(rating_list.engine)
        shown_as_of = as_of
        latest = max([self.journal.max_date] + [a.date.toordinal() for a in self.journal.adjusts])
        if engine.can_resume(rating_list.params) and (as_of is None or as_of.toordinal() >= latest):
            as_of = None  # nothing after as_of: the same replay as the whole journal
        key = (rating_list.name, discipline, as_of)
        if key not in self._runs:
            result = _through_cache(self._cached_run, engine, rating_list, discipline) if as_of is None else None
            if result is None:
                result = replay(self, rating_list, discipline, as_of)
                if as_of is None:
                    self._save_tail()
                    self._save_run(engine, rating_list, discipline, result)
            self._runs[key] = result
        result = self._runs[key]
        if shown_as_of != result.as_of:
            result = copy.copy(result)
            result.as_of = shown_as_of
        return result

    # The cache of replayed results: only for engines whose replay can resume
    # (Engine.can_resume), and only for the journal
    # exactly as cached (`dirty` marks one changed in memory, by add-match).

    def _snapshot_counts(self) -> dict[str, int]:
        j = self.journal
        return {"count": j.match_count(), "voids": len(j.voids), "adjusts": len(j.adjusts),
                "tournaments": len(j.tournaments), "players": len(j.player_codes), "identities": len(j.identities)}

    def _cached_run(self, engine: Any, rating_list: RatingList, discipline: str) -> Any:
        from . import cache
        from .replay import build_view

        if self.cache_token is None or not engine.can_resume(rating_list.params):
            return None
        meta, players, load_columns = cache.read_result(self.config, rating_list.name, discipline,
                                                        len(self.journal.player_codes))
        counts = self._snapshot_counts()
        state = engine().unpack_state(meta, players, load_columns)
        if meta.get("token") == self.cache_token and meta.get("counts") == counts and not self.dirty:
            view = build_view(self, rating_list, discipline, None, order=[])
            return engine().finish(view, state)
        old = meta["counts"]
        last_date = meta["last_date"]
        appended_only = ((meta["token"] == self.cache_token or meta["token"] in self.cache_lineage)
                         and old.get("count", 1 << 62) <= counts["count"]
                         and all(old.get(k) == counts[k] for k in ("voids", "adjusts", "tournaments", "identities"))
                         # an adjustment after the replayed matches was applied at their end, so new
                         # matches may not come before it
                         and all(a.date.toordinal() <= last_date for a in self.journal.adjusts))
        if not appended_only:
            return None
        m = self.journal.matches
        code = self.journal.discipline_codes.index.get(discipline, -1)
        new = [i for i in range(old["count"], len(m.ids)) if m.discipline[i] == code]
        if any(m.dates[i] < last_date for i in new) or any(
                m.dates[x] > m.dates[y] for x, y in zip(new, new[1:])):
            return None  # an appended match dated before what was replayed: replay it all
        result = engine().resume(build_view(self, rating_list, discipline, None, order=new), state)
        if len(new) > RESAVE_AFTER:  # a few new matches are cheaper to resume again than to store
            # (_save_run stores nothing for a journal that is not exactly its snapshot)
            self._save_run(engine, rating_list, discipline, result)
        return result

    def _save_tail(self) -> None:
        """Store the snapshot plus its unsaved tail, if the journal in memory is still exactly that
        (a preview adds an entry: then its counts differ, and nothing is stored)."""
        if self.tail is None or not self.dirty:
            return
        states, lineage, counts = self.tail
        self.tail = None
        if counts != self._snapshot_counts():
            return
        token = _save_cache(self.config, self.journal, states, lineage)
        if token is not None:
            self.cache_token, self.cache_lineage, self.dirty = token, lineage, False

    def _save_run(self, engine: Any, rating_list: RatingList, discipline: str, result: Any) -> None:
        from . import cache

        if self.cache_token is None or self.dirty or result.state is None or not engine.can_resume(rating_list.params):
            return
        try:
            meta, players, columns = engine().pack_state(result.state, self.journal)
            meta.update(token=self.cache_token, counts=self._snapshot_counts(), engine=engine.name,
                        version=engine.version)
            cache.write_result(self.config, rating_list.name, discipline, meta, players, columns)
        except OSError:
            pass


def load_club(club: Any = None, *, config_only: bool = False, use_cache: bool = True,
              progress: Progress | None = None) -> Ledger:
    """Find, read and check a club; raise LedgerError with every problem found.

    The parsed journal is cached in the user's cache directory; an unchanged journal is
    not parsed again, and one that has only grown has just its new bytes parsed.
    `progress(text)`, if given, is told each stage of a full read.
    """
    from . import cache

    config = load_config(find_club(club))
    if config_only:
        return Ledger(config, Journal())
    if use_cache and cache.enabled():
        ledger = _through_cache(_load_cached, config)
        if ledger is not None:
            return ledger
    journal, states = _read_valid_journal(config, progress)
    ledger = Ledger(config, journal)
    if cache.enabled():
        ledger.cache_token, ledger.cache_lineage = _save_cache(config, journal, states, []), []
    return ledger


def _read_valid_journal(config: ClubConfig, progress: Progress | None = None) -> tuple[Journal, list[State]]:
    """The whole journal and its files' states; LedgerError with every problem, in file order."""
    journal, problems, states = read_journal(config, progress)
    if problems:
        files = {name: k for k, name in enumerate(journal.files)}
        problems.sort(key=lambda p: (files.get(p.file, -1), p.line or 0))
        raise LedgerError(problems)
    return journal, states


def _save_cache(config: ClubConfig, journal: Journal, states: list[State], lineage: list[str],
                token: str | None = None) -> str | None:
    from . import cache

    try:
        return cache.write_journal(config, journal, states, lineage, token)
    except OSError:
        return None  # an unwritable cache directory simply means no cache


# Journals of at least this many matches are replayed in parallel by `recalc` (see replay_all),
# on a machine with at least PARALLEL_MIN_CORES cores of which two are idle. Forked children
# start with the parent's memory (0.4-1 GB for a million matches): on two busy cores their
# copy-on-write doubled the system time and forked recalc was 1.1-1.2x slower than serial
# (README, Performance). NARDRATING_PARALLEL=1 forks whatever the cores, =0 never.
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
    config = load_config(find_club(club))
    journal, states = _read_valid_journal(config, progress)
    _compact(journal)
    ledger = Ledger(config, journal)
    jobs = [(rating, discipline) for rating in config.ratings.values() for discipline in ledger.disciplines(rating)]
    done: dict[int, int] = {}
    if not cache.enabled():
        pass
    elif parallel_pays(len(journal.matches)):
        token = cache.new_token()
        ledger.cache_token = token
        children = [_fork(lambda: _save_cache(config, journal, states, [], token) and 0)]
        children += [_fork(functools.partial(_standings_count, ledger, *jobs[k])) for k in range(1, len(jobs))]
        if jobs:
            progress(f"replaying {jobs[0][0].name} ({jobs[0][1]}) and the rest in parallel")
            done[0] = len(ledger.run(*jobs[0]).standings)
        results = [_join(child) for child in children]
        if results[0] is None:  # the journal's cache was not written by the child: write it here
            ledger.cache_token = _save_cache(config, journal, states, [], token)
        done.update({k: n for k, n in enumerate(results[1:], start=1) if n is not None})
    else:
        ledger.cache_token = _save_cache(config, journal, states, [])
    for k, (rating, discipline) in enumerate(jobs):
        if k not in done:
            progress(f"replaying {rating.name} ({discipline})")
            done[k] = len(ledger.run(rating, discipline).standings)
            ledger._runs.clear()  # stored in the cache; kept, it would only add to the next replay's memory
    return ledger, [(rating, discipline, done[k]) for k, (rating, discipline) in enumerate(jobs)]


def _standings_count(ledger: Ledger, rating: RatingList, discipline: str) -> int:
    return len(ledger.run(rating, discipline).standings)


def _compact(journal: Journal) -> None:
    """Hold a freshly read journal in less memory while it is replayed: its match ids as one
    blob, and no set of them (the bulk read's check of duplicates is done)."""
    from .journal.model import IdColumn

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


def _load_cached(config: ClubConfig) -> Ledger | None:
    """The club from the cache, plus anything appended since; None (or any exception) to read it all again."""
    from . import cache

    manifest, journal, grown = cache.load(config)
    if not grown:
        ledger = Ledger(config, journal)
        ledger.cache_token, ledger.cache_lineage = manifest["token"], list(manifest["lineage"])
        return ledger
    from .journal.identities import apply_identities
    from .journal.reader import read_csv_journal, read_toml_journal
    from .journal.validate import finish_players, validate

    states = list(manifest["states"])
    problems: list[Problem] = []
    others_grew = False
    last_file = len(config.journal_paths()) - 1
    for k, old, raw, stat, seen_ns in grown:
        shape = _shape(journal)
        latest = _latest_after(journal, k) if k != last_file else 0  # of the later files' entries
        path = config.journal_paths()[k]
        states[k] = cache.file_state(raw, stat, seen_ns)
        tail = raw[old["size"]:]
        match_offset = manifest["file_matches"][k]  # for ids derived from a match's position
        first_match = len(journal.matches)
        entries_before = (len(journal.players), len(journal.tournaments), len(journal.voids), len(journal.adjusts),
                          len(journal.identities))
        label = journal.files[k]
        if path.suffix == ".csv":
            header = raw[: raw.find(b"\n") + 1]
            read_csv_journal(header + tail, path, label, journal, config.club.default_discipline, problems,
                             source=k, line_offset=old["lines"] - 1, match_offset=match_offset)
        else:
            read_toml_journal(tail, path, label, journal, config.club.default_discipline, problems,
                              source=k, line_offset=old["lines"], match_offset=match_offset)
        if problems:
            return None  # let a full read report them, with the whole file in view
        finish_players(journal)
        problems += apply_identities(journal)
        if problems:
            return None
        if k != last_file and not _appended_in_place(journal, shape, first_match, latest):
            return None
        others_grew = others_grew or entries_before != (len(journal.players), len(journal.tournaments),
                                         len(journal.voids), len(journal.adjusts), len(journal.identities))
        problems += validate(journal, config, 0 if others_grew else first_match)
        if problems:
            return None
    ledger = Ledger(config, journal)
    if journal.match_count() - manifest["count"] <= RESAVE_AFTER and not others_grew:
        # Keep the snapshot: the next command parses these few new bytes again, cheaply.
        ledger.cache_token, ledger.cache_lineage = manifest["token"], list(manifest["lineage"])
        ledger.dirty = True  # the journal is the snapshot plus a tail: results are not stored
        ledger.tail = (states, [*manifest["lineage"], manifest["token"]], ledger._snapshot_counts())
        return ledger
    lineage = [*manifest["lineage"], manifest["token"]]
    ledger.cache_token, ledger.cache_lineage = _save_cache(config, journal, states, lineage), lineage
    return ledger


# An append to a journal file that is not the last one: a full read puts its new matches before
# the next files' entries, the cache after every match it holds. Both replay orders (by date,
# then journal order) and every seq comparison agree only when the new entries are matches dated
# after every entry of the later files (entries of this and earlier files come first either way),
# and they name no new player, discipline or tournament (whose codes and order would differ).
# Anything else: a full read.

def _latest_after(journal: Journal, k: int) -> int:
    """The latest date (ordinal) of any match, adjustment, void or tournament in files after file k."""
    from itertools import compress

    m = journal.matches
    later = set(journal.files[k + 1:])
    return max([max(compress(m.dates, map(k.__lt__, m.source)), default=0),  # streamed: a million dates
                *(a.date.toordinal() for a in journal.adjusts if a.file in later),
                *(v.date.toordinal() for v in journal.voids if v.date is not None and v.file in later),
                *(d.toordinal() for t in journal.tournaments.values() if t.file in later
                  for d in (t.start, t.end) if d is not None)])


def _shape(journal: Journal) -> tuple[int, ...]:
    return (len(journal.players), len(journal.tournaments), len(journal.voids), len(journal.adjusts),
            len(journal.player_codes), len(journal.discipline_codes), len(journal.tournament_codes),
            len(journal.csv_named), len(journal.identities))


def _appended_in_place(journal: Journal, shape: tuple[int, ...], first_match: int, latest: int) -> bool:
    """Whether the entries read from a grown file at first_match on keep a full read's order."""
    dates = journal.matches.dates
    return _shape(journal) == shape and all(dates[i] > latest for i in range(first_match, len(dates)))
