"""The club config, ``nardrating.toml``: which journal files, which rating lists.

Each ``[rating.NAME]`` table names an engine; the keys besides ``engine`` and
``disciplines`` are that engine's parameters, checked by the engine's own
pydantic model so that a typo is caught with the file, table and key.
"""
from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .datarecords import datarecord, field
from .errors import LedgerError, Problem, did_you_mean
from .i18n import N_, _
from .journal.ids import is_plain_id
from .journal.tomlsource import header_lines, key_line, parse_toml, read_text, shown

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError

CONFIG_NAME = "nardrating.toml"
# The journal's entry kinds ([[match]] …), by which a journal given as the config is told apart; the
# same as the entry models' (journal/entries.py, playentries.py: a test keeps them so), named here
# without importing them.
JOURNAL_KINDS = frozenset({"player", "match", "tournament", "void", "adjust", "rename", "merge", "list",
                           "edit-player", "round", "join", "withdraw"})


@cache
def club_model() -> type[BaseModel]:
    """The [club] table's pydantic model, built when a config is checked (not when one is read from the cache)."""
    from pydantic import BaseModel, ConfigDict, field_validator

    class ClubSection(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True)

        name: str = ""
        journal: list[str] = ["journal.toml"]
        default_discipline: str = "chess"
        as_of: Literal["last-entry", "today"] = "last-entry"  # the date commands mean without --as-of
        language: str = "en"  # what the club publishes for others (publish, report/leaderboard -f md|xlsx)
        pairing_command: list[str] | None = None  # a Dutch pairing program (bbpPairings, JaVaFo): TRF in, pairs out

        @field_validator("language")
        @classmethod
        def _shipped(cls, value: str) -> str:
            from .i18n import LANGUAGES, _

            if value not in LANGUAGES:
                raise ValueError(_("the language must be one of {allowed} (the languages nardrating speaks)").format(
                    allowed=", ".join(f'"{lang}"' for lang in LANGUAGES)))
            return value

    return ClubSection


@datarecord(frozen=True)
class Club:
    """The checked [club] table."""

    name: str = ""
    journal: list[str] = field(default_factory=lambda: ["journal.toml"])
    default_discipline: str = "chess"
    as_of: Literal["last-entry", "today"] = "last-entry"  # the date commands mean without --as-of
    language: str = "en"  # what the club publishes for others (publish, report/leaderboard -f md|xlsx)
    pairing_command: list[str] | None = None  # a Dutch pairing program (bbpPairings, JaVaFo): TRF in, pairs out


class ParamValues:
    """A list's engine parameters as a checked config gave them, read back from the cache: the values
    of the engine's model by attribute (engines read nothing else of it), without building the model."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.__dict__.update(values)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("parameters are frozen")

    def __repr__(self) -> str:
        return f"ParamValues({self.__dict__!r})"


@datarecord(frozen=True)
class RatingList:
    """One checked [rating.NAME] table: the list's name, engine, parameters, disciplines and header line."""

    name: str
    engine: str
    params: Any                          # the engine's Params model, or the same values as ParamValues
    disciplines: tuple[str, ...] | None  # None: every discipline
    line: int | None = None

    def rates(self, discipline: str) -> bool:
        return self.disciplines is None or discipline in self.disciplines


@datarecord(frozen=True)
class ClubConfig:
    """A club's checked nardrating.toml: its [club] table, its rating lists by name, and the file's text."""

    path: Path  # the nardrating.toml file
    club: Club
    ratings: dict[str, RatingList] = field(default_factory=dict)
    text: str = ""

    @property
    def folder(self) -> Path:
        return self.path.parent

    def journal_paths(self) -> list[Path]:
        return [self.folder / name for name in self.club.journal]

    def rating(self, name: str | None) -> RatingList:
        if not self.ratings:
            raise LedgerError([Problem(str(self.path), None, _("no [rating.NAME] table: add one, e.g. [rating.club] with engine = \"elo\""))])
        if name is None:
            return next(iter(self.ratings.values()))
        if name not in self.ratings:
            raise LedgerError([Problem(str(self.path), None,
                _("there is no rating list {name!r}{hint}; the lists are: {lists}").format(
                    name=name, hint=did_you_mean(name, self.ratings), lists=", ".join(self.ratings)))])
        return self.ratings[name]


