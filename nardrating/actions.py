"""Writing actions: init, add-player, add-match, add-tournament, void.

Every writer builds the entry the TOML reader builds (the entry models), serialises
it, and under the club lock, on the club loaded afresh, checks that the text reads
back as the same entry and that the journal with it appended passes every check a
full read makes. Only then is it appended; anything wrong raises (LedgerError or
ActionRefused) before a byte is written.
"""
from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from .config import CONFIG_NAME, display_path
from .errors import ActionRefused, LedgerError, Problem, did_you_mean
from .journal.entries import ENTRY_MODELS, RESULT_HELP, RULES, Entry, entry_errors, parse_result, valid_id
from .journal.writer import append_block, club_lock, entry_block, next_match_id
from .tomlsource import shown


def target_journal(ledger) -> Path:
    """The last TOML file of [club] journal: where new entries go."""
    tomls = [p for p in ledger.config.journal_paths() if p.suffix == ".toml"]
    if not tomls:
        raise ActionRefused(f"{ledger.config.path}: [club] journal lists no .toml file to append to; add one, "
                            'e.g. journal = ["matches.csv", "journal.toml"]')
    return tomls[-1]


def _refuse(ledger, message: str, entry: str | None = None):
    raise LedgerError([Problem(display_path(target_journal(ledger)), None, message, entry)])


# The command line's names for an entry's fields, where they are not --FIELD.
_ARGUMENTS = {("player", "id"): "ID", ("tournament", "id"): "ID", ("void", "match"): "MATCH_ID",
              ("match", "players", 0): "A", ("match", "players", 1): "B"}


def build_entry(ledger, kind: str, fields: dict) -> Entry:
    """The entry the TOML reader would build from these fields (None: left out), or LedgerError.

    Messages name the command line's options: "--length: 5000 is not a match length; …".
    """
    from pydantic import ValidationError

    try:
        return ENTRY_MODELS[kind](**{key: value for key, value in fields.items() if value is not None})
    except ValidationError as exc:
        errors = entry_errors(exc, kind)
    label = display_path(target_journal(ledger))
    problems = []
    for loc, message in errors:
        name = _ARGUMENTS.get((kind, *loc)) or _ARGUMENTS.get((kind, *loc[:1])) or (f"--{loc[0]}" if loc else None)
        problems.append(Problem(label, None, f"{name}: {message}" if name else message))
    raise LedgerError(problems)


def serialised(ledger, kind: str, entry: Entry) -> str:
    """The entry as the TOML text to append, after checking that it reads back as the same entry."""
    import tomllib

    block = entry_block(kind, entry.model_dump(exclude_defaults=True))
    try:
        back = ENTRY_MODELS[kind](**tomllib.loads(block)[kind][0])
    except (ValueError, KeyError, IndexError):  # tomllib's and pydantic's errors are ValueErrors
        back = None
    if back != entry:
        _refuse(ledger, f"the new [[{kind}]] would not read back as written, so nothing was written; "
                        f"this is a bug, please report it with the command you ran")
    return block


def journal_after(ledger, path: Path, kind: str, block: str):
    """`ledger` as a full read of the journal with `block` appended would find it; LedgerError if refused.

    The block is read into the loaded journal as the appended bytes of `path`, and the journal
    and engine checks run as they do when a grown journal is read (validate.py). Problems of
    the new entry carry no line: it is not in the file.
    """
    from .journal.reader import read_toml_journal
    from .journal.validate import finish_players, validate

    journal, config = ledger.journal, ledger.config
    source = config.journal_paths().index(path)
    label = journal.files[source]
    old_lines = path.read_bytes().count(b"\n") if path.exists() else 0
    first_match = len(journal.matches)
    problems: list[Problem] = []
    # The block always gives a match's id, so the position it would have (match_offset) is not used.
    read_toml_journal(block.encode("utf-8"), path, label, journal, config.club.default_discipline, problems,
                      source=source, line_offset=old_lines + 2)
    finish_players(journal)
    if not problems:
        match = kind == "match"
        problems = validate(journal, config, first_match if match else len(journal.matches), others=not match)
    if problems:
        raise LedgerError([Problem(p.file, p.line if p.line is None or p.line <= old_lines else None,
                                   p.message, p.entry) for p in problems])
    ledger._runs.clear()
    ledger.dirty = True  # the new entry is in memory only: nothing computed from it may be cached
    return ledger


def write_entry(ledger, kind: str, make_fields, *, check=None, preview=None, dry_run: bool = False):
    """Build, check and append one entry; (the entry as written, preview(club after) or None).

    Under the club lock (not for a dry run) the club is loaded afresh, so the checks and the
    preview see every entry another writer appended before this one. `make_fields(club, path)`
    gives the entry's fields; `check(club, entry)` refuses what the command line says better.
    """
    from .ledger import load_club

    path = target_journal(ledger)
    with (nullcontext() if dry_run else club_lock(ledger.config.folder)):
        current = load_club(ledger.config.path)
        entry = build_entry(current, kind, make_fields(current, path))
        if check is not None:
            check(current, entry)
        block = serialised(current, kind, entry)
        after = journal_after(current, path, kind, block)
        shown = preview(after, entry) if preview is not None else None
        if not dry_run:
            append_block(path, block)
    return entry.model_dump(exclude_defaults=True), shown


# --- init -------------------------------------------------------------------

