"""How every writing command appends: build, check, then append whole, or refuse.

Every writer builds the entry the TOML reader builds (the entry models), serialises
it, and under the club lock, on the club loaded afresh, checks that the text reads
back as the same entry and that the journal with it appended passes every check a
full read makes. Only then is it appended; anything wrong raises (LedgerError or
ActionRefused) before a byte is written.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from contextlib import nullcontext
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn, Union

from ...datarecords import datarecord
from ...config import display_path
from ...errors import ActionRefused, LedgerError, Problem
from ...i18n import _
from ..plainadjust import PlainAdjust
from ..plainmatch import PlainMatch, entry_of
from ..writer import append_block, club_lock, entry_block

if TYPE_CHECKING:
    from ...config import RatingList
    from ...replay.ledger import Ledger
    from ..entries import Entry

# An entry as its model made it, or a [[match]] the model would take as it is (plainmatch.py: no pydantic).
AnyEntry = Union["Entry", PlainMatch, PlainAdjust]

Fields = dict[str, Any]                                # an entry's fields as the command gives them
MakeFields = Callable[["Ledger", Path], Fields]        # (club loaded under the lock, target file) → fields
Check = Callable[["Ledger", AnyEntry], None]           # refuses (raises) what the command line says better
Ratings = dict[tuple[str, str], dict[str, float | None]]  # (list, discipline) → player → rating


@datarecord
class Change:
    """One player's change in one list from a new match."""
    rating: str
    discipline: str
    player: str
    before: float | None
    change: float | None
    after: float | None
    rated: bool
    reason: str | None


@datarecord
class Moved:
    """One rating of the current list that a correction changes."""
    rating: str
    discipline: str
    player: str
    before: float | None
    after: float | None


Preview = Callable[["Ledger", AnyEntry], list[Change]]   # (club after the write, last entry) → changes


class Written(NamedTuple):
    """What a write appended and what it changed."""
    entries: list[Fields]           # the entries as written
    changes: list[Change] | None    # the preview's changes (add-match: each player's), if asked
    moved: list[Moved] | None       # the ratings of the current lists that change, if compared


def target_journal(ledger: Ledger) -> Path:
    """The last TOML file of [club] journal: where new entries go."""
    tomls = [p for p in ledger.config.journal_paths() if p.suffix == ".toml"]
    if not tomls:
        raise ActionRefused(_('{config}: [club] journal lists no .toml file to append to; add one, '
                              'e.g. journal = ["matches.csv", "journal.toml"]').format(config=ledger.config.path))
    return tomls[-1]


def refuse(ledger: Ledger, message: str, entry: str | None = None) -> NoReturn:
    """A refusal about the entry to write, labelled with the file it would go to."""
    raise LedgerError([Problem(display_path(target_journal(ledger)), None, message, entry)])


# The command line's names for an entry's fields, where they are not --FIELD.
_ARGUMENTS = {("player", "id"): "ID", ("tournament", "id"): "ID", ("void", "match"): "MATCH_ID",
              ("match", "players", 0): "A", ("match", "players", 1): "B"}


def build_entry(ledger: Ledger, kind: str, fields: Fields) -> AnyEntry:
    """The entry the TOML reader would build from these fields (None: left out), or LedgerError.

    Messages name the command line's options: "--length: 5000 is not a match length; …".
    """
    try:
        return entry_of(kind, {key: value for key, value in fields.items() if value is not None})
    except ValueError as exc:   # (pydantic's ValidationError is a ValueError; pydantic is loaded if it is one)
        from pydantic import ValidationError

        from ..entries import entry_errors

        if not isinstance(exc, ValidationError):
            raise
        errors = entry_errors(exc, kind)
    label = display_path(target_journal(ledger))
    problems = []
    for loc, message in errors:
        name = _ARGUMENTS.get((kind, *loc)) or _ARGUMENTS.get((kind, *loc[:1])) or (f"--{loc[0]}" if loc else None)
        problems.append(Problem(label, None, f"{name}: {message}" if name else message))
    raise LedgerError(problems)


