"""What made a list: the journal's and the config's SHA-256 and the program's version.

`journal_sha256` is the SHA-256 of the journal files as replayed, in order: the bytes of each file
of `club.journal`, exactly as they are on disk (a BOM, CR LF line ends and all), in the order the
config lists them, concatenated with nothing between them or around them: what
`cat journal.toml games.csv | sha256sum` prints. `config_sha256` is `sha256sum nardrating.toml`.

A digest must describe the journal the numbers came from: `stamped` hashes the files before and
after the club is loaded, and takes the load only when both agree (a writer appending meanwhile
makes it load again).
"""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..datarecords import datarecord
from .._version import __version__
from ..errors import ActionRefused
from ..i18n import _

if TYPE_CHECKING:
    from ..config import ClubConfig
    from ..replay.ledger import Ledger

# The provenance of a frozen list, in the order its files write it.
KEYS = ("club", "rating", "engine", "discipline", "as_of", "period", "entries", "journal_sha256",
        "journal_files", "config_sha256", "nardrating", "frozen_at")
SHORT = ("journal_sha256", "config_sha256", "nardrating")   # what every other output carries
HEX64 = re.compile("[0-9a-f]{64}")


@datarecord(frozen=True)
class Stamp:
    """The digests of a club's files as one load read them."""
    journal_sha256: str
    config_sha256: str
    files: tuple[tuple[str, int], ...]   # each journal file as club.journal names it, and its size in bytes

    def short(self) -> dict[str, str]:
        return {"journal_sha256": self.journal_sha256, "config_sha256": self.config_sha256, "nardrating": __version__}

    def journal_files(self) -> list[dict[str, Any]]:
        return [{"file": name, "bytes": size} for name, size in self.files]


def _read(path: Path) -> bytes:
    from ..safefile import read_regular

    try:
        return read_regular(path)[0]
    except OSError as exc:
        raise ActionRefused(_("{path}: cannot read it to take its SHA-256: {why}").format(
            path=path, why=exc.strerror or exc)) from None


def stamp_of(config: ClubConfig) -> Stamp:
    """The journal's and the config's SHA-256 now (journal_sha256 as the module says)."""
    digest = hashlib.sha256()
    files = []
    for name, path in zip(config.club.journal, config.journal_paths()):
        raw = _read(path)
        digest.update(raw)
        files.append((name, len(raw)))
    return Stamp(digest.hexdigest(), hashlib.sha256(_read(config.path)).hexdigest(), tuple(files))


def stamped(load: Callable[[], Ledger], club: str | None, attempts: int = 3) -> tuple[Ledger, Stamp]:
    """`load()` with the stamp of exactly the files it read: hashed before and after it, equal."""
    from ..replay.loader import load_club

    for _attempt in range(attempts):
        before = stamp_of(load_club(club, config_only=True).config)
        ledger = load()
        if stamp_of(ledger.config) == before:
            return ledger, before
    raise ActionRefused(_("the journal changed while it was read, {n} times over; run the command again when "
                          "nobody is writing to it").format(n=attempts))


def load_for(fmt: str, club: str | None, load: Callable[[], Ledger]) -> tuple[Ledger, Stamp | None]:
    """The club, stamped when the output leaves the club (md, xlsx, fide-list); else just loaded."""
    if fmt in ("md", "xlsx", "fide-list"):
        return stamped(load, club)
    return load(), None


def prefix_digest(config: ClubConfig, files: Iterable[tuple[str, int]]) -> str | None:
    """journal_sha256 of the first bytes of today's journal files (the sizes a list recorded), or None
    when one of them is gone or shorter: equal to the list's digest iff the journal was only appended to."""
    paths = dict(zip(config.club.journal, config.journal_paths()))
    digest = hashlib.sha256()
    for name, size in files:
        if name not in paths:
            return None
        try:
            raw = _read(paths[name])
        except ActionRefused:
            return None
        if len(raw) < size:
            return None
        digest.update(raw[:size])
    return digest.hexdigest()


# --- Versions -------------------------------------------------------------------------

_VERSION = re.compile(r"([0-9]+(?:\.[0-9]+)*)(?:(a|b|rc)([0-9]+))?(?:\.post([0-9]+))?(?:\.dev([0-9]+))?")


def version_key(text: str) -> tuple[Any, ...] | None:
    """A version's place in PEP 440's order (1.0.dev0 < 1.0a1 < 1.0rc1 < 1.0 < 1.0.post1), or None."""
    m = _VERSION.fullmatch(text.strip())
    if m is None:
        return None
    release = tuple(int(x) for x in m[1].split("."))
    release += (0,) * (6 - len(release)) if len(release) < 6 else ()
    if m[2]:
        pre: tuple[int, int] = ({"a": 0, "b": 1, "rc": 2}[m[2]], int(m[3]))
    else:
        pre = (-1, 0) if m[5] is not None and m[4] is None else (3, 0)   # a bare .dev comes before any pre-release
    post = int(m[4]) if m[4] is not None else -1
    dev = int(m[5]) if m[5] is not None else float("inf")
    return (release, pre, post, dev)


def is_newer(version: str) -> bool:
    """Was `version` released after this program (so that a list it wrote may say what this one cannot read)?"""
    theirs, ours = version_key(version), version_key(__version__)
    return theirs is not None and ours is not None and theirs > ours


# --- Footers: the provenance in each format's own way -----------------------------------

def value_text(key: str, value: Any) -> str:
    """A provenance value as one line of text: a period as START..END, the journal files as JSON."""
    if key == "period" and isinstance(value, dict):
        return f"{value.get('start')}..{value.get('end')}"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return str(value)


def md_footer(provenance: dict[str, Any]) -> str:
    """A Markdown key/value table under a heading, after a blank line (the keys are machine keys)."""
    from ..render.text import md_paragraph, md_text

    heading, key_word, value_word = _("Provenance"), _("Key"), _("Value")  # outside f-strings: Babel finds them
    lines = ["", f"**{md_paragraph(heading)}**", "", f"| {md_text(key_word)} | {md_text(value_word)} |",
             "| --- | --- |"]
    lines += [f"| {md_text(key)} | {md_text(value_text(key, value))} |" for key, value in provenance.items()]
    return "\n".join(lines) + "\n"


def comment_footer(provenance: dict[str, Any], mark: str) -> str:
    """Comment lines (TRF: `###`; the fide-list: `#`, after a blank line), one key a line."""
    from ..render.text import visible

    lead = "\n" if mark == "#" else ""
    return lead + "".join(f"{mark} {key} {visible(value_text(key, value))}\n" for key, value in provenance.items())


def footer(stamp: Stamp | None, fmt: str) -> str:
    """What `leaderboard`/`report` add after a list in `fmt`: nothing for JSON, CSV and tables."""
    if stamp is None:
        return ""
    if fmt == "md":
        return md_footer(stamp.short())
    if fmt == "fide-list":
        return comment_footer(stamp.short(), "#")
    return ""
