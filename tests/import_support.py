"""Shared by the import tests: the real files' folder and a way to read a club's journal back."""
import functools
import json
import tomllib
from pathlib import Path

import pytest

# The real public files live beside the project (../shared), in CI too; never copied into it.
REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "imports"
needs_real = pytest.mark.skipif(not (REAL / "expected.json").is_file(),
                                reason=f"the real import files are not at {REAL} (../shared/data/imports)")


def expected(name: str) -> dict:
    return json.loads((REAL / "expected.json").read_text(encoding="utf-8"))["files"][name]


def entries(club: Path, kind: str) -> list[dict]:
    """The journal's entries of one kind, as tomllib reads them (read once per journal text: the tests
    ask a big imported journal for its kinds one after another; they only read what is returned)."""
    return _parsed((club / "journal.toml").read_text(encoding="utf-8")).get(kind, [])


@functools.lru_cache(maxsize=4)
def _parsed(text: str) -> dict:
    return tomllib.loads(text)
