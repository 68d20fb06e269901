"""Parsed files → journal entries: players matched or created, tournaments, matches, duplicates.

`plan_import` decides everything and writes nothing; `write_import` checks the journal as
it would be after the append (the same read and checks as any command's) and appends the
whole import as one block, under the club lock, or writes nothing at all.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ...datarecords import datarecord, field
from ...errors import LedgerError, Problem
from ...journal import playentries  # noqa: F401 - registers [[round]], [[join]], [[withdraw]] in ENTRY_MODELS
from ...journal.entries import ENTRY_MODELS, entry_errors, loc_text
from ...i18n import N_, _, ngettext
from ...journal.lint import folded, near_duplicates, score_contradicts
from .planrounds import plan_rounds
from .plantournaments import NewTournament, tournament_of
from .records import AlsoAs, Game, Parsed, PlayerInfo, derive_id

if TYPE_CHECKING:
    from ...config import ClubConfig
    from ...journal.model import Journal, Tournament
    from ...replay.ledger import Ledger

Report = Callable[[str], None]   # records a problem of the game being planned
# How a name of the files was matched (_Players.how), in the words the preview's Status column shows.
MATCHED = {"new": N_("new"), "existing (id)": N_("existing (id)"), "existing (name)": N_("existing (name)")}


@datarecord
class PlannedEntry:
    """An entry the import would append, and the line of the imported file it comes from."""
    kind: str
    data: dict[str, Any]
    file: str
    line: int | None


@datarecord
class FileSummary:
    """What the import makes of one file: games read, matches added, duplicates, records skipped, notes."""
    file: str
    notes: list[str] = field(default_factory=list)
    read: int = 0
    added: int = 0
    duplicates: int = 0
    skipped: Counter[str] = field(default_factory=Counter)


@datarecord
class Plan:
    """An import decided and not written: the entries, the players' preview rows, each file's summary, warnings."""
    entries: list[PlannedEntry] = field(default_factory=list)
    players: list[dict[str, Any]] = field(default_factory=list)   # preview rows, in order of first appearance
    files: list[FileSummary] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def count(self, kind: str) -> int:
        return sum(1 for e in self.entries if e.kind == kind)


class _Players:
    """Names of the files → player ids: existing ones by id, name or alias; new ones derived."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.by_id: dict[str, set[str]] = {}   # folded: ids that differ only in case or look-alike letters share one
        for pid in journal.players:
            self.by_id.setdefault(folded(pid), set()).add(pid)
        self.by_text: dict[str, set[str]] = {}
        for p in journal.players.values():
            for text in (p.name, p.alias):
                if text:
                    self.by_text.setdefault(folded(text), set()).add(p.id)
        self.chosen: dict[str, str] = {}     # folded name → id
        self.new: dict[str, dict[str, Any]] = {}  # id → [[player]] data
        self.how: dict[str, str] = {}        # id → "new" or how it was matched
        self.origin: dict[str, tuple[str, int]] = {}  # new id → the file and line that first named it
        self.taken = {folded(pid) for pid in journal.players}

    def resolve(self, name: str, info: PlayerInfo | None, problem: Report, where: tuple[str, int]) -> str | None:
        key = folded(name)
        if key in self.chosen:
            return self.chosen[key]
        alike = self.by_id.get(key, set())
        found = name.strip() if name.strip() in alike else next(iter(alike)) if len(alike) == 1 else None
        how = "existing (id)"
        if found is None and len(alike) > 1:   # (anna and ANNA: the file's Anna is neither exactly)
            problem(_("{name!r} is, but for case or look-alike letters, the id of several players ({players}); write "
                      "the id meant exactly").format(name=name, players=", ".join(sorted(alike))))
            return None
        if found is None:
            ids = self.by_text.get(key, set())
            if len(ids) > 1:
                problem(_("{name!r} is the name of several players ({players}); rename one of them or change the "
                          "name in the file to the id meant").format(name=name, players=", ".join(sorted(ids))))
                return None
            if not ids and info is not None and info.cut:  # a name cut to the file's columns: the one it begins
                ids = {pid for text, pids in self.by_text.items() if text.startswith(key) for pid in pids}
                ids = ids if len(ids) == 1 else set()
            found, how = (next(iter(ids)), "existing (name)") if ids else (None, "new")
        if found is None:
            base = derive_id(name)
            found, n = base, 1
            while folded(found) in self.taken:
                n += 1
                found = f"{base}-{n}"
            self.taken.add(folded(found))
            self.origin[found] = where
            self.new[found] = {"id": found, "name": name if name != found else None,
                               "title": info.title if info else None}
        self.chosen[key] = found
        self.how[found] = how
        return found


