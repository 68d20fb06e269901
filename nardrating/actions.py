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
from .journal.entries import ENTRY_MODELS, RESULT_HELP, RULES, Entry, MatchEntry, entry_errors, parse_result, valid_id
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


def journal_after(ledger, path: Path, kinds, block: str):
    """`ledger` as a full read of the journal with `block` appended would find it; LedgerError if refused.

    The block (one entry or several, of `kinds`) is read into the loaded journal as the appended
    bytes of `path`, and the journal and engine checks run as they do when a grown journal is read
    (validate.py). Problems of the new entries carry no line: they are not in the file.
    """
    from .journal.identities import apply_identities
    from .journal.reader import read_toml_journal
    from .journal.validate import finish_players, validate

    kinds = {kinds} if isinstance(kinds, str) else set(kinds)
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
    problems += apply_identities(journal)
    if not problems:
        match = kinds == {"match"}
        problems = validate(journal, config, first_match if match else len(journal.matches), others=not match)
    if problems:
        raise LedgerError([Problem(p.file, p.line if p.line is None or p.line <= old_lines else None,
                                   p.message, p.entry) for p in problems])
    ledger._runs.clear()
    ledger.dirty = True  # the new entry is in memory only: nothing computed from it may be cached
    return ledger


@dataclass
class Moved:
    """One rating of the current list that a correction changes."""
    rating: str
    discipline: str
    player: str
    before: float | None
    after: float | None


def current_ratings(club, day: date | None) -> dict[tuple[str, str], dict[str, float | None]]:
    """Every list's standings (rating per player) on `day`, per (list, discipline)."""
    found = {}
    for rating in club.config.ratings.values():
        for discipline in club.disciplines(rating):
            run = club.run(rating, discipline, day)
            found[(rating.name, discipline)] = {p: s.rating for p, s in run.standings.items()}
    return found


def what_changed(before: dict, after: dict) -> list[Moved]:
    moved = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key, {}), after.get(key, {})
        for player in sorted(set(old) | set(new)):
            x, y = old.get(player), new.get(player)
            if x is None and y is None or x is not None and y is not None and round(x, 2) == round(y, 2):
                continue
            moved.append(Moved(key[0], key[1], player, x, y))
    return moved


def write_entry(ledger, kind: str, make_fields, *, check=None, preview=None, dry_run: bool = False,
                compare: bool = False):
    """Build, check and append one entry; see write_entries."""
    entries, shown, moved = write_entries(ledger, [(kind, make_fields)], check=check, preview=preview,
                                          dry_run=dry_run, compare=compare)
    return entries[0], shown, moved


def write_entries(ledger, makers, *, check=None, preview=None, dry_run: bool = False, compare: bool = False):
    """Build, check and append entries in one atomic write; (the entries as written,
    preview(club after, last entry) or None, the ratings that change (with `compare`) or None).

    Under the club lock (not for a dry run) the club is loaded afresh, so the checks and the
    preview see every entry another writer appended before this one. Each of `makers` is
    (kind, make_fields); `make_fields(club, path)` gives the entry's fields; `check(club, entry)`
    refuses what the command line says better. With `compare`, every rating of the current
    lists (as of the journal's last date) that differs after the write is returned.
    """
    from .ledger import load_club
    from .reports import last_entry_date

    path = target_journal(ledger)
    with (nullcontext() if dry_run else club_lock(ledger.config.folder)):
        current = load_club(ledger.config.path)
        built = []
        for kind, make_fields in makers:
            entry = build_entry(current, kind, make_fields(current, path))
            if check is not None:
                check(current, entry)
            built.append((kind, entry))
        block = "\n".join(serialised(current, kind, entry) for kind, entry in built)
        if callable(compare):
            compare = compare(current)
        last_before = last_entry_date(current.journal)
        before = current_ratings(current, last_before) if compare else None
        after = journal_after(current, path, [kind for kind, _ in built], block)
        shown = preview(after, built[-1][1]) if preview is not None else None
        moved = None
        if compare:
            day = last_entry_date(after.journal)
            if day != last_before:  # the current lists are of the later date, before and after
                before = None
            moved = what_changed(before if before is not None else _ratings_before(ledger, day),
                                 current_ratings(after, day))
        if not dry_run:
            append_block(path, block)
    return [entry.model_dump(exclude_defaults=True) for _, entry in built], shown, moved


