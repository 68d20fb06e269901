"""Keeping the catalogues: extract the messages from the source, update a language's `.po`, compile it.

    python -m nardrating.i18n.tools extract          # the template: nardrating.pot (stdout)
    python -m nardrating.i18n.tools init LANG        # a new language's .po, every message untranslated
    python -m nardrating.i18n.tools update [LANG]    # the .po files after the code's messages changed
    python -m nardrating.i18n.tools compile [LANG]   # the .mo files the package installs
    python -m nardrating.i18n.tools check [LANG]     # missing, untranslated, fuzzy or stale messages

The messages are what the code marks: `_()`, `N_()`, `ngettext()`, `pgettext()` (Babel's Python
extractor), and the commands' docstrings, which are their `--help` (see `command_docs`).
Maintenance only (Babel's catalogue tools); the commands themselves never import this module.
"""
from __future__ import annotations

import inspect
import io
from datetime import datetime, timezone
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from . import DOMAIN, LANGUAGES, LOCALE_DIR, DEFAULT

PACKAGE = Path(__file__).resolve().parent.parent
CREATED = datetime(2026, 12, 1, tzinfo=timezone.utc)  # a fixed header date: an update changes only messages
# The site's pages say their words with `{{ _("...") }}` (Jinja2's i18n extension).
METHODS = [("**.py", "python"), ("**/templates/**.html", "jinja2.ext:babel_extract")]
Message = tuple[str | tuple[str, str], str | None, str]  # (id or (singular, plural), context, where)


def command_docs() -> Iterator[tuple[str, str]]:
    """(docstring as typer shows it, where) of every command: its `--help` (the groups' are N_ in cli.py)."""
    from .. import cli

    for typer_app in (cli.app, cli.export_app):
        for info in typer_app.registered_commands:
            doc = inspect.getdoc(info.callback) if info.callback else None
            if doc and info.callback:
                yield doc, f"{inspect.getsourcefile(inspect.unwrap(info.callback))}"


def messages() -> list[Message]:
    """Every message of the source, in the order met."""
    found: list[Message] = []
    for filename, lineno, message, _comments, context in extract_from_dir(
            str(PACKAGE), method_map=METHODS, strip_comment_tags=True):
        if not message or (isinstance(message, tuple) and not message[0]):
            continue
        text = message if isinstance(message, str) else (message[0], message[1])
        found.append((text, context, f"nardrating/{filename}:{lineno}"))
    found += [(doc, None, Path(where).name) for doc, where in command_docs()]
    return found


def template() -> Catalog:
    catalog = Catalog(project=DOMAIN, version=None, charset="utf-8", fuzzy=False, creation_date=CREATED,
                      msgid_bugs_address="", copyright_holder="the nardrating authors")
    for message, context, where in messages():
        path, _, line = where.partition(":")
        catalog.add(message, locations=[(path, int(line) if line else 0)], context=context)
    return catalog


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(lang: str) -> Catalog:
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def write(catalog: Catalog, path: Path) -> None:
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=False, omit_header=False, include_lineno=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(out.getvalue())


def compiled(lang: str) -> bytes:
    """The `.mo` of a language's `.po`, as `compile` writes it (byte for byte the same each time)."""
    out = io.BytesIO()
    write_mo(out, read(lang), use_fuzzy=False)
    return out.getvalue()


def problems(lang: str) -> list[str]:
    """What is wrong with a language's catalogue: messages missing, untranslated, fuzzy or stale."""
    catalog, wanted = read(lang), template()
    out: list[str] = []
    for message in wanted:
        if not message.id:
            continue
        have = catalog.get(message.id, message.context)
        where = ", ".join(f"{p}:{n}" if n else p for p, n in message.locations)
        if have is None:
            out.append(f"missing: {message.id!r} ({where})")
        elif have.fuzzy or not all(have.string if isinstance(have.string, tuple) else (have.string,)):
            out.append(f"untranslated{' (fuzzy)' if have.fuzzy else ''}: {message.id!r} ({where})")
    for message in catalog:
        if message.id and wanted.get(message.id, message.context) is None:
            out.append(f"stale: {message.id!r}")
    return out


def main(argv: list[str]) -> int:
    command, langs = (argv[0] if argv else "check"), argv[1:] or [lang for lang in LANGUAGES if lang != DEFAULT]
    if command == "extract":
        out = io.BytesIO()
        write_po(out, template(), width=100)
        sys.stdout.write(out.getvalue().decode("utf-8"))
    elif command == "init":
        for lang in langs:
            catalog = template()
            catalog.locale = lang  # Babel parses the code into its plural forms
            write(catalog, po_path(lang))
    elif command == "update":
        for lang in langs:
            catalog = read(lang)
            catalog.update(template(), no_fuzzy_matching=True)
            catalog.obsolete.clear()
            write(catalog, po_path(lang))
    elif command == "compile":
        for lang in langs:
            po_path(lang).with_suffix(".mo").write_bytes(compiled(lang))
    elif command == "check":
        found = [f"{lang}: {p}" for lang in langs for p in problems(lang)]
        sys.stdout.write("".join(line + "\n" for line in found))
        return 1 if found else 0
    else:
        sys.stderr.write(__doc__ or "")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
