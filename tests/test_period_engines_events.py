"""Every engine sees typed events, batch columns and the view's typed lookups, never the journal's storage."""
import ast
import dataclasses
from pathlib import Path

import pytest

import nardrating.engines as engines
from nardrating.contract import events
from nardrating.datarecords import is_frozen

ROOT = Path(engines.__file__).parent
# The [fast] extra's compiled loops (fibs, elo, glicko) are engines' loops too: they read the same batched events.
# The contract (events, batches, the view protocol) is what engines see: it holds no storage either.
SOURCES = sorted(ROOT.rglob("*.py")) + [ROOT.parent / "fast" / name for name in ("fibsloop.py", "eloloop.py", "glickoloop.py")] + sorted((ROOT.parent / "contract").rglob("*.py"))
STORAGE = ("view.journal", ".journal.", "journal.matches", "player_codes", "tournament_codes", "timeline(",
           "view.order", "view.exclusion", "from ..journal", "from ...journal", "import journal")
# Names of the journal's storage (its columns' containers and code tables) an engine must not reach.
STORAGE_NAMES = {"journal", "player_codes", "discipline_codes", "tournament_codes", "voided", "excluded_rows",
                 "line_of", "match_index"}
# contract/events.py names the journal's small frozen records (typed values, no storage) for the engines.
RECORDS = {"Adjust", "Player", "Tournament"}


def _label(path):
    return str(path.relative_to(ROOT.parent))


def _journal_imports(tree):
    return [(node.module, [alias.name for alias in node.names]) for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and "journal" in (node.module or "")] + \
           [(alias.name, []) for node in ast.walk(tree) if isinstance(node, ast.Import)
            for alias in node.names if "journal" in alias.name]


@pytest.mark.parametrize("source", SOURCES, ids=_label)
def test_no_storage_in_the_engine(source):
    text = source.read_text(encoding="utf-8")
    tree = ast.parse(text)
    words = [word for word in STORAGE if word in text and not (source.name == "events.py" and "journal" in word)]
    names = sorted({node.id for node in ast.walk(tree) if isinstance(node, ast.Name)} & STORAGE_NAMES
                   | {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)} & STORAGE_NAMES
                   | {node.arg for node in ast.walk(tree) if isinstance(node, ast.arg)} & STORAGE_NAMES)
    imports = _journal_imports(tree)
    if source.name == "events.py":
        imports = [(module, names) for module, names in imports if module != "journal.model" or set(names) - RECORDS]
    assert (words, names, imports) == ([], [], [])


def test_the_journal_records_engines_see_are_frozen_values():
    for name in RECORDS:
        record = getattr(events, name)
        assert dataclasses.is_dataclass(record) and is_frozen(record), name


def test_the_check_catches_storage():
    # The checks above can fail: a module that reads the journal's columns is caught three ways.
    bad = ast.parse("from ..journal.model import Journal\n"
                    "def f(view):\n    return view.journal.player_codes.names\n")
    assert _journal_imports(bad) == [("journal.model", ["Journal"])]
    assert {node.attr for node in ast.walk(bad) if isinstance(node, ast.Attribute)} & STORAGE_NAMES \
        == {"journal", "player_codes"}


def test_modules_a_reader_can_hold():
    # Issue 11: no module over ~400 lines.
    longest = max(SOURCES, key=lambda p: len(p.read_text(encoding="utf-8").splitlines()))
    assert len(longest.read_text(encoding="utf-8").splitlines()) <= 400, _label(longest)
