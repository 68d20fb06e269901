"""When the cache is reused: a cached journal plus what was appended to its files since, and a
cached result resumed over the matches appended since. Anything else: the caller reads or replays it all."""
from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Any, Protocol

# Appended matches up to this many are not written back to the cache as a new snapshot, but kept
# as a record in its manifest (cachetail.py), and replayed again by each command.
from ..datarecords import datarecord
from .cachetail import RESAVE_AFTER

if TYPE_CHECKING:
    from ..config import ClubConfig, RatingList
    from ..errors import Problem
    from ..journal.model import Journal
    from .cachegrowth import State
    from .cachetail import Base


class CachedLedger(Protocol):
    """What resuming a cached result asks of the ledger (replay/ledger.py), which calls it."""

    config: ClubConfig
    journal: Journal
    cache_token: str | None
    cache_lineage: list[str]
    dirty: bool

    def snapshot_counts(self) -> dict[str, int]: ...

    def save_run(self, engine: Any, rating_list: RatingList, discipline: str, result: Any) -> None: ...


@datarecord
class Cached:
    """A journal read through the cache: the snapshot it is (token, lineage), and if it has an
    unsaved tail (matches appended since, parsed now or applied from the manifest's record),
    that tail's file states and lineage. `base`: the snapshot as loaded (cachetail.Base);
    `states`: the journal files' states the journal in memory was read from."""

    journal: Journal
    token: str | None
    lineage: list[str]
    tail: tuple[list[State], list[str]] | None = None
    base: Base | None = None
    states: list[State] | None = None


def cached_journal(config: ClubConfig) -> Cached | None:
    """The journal from the cache, plus anything appended since; None (or any exception) to read it all again."""
    from . import cache, cachetail

    manifest, journal, grown, (base, record) = cache.load(config)
    lineage = [*manifest["lineage"], manifest["token"]]
    states = list((record or manifest)["states"])
    if not grown:
        if record is None:
            return Cached(journal, manifest["token"], list(manifest["lineage"]), base=base, states=states)
        return Cached(journal, manifest["token"], list(manifest["lineage"]), tail=(states, lineage), base=base,
                      states=states)
    from ..journal.identities import apply_identities
    from ..journal.csvjournal import read_csv_journal
    from ..journal.validate import finish_players, validate

    problems: list[Problem] = []
    others_grew = False
    last_file = len(config.journal_paths()) - 1
    in_record = cachetail.rows_per_file(record, len(states))
    for k, old, raw, stat, seen_ns in grown:
        shape = _shape(journal)
        latest = _latest_after(journal, k) if k != last_file else 0  # of the later files' entries
        path = config.journal_paths()[k]
        states[k] = cache.file_state(raw, stat, seen_ns)
        tail = raw[old["size"]:]
        # (for ids derived from a match's position)
        match_offset = manifest["file_matches"][k] + in_record[k]
        first_match = journal.match_count()
        entries_before = (len(journal.players), len(journal.tournaments), len(journal.voids), len(journal.adjusts),
                          len(journal.identities), len(journal.player_edits), len(journal.rounds), len(journal.changes))
        label = journal.files[k]
        if path.suffix == ".csv":
            header = raw[: raw.find(b"\n") + 1]
            read_csv_journal(header + tail, path, label, journal, config.club.default_discipline, problems,
                             source=k, line_offset=old["lines"] - 1, match_offset=match_offset)
        else:
            from ..journal.reader import read_toml_journal  # (the entry models, and pydantic, only for a TOML file)

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
                                         len(journal.voids), len(journal.adjusts), len(journal.identities),
                                         len(journal.player_edits), len(journal.rounds), len(journal.changes))
        problems += validate(journal, config, 0 if others_grew else first_match)
        if problems:
            return None
    if journal.match_count() - manifest["count"] <= RESAVE_AFTER and not others_grew:
        # Keep the snapshot: the journal is the snapshot plus a tail (dirty: results are not
        # stored), whose rows the manifest keeps for the next command (cachetail.py).
        found = cachetail.record_of(journal, base, manifest["token"], states)
        if found is not None:
            cachetail.save(config, manifest["token"], found)
        return Cached(journal, manifest["token"], list(manifest["lineage"]), tail=(states, lineage), base=base,
                      states=states)
    token = cache.save_journal(config, journal, states, lineage)
    return Cached(journal, token, lineage, base=None if token is None else cachetail.base_of(journal), states=states)


# An append to a journal file that is not the last one: a full read puts its new matches before
# the next files' entries, the cache after every match it holds. Both replay orders (by date,
# then journal order) and every seq comparison agree only when the new entries are matches dated
# after every entry of the later files (entries of this and earlier files come first either way),
# and they name no new player, discipline or tournament (whose codes and order would differ).
# Anything else: a full read.

def _latest_after(journal: Journal, k: int) -> int:
    """The latest date (ordinal) of any match, adjustment, void or tournament in files after file k."""
    from ..journal.columns import latest_after

    m = journal.matches_for(0)   # (as kept: a mapped column and its appended rows are read apart)
    later = set(journal.files[k + 1:])
    return max([latest_after(m.dates, m.source, k),
                *(a.date.toordinal() for a in journal.adjusts if a.file in later),
                *(v.date.toordinal() for v in journal.voids if v.date is not None and v.file in later),
                *(d.toordinal() for t in journal.tournaments.values() if t.file in later
                  for d in (t.start, t.end) if d is not None)])


