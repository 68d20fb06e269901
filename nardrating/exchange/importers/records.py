"""What a parsed file holds, before it becomes journal entries, and small helpers the parsers share."""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from datetime import date
from typing import Any

from ...datarecords import datarecord, field
from ...errors import Problem
from ...i18n import N_, _
from ...journal.tomlsource import iconv_fields


@datarecord
class PlayerInfo:
    """A player as the file names them, with what the file says about them."""
    name: str
    title: str | None = None
    rating: int | None = None      # shown in the preview; the journal has no field for these
    federation: str | None = None
    fide_id: str | None = None
    cut: bool = False              # the name fills its fixed columns (TRF's 33): maybe the start of a longer one


@datarecord
class TournamentInfo:
    """A tournament as the file names it: its name, system and dates (when the file gives them)."""
    name: str
    system: str
    start: date | None = None
    end: date | None = None


@datarecord
class Game:
    """One match to write: players by the file's names (chess: white, black)."""
    line: int
    day: date
    a: str
    b: str
    result: str                    # "1-0", "0-1" or "1/2-1/2", from a's side
    length: int = 1
    score: list[int] | None = None
    forfeit: bool = False
    rated: bool = True
    note: str | None = None
    tournament: str | None = None  # a key of Parsed.tournaments, or a tournament id of the journal
    discipline: str | None = None  # when the file says (a CSV column)
    chips: float | None = None
    round: int | None = None       # the round of a tournament run round by round (TRF)
    also_as: AlsoAs | None = None  # the same games as the file's other import mode writes them (.mat)
    length_stated: bool = True     # False: the file has no lengths (TRF): a match of any length is the same game


@datarecord(frozen=True)
class AlsoAs:
    """A .mat match is imported whole or one match per game (--per-game): the other mode's matches
    of the same games, so that an import in either mode sees the other's as already in the journal."""
    match: int                              # the file's line of the match: its games share it
    matches: tuple[tuple[str, int], ...]    # (result, length) of each match the other mode writes


@datarecord
class Parsed:
    """One file as parsed, before it becomes entries: games, players, tournaments, skips, problems, notes."""
    file: str
    games: list[Game] = field(default_factory=list)
    players: dict[str, PlayerInfo] = field(default_factory=dict)
    tournaments: dict[str, TournamentInfo] = field(default_factory=dict)
    skipped: Counter[str] = field(default_factory=Counter)  # reason → how many records were not taken
    problems: list[Problem] = field(default_factory=list)
    discipline: str | None = None  # the format's own discipline (chess for PGN and TRF)
    notes: list[str] = field(default_factory=list)  # what the preview should tell (a date assumed, …)
    runs: dict[str, Any] = field(default_factory=dict)  # tournament key → its rounds (trfrounds.TrfRun)

    def problem(self, line: int | None, message: str) -> None:
        self.problems.append(Problem(self.file, line, message))

    def player(self, name: str, title: str | None = None, rating: int | None = None, federation: str | None = None,
               fide_id: str | None = None, cut: bool = False) -> str:
        """The player's name, noted with what the file says of them the first time it names them."""
        if name not in self.players:
            self.players[name] = PlayerInfo(name, title, rating, federation, fide_id, cut)
        return name


def decode_text(raw: bytes, parsed: Parsed) -> str | None:
    """UTF-8 text (a BOM dropped, CRLF read as LF), or None with a FILE:LINE problem."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        parsed.problem(line, _("the file is not UTF-8 text (byte 0x{byte:02x}); it reads as {what} ({encoding}): "
                               "convert it first, e.g. iconv -f {encoding} -t utf-8 {file} > {converted}").format(
                                   **iconv_fields(raw, exc.start, parsed.file)))
        return None
    return text.replace("\r\n", "\n").replace("\r", "\n")


_MONTHS = {m: k for k, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                       "nov", "dec"), start=1)}


def parse_day(text: str) -> date | None:
    """Dates as game files write them: 2008.10.14, 2008-10-14, 2008/10/14, 05/07/28 (TRF rounds),
    28. 07. 2005 and 28.07.2005 (day first), May 29, 2020. None if it is none of these."""
    text = text.strip()
    if not text.isascii():  # digits of other scripts ("２００８", "²") are no date here
        return None
    try:
        m = re.fullmatch(r"(\d{4})\s*[./-]\s*(\d{1,2})\s*[./-]\s*(\d{1,2})", text)
        if m:
            return date(int(m[1]), int(m[2]), int(m[3]))
        m = re.fullmatch(r"(\d{2})/(\d{2})/(\d{2})", text)  # TRF16 round dates: YY/MM/DD
        if m:
            return date(2000 + int(m[1]), int(m[2]), int(m[3]))
        m = re.fullmatch(r"(\d{1,2})\s*\.\s*(\d{1,2})\s*\.\s*(\d{4})", text)
        if m:
            return date(int(m[3]), int(m[2]), int(m[1]))
        m = re.fullmatch(r"([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})", text)
        if m and m[1].lower() in _MONTHS:
            return date(int(m[3]), _MONTHS[m[1].lower()], int(m[2]))
    except ValueError:
        return None
    return None


DATE_HELP = N_("write YYYY.MM.DD, YYYY-MM-DD or YYYY/MM/DD")   # shown as _(DATE_HELP)


_CYRILLIC = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєў",
                     ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "i", "k", "l", "m", "n", "o", "p", "r",
                      "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya", "i", "i",
                      "e", "u"]))


def derive_id(name: str) -> str:
    """A player or tournament id from a name: "Liren, Ding" → liren-ding, "Пётр Иванов" → petr-ivanov.

    Cyrillic is transliterated and accents dropped (ids are typed on command lines); letters of
    other alphabets are kept, as ids may hold them; everything else becomes one hyphen.
    """
    text = "".join(_CYRILLIC.get(ch, ch) for ch in name.casefold())
    text = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    # the journal's id rule: letters, ASCII digits, _ and - (not \w: it takes other scripts' digits)
    text = "".join(ch if ch in "_-" or "0" <= ch <= "9" or unicodedata.category(ch)[0] == "L" else " "
                   for ch in text)
    text = re.sub(r"\s+", "-", text.strip())
    text = re.sub(r"-{2,}", "-", text).strip("-_")
    return text[:80].rstrip("-_") or "player"