def plan_import(ledger: Ledger, parsed_files: list[Parsed], discipline: str | None = None,
                tournament: str | None = None, target_text: str = "", ratings: bool = False) -> Plan:
    """What an import would add to the club; LedgerError with every problem (FILE:LINE) if any.

    ratings: the files' ratings become [[adjust]] entries (ratings.py); else the summary says they were not used."""
    from ...journal.writer import next_match_id
    from .ratings import file_ratings, rating_entries, unused_note

    problems = [p for parsed in parsed_files for p in parsed.problems]
    if problems:
        raise LedgerError(problems)
    journal, config = ledger.journal, ledger.config
    default = config.club.default_discipline
    players = _Players(journal)
    plan = Plan()
    existing = _match_keys(journal)
    new_tournaments: dict[str, NewTournament] = {}
    next_number = int(next_match_id(target_text, journal)[1:])
    games_of: Counter[str] = Counter()
    matches: list[PlannedEntry] = []
    run_of: dict[tuple[int, str], tuple[str, Tournament | None]] = {}  # (file, tournament key) → where its rounds go
    adjusts: list[PlannedEntry] = []
    other_mode: dict[tuple[str, int] | None, bool] = {}  # a .mat match → found as the other mode wrote it
    rated_keys: set[tuple[str, str, str]] = set()
    any_length: dict[tuple[int, str, str, float], list[tuple[int, str, str, float, int]]] | None = None
    waiting_only: set[str] = set()  # new tournaments of a TRF whose only boards wait for their results
    for k, parsed in enumerate(parsed_files):
        summary = FileSummary(parsed.file, list(parsed.notes), read=len(parsed.games), skipped=Counter(parsed.skipped))
        plan.files.append(summary)
        read: list[tuple[Game, str, str, str]] = []  # every game with its players' ids and discipline
        for game in parsed.games:
            def problem(message: str, line: int = game.line) -> None:
                problems.append(Problem(parsed.file, line, message))
            where = (parsed.file, game.line)
            a = players.resolve(game.a, parsed.players.get(game.a), problem, where)
            b = players.resolve(game.b, parsed.players.get(game.b), problem, where)
            if a is None or b is None:
                continue
            if a == b:
                problem(_("{a!r} and {b!r} are the same player {player!r}").format(a=game.a, b=game.b, player=a))
                continue
            tid, joined = tournament_of(game, parsed, tournament, journal, new_tournaments, problem)
            if tid is False:
                continue
            if tid is not None and game.tournament in parsed.runs:
                run_of.setdefault((k, game.tournament), (tid, joined))
            disc = (game.discipline or discipline or (joined.discipline if joined else None)
                    or parsed.discipline or default)
            if tid is not None and not joined:
                new_tournaments[tid].data.setdefault("discipline", disc)
                new_tournaments[tid].cover(game.day)
            if game.score is not None and score_contradicts(game.score, _score(game.result)):
                problem(_("score {mine}-{theirs} contradicts the result {result}; the file says both, and "
                          "check would warn of it ever after: correct the file").format(
                              mine=game.score[0], theirs=game.score[1], result=game.result))
                continue
            read.append((game, a, b, disc))
            key = (game.day.toordinal(), a, b, _score(game.result), game.length)
            if not game.length_stated and existing[key] <= 0:  # a TRF's game is the journal's of any length
                if any_length is None:
                    any_length = {}
                    for known in existing:
                        any_length.setdefault(known[:4], []).append(known)
                key = next((k for k in any_length.get(key[:4], ()) if existing[k] > 0), key)
            group = (parsed.file, game.also_as.match) if game.also_as else None
            if other_mode.get(group):
                summary.duplicates += 1  # its match is in the journal as the other import mode wrote it
                continue
            if existing[key] > 0:
                existing[key] -= 1
                summary.duplicates += 1
                continue
            if game.also_as is not None and group not in other_mode:
                other_mode[group] = _as_other_mode(game.also_as, key, existing, summary)
                if other_mode[group]:
                    summary.duplicates += 1
                    continue
            while journal.has_match_id(f"m{next_number:04d}"):
                next_number += 1
            data = {"id": f"m{next_number:04d}", "date": game.day, "players": [a, b], "result": game.result,
                    "length": game.length, "score": game.score, "chips": game.chips, "discipline": disc,
                    "tournament": tid, "round": game.round if tid is not None else None, "rated": game.rated,
                    "forfeit": game.forfeit, "note": game.note}
            next_number += 1
            matches.append(PlannedEntry("match", data, parsed.file, game.line))
            summary.added += 1
            games_of[a] += 1
            games_of[b] += 1
        waiting_only |= _runs_without_games(parsed, k, run_of, tournament, journal, new_tournaments, problems,
                                            discipline or parsed.discipline or default)
        rated = file_ratings(parsed, read)
        if ratings and not rated:
            summary.notes.append(_("--ratings: the file gives no player a rating"))
        elif ratings and not problems:
            adjusts += [PlannedEntry("adjust", data, parsed.file, line)
                        for data, line in rating_entries(ledger, parsed.file, rated, summary.notes, rated_keys)]
        elif rated and (unused := unused_note(ledger, rated)):
            summary.notes.append(unused)
    entrants: set[str] = set()  # a run's start list: a player whose only board waits for its result is one too
    for k, run_key in run_of:
        parsed, run = parsed_files[k], parsed_files[k].runs[run_key]
        for name in run.start_list:
            where = (parsed.file, run.lines.get(name, 1))

            def told(message: str, where: tuple[str, int] = where) -> None:
                problems.append(Problem(*where, message))
            pid = players.resolve(name, parsed.players.get(name), told, where)
            if pid is not None:
                entrants.add(pid)
    used_tournaments = {m.data["tournament"] for m in matches} | waiting_only
    entries = [PlannedEntry("player", data, *players.origin[pid]) for pid, data in players.new.items()
               if games_of[pid] or pid in entrants]
    rounds = [PlannedEntry(*planned) for planned in plan_rounds(
        parsed_files, run_of, new_tournaments, journal, lambda name: players.chosen.get(folded(name)),
        [m.data for m in matches], [summary.notes for summary in plan.files])]
    entries += [PlannedEntry("tournament", t.data, t.file, t.line)
                for t in new_tournaments.values() if t.data["id"] in used_tournaments]
    entries += adjusts
    problems += _run_here(journal, matches)
    problems += _through_models(entries + rounds + matches)
    if problems:
        raise LedgerError(problems)
    plan.entries = entries + rounds + matches
    for pid in dict.fromkeys(players.chosen.values()):
        if games_of[pid] or (pid in entrants and pid in players.new):
            data = players.new.get(pid) or {"name": journal.players[pid].name}
            plan.players.append({"player": pid, "name": data.get("name") or pid, "status": _(MATCHED[players.how[pid]]),
                                 "title": data.get("title"), "games": games_of[pid]})
    plan.warnings = _near_duplicates(journal, {pid: d for pid, d in players.new.items() if games_of[pid] or pid in entrants})
    return plan


