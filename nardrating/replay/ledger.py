"""A club loaded and checked: config + journal, replayed per rating list and discipline on demand."""
from __future__ import annotations

import os
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Any, TypeVar

from ..datarecords import datarecord, field
from ..config import ClubConfig, RatingList
from ..errors import LedgerError, Problem, did_you_mean
from ..i18n import _
from ..journal.model import Journal

if TYPE_CHECKING:
    from .cachegrowth import State
    from .cachetail import Base, Snapshot

T = TypeVar("T")


def through_cache(work: Callable[..., T], *args: Any) -> T | None:
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


@datarecord
class Ledger:
    """A club loaded and checked: its config and journal, the replays made so far, its state in the cache."""

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
    # Of a journal read through the cache: the snapshot as loaded (before any tail) and the journal
    # files' states the journal in memory was read from; a writer records its append with them.
    cache_base: Base | None = None
    cache_states: list[State] | None = None
    # Results replayed in full while the journal was not exactly its snapshot (add-match's preview,
    # with no cached result to resume): a writer stores them once its append has landed.
    unsaved: list[tuple[Any, RatingList, str, Any]] = field(default_factory=list)
    # Of a journal a writer appended to in memory: what it was (kept_key), the day its
    # lists kept as standings were read as of, and its last entry's date (cachestandings.py:
    # after_appended_match); and the standings worked out from those for the preview, kept by the write.
    appended_to: tuple[Snapshot, date, date | None] | None = None
    appended_runs: dict[tuple[str, str, date | None], Any] = field(default_factory=dict)
    # (list, discipline): the kept standings those were worked out from (cachestandings.Base)
    standings_bases: dict[tuple[str, str], Any] = field(default_factory=dict)
    _tail_key: tuple[dict[str, int], str | None] | None = None   # (counts, key): kept_key's last answer

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
                    _("rating list {name!r} does not rate {discipline!r}{hint}; it rates {disciplines}").format(
                        name=rating.name, discipline=discipline, hint=did_you_mean(discipline, rating.disciplines or []),
                        disciplines=", ".join(rating.disciplines or [])))])
            return discipline
        candidates = self.disciplines(rating)
        default = self.config.club.default_discipline
        if default in candidates or not candidates:
            return default if rating.rates(default) or not rating.disciplines else rating.disciplines[0]
        return candidates[0]

    def run(self, rating: str | RatingList | None = None, discipline: str | None = None,
            as_of: date | None = None, standings_only: bool = False) -> Any:
        """Replay one rating list for one discipline up to `as_of` (inclusive). `standings_only`: a
        result read for its standings only (Engine.run_standings); a replay of it is kept for
        those reads alone, and any other read of the list replays it in full."""
        import copy

        from ..engines.lines import NoHistory
        from ..engines.registry import engine_class
        from .cacheadjusts import adjust_ordinals
        from .resume import resumed_result
        from .view import replay

        rating_list = rating if isinstance(rating, RatingList) else self.rating(rating)
        discipline = self.discipline(rating_list, discipline)
        engine = engine_class(rating_list.engine)
        shown_as_of = as_of
        latest = max([self.journal.max_date] + adjust_ordinals(self.journal.adjusts)
                     + (self.journal.tournament_ends() if engine.tournament_ends else []))
        whole = as_of is None or as_of.toordinal() >= latest   # nothing after as_of: every entry replayed
        if engine.can_resume(rating_list.params) and whole and not engine.dated_finish:
            as_of = None  # the same replay as the whole journal
        # The cache holds the whole journal's replay; it is finished as of the date asked where
        # that matters (Glicko's deviations grown to it: Engine.dated_finish) or the list is not
        # resumed (Engine.cacheable).
        cached = whole and engine.can_cache(rating_list.params)
        key = (rating_list.name, discipline, as_of)
        kept = self._runs.get(key)
        if kept is not None and not standings_only and isinstance(kept.events, NoHistory):
            del self._runs[key]   # (a replay for the standings alone: any other read replays in full)
        if key not in self._runs:
            result = through_cache(resumed_result, self, engine, rating_list, discipline, as_of) if cached else None
            if result is None:
                result = replay(self, rating_list, discipline, as_of, standings_only and not cached)
                if whole:
                    self._save_tail()
                if cached:
                    self.save_run(engine, rating_list, discipline, result)
                    if self.dirty and engine().cached_state(result) is not None:
                        self.unsaved.append((engine, rating_list, discipline, result))
            self._runs[key] = result
        result = self._runs[key]
        if shown_as_of != result.as_of:
            result = copy.copy(result)
            result.as_of = shown_as_of
        return result

    def standings_run(self, rating: str | RatingList | None = None, discipline: str | None = None,
                      as_of: date | None = None) -> Any:
        """run()'s result where only its standings are read (the leaderboard): of a list whose replay
        the cache cannot keep, the standings kept beside the snapshot (cachestandings.py) when they
        are for the journal exactly as it is; else run(), and its standings kept."""
        from ..engines.registry import engine_class
        from . import cachestandings

        rating_list = rating if isinstance(rating, RatingList) else self.rating(rating)
        discipline = self.discipline(rating_list, discipline)
        engine = engine_class(rating_list.engine)
        if engine.can_cache(rating_list.params):
            return self.run(rating_list, discipline, as_of)
        kept = through_cache(cachestandings.load, self, engine, rating_list, discipline, as_of)
        if kept is None:
            kept = self.run(rating_list, discipline, as_of, standings_only=True)
            through_cache(cachestandings.save, self, engine, rating_list, discipline, as_of, kept)
        return kept

    def ratings_on(self, rating: str | RatingList | None, discipline: str | None, day: date) -> dict[str, Any]:
        """Each player's rating on the list as of `day` (a tournament's start list: the day before it
        starts): kept while only later matches are appended (cachedated.py), else run()'s, then kept."""
        from ..engines.registry import engine_class
        from . import cachedated

        rating_list = rating if isinstance(rating, RatingList) else self.rating(rating)
        discipline = self.discipline(rating_list, discipline)
        engine = engine_class(rating_list.engine)
        kept = through_cache(cachedated.load, self, engine, rating_list, discipline, day)
        if kept is None:
            kept = {p: s.rating for p, s in self.run(rating_list, discipline, day, standings_only=True).standings.items()}
            through_cache(cachedated.save, self, engine, rating_list, discipline, day, kept)
        return kept

    def history_run(self, rating: str | RatingList | None, discipline: str | None, as_of: date | None,
                    players: list[str], *, opponents: bool = False, standings: bool = False) -> Any:
        """run()'s result where only these players' histories are read (`history`; with `opponents`,
        those of everyone they played too, and with `standings` the standings: `player`): of a list
        whose replay the cache cannot keep, the histories (and standings) kept beside the snapshot
        (cachehistory.py, cachestandings.py) when they are for the journal exactly as it is; else
        run(), and every player's history and the standings kept (the next command reads them)."""
        from ..engines.registry import engine_class
        from . import cachehistory, cachestandings

        rating_list = rating if isinstance(rating, RatingList) else self.rating(rating)
        discipline = self.discipline(rating_list, discipline)
        engine = engine_class(rating_list.engine)
        if engine.can_cache(rating_list.params):
            return self.run(rating_list, discipline, as_of)
        kept = through_cache(cachehistory.load, self, engine, rating_list, discipline, as_of, players, opponents)
        if kept is not None and standings:
            table = through_cache(cachestandings.load, self, engine, rating_list, discipline, as_of)
            if table is not None:
                table.events = kept.events
            kept = table
        if kept is None:
            kept = self.run(rating_list, discipline, as_of)
            through_cache(cachehistory.save, self, engine, rating_list, discipline, as_of, kept)
            through_cache(cachestandings.save, self, engine, rating_list, discipline, as_of, kept)
        return kept

    # The cache of replayed results (resume.resumed_result): only for engines whose replay can
    # be stored (Engine.can_cache: resumed over appended matches where Engine.can_resume), and
    # only for the journal exactly as cached (`dirty` marks one changed in memory, by add-match).

    def kept_key(self) -> Snapshot | None:
        """(token, counts, tail) where the journal in memory is exactly the cached snapshot (tail None)
        or the snapshot plus the matches appended since, as read from the files or the manifest's
        record (tail: their content's digest, cachetail.content_key); None where it is neither (a
        writer's entry in memory only, anything but matches appended) or nothing is cached."""
        if self.cache_token is None:
            return None
        counts = self.snapshot_counts()
        if not self.dirty:
            return self.cache_token, counts, None
        if self.tail is None or self.tail[2] != counts or self.cache_base is None:
            return None
        if self._tail_key is None or self._tail_key[0] != counts:
            from .cachetail import content_key

            self._tail_key = counts, content_key(self.journal, self.cache_base, self.cache_token)
        key = self._tail_key[1]
        return None if key is None else (self.cache_token, counts, key)

    def recorded(self, states: list[State], lineage: list[str], key: str) -> None:
        """The journal in memory is now the snapshot plus the matches a writer recorded in its manifest
        (read from files in `states`; `key`: the record's cachetail.record_key)."""
        counts = self.snapshot_counts()
        self.tail, self.cache_states, self._tail_key = (states, lineage, counts), states, (counts, key)

    def snapshot_counts(self) -> dict[str, int]:
        j = self.journal
        return {"count": j.match_count(), "voids": len(j.voids), "adjusts": len(j.adjusts),
                "tournaments": len(j.tournaments), "players": len(j.player_codes), "identities": len(j.identities),
                "edits": len(j.player_edits)}

    def _save_tail(self) -> None:
        """Store the snapshot plus its unsaved tail, if the journal in memory is still exactly that
        (a preview adds an entry: then its counts differ, and nothing is stored)."""
        from . import cache

        if self.tail is None or not self.dirty:
            return
        states, lineage, counts = self.tail
        self.tail = None
        if counts != self.snapshot_counts():
            return
        token = cache.save_journal(self.config, self.journal, states, lineage)
        if token is not None:
            from .cachetail import base_of

            self.cache_token, self.cache_lineage, self.dirty = token, lineage, False
            self.cache_base, self.cache_states = base_of(self.journal), states  # (a writer's record is of this one)

    def save_run(self, engine: Any, rating_list: RatingList, discipline: str, result: Any) -> None:
        from . import cacheresults

        if self.cache_token is None or self.dirty or not engine.can_cache(rating_list.params):
            return
        state = engine().cached_state(result)
        if state is None:
            return
        try:
            meta, players, columns = engine().pack_state(state)
            meta.update(token=self.cache_token, counts=self.snapshot_counts(), engine=engine.name,
                        version=engine.version)
            cacheresults.write_result(self.config, rating_list.name, discipline, meta, players, columns)
        except OSError:
            pass
