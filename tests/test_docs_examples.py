"""Every example of README.md and docs/*.md is run, as hledger's shell tests run its manual: a shown
output must be what the command prints today (into a pipe: no terminal, no COLUMNS, natural width),
a command shown without output must exit as the page says. How pages mark their examples, and how
each block runs (a temporary copy of the sample ledgers, never the source tree): tests/doc_examples.py
and docs/development.md."""
import shlex
import shutil
import tempfile
import tomllib
from pathlib import Path

import pytest

from .doc_examples import (LOOKS_LIKE_COMMAND, LOOKS_LIKE_OUTPUT, PAGES, ROOT, Block, Shell, all_blocks, copy_samples,
                           matches, printed_lines, run_doctest, shown_file, steps)
from .import_support import REAL


def imports_folder(folder: Path, shell: Shell) -> None:
    """`folder=imports`: the real files of ../shared/data/imports, a TRF with a wrong pairing, a cp1251
    PGN, and two new clubs: `club` (nardrating init club) and `nardy` (init nardy --engine fibs)."""
    from .test_import_files import PGN, TRF

    if not (REAL / "expected.json").is_file():
        pytest.skip(f"the real import files are not at {REAL} (../shared/data/imports)")
    for source in REAL.iterdir():
        if source.suffix in (".mat", ".pgn", ".trf"):
            (folder / source.name).write_bytes(source.read_bytes())
    (folder / "broken.trf").write_text(TRF.replace("   1 b 0", "   1 b ="), encoding="utf-8")
    (folder / "cp1251.pgn").write_bytes(PGN.replace("Liren, Ding", "Лирэн, Дин").encode("cp1251"))
    for line in ("nardrating init club --name Demo", "nardrating init nardy --engine fibs --name Nardy"):
        assert shell.run(line)[-1].exit_code == 0, line


FOLDERS = {"imports": imports_folder}

BLOCKS = all_blocks()
RUN = [b for b in BLOCKS if b.kind in ("session", "commands", "doctest", "rendered") and b.not_run is None]


def before(block: Block) -> Block:
    """The example a `continues` block goes on from: the page's run example before it."""
    earlier = [b for b in RUN if b.page == block.page and b.line < block.line]
    assert earlier, f"{block.where}: `continues`, but no example before it on the page"
    return earlier[-1]


# The folder a block left behind, for a block that `continues` from it: a copy of it stands for running
# the block again, once it has run in this process (a page's chain of six then runs six blocks, not 21).
CONTINUED = {id(before(b)) for b in RUN if b.options.get("continues")}
LEFT: dict[int, Path] = {}


def run_block(block: Block, folder: Path, chdir) -> None:
    """Run a block's commands in order, in `folder`, comparing what each shows."""
    assert not block.problems, f"{block.where}: " + "; ".join(block.problems)
    if block.options.get("continues"):
        if id(earlier := before(block)) in LEFT:
            shutil.copytree(LEFT[id(earlier)], folder, symlinks=True, dirs_exist_ok=True)
        else:
            run_block(earlier, folder, chdir)
    else:
        copy_samples(folder)
    env = {"COLUMNS": None, "NARDRATING_CLUB": block.options.get("club")}
    shell = Shell(folder, chdir, env)
    if (name := block.options.get("folder")) and not block.options.get("continues"):
        assert name in FOLDERS, f"{block.where}: folder={name}: the harness knows {', '.join(FOLDERS)}"
        FOLDERS[name](folder, shell)
    if block.kind == "doctest":
        run_doctest(block)
        return
    expected_exit = int(block.options.get("exit", 0))
    for command, shown in steps(block):
        words = shlex.split(command, comments=True)
        if words and words[0] in ("cat", "tail"):
            printed = shown_file(shell, words, shown)
        else:
            outcomes = shell.run(command)
            exit_code = outcomes[-1].exit_code
            assert exit_code == expected_exit, (f"{block.where}: `{command}` exited {exit_code}, the page says "
                                                f"{expected_exit}\n{outcomes[-1].output}")
            if block.kind == "commands":
                continue
            printed = printed_lines("".join(outcome.output for outcome in outcomes))
            if block.kind == "rendered":
                printed = before_provenance(printed)
        if printed is not None:
            assert matches(shown, printed), f"{block.where}: $ {command}\n" + "\n".join(printed)
    if id(block) in CONTINUED and id(block) not in LEFT:
        LEFT[id(block)] = Path(tempfile.mkdtemp(prefix="nardrating-example-")) / "left"
        shutil.copytree(folder, LEFT[id(block)], symlinks=True)