def serialised(ledger: Ledger, kind: str, entry: AnyEntry) -> str:
    """The entry as the TOML text to append, after checking that it reads back as the same entry,
    read as the journal's reader reads it: the plain subset in one pass, else tomllib (reader._read_toml)."""
    from ..tomlfast import read_plain
    from ..tomlsource import parse_toml

    written = entry.model_dump(exclude_defaults=True)
    block = entry_block(kind, written)
    plain = read_plain(block)
    tables = plain[0] if plain is not None else parse_toml(block, "", [])   # (None: it does not read)
    try:
        back: AnyEntry | None = entry_of(kind, tables[kind][0]) if tables is not None else None
    except (ValueError, KeyError, IndexError, TypeError):  # pydantic's errors are ValueErrors
        back = None
    if back is None or back.model_dump(exclude_defaults=True) != written:   # (a plain match or the model's: the same fields)
        refuse(ledger, _("the new [[{kind}]] would not read back as written, so nothing was written; "
                         "this is a bug, please report it with the command you ran").format(kind=kind))
    return block


def journal_after(ledger: Ledger, path: Path, kinds: Iterable[str], block: str) -> Ledger:
    """`ledger` as a full read of the journal with `block` appended would find it; LedgerError if refused.

    The block (one entry or several, of `kinds`) is read into the loaded journal as the appended
    bytes of `path`, and the journal and engine checks run as they do when a grown journal is read
    (validate.py). Where that would not give a full read's order (a file before another that holds
    entries of the same days), the whole journal is read again in memory, the block appended to
    its file. Problems of the new entries carry no line: they are not in the file.
    """
    from ...replay.ledger import Ledger
    from ...replay.loader import read_journal
    from ...replay.resume import keeps_full_read_order
    from ..identities import apply_identities
    from ..reader import read_toml_journal
    from ..validate import finish_players, validate
    from ..writer import OLD_END, appended_bytes, appended_part

    journal, config = ledger.journal, ledger.config
    source = config.journal_paths().index(path)
    label = journal.files[source]
    raw = path.read_bytes() if path.exists() else b""
    old_lines = raw.count(b"\n")
    _appendable(raw, label, kinds)
    first_match = journal.match_count()
    in_order = keeps_full_read_order(journal, source)
    problems: list[Problem] = []
    # The block always gives a match's id, so the position it would have (match_offset) is not used.
    # The lines above the block once it is appended: its entries' lines are those a read of the file finds.
    read_toml_journal(block.encode("utf-8"), path, label, journal, config.club.default_discipline, problems,
                      source=source, line_offset=old_lines + appended_part(raw[-OLD_END:], "").count(b"\n"))
    finish_players(journal)
    problems += apply_identities(journal)
    if not problems and not in_order(first_match):
        journal, problems, _cached = read_journal(config, replaced={path: appended_bytes(raw, block)})
        ledger = Ledger(config, journal)
    elif not problems:
        match = set(kinds) == {"match"}
        problems = validate(journal, config, first_match if match else journal.match_count(), others=not match)
    if problems:
        raise LedgerError([Problem(p.file, p.line if p.line is None or p.line <= old_lines else None,
                                   p.message, p.entry) for p in problems])
    ledger._runs.clear()
    ledger.dirty = True  # the new entry is in memory only: nothing computed from it may be cached
    return ledger


def _appendable(raw: bytes, label: str, kinds: Iterable[str]) -> None:
    """Refuse entries a full read would not take after the file's text: a [[player]] after
    `player = [...]` at the top of the file (TOML allows only one of the two)."""
    from ..tomlsource import root_keys

    if not raw:
        return
    above = root_keys(raw.decode("utf-8", "replace"))
    if above is None:  # the file's top does not read alone: a full read refuses it anyway
        return
    for kind in dict.fromkeys(kinds):
        if kind in above:
            raise LedgerError([Problem(label, above[kind], _(
                "{kind} is set as a value at the top of the file ({kind} = [...]), and TOML allows no "
                "[[{kind}]] table after that, so nothing was written; write those entries as [[{kind}]] "
                "tables, one per entry, then run the command again").format(kind=kind))])


def current_ratings(club: Ledger, day: date | None) -> Ratings:
    """Every list's standings (rating per player) on `day`, per (list, discipline): of a list kept as
    standings (fide, mfsnb), those kept beside the snapshot, or a replay for the standings alone."""
    found: Ratings = {}
    for rating in club.config.ratings.values():
        for discipline in club.disciplines(rating):
            run = club.standings_run(rating, discipline, day)
            found[(rating.name, discipline)] = {p: s.rating for p, s in run.standings.items()}
    return found