def _runs_without_games(parsed: Parsed, k: int, run_of: dict[tuple[int, str], tuple[str, Tournament | None]],
                        option: str | None, journal: Journal, new: dict[str, NewTournament], problems: list[Problem],
                        discipline: str) -> set[str]:
    """The tournaments of a file's runs that no game named (round 1 paired, no result yet): joined or
    made new as a game of them would be, so that their rounds are recorded; the new ones' ids."""
    made: set[str] = set()
    for key, run in parsed.runs.items():
        if (k, key) in run_of or not any(rnd.boards for rnd in run.rounds):
            continue
        info = parsed.tournaments[key]
        line = min(run.lines.values(), default=1)
        probe = Game(line, info.start or date.today(), "", "", "1-0", tournament=key)
        tid, joined = tournament_of(probe, parsed, option, journal, new,
                                    lambda message: problems.append(Problem(parsed.file, line, message)))
        if not isinstance(tid, str):
            continue
        run_of[(k, key)] = (tid, joined)
        if joined is None:
            new[tid].data.setdefault("discipline", discipline)
            made.add(tid)
    return made


def _run_here(journal: Journal, matches: list[PlannedEntry]) -> list[Problem]:
    """A tournament run here round by round takes its games by `results` against its pairing: an
    imported game of it without a round (a file of another event, or another start list) is refused
    once a file and tournament, not once a match with the advice add-match gets."""
    run = {r.tournament for r in journal.rounds}
    told: dict[tuple[str, str], int | None] = {}
    for m in matches:
        tid = m.data.get("tournament")
        if tid in run and m.data.get("round") is None:
            told.setdefault((m.file, tid), m.line)
    return [Problem(file, line, _("tournament '{tournament}' is run here round by round: its games go in with "
                                  "`nardrating results {tournament}`, checked against its pairing; this file's "
                                  "games are not its rounds (another event or another start list), so import "
                                  "cannot add them to it").format(tournament=tid))
            for (file, tid), line in told.items()]


def _through_models(entries: list[PlannedEntry]) -> list[Problem]:
    """Build each entry with the journal's own model, so its rules (and any stricter later ones) apply;
    the entry keeps what the model made of it, defaults left out."""
    problems: list[Problem] = []
    for entry in entries:
        try:
            model = ENTRY_MODELS[entry.kind](**{k: v for k, v in entry.data.items() if v is not None})
        except ValidationError as exc:
            for loc, message in entry_errors(exc, entry.kind):
                where = f"[[{entry.kind}]] {loc_text(loc)}: " if loc else ""
                problems.append(Problem(entry.file, entry.line, where + message))
            continue
        data = model.model_dump(exclude_defaults=True)
        if isinstance(data.get("set"), float) and data["set"].is_integer():
            data["set"] = int(data["set"])  # an imported whole-number rating stays one
        entry.data = data
    return problems