def _ratings_before(ledger, day):
    """The lists on `day` as the journal stands without the new entries (loaded again: the
    club loaded under the lock now holds them)."""
    from .ledger import load_club

    return current_ratings(load_club(ledger.config.path), day)


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


@dataclass
class MatchArgs:
    """add-match's options; for amend, None means "as in the original match"."""
    a: str | None = None
    b: str | None = None
    winner: str | None = None
    result: str | None = None
    day: date | None = None
    length: int | None = None
    score: str | None = None
    discipline: str | None = None
    tournament: str | None = None
    rated: bool | None = None
    forfeit: bool | None = None
    note: str | None = None
    chips: float | None = None
    new_discipline: bool = False


def _check_outcome(ledger, winner, result) -> None:
    if winner is not None and result is not None:
        _refuse(ledger, "give --winner PLAYER or --result 1-0 / 0-1 / 1/2-1/2, not both")
    if result is not None and parse_result(result) is None:
        _refuse(ledger, f"--result {shown(result)} is not a result; write {RESULT_HELP}")


def rated_disciplines(club) -> list[str]:
    """Disciplines a list rates that the club knows: named by a list, the default, or in the journal."""
    known = [club.config.club.default_discipline, *club.journal.disciplines()]
    for rating in club.config.ratings.values():
        known += rating.disciplines or []
    return [d for d in dict.fromkeys(known) if any(r.rates(d) for r in club.config.ratings.values())]


def check_discipline(club, discipline: str, new_discipline: bool) -> None:
    """Refuse a discipline no list rates, or one the club has never seen, unless --new-discipline:
    the usual way a typo ("long-nardi", "shess") starts a rating of its own."""
    if new_discipline:
        return
    rated = rated_disciplines(club)
    if discipline in rated:
        return
    lists = ", ".join(f"{r.name} ({', '.join(r.disciplines or ['any'])})" for r in club.config.ratings.values())
    why = ("no rating list rates it" if not any(r.rates(discipline) for r in club.config.ratings.values())
           else "the club has no game of it yet")
    _refuse(club, f"--discipline {discipline!r}: {why}{did_you_mean(discipline, rated)}; rating lists: {lists}; "
                  "to start a new discipline on purpose, add --new-discipline")


def _match_check(new_discipline: bool):
    def check(club, entry):
        for player in entry.players:
            if player not in club.journal.players:
                hint = did_you_mean(player, club.journal.players)
                _refuse(club, f"unknown player {player!r}{hint}; "
                              + ("if it is a new player, " if hint else "") + f"add them first: nardrating add-player {player}")
        if entry.winner is not None and entry.winner not in entry.players:
            _refuse(club, f"--winner {entry.winner!r} is neither {entry.players[0]!r} nor {entry.players[1]!r}")
        if entry.discipline is not None:
            check_discipline(club, entry.discipline, new_discipline)
    return check


def _changes(club, entry) -> list[Change]:
    """Each player's change in every list that rates the new match (as the journal now is)."""
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


def _new_match_id(club, path) -> str:
    text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
    return next_match_id(text, club.journal)


def _back_dated(club, day: date) -> bool:
    return club.journal.max_date > 0 and day.toordinal() < club.journal.max_date


def add_match(ledger, a: str, b: str, *, winner: str | None = None, result: str | None = None,
              day: date | None = None, length: int = 1, score: str | None = None,
              discipline: str | None = None, tournament: str | None = None, rated: bool = True,
              forfeit: bool = False, note: str | None = None, chips: float | None = None,
              new_discipline: bool = False, dry_run: bool = False):
    """Append a [[match]]; (the entry, each player's change in every list that rates it, computed
    from the journal as written, and for a back-dated match every rating of the current lists
    that changes, or None)."""
    if winner is None and result is None:
        _refuse(ledger, "say who won: --winner PLAYER or --result 1-0 / 0-1 / 1/2-1/2")
    _check_outcome(ledger, winner, result)
    points = parse_score(score)
    day = day or date.today()

    def fields(club, path):
        known = club.journal.tournaments.get(tournament) if tournament is not None else None
        return {"id": _new_match_id(club, path), "date": day, "players": [a, b],
                "result": result, "winner": winner, "length": length, "score": points, "chips": chips,
                "discipline": discipline or (known.discipline if known else club.config.club.default_discipline),
                "tournament": tournament, "rated": rated, "forfeit": forfeit, "note": note}

    return write_entry(ledger, "match", fields, check=_match_check(new_discipline), preview=_changes,
                       dry_run=dry_run, compare=lambda club: _back_dated(club, day))