def what_changed(before: Ratings, after: Ratings) -> list[Moved]:
    moved = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key, {}), after.get(key, {})
        for player in sorted(set(old) | set(new)):
            x, y = old.get(player), new.get(player)
            if x is None and y is None or x is not None and y is not None and round(x, 2) == round(y, 2):
                continue
            moved.append(Moved(key[0], key[1], player, x, y))
    return moved


def write_entry(ledger: Ledger, kind: str, make_fields: MakeFields, *, check: Check | None = None,
                preview: Preview | None = None, dry_run: bool = False,
                compare: bool | Callable[[Ledger], bool] = False,
                before_append: Callable[[], None] | None = None) -> Written:
    """Build, check and append one entry; see write_entries."""
    return write_entries(ledger, [(kind, make_fields)], check=check, preview=preview, dry_run=dry_run,
                         compare=compare, before_append=before_append)


def write_entries(ledger: Ledger, makers: list[tuple[str, MakeFields]], *, check: Check | None = None,
                  preview: Preview | None = None, dry_run: bool = False,
                  compare: bool | Callable[[Ledger], bool] = False,
                  before_append: Callable[[], None] | None = None) -> Written:
    """Build, check and append entries in one atomic write.

    Under the club lock (not for a dry run) the club is loaded afresh, so the checks and the
    preview see every entry another writer appended before this one. Each of `makers` is
    (kind, make_fields). With `compare` (or when `compare(club)` says so), every rating of the
    current lists (as of the journal's last date) that differs after the write is returned.
    `before_append()`, if given, runs under the lock once every check has passed, just before the
    append (freeze-list writes its list file there); if it raises, nothing is appended.
    """
    from ...replay.ledger import through_cache
    from ...replay.loader import load_club
    from ...reports import last_entry_date
    from ...reports.asof import as_of

    path = target_journal(ledger)
    with (nullcontext() if dry_run else club_lock(ledger.config.folder)):
        current = load_club(ledger.config.path, light=True)   # (the config as its last check cached it)
        built: list[tuple[str, AnyEntry]] = []
        for kind, make_fields in makers:
            entry = build_entry(current, kind, make_fields(current, path))
            if check is not None:
                check(current, entry)
            built.append((kind, entry))
        block = "\n".join(serialised(current, kind, entry) for kind, entry in built)
        comparing = compare(current) if callable(compare) else compare
        last_before = last_entry_date(current.journal)
        before = current_ratings(current, last_before) if comparing else None
        kept_key = through_cache(current.kept_key)   # (derived data: never fails the write)
        appended_to = (kept_key, as_of(current, None).day, last_before) if kept_key is not None else None
        after = journal_after(current, path, [kind for kind, _ in built], block)
        if after is current:   # (the journal in memory grown: what it was, for the preview's standings)
            after.appended_to = appended_to
        changes = preview(after, built[-1][1]) if preview is not None else None
        moved = None
        if comparing:
            day = last_entry_date(after.journal)
            if day != last_before:  # the current lists are of the later date, before and after
                before = None
            moved = what_changed(before if before is not None else _ratings_before(ledger, day),
                                 current_ratings(after, day))
        if not dry_run:
            if before_append is not None:
                before_append()
            append_block(path, block)
            through_cache(_keep_in_cache, after, path, block)  # (derived data: never fails the write)
    return Written([entry.model_dump(exclude_defaults=True) for _, entry in built], changes, moved)


