"""Every relative link and anchor of README.md and docs/*.md resolves (a file of the repository, a
heading of the page it names, as GitHub makes anchors of headings), and every page's headings go
down one level at a time from a single title."""
import re
import unicodedata
from pathlib import Path

import pytest

from .doc_examples import PAGES, ROOT

FENCE = re.compile(r"^(```+|~~~+)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
HTML = re.compile(r"<(?:a|img)\s[^>]*?(?:href|src)=\"([^\"]+)\"")
ANCHOR = re.compile(r"<a\s[^>]*?(?:id|name)=\"([^\"]+)\"")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def prose(page: Path) -> list[tuple[int, str]]:
    """(line number, text) of the page outside fenced code blocks, inline code spans blanked."""
    lines, fence = [], None
    for number, line in enumerate(page.read_text(encoding="utf-8").split("\n"), 1):
        if m := FENCE.match(line):
            if fence is None:
                fence = m[1]
            elif line.strip().startswith(fence) and not line.strip().strip(fence[0]):
                fence = None
            continue
        if fence is None:
            lines.append((number, re.sub(r"(`+)(?:(?!\1).)+?\1", lambda m: " " * len(m[0]), line)))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: the text as shown, lower case, without punctuation and symbols,
    spaces as hyphens (github-slugger)."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    text = re.sub(r"<[^>]+>", "", text).lower()
    kept = "".join(c for c in text if c.isalnum() or c in " -_" or unicodedata.category(c)[0] in "MN"
                   or unicodedata.category(c) == "Pc")
    return kept.replace(" ", "-")


def headings(page: Path) -> list[tuple[int, int, str]]:
    """(line, level, text) of every heading, the code spans' text kept."""
    text_lines = page.read_text(encoding="utf-8").split("\n")
    found = []
    for number, _ in prose(page):
        if m := HEADING.match(text_lines[number - 1]):
            found.append((number, len(m[1]), m[2]))
    return found


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for _, _, text in headings(page):
        base = slug(text)
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    for _, line in prose(page):
        found.update(ANCHOR.findall(line))
    return found


def links(page: Path) -> list[tuple[int, str]]:
    found = []
    for number, line in prose(page):
        for pattern in (LINK, REFERENCE, HTML):
            found.extend((number, target) for target in pattern.findall(line))
    return found


def broken(page: Path, root: Path = ROOT) -> list[str]:
    problems = []
    for number, target in links(page):
        if SCHEME.match(target):
            continue  # another site: not checked here
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        where = f"{page.relative_to(root)}:{number}: {target}"
        if not file.exists():
            problems.append(f"{where}: no such file")
        elif root not in file.parents:
            problems.append(f"{where}: outside the repository")
        elif anchor and (file.suffix != ".md" or anchor not in anchors(file)):
            problems.append(f"{where}: no heading or anchor #{anchor} in {file.relative_to(root)}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_links_resolve(page):
    assert not broken(page), "\n".join(broken(page))


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_headings_go_down_one_level_at_a_time(page):
    found = headings(page)
    assert found and found[0][1] == 1, f"{page.name}: the page starts with its title, a level-1 heading"
    assert [level for _, level, _ in found].count(1) == 1, f"{page.name}: one title"
    for (_, before, _), (line, level, text) in zip(found, found[1:]):
        assert level <= before + 1, f"{page.name}:{line}: '{text}' (level {level}) under a level {before}"


def test_every_page_is_in_the_index():
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    listed = {target.partition("#")[0] for _, target in links(ROOT / "docs" / "index.md")}
    assert index and {p.name for p in PAGES if p.parent.name == "docs" and p.name != "index.md"} <= listed


def test_the_checker_finds_what_is_broken(tmp_path):
    assert slug("`elo` — the chess-club Elo (seed 003)") == "elo--the-chess-club-elo-seed-003"
    assert slug("The rating commission: the period's list") == "the-rating-commission-the-periods-list"
    assert slug("Правила сезона 2009") == "правила-сезона-2009"
    (tmp_path / "other.md").write_text("# Other\n\n## A part\n\n## A part\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("# Page\n\n[ok](other.md#a-part), [ok](other.md#a-part-1), [ok](#page), `[code](nowhere.md)`\n"
                    "[file](missing.md), [anchor](other.md#a-whole), [here](#nothing), [up](../x.md)\n"
                    "```\n[in a block](nowhere.md)\n```\n", encoding="utf-8")
    assert [problem.split(": ", 1)[1] for problem in broken(page, tmp_path)] == [
        "missing.md: no such file",
        "other.md#a-whole: no heading or anchor #a-whole in other.md",
        "#nothing: no heading or anchor #nothing in page.md",
        "../x.md: no such file",
    ]
