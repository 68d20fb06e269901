"""The examples of README.md and docs/*.md, found and run (tests/test_docs_examples.py runs them).

How a page marks its examples (docs/development.md, "Tested examples", says the same for writers):

- A fenced block whose first line starts with `$ ` is a session: each `$ COMMAND` line is run and
  the lines after it, up to the next `$ `, are what it must print (stdout and stderr, as a terminal
  shows them; trailing spaces ignored; a line `…` stands for any number of lines).
- A ```sh block is a list of commands shown without output: each line is run and must exit 0.
- A ```python block starting with `>>> ` is a doctest, run with `...` matching anything.
- The comment `<!-- example: ... -->` on the line before a block sets how it runs:
  `club=PATH` (the club of commands without --club: NARDRATING_CLUB), `folder=NAME` (the folder
  is prepared first by FOLDERS[NAME] of tests/test_docs_examples.py, beside the samples), `exit=N` (every
  command of the block exits N), `continues` (the block goes on in the folder of the page's example
  before it, which is run first; once it has run in this process, a copy of the folder it left), or `not run: WHY` (the block is not run, and the page says why).
- `<!-- example: [club=…] $ COMMAND -->`, then Markdown up to `<!-- /example -->`: the command's
  Markdown output (`-f md`), shown rendered.

Every block starts in a new temporary folder holding a copy of `sample_ledgers/`, so a command that
writes (add-match, amend, init, import, publish, a `> FILE`) never touches the source tree, and
`--club sample_ledgers/chess-club` means what it means in a clone. The commands of one block run in
order in that folder: `cd DIR`, `NAME=VALUE` before a command, `> FILE`, and `A && B` work as in a shell;
`$ cat FILE` shows a file (written as shown when it does not exist yet, else compared) and
`$ tail -N FILE` its last lines. Any other program needs `not run: WHY`.
"""
from __future__ import annotations

import doctest
import re
import shlex
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))

MARKER = re.compile(r"<!--\s*example:(.*?)-->\s*$")
FENCE = re.compile(r"^(```+|~~~+)\s*([\w-]*)\s*$")
KEYS = ("club", "folder", "exit")
FLAGS = ("continues",)
ELLIPSIS = "…"


@dataclass
class Block:
    page: Path
    line: int                       # 1-based line of the opening fence (or of the marker)
    lang: str                       # the fence's language; "rendered" for a marker's Markdown output
    lines: list[str]
    options: dict[str, str] = field(default_factory=dict)
    not_run: str | None = None      # the page's reason, when the block is not run
    command: str | None = None      # a rendered block's command
    problems: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    @property
    def kind(self) -> str:
        """session, commands, doctest, rendered, or text (a block that is not an example)."""
        first = next((line for line in self.lines if line.strip()), "")
        if self.lang == "rendered":
            return "rendered"
        if self.lang == "sh":
            return "commands"
        if self.lang in ("python", "pycon") and first.startswith(">>> "):
            return "doctest"
        if self.lang in ("", "text", "console") and first.startswith("$ "):
            return "session"
        return "text"


def _marker(text: str, block: Block) -> None:
    """Read `<!-- example: ... -->` into the block's options."""
    body = text.strip()
    if "not run:" in body:
        body, reason = body.split("not run:", 1)
        block.not_run = reason.strip()
        if not block.not_run:
            block.problems.append("`not run:` needs the reason, in the page")
    if body.startswith("$ ") or " $ " in body:
        body, command = (" " + body).split(" $ ", 1)
        block.command = command.strip()
    for word in body.split():
        key, _, value = word.partition("=")
        if key in FLAGS and not value:
            block.options[key] = "yes"
        elif key not in KEYS or not value:
            block.problems.append(f"unknown marker word {word!r}; the marker takes {', '.join(k + '=' for k in KEYS)}, "
                                  f"{', '.join(FLAGS)}, `not run: WHY` or `$ COMMAND`")
        else:
            block.options[key] = value


def blocks(page: Path) -> list[Block]:
    """Every fenced block of a page and every rendered example, with its marker's options."""
    lines = page.read_text(encoding="utf-8").split("\n")
    found: list[Block] = []
    i = 0
    while i < len(lines):
        marker = MARKER.match(lines[i].strip())
        if marker and " $ " in " " + marker[1].strip().split("not run:")[0]:
            block = Block(page, i + 1, "rendered", [])
            _marker(marker[1], block)
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "<!-- /example -->"), None)
            if end is None:
                block.problems.append("a rendered example needs `<!-- /example -->` after its output")
                end = len(lines)
            block.lines = lines[i + 1:end]
            found.append(block)
            i = end + 1
            continue
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        close = next((j for j in range(i + 1, len(lines)) if lines[j].startswith(fence[1])
                      and not lines[j].strip(fence[1][0]).strip()), len(lines))
        block = Block(page, i + 1, fence[2], lines[i + 1:close])
        before = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        if m := MARKER.match(before.strip()):
            _marker(m[1], block)
        found.append(block)
        i = close + 1
    return found


def all_blocks() -> list[Block]:
    return [block for page in PAGES for block in blocks(page)]


