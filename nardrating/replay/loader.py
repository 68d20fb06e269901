"""Find, read and check a club: config + journal, through the cache where it is sound.

read (journal/reader) → identities → validate → a Ledger; or the cached journal plus its
appended tail (resume.cached_journal), or a full read on any doubt about the cache.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import ClubConfig, display_path, find_club, load_config, near_name
from ..errors import LedgerError, Problem
from ..i18n import N_, _
from ..journal.model import Journal
from .ledger import Ledger, through_cache

if TYPE_CHECKING:
    from .cachegrowth import State

Progress = Callable[[str], None]     # told each stage of a long read


def load_club(club: Any = None, *, config_only: bool = False, use_cache: bool = True,
              progress: Progress | None = None, light: bool = False) -> Ledger:
    """Find, read and check a club; raise LedgerError with every problem found.

    The parsed journal is cached in the user's cache directory; an unchanged journal is
    not parsed again, and one that has only grown has just its new bytes parsed.
    `progress(text)`, if given, is told each stage of a full read. `light`: a command that may
    take the checked config from the cache (replay/configcache.py) instead of checking it again:
    a read-only command of standings, history, reports and explanations, recalc, and the writers.
    """
    from . import cache
    from .resume import cached_journal

    config = checked_config(find_club(club), light and use_cache and cache.enabled())
    if config_only:
        return Ledger(config, Journal())
    if use_cache and cache.enabled():
        cached = through_cache(cached_journal, config)
        if cached is not None:
            ledger = Ledger(config, cached.journal, cache_token=cached.token, cache_lineage=cached.lineage,
                            cache_base=cached.base, cache_states=cached.states)
            if cached.tail is not None:
                ledger.dirty = True  # the snapshot plus a tail: results are not stored
                ledger.tail = (*cached.tail, ledger.snapshot_counts())
            return ledger
    journal, states = read_valid_journal(config, progress)
    ledger = Ledger(config, journal)
    if cache.enabled():
        ledger.cache_token, ledger.cache_lineage = cache.save_journal(config, journal, states, []), []
        if ledger.cache_token is not None:
            from .cachetail import base_of

            ledger.cache_base, ledger.cache_states = base_of(journal), states
    return ledger


def checked_config(path: Any, light: bool) -> ClubConfig:
    """The club's config, checked (or, `light`, as the cache kept it from its last check)."""
    if not light:
        return load_config(path)
    from . import configcache

    config = through_cache(configcache.load, path)
    if config is None:
        config = load_config(path)
        through_cache(configcache.save, config)
    return config


def read_valid_journal(config: ClubConfig, progress: Progress | None = None) -> tuple[Journal, list[State]]:
    """The whole journal and its files' states; LedgerError with every problem, in file order."""
    journal, problems, states = read_journal(config, progress)
    if problems:
        files = {name: k for k, name in enumerate(journal.files)}
        problems.sort(key=lambda p: (files.get(p.file, -1), p.line or 0))
        raise LedgerError(problems)
    return journal, states


def read_journal(config: ClubConfig, progress: Progress | None = None, *,
                 replaced: Mapping[Path, bytes] | None = None) -> tuple[Journal, list[Problem], list[State]]:
    """Read every journal file; also the state (size, time, hash) of the bytes that were read.

    `replaced`: the bytes to read instead of a file's (a writer's check of the journal with its
    entries appended, in memory); no state is taken of those."""
    from ..errors import unreadable
    from ..journal.identities import apply_identities
    from ..journal.csvjournal import read_csv_journal
    from ..journal.validate import finish_players, validate
    from ..safefile import read_regular

    journal = Journal()
    problems: list[Problem] = []
    states: list[State] = []
    stat: os.stat_result | None
    for path in config.journal_paths():
        label = display_path(path)
        try:
            if replaced is not None and path in replaced:
                raw, stat = replaced[path], None
            else:
                raw, stat = read_regular(path)  # a FIFO, device or folder is refused at once, never read
        except FileNotFoundError:
            problems.append(Problem(label, None, _not_found(path, config.folder)))
            continue
        except OSError as exc:
            problems.append(unreadable(label, path, exc, N_("a journal")))
            continue
        if stat is not None:
            states.append(state_of(raw, stat))
        if path.suffix == ".csv":
            reader = read_csv_journal
        else:  # (the entry models, and pydantic, only for a TOML file)
            from ..journal.reader import read_toml_journal as reader
        if progress:
            progress(_("reading {file}").format(file=label))
        # Handed over, not kept here: the reader drops the bytes once decoded (a 50 MB file
        # would otherwise stay alive beside its text).
        handed = [raw]
        del raw
        reader(handed.pop(), path, label, journal, config.club.default_discipline, problems)
    finish_players(journal)
    problems += apply_identities(journal)
    if progress:
        progress(_("checking the journal"))
    problems += validate(journal, config)
    return journal, problems, states


def state_of(raw: bytes, stat: os.stat_result) -> State:
    """What the cache remembers of a journal file just read: its stat, its bytes' hash, when."""
    import time

    from .cachegrowth import file_state

    return file_state(raw, stat, time.time_ns())


def _not_found(path: Path, folder: Path) -> str:
    """A journal file missing; written with Windows's folder separator (a club folder sent from
    Windows: data\\games.csv), which other systems take as part of a name, where the file is there."""
    if os.sep != "\\" and "\\" in str(path) and Path(str(path).replace("\\", "/")).is_file():
        return _("journal file not found: its path has \\ between folders, which only Windows reads so; write "
                 "{fixed} in [club] journal in nardrating.toml (/ works on every system)").format(
            fixed=os.path.relpath(path, folder).replace("\\", "/"))
    near = near_name(path)
    if near is not None:   # Journal.TOML, journal.toml.txt (Windows hides the .txt an editor added)
        return _("journal file not found; its folder has {near}: rename it {name}, or name it in [club] journal "
                 "in nardrating.toml").format(near=near, name=path.name)
    return _("journal file not found; create it (`nardrating init` makes an empty one) or fix [club] journal in "
             "nardrating.toml")