def _keep_in_cache(after: Ledger, path: Path, block: str) -> None:
    """Keep what the write read and computed in the cache, so that the command after it neither
    parses the new entries (the manifest's record of them: replay/cachetail.py) nor, where the
    preview had to replay a list in full (no cached result to resume: the first write after an
    upgrade), replays it again: then the journal as written is stored as a new snapshot, with
    the preview's results. The standings of a list kept as standings (mfsnb, fide) as of the
    leaderboard's day that the write worked out or replayed (a correction's comparison) are kept
    too: under the key of the snapshot plus the manifest's record where only matches were appended
    since it (with the kept histories carried over them), else with a new snapshot."""
    from ...replay import cache, cachehistory, cachestandings, cachetail
    from ...replay.ledger import through_cache

    base, states, token = after.cache_base, after.cache_states, after.cache_token
    if base is None or states is None or token is None or not cache.enabled():
        return
    states = cachetail.states_after_append(after.journal, base, states, after.config.journal_paths().index(path),
                                           path, block)
    if states is None:
        return
    standings = _kept_standings(after)
    if after.unsaved or standings:
        lineage = [*after.cache_lineage, token]
        histories = _carried_histories(after)
        record = None if after.unsaved else cachetail.record_of(after.journal, base, token, states)
        if record is not None:
            # Only matches appended since the snapshot: it is not written again (tens of MB for a
            # federation's list), the matches are recorded in its manifest as every writer's are, and
            # the standings and histories kept under the key of the snapshot plus that record.
            cachetail.save(after.config, token, record)
            after.recorded(states, lineage, cachetail.record_key(record))
            recorded = after.kept_key()
            if recorded is not None:
                for engine, rating_list, discipline, day, history in histories:
                    through_cache(cachehistory.write_carried, after, engine, rating_list, discipline, day, history,
                                  recorded)
                for engine, rating_list, discipline, day, result in standings:
                    cachestandings.save(after, engine, rating_list, discipline, day, result)
            return
        # The kept histories carried over the match, for the snapshot about to be written (its token
        # chosen now): grown before it is, so that its removal of older files finds them just written.
        new_token = cache.new_token()
        for engine, rating_list, discipline, day, history in histories:
            through_cache(cachehistory.write_carried, after, engine, rating_list, discipline, day, history,
                          (new_token, after.snapshot_counts(), None))
        if cache.save_journal(after.config, after.journal, states, lineage, new_token) is not None:
            after.cache_token, after.cache_lineage, after.dirty = new_token, lineage, False
            for engine, rating_list, discipline, result in after.unsaved:
                after.save_run(engine, rating_list, discipline, result)
            for engine, rating_list, discipline, day, result in standings:
                cachestandings.save(after, engine, rating_list, discipline, day, result)
        return
    record = cachetail.record_of(after.journal, base, token, states)
    if record is not None:
        cachetail.save(after.config, token, record)
    else:   # (an entry other than a match: the journal as written is the new snapshot, as the next
        # command would store it after parsing the entry and checking the whole journal again)
        cache.save_journal(after.config, after.journal, states, [*after.cache_lineage, token])


def _kept_standings(after: Ledger) -> list[tuple[Any, RatingList, str, date | None, Any]]:
    """The replays the write made of lists kept as standings (mfsnb, fide: the cache cannot keep
    their replay) as of the day the leaderboard reads them by default (a correction's comparison
    of every rating), or the standings its preview worked out from those kept before (an mfsnb
    match after every entry: Ledger.appended_runs): (engine, list, discipline, day, result), the
    very standings the next leaderboard would make, to keep for the journal as written
    (replay/cachestandings.py)."""
    from ...engines.registry import engine_class
    from ...reports.asof import as_of

    board_day = as_of(after, None).day
    found: list[tuple[Any, RatingList, str, date | None, Any]] = []
    for (name, discipline, day), result in [*after._runs.items(), *after.appended_runs.items()]:
        rating_list = after.config.ratings.get(name)
        if rating_list is None or day != board_day:
            continue
        engine = engine_class(rating_list.engine)
        if not engine.can_cache(rating_list.params):
            found.append((engine, rating_list, discipline, day, result))
    return found


def _carried_histories(after: Ledger) -> list[tuple[Any, RatingList, str, date | None, Any]]:
    """The kept histories of the lists whose standings the preview worked out over the appended match
    (Ledger.appended_runs), carried over it (replay/cachehistory.py `carried`): (engine, list,
    discipline, day, what to write for the new snapshot)."""
    from ...engines.registry import engine_class
    from ...replay import cachehistory
    from ...replay.ledger import through_cache

    if after.appended_to is None:
        return []
    before, before_day, _last = after.appended_to
    found: list[tuple[Any, RatingList, str, date | None, Any]] = []
    for (name, discipline, day), result in after.appended_runs.items():
        rating_list = after.config.ratings.get(name)
        if rating_list is not None:
            engine = engine_class(rating_list.engine)
            history = through_cache(cachehistory.carried, after, engine, rating_list, discipline, before_day, before,
                                    result)
            if history is not None:
                found.append((engine, rating_list, discipline, day, history))
    return found


def _ratings_before(ledger: Ledger, day: date | None) -> Ratings:
    """The lists on `day` as the journal stands without the new entries (loaded again: the
    club loaded under the lock now holds them)."""
    from ...replay.loader import load_club

    return current_ratings(load_club(ledger.config.path), day)
