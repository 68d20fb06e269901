"""init: a new club folder with a commented nardrating.toml and an empty journal."""
from __future__ import annotations

import os
from pathlib import Path

from ...config import CONFIG_NAME
from ...errors import ActionRefused, did_you_mean
from ...i18n import N_, _
from ..textrules import valid_id

CONFIG_TEMPLATE = '''# nardrating club config. Reference: the manual's "The club and its config" (docs/club.md).
[club]
name = {name}
journal = ["journal.toml"]          # replayed together, in this order; .toml or .csv
default_discipline = {discipline}
as_of = "last-entry"                # date of commands without --as-of: "last-entry" (the journal's) or "today"

{rating}
'''


def toml_value(value: object) -> str:
    """A default as TOML: inline arrays and tables, so each parameter stays on one line."""
    import tomli_w

    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    return tomli_w.dumps({"x": value})[4:].strip()  # a TOML literal of a string, number, bool or date


def toml_key(key: str) -> str:
    return key if valid_id(key) and key.isascii() else toml_value(key)


def engine_template(engine: str, discipline: str | None = None) -> str:
    """[rating.club] with every parameter of the engine: its default and what it means.

    A parameter without a fixed default (it depends on another, as fide's k on the ruleset)
    is written commented out.
    """
    from ...engines.registry import engine_class

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
    disciplines = f"# disciplines = [{toml_value(discipline or cls.default_discipline)}]"
    lines.append(f"{disciplines:<35} # disciplines it rates; omitted = all")
    return "\n".join(lines)


# What init prints (shown in the language of the command line; the files it writes stay English).
NEXT_STEPS = N_("""next steps:{cd}
  nardrating add-player anna --name "Анна Петрова"   # each player once
  nardrating add-match anna boris --winner anna      # after each game
  nardrating leaderboard                             # as of the last entry
  nardrating check                                   # after editing by hand""")


JOURNAL_TEMPLATE = '''# nardrating journal: append-only. Add entries with `nardrating add-player`,
# `nardrating add-match`, or by hand as [[player]], [[match]], [[tournament]],
# [[void]] and [[adjust]] tables (see the manual's "The journal", docs/journal.md).
'''


def next_steps(folder: Path) -> str:
    import shlex

    here = folder.resolve() == Path.cwd().resolve()
    return _(NEXT_STEPS).format(cd="" if here else f"\n  cd {shlex.quote(str(folder))}")


def init_club(folder: Path, engine: str = "elo", name: str | None = None, discipline: str | None = None) -> list[Path]:
    """Write the club's config and journal; (their paths). Refused if either exists.

    `discipline`: the club's default discipline (what add-match writes without --discipline);
    None: the engine's own (elo, fide: chess; the others: long-nardy).

    Each file is made whole where nothing is (not even a dangling link: init never writes through
    one), never over anything (safewrite.create_file); a failure takes back what this call made,
    folders included, so the folder is as it was."""
    from ...engines.registry import engine_class, engine_names
    from ...safewrite import create_file, remove_created
    from ..entries import id_message

    if engine not in engine_names():
        raise ActionRefused(_("unknown engine {engine!r}{hint}; allowed: {engines}").format(
            engine=engine, hint=did_you_mean(engine, engine_names()), engines=", ".join(engine_names())))
    if discipline is not None and not valid_id(discipline):
        raise ActionRefused(_("--discipline: {problem}; e.g. backgammon, long-nardy, short-nardy, chess").format(
            problem=id_message(discipline)))
    config, journal = folder / CONFIG_NAME, folder / "journal.toml"
    for path in (config, journal):
        if path.is_symlink():
            raise ActionRefused(_("{path} is a symbolic link; init never writes through one, so nothing was "
                                  "written. Remove it, or choose another folder.").format(path=path))
        if path.exists():
            raise ActionRefused(_("{path} already exists; init never overwrites. Choose another folder.").format(path=path))
    if os.path.lexists(folder) and not folder.is_dir():
        raise ActionRefused(_("{folder} is a file, not a folder; give init a new folder or an existing one, so "
                              "nothing was written").format(folder=folder))
    template = engine_template(engine, discipline)
    discipline = discipline or engine_class(engine).default_discipline
    made_folders = [f for f in (folder, *folder.parents) if not os.path.lexists(f)]
    made: list[tuple[Path, os.stat_result]] = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        text = CONFIG_TEMPLATE.format(name=toml_value(name or folder.resolve().name),
                                      discipline=toml_value(discipline), rating=template)
        made.append((config, create_file(config, text.encode("utf-8"))))
        made.append((journal, create_file(journal, JOURNAL_TEMPLATE.encode("utf-8"))))
    except BaseException as exc:
        for path, st in reversed(made):
            remove_created(path, st)
        for created in made_folders:  # the deepest first; only if still empty
            try:
                created.rmdir()
            except OSError:
                pass
        if isinstance(exc, OSError):
            raise ActionRefused(_("{path}: cannot make it: {error}; nothing was written").format(
                path=exc.filename if exc.filename is not None else folder, error=exc.strerror or exc)) from None
        raise
    return [config, journal]