def keeps_full_read_order(journal: Journal, k: int) -> Callable[[int], bool]:
    """Before entries are read into `journal` as appended to file k (of `files` files): a test of
    whether those read from match `first_match` on keep a full read's order (see above)."""
    if k == len(journal.files) - 1:
        return lambda first_match: True
    shape, latest = _shape(journal), _latest_after(journal, k)
    return lambda first_match: _appended_in_place(journal, shape, first_match, latest)


def _shape(journal: Journal) -> tuple[int, ...]:
    return (len(journal.players), len(journal.tournaments), len(journal.voids), len(journal.adjusts),
            len(journal.player_codes), len(journal.discipline_codes), len(journal.tournament_codes),
            len(journal.csv_named), len(journal.identities), len(journal.lists), len(journal.player_edits),
            len(journal.rounds), len(journal.changes))


def _appended_in_place(journal: Journal, shape: tuple[int, ...], first_match: int, latest: int) -> bool:
    """Whether the entries read from a grown file at first_match on keep a full read's order."""
    dates = journal.matches_for(journal.match_count() - first_match).dates
    return _shape(journal) == shape and all(dates[i] > latest for i in range(first_match, len(dates)))


def resumed_result(ledger: CachedLedger, engine: Any, rating_list: RatingList, discipline: str,
                   as_of: date | None = None) -> Any:
    """The cached result of this list and discipline, resumed over matches appended since; None to
    replay. `as_of`: a date on or after every entry, where the list's standings read it (Ledger.run)."""
    from ..collector import collector_paused
    from . import cacheresults
    from .view import build_view

    if ledger.cache_token is None or not engine.can_cache(rating_list.params):
        return None
    meta, players, load_columns = cacheresults.read_result(ledger.config, rating_list.name, discipline,
                                                           len(ledger.journal.player_codes))
    counts = ledger.snapshot_counts()
    exact = meta.get("token") == ledger.cache_token and meta.get("counts") == counts and not ledger.dirty
    moot = _moot(engine)
    since_snapshot = meta.get("token") in (ledger.cache_token, *ledger.cache_lineage)   # (only appended to since)
    if not exact and moot and not ledger.dirty and since_snapshot:
        exact = _counted(meta.get("counts"), moot) == _counted(counts, moot)   # only entries that cannot move it since
    if not exact and not engine.can_resume(rating_list.params):
        return None   # stored for the journal as it was, and it has changed since: replay it
    state = engine().unpack_state(meta, players, load_columns)
    if exact:
        view = build_view(ledger, rating_list, discipline, as_of, order=[])
        with collector_paused():  # a standing per player, kept with the result: none in a cycle (collector.py)
            return engine().finish(view, state)
    old = meta["counts"]
    last_date = meta["last_date"]
    appended_only = (since_snapshot
                     and old.get("count", 1 << 62) <= counts["count"]
                     and all(old.get(k) == counts[k] for k in ("voids", "adjusts", "tournaments", "identities", "edits")
                             if k not in moot)
                     # an adjustment after the replayed matches was applied at their end, so new
                     # matches may not come before it
                     and all(a.date.toordinal() <= last_date for a in ledger.journal.adjusts))
    if not appended_only:
        return None
    m = ledger.journal.matches_for(counts["count"] - old["count"])
    code = ledger.journal.discipline_codes.index.get(discipline, -1)
    new = [i for i in range(old["count"], len(m.ids)) if m.discipline[i] == code]
    if any(m.dates[i] < last_date for i in new) or any(
            m.dates[x] > m.dates[y] for x, y in zip(new, new[1:])) or any(
            "amends" in m.extra.get(i, ()) for i in new):
        # an appended match dated before what was replayed, or one that takes the place of the
        # match it amends (replay order: reader.amended_seq), maybe before the end: replay it all
        return None
    with collector_paused():  # (as finish above)
        result = engine().resume(build_view(ledger, rating_list, discipline, as_of, order=new), state)
    if len(new) > RESAVE_AFTER:  # a few new matches are cheaper to resume again than to store
        # (save_run stores nothing for a journal that is not exactly its snapshot)
        ledger.save_run(engine, rating_list, discipline, result)
    return result


def _moot(engine: Any) -> tuple[str, ...]:
    """The snapshot counts of entries that cannot move this engine's lists: [[edit-player]]s where it
    reads no player's facts; [[tournament]]s where it reads no tournament's end (a match names only
    a tournament the journal has already: a new one is named by none of the matches replayed)."""
    return (*(() if engine.reads_player_facts else ("edits",)), *(() if engine.tournament_ends else ("tournaments",)))


def _counted(counts: Any, moot: tuple[str, ...]) -> Any:
    """A snapshot's counts (Ledger.snapshot_counts) without those of entries that cannot move the list."""
    return {k: v for k, v in counts.items() if k not in moot} if isinstance(counts, dict) else counts
