"""Writing actions: init, add-player, add-match, add-tournament, void.

Each checks the new entry against the loaded club first; if anything is
wrong it raises (LedgerError or ActionRefused) before a byte is written.
"""
from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from .config import CONFIG_NAME, display_path
from .errors import ActionRefused, LedgerError, Problem, did_you_mean
from .journal.entries import QUALIFICATIONS, RESULT_HELP, SYSTEMS, parse_result, valid_id
from .journal.writer import append_block, club_lock, entry_block, next_match_id


def target_journal(ledger) -> Path:
    """The last TOML file of [club] journal: where new entries go."""
    tomls = [p for p in ledger.config.journal_paths() if p.suffix == ".toml"]
    if not tomls:
        raise ActionRefused(f"{ledger.config.path}: [club] journal lists no .toml file to append to; add one, "
                            'e.g. journal = ["matches.csv", "journal.toml"]')
    return tomls[-1]


def _refuse(ledger, message: str, entry: str | None = None):
    raise LedgerError([Problem(display_path(target_journal(ledger)), None, message, entry)])


def _check_player(ledger, player: str) -> None:
    if player not in ledger.journal.players:
        _refuse(ledger, f"unknown player {player!r}{did_you_mean(player, ledger.journal.players)}; "
                        f"add them first: nardrating add-player {player}")


def _check_new_id(ledger, kind: str, new_id: str, existing: dict) -> None:
    if not valid_id(new_id):
        _refuse(ledger, f"{kind} id {new_id!r} may hold only letters, digits, _ and -")
    if new_id in existing:
        first = existing[new_id]
        _refuse(ledger, f"{kind} id {new_id!r} is already used at {first.file}:{first.line}")


def _append(ledger, kind: str, entry: dict, check) -> None:
    """Append under the lock, after `check` passes on the journal as it is now.

    The club was loaded before the lock was taken: another writer may have added the
    same id in between, so the check runs again on a fresh load (cheap: the cache).
    """
    from .ledger import load_club

    path = target_journal(ledger)
    with club_lock(ledger.config.folder):
        check(load_club(ledger.config.path))
        append_block(path, entry_block(kind, entry))


# --- init -------------------------------------------------------------------

CONFIG_TEMPLATE = '''# nardrating club config. Reference: the README's "Config" section.
[club]
name = {name}
journal = ["journal.toml"]          # replayed together, in this order; .toml or .csv
default_discipline = {discipline}
as_of = "last-entry"                # date of commands without --as-of: "last-entry" (the journal's) or "today"

{rating}
'''

ENGINE_TITLES = {
    "elo": "the chess-club Elo (seed 003)",
    "fibs": "the FIBS formula with match length and new-player boost (seed 004)",
    "placement": "tournament rating by place, 10·log2(N)/M, halved every month (seed 001)",
    "chips": "game rating by chips won and lost, −5% a day (seed 001)",
    "mfsnb": "the 2009 nardy federation's period lists, R = 10·(P − E) (seed 000)",
    "fide": "FIDE-style rating lists (seed 002)",
}

# One-line notes for parameters whose engine gives no description (fide's, from the README).
PARAMETER_NOTES = {
    "fide": {
        "ruleset": '"seed" (seed 002) or "fide-2024"',
        "list_every": "lists dated the first day of every month, quarter, half or year",
        "k": "K, whole 1–1000 (default 20); refused with fide-2024",
        "min_rating": "the floor (default 1000; fide-2024: 1400)",
        "first_rating_games": "games a first rating needs (default 9; fide-2024: 5)",
        "closing_days": "an event ending at least this many days before a list date reaches it",
        "official_closing_days": "the same for official = true",
        "pool_months": "an unrated player's pool spans at most this many months of rating periods",
        "inactive_months": "inactive after this many months without a rated game",
    },
}


def toml_value(value) -> str:
    """A default as TOML: inline arrays and tables, so each parameter stays on one line."""
    import tomli_w

    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    return tomli_w.dumps({"x": value})[4:].strip()


def toml_key(key: str) -> str:
    return key if valid_id(key) and key.isascii() else toml_value(key)


