"""Shared by the import tests: the real files' folder and a way to read a club's journal back."""
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
    return tomllib.loads((club / "journal.toml").read_text(encoding="utf-8")).get(kind, [])