# --- amend and undo ---------------------------------------------------------------

def _original(club, match_id: str):
    """The match to correct: known and not voided, else refused."""
    found = club.journal.match_by_id(match_id)
    if found is None:
        _refuse(club, f"unknown match {match_id!r}{did_you_mean(match_id, club.journal.match_index)}")
    void = club.journal.voided.get(found.index)
    if void is not None:
        _refuse(club, f"match {match_id!r} is already voided at {void.file}:{void.line} ({void.reason}); "
                      "correct the match that replaced it, or enter it again with add-match", match_id)
    return found


def _outcome_of(m) -> tuple[str | None, str | None]:
    """(winner, result) that say the match's score again."""
    if m.score_a == 1.0:
        return m.a, None
    if m.score_a == 0.0:
        return m.b, None
    return None, "1/2-1/2"


def _corrected_fields(original, given: MatchArgs, match_id: str, amends: str) -> dict:
    players = [given.a or original.a, given.b or original.b]
    winner, result = given.winner, given.result
    if winner is None and result is None:
        winner, result = _outcome_of(original)
    pick = lambda new, old: old if new is None else new  # noqa: E731
    return {"id": match_id, "date": given.day or original.date, "players": players,
            "result": result, "winner": winner, "length": pick(given.length, original.length),
            "score": pick(parse_score(given.score), list(original.score) if original.score else None),
            "chips": pick(given.chips, original.chips), "discipline": pick(given.discipline, original.discipline),
            "tournament": pick(given.tournament, original.tournament), "rated": pick(given.rated, original.rated),
            "forfeit": pick(given.forfeit, original.forfeit), "note": pick(given.note, original.note),
            "amends": amends}


def _correct(ledger, match_id: str, make_match, reason: str | None, day: date | None, check, dry_run: bool):
    """Void `match_id` and append the match `make_match(club, original, new id)` gives, in one write."""
    new_id: dict = {}

    def void_fields(club, path):
        _original(club, match_id)
        new_id["id"] = _new_match_id(club, path)
        return {"match": match_id, "date": day or date.today(), "reason": reason or f"amended by {new_id['id']}"}

    def match_fields(club, path):
        return make_match(club, club.journal.match_by_id(match_id), new_id["id"])

    entries, changes, moved = write_entries(ledger, [("void", void_fields), ("match", match_fields)],
                                            check=check, preview=_changes, dry_run=dry_run, compare=True)
    return entries, changes, moved


def amend_match(ledger, match_id: str, given: MatchArgs, reason: str | None = None, dry_run: bool = False):
    """[[void]] of the match and its corrected [[match]] (amends = the match), in one write.

    Options not given are the original's; the date is the original's unless given (the void is
    dated today: the day of the correction)."""
    _check_outcome(ledger, given.winner, given.result)
    new_discipline_check = _match_check(given.new_discipline)

    def check(club, entry):
        if isinstance(entry, MatchEntry):
            new_discipline_check(club, entry)

    return _correct(ledger, match_id, lambda club, original, new: _corrected_fields(original, given, new, match_id),
                    reason, None, check, dry_run)


@dataclass
class LastEntry:
    kind: str
    text: str        # as written in the journal
    match: object    # the MatchView of a [[match]], else None


def last_entry(ledger) -> LastEntry:
    """The last entry of the file this club writes to, as written there."""
    import tomllib

    from .tomlsource import header_lines

    path = target_journal(ledger)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    headers = sorted((line, kind) for kind, lines in header_lines(text).items() for line in lines)
    if not headers:
        raise ActionRefused(f"{display_path(path)}: no entry to undo; the file holds none")
    line, kind = headers[-1]
    block = "\n".join(text.splitlines()[line - 1:]).strip() + "\n"
    match = None
    if kind == "match":
        entry_id = tomllib.loads(block)["match"][0].get("id")
        match = ledger.journal.match_by_id(entry_id) if entry_id else None
    return LastEntry(kind, block, match)


