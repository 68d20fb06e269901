"""docs/architecture.md stays true to the code: every folder of the package and every module at its
top has a row, and every module or folder a row names exists where the row says."""
import re

from .doc_examples import ROOT

PACKAGE = ROOT / "nardrating"
PAGE = ROOT / "docs" / "architecture.md"


def rows() -> list[tuple[str, str]]:
    """(first cell, second cell) of the page's table, without the heading row."""
    found = []
    for line in PAGE.read_text(encoding="utf-8").split("\n"):
        if m := re.fullmatch(r"\| `([^`]+)` \| (.*) \|", line):
            found.append((m[1], m[2]))
    return found


def test_every_folder_and_top_module_has_a_row():
    named = " ".join(f"`{first}` {second}" for first, second in rows())
    folders = sorted(str(p.parent.relative_to(PACKAGE)) + "/" for p in PACKAGE.rglob("__init__.py") if p.parent != PACKAGE)
    missing = [f for f in folders if f"`{f}`" not in named and f"`{f.rsplit('/', 2)[-2]}/`" not in named]
    modules = [p.name for p in PACKAGE.glob("*.py") if p.name != "__init__.py"]
    missing += [m for m in modules if f"`{m}`" not in named]
    assert not missing, f"docs/architecture.md has no row naming {missing}"


def test_what_a_row_names_exists():
    wrong = []
    for first, second in rows():
        base = PACKAGE / first if first.endswith("/") else PACKAGE
        if not base.exists() and first != "Folder / module":
            wrong.append(first)
            continue
        for name in re.findall(r"`([\w/]+(?:\.py|/))`", second):
            if not ((base / name).exists() or (PACKAGE / name).exists()):
                wrong.append(f"{first}: {name}")
    assert rows() and not wrong, f"docs/architecture.md names what is not there: {wrong}"