def engine_template(engine: str) -> str:
    """[rating.club] with every parameter of the engine: its default and what it means.

    A parameter without a fixed default (it depends on another, as fide's k on the ruleset)
    is written commented out.
    """
    from .engines.registry import engine_class

    params = engine_class(engine).Params
    notes = PARAMETER_NOTES.get(engine, {})
    lines = [f"{'[rating.club]':<35} # a rating list named \"club\"",
             f"{'engine = ' + toml_value(engine):<35} # {ENGINE_TITLES.get(engine, engine)}"]
    for key, field in params.model_fields.items():
        default = field.get_default(call_default_factory=True)
        note = field.description or notes.get(key, "")
        if default is None:
            line = f"# {key} = "
            note = note or "no default"
        else:
            line = f"{key} = {toml_value(default)}"
        lines.append(f"{line:<35} # {note}" if note else line)
    disciplines = f"# disciplines = [{toml_value(ENGINE_DISCIPLINE.get(engine, 'long-nardy'))}]"
    lines.append(f"{disciplines:<35} # disciplines it rates; omitted = all")
    return "\n".join(lines)


ENGINE_DISCIPLINE = {"elo": "chess", "fide": "chess"}

NEXT_STEPS = """next steps:{cd}
  nardrating add-player anna --name "Анна Петрова"      # each player once
  nardrating add-match anna boris --winner anna         # after each game
  nardrating leaderboard                                # the list as of the last entry
  nardrating check                                      # after editing the journal by hand"""


JOURNAL_TEMPLATE = '''# nardrating journal: append-only. Add entries with `nardrating add-player`,
# `nardrating add-match`, or by hand as [[player]], [[match]], [[tournament]],
# [[void]] and [[adjust]] tables (see the README's "Journal" section).
'''


def next_steps(folder: Path) -> str:
    import shlex

    here = folder.resolve() == Path.cwd().resolve()
    return NEXT_STEPS.format(cd="" if here else f"\n  cd {shlex.quote(str(folder))}")


def init_club(folder: Path, engine: str = "elo", name: str | None = None) -> list[Path]:
    from .engines.registry import engine_names
    import tomli_w

    if engine not in engine_names():
        raise ActionRefused(f"unknown engine {engine!r}{did_you_mean(engine, engine_names())}; "
                            f"allowed: {', '.join(engine_names())}")
    config, journal = folder / CONFIG_NAME, folder / "journal.toml"
    for path in (config, journal):
        if path.exists():
            raise ActionRefused(f"{path} already exists; init never overwrites. Choose another folder.")
    template = engine_template(engine)
    discipline = ENGINE_DISCIPLINE.get(engine, "long-nardy")
    quote = lambda text: tomli_w.dumps({"x": text})[4:].strip()  # noqa: E731 - a TOML string literal
    folder.mkdir(parents=True, exist_ok=True)
    config.write_text(CONFIG_TEMPLATE.format(name=quote(name or folder.resolve().name),
                                             discipline=quote(discipline), rating=template), encoding="utf-8")
    journal.write_text(JOURNAL_TEMPLATE, encoding="utf-8")
    return [config, journal]


# --- add-player -----------------------------------------------------------------

def add_player(ledger, player_id: str, name=None, alias=None, qualification=None, title=None,
               joined: date | None = None, dry_run: bool = False) -> dict:
    def check(current):
        _check_new_id(current, "player", player_id, current.journal.players)
        if qualification is not None and qualification not in QUALIFICATIONS:
            _refuse(current, f"qualification {qualification!r} must be one of {', '.join(QUALIFICATIONS)}")

    check(ledger)
    entry = {"id": player_id, "name": name, "alias": alias, "qualification": qualification,
             "title": title, "joined": joined}
    if not dry_run:
        _append(ledger, "player", entry, check)
    return entry


# --- add-match ------------------------------------------------------------------

@dataclass
class Change:
    rating: str
    discipline: str
    player: str
    before: float | None
    change: float | None
    after: float | None
    rated: bool
    reason: str | None


def parse_score(text: str | None) -> list[int] | None:
    if text is None:
        return None
    parts = text.replace(":", "-").split("-")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise ActionRefused(f"--score {text!r} must be two whole numbers like 7-4")
    return [int(parts[0]), int(parts[1])]


