"""fide, mfsnb and placement see typed events and the view's own fields, never the journal's storage."""
from pathlib import Path

import pytest

import nardrating.engines as engines

ROOT = Path(engines.__file__).parent
SOURCES = sorted([*ROOT.glob("fide/*.py"), *ROOT.glob("mfsnb/*.py"), ROOT / "placement.py"])
STORAGE = ("view.journal", ".journal.", "journal.matches", "player_codes", "tournament_codes", "timeline(",
           "view.order", "view.exclusion", "from ..journal", "from ...journal", "import journal")


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_storage_in_the_engine(source):
    text = source.read_text(encoding="utf-8")
    assert [word for word in STORAGE if word in text] == []


def test_modules_a_reader_can_hold():
    # Issue 11: no module over ~400 lines.
    assert SOURCES and max(len(p.read_text(encoding="utf-8").splitlines()) for p in SOURCES) < 400