CONFIG_TEMPLATE = '''# nardrating club config. Reference: the README's "Config" section.
[club]
name = {name}
journal = ["journal.toml"]          # replayed together, in this order; .toml or .csv
default_discipline = {discipline}
as_of = "last-entry"                # date of commands without --as-of: "last-entry" (the journal's) or "today"

{rating}
'''

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

    cls = engine_class(engine)
    params, notes = cls.Params, cls.parameter_notes
    lines = [f"{'[rating.club]':<35} # a rating list named \"club\"",
             f"{'engine = ' + toml_value(engine):<35} # {cls.title or engine}"]
    for key, field in params.model_fields.items():
        default = field.get_default(call_default_factory=True)
        note = field.description or notes.get(key, "")
        if default is None:
            line = f"# {key} = "
            note = note or "no default"
        else:
            line = f"{key} = {toml_value(default)}"
        lines.append(f"{line:<35} # {note}" if note else line)
    disciplines = f"# disciplines = [{toml_value(cls.default_discipline)}]"
    lines.append(f"{disciplines:<35} # disciplines it rates; omitted = all")
    return "\n".join(lines)


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
    from .engines.registry import engine_class, engine_names
    import tomli_w

    if engine not in engine_names():
        raise ActionRefused(f"unknown engine {engine!r}{did_you_mean(engine, engine_names())}; "
                            f"allowed: {', '.join(engine_names())}")
    config, journal = folder / CONFIG_NAME, folder / "journal.toml"
    for path in (config, journal):
        if path.exists():
            raise ActionRefused(f"{path} already exists; init never overwrites. Choose another folder.")
    template = engine_template(engine)
    discipline = engine_class(engine).default_discipline
    quote = lambda text: tomli_w.dumps({"x": text})[4:].strip()  # noqa: E731 - a TOML string literal
    folder.mkdir(parents=True, exist_ok=True)
    config.write_text(CONFIG_TEMPLATE.format(name=quote(name or folder.resolve().name),
                                             discipline=quote(discipline), rating=template), encoding="utf-8")
    journal.write_text(JOURNAL_TEMPLATE, encoding="utf-8")
    return [config, journal]


# --- add-player -----------------------------------------------------------------

def add_player(ledger, player_id: str, name=None, alias=None, qualification=None, title=None,
               joined: date | None = None, dry_run: bool = False) -> dict:
    fields = {"id": player_id, "name": name, "alias": alias, "qualification": qualification,
              "title": title, "joined": joined}
    return write_entry(ledger, "player", lambda club, path: fields, dry_run=dry_run)[0]


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
    parts = [part.strip() for part in text.replace(":", "-").split("-")]
    if len(parts) != 2 or not all(part.isascii() and part.isdigit() for part in parts):
        raise ActionRefused(f"--score {shown(text)} must be two whole numbers like 7-4")
    if max(map(len, parts)) > 9:  # no score; and int() refuses thousands of digits
        raise ActionRefused(f"--score: {shown(text)} is not {RULES['score']}")
    return [int(parts[0]), int(parts[1])]


def add_match(ledger, a: str, b: str, *, winner: str | None = None, result: str | None = None,
              day: date | None = None, length: int = 1, score: str | None = None,
              discipline: str | None = None, tournament: str | None = None, rated: bool = True,
              forfeit: bool = False, note: str | None = None, chips: float | None = None,
              dry_run: bool = False) -> tuple[dict, list[Change]]:
    """Append a [[match]]; also each player's change in every list that rates it, computed from
    the journal as written (under the lock, after every earlier writer's entry)."""
    if (winner is None) == (result is None):
        _refuse(ledger, "say who won: --winner PLAYER or --result 1-0 / 0-1 / 1/2-1/2")
    if result is not None and parse_result(result) is None:
        _refuse(ledger, f"--result {shown(result)} is not a result; write {RESULT_HELP}")
    points = parse_score(score)

    def fields(club, path):
        text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
        known = club.journal.tournaments.get(tournament) if tournament is not None else None
        return {"id": next_match_id(text, club.journal), "date": day or date.today(), "players": [a, b],
                "result": result, "winner": winner, "length": length, "score": points, "chips": chips,
                "discipline": discipline or (known.discipline if known else club.config.club.default_discipline),
                "tournament": tournament, "rated": rated, "forfeit": forfeit, "note": note}

    def check(club, entry):
        if entry.winner is not None and entry.winner not in entry.players:
            _refuse(club, f"--winner {entry.winner!r} is neither {entry.players[0]!r} nor {entry.players[1]!r}")
        for player in entry.players:
            if player not in club.journal.players:
                _refuse(club, f"unknown player {player!r}{did_you_mean(player, club.journal.players)}; "
                              f"add them first: nardrating add-player {player}")

    def changes(club, entry) -> list[Change]:
        found = []
        for rating in club.config.ratings.values():
            if not rating.rates(entry.discipline):
                continue
            run = club.run(rating, entry.discipline)
            for player in entry.players:
                event = next((e for e in run.history(player) if e.entry == entry.id), None)
                if event is not None:
                    found.append(Change(rating.name, entry.discipline, player, event.before, event.change,
                                        event.after, event.rated, event.reason))
        return found

    return write_entry(ledger, "match", fields, check=check, preview=changes, dry_run=dry_run)


# --- add-tournament and void -----------------------------------------------------

def add_tournament(ledger, tournament_id: str, *, name: str, system: str, start: date, end: date,
                   discipline: str | None = None, official: bool = False, dry_run: bool = False) -> dict:
    def fields(club, path):
        return {"id": tournament_id, "name": name, "system": system, "start": start, "end": end,
                "discipline": discipline or club.config.club.default_discipline, "official": official}

    return write_entry(ledger, "tournament", fields, dry_run=dry_run)[0]


def void_match(ledger, match_id: str, reason: str, day: date | None = None, dry_run: bool = False) -> dict:
    fields = {"match": match_id, "date": day or date.today(), "reason": reason}
    return write_entry(ledger, "void", lambda club, path: fields, dry_run=dry_run)[0]
