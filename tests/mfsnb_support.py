"""Small journals for the mfsnb tests, written as TOML and read through the CLI."""
from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from nardrating.cli import app

CONFIG = """\
[club]
journal = ["journal.toml"]
default_discipline = "long-nardy"

[rating.fed]
engine = "mfsnb"
{params}
"""


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and len(value) == 10 and value[4] == "-" and value[7] == "-":
        return value  # a TOML date
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def block(kind: str, **fields) -> str:
    lines = [f"[[{kind}]]"] + [f"{key} = {toml_value(value)}" for key, value in fields.items() if value is not None]
    return "\n".join(lines) + "\n"


class Journal:
    """Builds a journal: players, imported ratings, tournaments and matches."""

    def __init__(self):
        self.blocks: list[str] = []
        self.count = 0

    def player(self, pid: str, qualification: str | None = None) -> "Journal":
        self.blocks.append(block("player", id=pid, qualification=qualification))
        return self

    def rated(self, pid: str, rating: int, day: str = "2008-12-31", qualification: str | None = None) -> "Journal":
        """A player imported from the previous list by an [[adjust]] set."""
        self.player(pid, qualification)
        self.blocks.append(block("adjust", date=day, player=pid, set=rating, reason="imported list"))
        return self

    def adjust(self, day: str, pid: str, set: int | None = None, delta: int | None = None) -> "Journal":
        self.blocks.append(block("adjust", date=day, player=pid, set=set, delta=delta, reason="commission"))
        return self

    def tournament(self, tid: str, system: str, start: str, end: str, standings=None) -> "Journal":
        text = block("tournament", id=tid, system=system, start=start, end=end)
        if standings:
            text += "standings = [" + ", ".join(
                f'{{ player = "{p}", place = {toml_value(place)} }}' for p, place in standings) + "]\n"
        self.blocks.append(text)
        return self

    def match(self, day: str, a: str, b: str, result: str, tournament: str | None = None) -> "Journal":
        self.count += 1
        self.blocks.append(block("match", id=f"m{self.count:03d}", date=day, players=[a, b],
                                 result=result, tournament=tournament))
        return self

    def write(self, folder: Path, **params) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        lines = "\n".join(f"{k} = {toml_value(v)}" for k, v in params.items())
        (folder / "nardrating.toml").write_text(CONFIG.format(params=lines), encoding="utf-8")
        (folder / "journal.toml").write_text("\n".join(self.blocks), encoding="utf-8")
        return folder


def cli(*args: str):
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "100"})
    return result


def cli_json(*args: str):
    result = cli(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def report(club: Path, period: str, **extra) -> dict[str, dict]:
    """The report's rows by player."""
    args = ["report", "--club", str(club), "--period", period]
    for key, value in extra.items():
        args += [f"--{key}", value]
    return {row["player"]: row for row in cli_json(*args)["rows"]}