def _score(result: str) -> float:
    return {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)


def _as_other_mode(also: AlsoAs, key: tuple[int, str, str, float, int],
                   existing: Counter[tuple[int, str, str, float, int]], summary: FileSummary) -> bool:
    """Whether the journal has every match the other import mode writes for these games (taken if so)."""
    day, a, b = key[:3]
    wanted = Counter((day, a, b, _score(result), length) for result, length in also.matches)
    if any(existing[k] < n for k, n in wanted.items()):
        return False
    existing.subtract(wanted)
    if len(also.matches) == 1:
        summary.notes.append(_("the games of the match on line {line} are in the journal as one {length}-point match "
                               "(imported without --per-game)").format(line=also.match, length=also.matches[0][1]))
    else:
        summary.notes.append(ngettext("the match on line {line} is in the journal as its {n} game (imported with "
                                      "--per-game)", "the match on line {line} is in the journal as its {n} games "
                                      "(imported with --per-game)", len(also.matches)).format(line=also.match,
                                                                                             n=len(also.matches)))
    return True


def _match_keys(journal: Journal) -> Counter[tuple[int, str, str, float, int]]:
    """(date, player a, player b, score of a, length) of every match already in the journal."""
    m, names = journal.matches, journal.player_codes.names
    return Counter(zip(m.dates, (names[x] for x in m.a), (names[x] for x in m.b), m.score_a, m.length))


# How two names are alike, as journal.lint.near_duplicates says it: the words shown (translated where shown).
ALIKE = {"are equal": N_("are equal"), "differ only in case, ё/е or look-alike letters":
         N_("differ only in case, ё/е or look-alike letters"), "one letter apart": N_("one letter apart")}


def _near_duplicates(journal: Journal, new: dict[str, dict[str, Any]]) -> list[str]:
    warnings = []
    ids = {pid: pid for pid in journal.players} | {pid: pid for pid in new}
    names = {p.id: p.name for p in journal.players.values()} | {pid: d.get("name") or pid for pid, d in new.items()}
    for table, what in ((ids, N_("ids")), (names, N_("names"))):
        for key, other, how in near_duplicates(table, new):
            if key in new and other not in new:
                warnings.append(_("new player {new!r} ({new_name}) and existing {old!r} ({old_name}): {what} {how}; "
                                  "the same person? If so, add the new name as the existing player's alias and "
                                  "import again").format(new=key, new_name=names[key], old=other, old_name=names[other],
                                                         what=_(what), how=_(ALIKE.get(how, how))))
    return list(dict.fromkeys(warnings))


def block_of(plan: Plan, files: list[str]) -> tuple[str, list[tuple[int, PlannedEntry]]]:
    """The TOML text to append and where each entry starts in it (its header's line, from 1)."""
    from ...journal.writer import entry_block

    lines = [f"# imported from {', '.join(files)}"]
    starts: list[tuple[int, PlannedEntry]] = []
    for entry in plan.entries:
        lines.append("")
        starts.append((len(lines) + 1, entry))
        lines.append(entry_block(entry.kind, entry.data).rstrip("\n"))
    return "\n".join(lines) + "\n", starts


def problems_after(config: ClubConfig, target: Path, block: str, starts: list[tuple[int, PlannedEntry]]) -> list[Problem]:
    """The problems a full read would find in the journal with `block` appended to `target`.

    The journal is read as append_block would leave it (the same separator), by the very read
    every command does (renames and merges applied, then the checks); problems in the new block
    are told at the line of the imported file the entry came from.
    """
    from ...config import display_path
    from ...journal.writer import appended_bytes
    from ...replay.loader import read_journal

    try:
        raw = target.read_bytes() if target.exists() else b""
    except OSError as exc:
        return [Problem(display_path(target), None, _("cannot read the file: {error}").format(error=exc.strerror or exc))]
    old_lines = appended_bytes(raw, "").count(b"\n")
    _journal, problems, _states = read_journal(config, replaced={target: appended_bytes(raw, block)})
    target_label = display_path(target)
    shown = []
    for p in problems:
        if p.file == target_label and p.line and p.line > old_lines:
            offset = p.line - old_lines
            entry = next((e for start, e in reversed(starts) if start <= offset), None)
            if entry is not None and entry.file:
                p = Problem(entry.file, entry.line, p.message, p.entry)
        shown.append(p)
    return shown