def display_path(path: Path) -> str:
    """A path as the user would type it: relative to the current folder when inside it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def inside_club(folder: Path, path: Path) -> Path | None:
    """`path` with every symlink and `..` resolved, if that lies inside the club folder; else None.

    A journal is the club's record: `../x.toml`, an absolute path elsewhere or a symlink
    pointing out of the folder would read and write files that are not the club's.
    """
    root = os.path.realpath(folder)
    target = os.path.realpath(path)
    if target == root or os.path.commonpath([root, target]) != root:
        return None
    return Path(target)


def _link_note(path: Path) -> str:
    """' (a symbolic link to X)' when following links is what takes `path` elsewhere."""
    target = os.path.realpath(path)
    return "" if target == os.path.abspath(path) else _(" (a symbolic link to {target!r})").format(target=target)


def near_name(path: Path) -> str | None:
    """A file beside a missing one that is likely it: the same name in another case, or with an
    extension added after it (Windows hides the .txt an editor adds)."""
    try:
        names = sorted(p.name for p in path.parent.iterdir() if p.is_file())
    except OSError:
        return None
    wanted = path.name.casefold()
    return next((n for n in names if n.casefold() == wanted or n.casefold().startswith(wanted + ".")), None)


def find_club(club: str | os.PathLike[str] | None) -> Path:
    """--club, else $NARDRATING_CLUB, else the nearest nardrating.toml upward."""
    from_env = club is None
    if club is None:
        club = os.environ.get("NARDRATING_CLUB") or None
    # exists(), not is_file(): a FIFO or folder named nardrating.toml is reported by
    # load_config as what it is, rather than passed over.
    if club is not None:
        path = Path(club)
        if path.is_dir():
            path = path / CONFIG_NAME
        if not path.exists():
            if from_env:
                raise LedgerError([Problem(str(path), None, _(
                    "no club config here, where NARDRATING_CLUB names the club: set it to a folder holding "
                    "nardrating.toml, or give --club"))])
            near = near_name(path)
            if near is not None:
                raise LedgerError([Problem(str(path), None, _("no club config here, but the folder has {near}: rename it "
                                                              "{name}").format(near=near, name=CONFIG_NAME))])
            raise LedgerError([Problem(str(path), None, _("no club config here: give --club a folder holding nardrating.toml, or run `nardrating init`"))])
        return path
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        candidate = folder / CONFIG_NAME
        if candidate.exists():
            return candidate
    near = near_name(here / CONFIG_NAME)
    if near is not None:
        raise LedgerError([Problem(str(here), None, _("no club config here, but the folder has {near}: rename it "
                                                      "{name}").format(near=near, name=CONFIG_NAME))])
    raise LedgerError([Problem(str(here), None, _("no nardrating.toml in this folder or above it: pass --club PATH, set NARDRATING_CLUB, or run `nardrating init`"))])


# pydantic's own sentences of the errors a config meets (its English, as pydantic writes it), put
# into the current language by describe_validation_error; a sentence not here stays pydantic's.
PYDANTIC_SENTENCES = (
    N_("Input should be greater than {gt}"), N_("Input should be greater than or equal to {ge}"),
    N_("Input should be less than {lt}"), N_("Input should be less than or equal to {le}"),
    N_("Input should be a valid integer, got a number with a fractional part"),
    N_("Input should be a valid integer, unable to parse string as an integer"), N_("Input should be a valid integer"),
    N_("Input should be a finite number"), N_("Input should be a valid number, unable to parse string as a number"),
    N_("Input should be a valid number"), N_("Input should be a valid boolean, unable to interpret input"),
    N_("Input should be a valid boolean"), N_("Input should be a valid string"), N_("Input should be a valid tuple"),
    N_("Input should be a valid list"), N_("Input should be a valid dictionary"),
    N_("Tuple should have at most {max} items after validation, not {actual}"),
    N_("Tuple should have at least {min} items after validation, not {actual}"),
    N_("Tuple should have at most {max} item after validation, not {actual}"),
    N_("Tuple should have at least {min} item after validation, not {actual}"),
)
PYDANTIC_LITERAL = N_("Input should be {expected}")   # expected: a Literal's values, "'a', 'b' or 'c'"


def pydantic_words(sentence: str) -> str:
    """A pydantic error's sentence (or our validator's, already in the language) in the current language."""
    from .i18n import DEFAULT, current

    if current() == DEFAULT:
        return sentence
    from .engines.wording import worded

    if sentence.startswith("Input should be '") and sentence.endswith("'"):
        return worded(sentence, (PYDANTIC_LITERAL,)).replace("' or '", "' " + _("or") + " '")
    return worded(sentence, PYDANTIC_SENTENCES)


def describe_validation_error(exc: ValidationError, label: str, text: str, table: str,
                              header: int | None, model: type[BaseModel]) -> list[Problem]:
    problems = []
    allowed = ", ".join(model.model_fields)
    for err in exc.errors():
        key = ".".join(str(part) for part in err["loc"]) or _("(table)")
        top = str(err["loc"][0]) if err["loc"] else ""
        line = key_line(text, header, top) if top else header
        if err["type"] == "extra_forbidden":
            msg = _("[{table}] has an unknown key {key!r}{hint}; allowed keys: {allowed}").format(
                table=table, key=top, hint=did_you_mean(top, model.model_fields), allowed=allowed)
        elif err["type"] == "missing":
            msg = _("[{table}] needs the key {key!r}").format(table=table, key=key)
        else:
            reason = err["msg"].removeprefix("Value error, ")  # our validator's own sentence, not pydantic's label
            msg = _("[{table}] {key}: {reason} (got {value})").format(
                table=table, key=key, reason=pydantic_words(reason), value=shown(err.get("input")))
        problems.append(Problem(label, line, msg))
    return problems


def load_config(path: Path) -> ClubConfig:
    """Read and check the config; raise LedgerError listing every problem."""
    from pydantic import ValidationError

    from .engines.registry import engine_class, engine_names

    label = display_path(path)
    problems: list[Problem] = []
    text = read_text(path, problems, label)
    data = parse_toml(text, label, problems) if text is not None else None
    if text is None or data is None:
        raise LedgerError(problems)
    headers = header_lines(text)

    def first(name: str) -> int | None:
        lines = headers.get(name)
        return lines[0] if lines else None

    unknown = set(data) - {"club", "rating"}
    if unknown & JOURNAL_KINDS and not {"club", "rating"} & set(data):  # --club named the journal, not the config
        raise LedgerError([Problem(label, None, _(
            "this is a journal, not a club config: give --club the club's folder ({folder}) or its {config}").format(
            folder=display_path(path.parent), config=CONFIG_NAME))])
    for key in sorted(unknown):
        problems.append(Problem(label, first(key) or key_line(text, 1, key),
                                _("unknown table or key {key!r}; a config holds [club] and [rating.NAME] tables").format(key=key)))
    ClubSection = club_model()
    club: Any = ClubSection()
    raw_club = data.get("club", {})
    if not isinstance(raw_club, dict):
        problems.append(Problem(label, first("club") or key_line(text, 1, "club"), _("[club] must be a table")))
        raw_club = {}
    if isinstance(raw_club.get("journal"), str):
        raw_club = {**raw_club, "journal": [raw_club["journal"]]}
    try:
        club = ClubSection(**raw_club)
    except ValidationError as exc:
        problems += describe_validation_error(exc, label, text, "club", first("club"), ClubSection)
    # A plain id is one by the rule without importing the journal entries' pydantic models, which a
    # command that reads its journal from the cache never needs.
    if "default_discipline" in raw_club and not is_plain_id(club.default_discipline):
        from .journal.entries import id_message, id_problem

        if id_problem(club.default_discipline):
            problems.append(Problem(label, key_line(text, first("club"), "default_discipline"),
                                    f"default_discipline: {id_message(club.default_discipline)}"))
    # The club's name heads every page of the site and every table: text as the journal's names
    # are (no control characters, at most MAX_TEXT long).
    if club.name and (not club.name.isprintable() or len(club.name) > 200):
        from .journal.entries import text_problem

        problem = text_problem(club.name)
        if problem:
            problems.append(Problem(label, key_line(text, first("club"), "name"),
                                    _("[club] name: {problem}; write the club's name as plain text").format(
                                        problem=problem)))
    for name in club.journal:
        if not name.endswith((".toml", ".csv")):
            problems.append(Problem(label, key_line(text, first("club"), "journal"),
                                    _("journal file {name!r} must end in .toml or .csv").format(name=name)))
        elif "\0" in name:  # the operating system refuses such a path outright
            problems.append(Problem(label, key_line(text, first("club"), "journal"),
                                    _("journal file {name!r} holds a NUL character").format(name=name)))
        elif inside_club(path.parent, path.parent / name) is None:
            problems.append(Problem(label, key_line(text, first("club"), "journal"),
                                    _("[club] journal: {name!r}{link} is outside the club folder; journal files must "
                                      "live in the club folder (or a folder below it)").format(
                                        name=name, link=_link_note(path.parent / name))))

    ratings: dict[str, RatingList] = {}
    raw_ratings = data.get("rating", {})
    if not isinstance(raw_ratings, dict):
        raw_ratings = {}
        problems.append(Problem(label, None, _("rating must be tables like [rating.club]")))
    for name, raw in raw_ratings.items():
        table = f"rating.{name}"
        header = first(table)
        if not name.isprintable():
            from .journal.entries import control_problem

            problem = control_problem(name)
            if problem:
                problems.append(Problem(label, header, _("[rating.{name}]: the list's name: {problem}").format(
                    name=shown(name), problem=problem)))
                continue
        if not isinstance(raw, dict):
            problems.append(Problem(label, header, _("[{table}] must be a table").format(table=table)))
            continue
        raw = dict(raw)
        engine_name = raw.pop("engine", None)
        disciplines = raw.pop("disciplines", None)
        if engine_name is None:
            problems.append(Problem(label, header, _("[{table}] needs engine = one of: {engines}").format(
                table=table, engines=", ".join(engine_names()))))
            continue
        if engine_name not in engine_names():
            problems.append(Problem(label, key_line(text, header, "engine"),
                _("[{table}] engine {engine!r} is unknown{hint}; allowed: {engines}").format(
                    table=table, engine=engine_name, hint=did_you_mean(str(engine_name), engine_names()),
                    engines=", ".join(engine_names()))))
            continue
        if disciplines is not None and (not isinstance(disciplines, list)
                                        or not all(isinstance(d, str) for d in disciplines)):
            problems.append(Problem(label, key_line(text, header, "disciplines"),
                                    _("[{table}] disciplines must be a list of names, like [\"long-nardy\"]").format(table=table)))
            continue
        engine = engine_class(engine_name)
        try:
            params = engine.parse_params(raw)
        except ValidationError as exc:
            problems += describe_validation_error(exc, label, text, table, header, engine.Params)
            continue
        except ValueError as exc:
            problems.append(Problem(label, header, f"[{table}] {exc}"))
            continue
        ratings[name] = RatingList(name, engine_name, params,
                                   tuple(disciplines) if disciplines is not None else None, header)
    if not raw_ratings and not problems:
        problems.append(Problem(label, None, _("no rating list: add a [rating.NAME] table with an engine")))
    if problems:
        raise LedgerError(problems)
    return ClubConfig(path=path, club=Club(**club.model_dump()), ratings=ratings, text=text)