def before_provenance(printed: list[str]) -> list[str]:
    """A rendered table's Markdown without the provenance footer every Markdown list ends with (the
    digests of the journal: docs/lists.md shows one whole, compared as printed)."""
    if PROVENANCE in printed:
        printed = printed[:printed.index(PROVENANCE)]
        while printed and not printed[-1]:
            printed.pop()
    return printed


PROVENANCE = "**Provenance**"


@pytest.mark.parametrize("block", RUN, ids=[b.where for b in RUN])
def test_example(block, tmp_path, monkeypatch):
    run_block(block, tmp_path, monkeypatch.chdir)


def test_the_pages_have_examples():
    # A parser that found nothing would pass every test above: count what the pages hold.
    kinds = [b.kind for b in RUN]
    assert kinds.count("session") >= 30 and kinds.count("commands") >= 3 and kinds.count("doctest") >= 1
    assert {b.page.name for b in RUN} >= {"README.md", "samples.md", "importing.md", "analysis.md"}


def test_every_command_shown_is_run():
    """A command, or a command's output, shown in a block the harness does not run is either made an
    example (`$ ` lines, a ```sh block) or marked `not run: WHY`."""
    unrun = []
    for block in BLOCKS:
        if block.problems:
            unrun.append(f"{block.where}: " + "; ".join(block.problems))
        if block.kind != "text" or block.not_run is not None:
            continue
        for line in block.lines:
            if LOOKS_LIKE_COMMAND.match(line) or LOOKS_LIKE_OUTPUT.match(line) or line.startswith("$ "):
                unrun.append(f"{block.where}: {line[:80]!r} is shown but not run")
                break
    for page in PAGES:  # indented code blocks: the harness sees only fenced ones
        previous = ""
        for number, line in enumerate(page.read_text(encoding="utf-8").split("\n"), 1):
            if line.startswith("    ") and not previous.strip() and LOOKS_LIKE_COMMAND.match(line.strip()):
                unrun.append(f"{page.relative_to(ROOT)}:{number}: an indented command; fence it as ```sh")
            previous = line
    assert not unrun, "\n".join(unrun)


def test_the_toml_shown_is_toml():
    for block in BLOCKS:
        if block.lang == "toml":
            try:
                tomllib.loads("\n".join(block.lines))
            except tomllib.TOMLDecodeError as exc:
                pytest.fail(f"{block.where}: {exc}")


def test_the_comparison_can_fail():
    assert matches(["a", "b"], ["a", "b"])
    assert not matches(["a", "b"], ["a", "c"])
    assert not matches(["a"], ["a", "b"])
    assert matches(["a", "…", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "…", "c", "…", "e"], ["a", "b", "c", "d", "e"])
    assert not matches(["a", "…", "x", "…"], ["a", "b", "c"])
    assert not matches(["a", "…", "d"], ["a", "b"])


def test_a_changed_number_fails(tmp_path, monkeypatch):
    """The README's report, with one number changed, is refused."""
    block = next(b for b in RUN if b.page.name == "README.md" and "--period 2009-Q1" in b.lines[0] and b.kind == "session")
    run_block(block, tmp_path / "as-shown", monkeypatch.chdir)
    changed = Block(block.page, block.line, block.lang, [line.replace("2354", "2355") for line in block.lines])
    assert changed.lines != block.lines
    with pytest.raises(AssertionError, match="2354"):
        run_block(changed, tmp_path / "changed", monkeypatch.chdir)


def test_a_wrong_exit_fails(tmp_path, monkeypatch):
    block = Block(ROOT / "README.md", 1, "sh", ["nardrating check --club sample_ledgers/chess-club"], {"exit": "1"})
    with pytest.raises(AssertionError, match="exited 0, the page says 1"):
        run_block(block, tmp_path, monkeypatch.chdir)