UNDO_INSTEAD = {
    "player": "a player cannot be removed from an append-only journal; if the id is a typo, "
              "rename it (nardrating rename-player OLD NEW) or merge it into the right one (merge-players DUP INTO)",
    "tournament": "a tournament cannot be removed; correct its matches with amend or void, and add the right "
                  "tournament under a new id",
    "void": "a void cannot be voided; enter the match again with add-match (or amend the match that replaced it)",
    "adjust": "an adjustment is undone by another: add an [[adjust]] with the opposite delta",
    "rename": "a rename is undone by another: nardrating rename-player NEW OLD",
    "merge": "a merge cannot be undone by the journal; edit the file by hand if it was never published",
}


def undo(ledger, dry_run: bool = False):
    """Void the last match this club wrote; an amend's match: void it and enter the original again."""
    last = last_entry(ledger)
    if last.kind != "match" or last.match is None:
        raise ActionRefused(f"the last entry is a [[{last.kind}]], which undo does not void: "
                            f"{UNDO_INSTEAD.get(last.kind, 'edit the journal by hand')}")
    amended = ledger.journal.match(last.match.index)
    original_id = ledger.journal.matches.extra.get(amended.index, {}).get("amends")
    reason = "undone"
    if original_id is None:
        entry, _, moved = write_entry(ledger, "void", lambda club, path: {
            "match": amended.id, "date": date.today(), "reason": reason}, compare=True, dry_run=dry_run)
        return [entry], [], moved

    def again(club, _, new_id):  # the original match's data, under a new id
        original = club.journal.match_by_id(original_id)
        return _corrected_fields(original, MatchArgs(), new_id, original_id)

    return _correct(ledger, amended.id, again, f"undone: {original_id} restored", None, None, dry_run)


# --- add-tournament and void -----------------------------------------------------

def add_tournament(ledger, tournament_id: str, *, name: str, system: str, start: date, end: date,
                   discipline: str | None = None, official: bool = False, dry_run: bool = False) -> dict:
    def fields(club, path):
        return {"id": tournament_id, "name": name, "system": system, "start": start, "end": end,
                "discipline": discipline or club.config.club.default_discipline, "official": official}

    return write_entry(ledger, "tournament", fields, dry_run=dry_run)[0]


def void_match(ledger, match_id: str, reason: str, day: date | None = None, dry_run: bool = False):
    """Append a [[void]]; (the entry, every rating of the current lists that changes)."""
    fields = {"match": match_id, "date": day or date.today(), "reason": reason}
    entry, _, moved = write_entry(ledger, "void", lambda club, path: fields, dry_run=dry_run, compare=True)
    return entry, moved


# --- rename-player and merge-players ---------------------------------------------

def rename_player(ledger, old: str, new: str, day: date | None = None, dry_run: bool = False) -> dict:
    """Append a [[rename]]: `old` is `new` in every entry, before and after."""
    def check(club, entry):
        _known_player(club, old)
        if new in club.journal.players:
            _refuse(club, f"{new!r} is already a player; if they are one person: nardrating merge-players {old} {new}")

    fields = {"player": old, "to": new, "date": day or date.today()}
    return write_entry(ledger, "rename", lambda club, path: fields, check=check, dry_run=dry_run)[0]


def merge_players(ledger, dup: str, into: str, day: date | None = None, dry_run: bool = False):
    """Append a [[merge]]: every entry of `dup` becomes `into`'s; (the entry, what changed)."""
    def check(club, entry):
        for player in (dup, into):
            _known_player(club, player)
        j = club.journal
        codes = {j.player_codes.index.get(dup), j.player_codes.index.get(into)}
        m = j.matches
        between = [m.ids[i] for i in range(len(m.ids)) if {m.a[i], m.b[i]} == codes]
        if between:
            _refuse(club, f"cannot merge {dup!r} into {into!r}: they played each other ({', '.join(between[:5])}"
                          f"{', …' if len(between) > 5 else ''}), which merged would be games against oneself; "
                          "if they are two people, keep both ids")

    fields = {"player": dup, "into": into, "date": day or date.today()}
    entry, _, moved = write_entry(ledger, "merge", lambda club, path: fields, check=check, dry_run=dry_run,
                                  compare=True)
    return entry, moved


def _known_player(club, player: str) -> None:
    if player not in club.journal.players:
        _refuse(club, f"unknown player {player!r}{did_you_mean(player, club.journal.players)}")