# What a block's lines look like when they are a command or a command's output, so that a block
# showing one without being run is caught (tests/test_docs_examples.py).
LOOKS_LIKE_COMMAND = re.compile(r"^\$? ?nardrating(\s|$)")
LOOKS_LIKE_OUTPUT = re.compile(r"^[\w./-]+\.(toml|csv|trf|pgn|mat):\d+: ")


def steps(block: Block) -> list[tuple[str, list[str]]]:
    """(command, shown lines) for each command of a block: a session's `$ ` lines, a sh block's lines."""
    if block.kind == "session":
        found: list[tuple[str, list[str]]] = []
        for line in block.lines:
            if line.startswith("$ "):
                found.append((line[2:], []))
            else:
                found[-1][1].append(line.rstrip())
        for _, shown in found:
            while shown and not shown[-1]:
                shown.pop()
        return found
    if block.kind == "commands":
        return [(line, []) for line in block.lines if line.strip() and not line.lstrip().startswith("#")]
    if block.kind == "rendered":
        assert block.command is not None
        shown = [line.rstrip() for line in block.lines]
        while shown and not shown[0]:
            shown.pop(0)
        while shown and not shown[-1]:
            shown.pop()
        return [(block.command, shown)]
    return []


def matches(shown: list[str], printed: list[str]) -> bool:
    """printed is shown, line for line, where each "…" line stands for any number of printed lines."""
    parts: list[list[str]] = [[]]
    for line in shown:
        if line == ELLIPSIS:
            parts.append([])
        else:
            parts[-1].append(line)
    if len(parts) == 1:
        return printed == parts[0]
    first, *middle, last = parts
    if printed[:len(first)] != first or (last and printed[-len(last):] != last):
        return False
    at, end = len(first), len(printed) - len(last)
    for part in middle:  # each in order, as early as it can be
        while at + len(part) <= end and printed[at:at + len(part)] != part:
            at += 1
        if at + len(part) > end:
            return False
        at += len(part)
    return at <= end


def printed_lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.rstrip("\n").split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


@dataclass
class Outcome:
    exit_code: int
    output: str          # stdout and stderr as a terminal shows them
    stdout: bytes = b""
    stderr: str = ""


class Shell:
    """The few shell forms the pages use, over an in-process nardrating (typer's CliRunner)."""

    def __init__(self, folder: Path, chdir: Callable[[Path], None], env: dict[str, str | None]):
        from typer.testing import CliRunner

        from nardrating.cli import app

        self.app, self.runner = app, CliRunner()
        self.cwd, self.chdir, self.env = folder, chdir, env
        chdir(folder)

    def run(self, line: str) -> list[Outcome]:
        """Run one line (`A && B` stops at the first failure); the outcome of each command run."""
        words = shlex.split(line, comments=True)
        commands: list[list[str]] = [[]]
        for word in words:
            if word == "&&":
                commands.append([])
            else:
                commands[-1].append(word)
        outcomes = []
        for command in commands:
            outcome = self.one(command)
            outcomes.append(outcome)
            if outcome.exit_code:
                break
        return outcomes

    def one(self, words: list[str]) -> Outcome:
        env = dict(self.env)
        while words and re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", words[0]):
            name, _, value = words.pop(0).partition("=")
            env[name] = value
        target = None
        if ">" in words:
            at = words.index(">")
            target, words = words[at + 1], words[:at] + words[at + 2:]
        if not words:
            raise AssertionError("an empty command")
        program, args = words[0], words[1:]
        if program == "nardrating":
            result = self.runner.invoke(self.app, args, env=env)
            outcome = Outcome(result.exit_code, result.output, result.stdout_bytes, result.stderr)
        elif program == "cd":
            self.cwd = (self.cwd / args[0]).resolve()
            self.chdir(self.cwd)
            outcome = Outcome(0, "")
        elif program in ("cat", "tail"):
            outcome = Outcome(0, "")  # compared or written by the caller, which knows what is shown
        else:
            raise AssertionError(f"the examples run nardrating, cat, tail and cd, not {program!r}; "
                                 "mark the block `<!-- example: not run: WHY -->` with the reason")
        if target is not None:  # the terminal shows only stderr
            (self.cwd / target).write_bytes(outcome.stdout)
            outcome = Outcome(outcome.exit_code, outcome.stderr)
        return outcome


def shown_file(shell: Shell, words: list[str], shown: list[str]) -> list[str] | None:
    """`cat FILE` and `tail -N FILE`: the file's lines to compare with what is shown (cat of a file
    that does not exist yet writes it as shown, for the commands after it, and returns None)."""
    if words[0] == "cat":
        path = shell.cwd / words[1]
        if not path.exists():
            path.write_text("\n".join(shown) + "\n", encoding="utf-8")
            return None
        return printed_lines(path.read_text(encoding="utf-8"))
    count, name = int(words[1].lstrip("-")), words[2]
    return printed_lines((shell.cwd / name).read_text(encoding="utf-8"))[-count:]


def run_doctest(block: Block) -> None:
    """A ```python block of `>>>` lines, run as a doctest ("..." stands for anything)."""
    test = doctest.DocTestParser().get_doctest("\n".join(block.lines), {}, block.where, str(block.page), block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    failures: list[str] = []
    runner.run(test, out=failures.append)
    assert runner.failures == 0, "".join(failures)


def copy_samples(folder: Path) -> None:
    shutil.copytree(ROOT / "sample_ledgers", folder / "sample_ledgers")