def add_match(ledger, a: str, b: str, *, winner: str | None = None, result: str | None = None,
              day: date | None = None, length: int = 1, score: str | None = None,
              discipline: str | None = None, tournament: str | None = None, rated: bool = True,
              forfeit: bool = False, note: str | None = None, chips: float | None = None,
              dry_run: bool = False) -> tuple[dict, list[Change]]:
    from .journal.reader import add_match as journal_add
    from .journal.validate import validate

    journal = ledger.journal
    day = day or date.today()
    for player in (a, b):
        _check_player(ledger, player)
    if a == b:
        _refuse(ledger, f"a match needs two different players, not {a!r} against themself")
    if (winner is None) == (result is None):
        _refuse(ledger, "say who won: --winner PLAYER or --result 1-0 / 0-1 / 1/2-1/2")
    if winner is not None and winner not in (a, b):
        _refuse(ledger, f"--winner {winner!r} is neither {a!r} nor {b!r}")
    if result is not None and parse_result(result) is None:
        _refuse(ledger, f"--result {result!r} is not a result; write {RESULT_HELP}")
    if length < 1:
        _refuse(ledger, f"--length {length} must be at least 1 point")
    if tournament is not None and tournament not in journal.tournaments:
        _refuse(ledger, f"unknown tournament {tournament!r}{did_you_mean(tournament, journal.tournaments)}; "
                        "add it first with nardrating add-tournament")
    if discipline is None and tournament is not None:
        discipline = journal.tournaments[tournament].discipline
    discipline = discipline or ledger.config.club.default_discipline
    path = target_journal(ledger)
    with (nullcontext() if dry_run else club_lock(ledger.config.folder)):
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        match_id = next_match_id(text, journal)
        entry = {"id": match_id, "date": day, "players": [a, b], "result": result, "winner": winner,
                 "length": length if length != 1 else None, "score": parse_score(score),
                 "chips": chips, "discipline": discipline, "tournament": tournament,
                 "rated": None if rated else False, "forfeit": True if forfeit else None, "note": note}
        # Check the entry in the club as it would be, before writing anything.
        problems: list[Problem] = []
        first = len(journal.matches.growable())
        label = display_path(path)
        source = journal.files.index(label) if label in journal.files else len(journal.files)
        if source == len(journal.files):
            journal.files.append(label)
        score_a = parse_result(result) if result is not None else (1.0 if winner == a else 0.0)
        extra = {k: v for k, v in (("score", tuple(entry["score"]) if entry["score"] else None),
                                   ("chips", chips), ("note", note)) if v is not None}
        journal_add(journal, match_id, day.toordinal(), a, b, score_a, length, discipline, tournament,
                    rated, forfeit, journal.take_seq(), source, None, extra, problems)
        problems += validate(journal, ledger.config, first_match=first)
        if problems:
            raise LedgerError([Problem(label, None, p.message, match_id) for p in problems])
        ledger._runs.clear()
        ledger.dirty = True  # the new match is in memory only: nothing of this may be cached
        changes = []
        for rating in ledger.config.ratings.values():
            if not rating.rates(discipline):
                continue
            result_after = ledger.run(rating, discipline)
            for player in (a, b):
                event = next((e for e in result_after.history(player) if e.entry == match_id), None)
                if event is None:
                    continue
                changes.append(Change(rating.name, discipline, player, event.before, event.change,
                                      event.after, event.rated, event.reason))
        if not dry_run:
            append_block(path, entry_block("match", entry))
    return entry, changes


# --- add-tournament and void -----------------------------------------------------

def add_tournament(ledger, tournament_id: str, *, name: str, system: str, start: date, end: date,
                   discipline: str | None = None, official: bool = False, dry_run: bool = False) -> dict:
    def check(current):
        _check_new_id(current, "tournament", tournament_id, current.journal.tournaments)
        if system not in SYSTEMS:
            _refuse(current, f"--system {system!r} must be one of {', '.join(SYSTEMS)}")
        if end < start:
            _refuse(current, f"--end {end} is before --start {start}")

    check(ledger)
    entry = {"id": tournament_id, "name": name, "system": system, "start": start, "end": end,
             "discipline": discipline or ledger.config.club.default_discipline,
             "official": True if official else None}
    if not dry_run:
        _append(ledger, "tournament", entry, check)
    return entry


def void_match(ledger, match_id: str, reason: str, day: date | None = None, dry_run: bool = False) -> dict:
    def check(current):
        journal = current.journal
        if not journal.has_match_id(match_id):
            _refuse(current, f"unknown match {match_id!r}{did_you_mean(match_id, journal.match_index)}")
        void = next((v for v in journal.voids if v.match == match_id), None)
        if void is not None:
            _refuse(current, f"match {match_id!r} is already voided at {void.file}:{void.line}")
        if not reason.strip():
            _refuse(current, "--reason must say why the match is voided")

    check(ledger)
    entry = {"match": match_id, "date": day or date.today(), "reason": reason}
    if not dry_run:
        _append(ledger, "void", entry, check)
    return entry
