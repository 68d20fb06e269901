"""CSV result sheets: the journal's CSV columns, with players by id, name or alias.

Unlike a CSV journal (read as it is, players by id), an imported sheet is turned into
[[match]] entries: players are matched like every import's (new ones declared), dates
may be written 2023-04-09 or 2023.04.09, and `score` may be given as 7-4.
"""
from __future__ import annotations

import csv
import io

from ...digits import decimal_number, whole_number
from ...i18n import _
from .records import DATE_HELP, Game, Parsed, decode_text, parse_day

COLUMNS = ("date", "player_a", "player_b", "result", "winner", "length", "score", "discipline", "tournament",
           "rated", "forfeit", "chips", "note", "id")
_FLAGS = {"true": True, "1": True, "yes": True, "": None, "false": False, "0": False, "no": False}
RESULTS = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "½-½": "1/2-1/2", "1/2": "1/2-1/2", "½": "1/2-1/2",
           "0.5-0.5": "1/2-1/2", "1:0": "1-0", "0:1": "0-1", "½:½": "1/2-1/2"}


# A sheet's other names for the columns (any case): a chess sheet's White and Black, a Russian club's
# own headings. The journal's CSV keeps the column names alone.
HEADER_WORDS = {"white": "player_a", "black": "player_b", "player 1": "player_a", "player 2": "player_b",
                "дата": "date", "белые": "player_a", "чёрные": "player_b", "черные": "player_b",
                "игрок 1": "player_a", "игрок 2": "player_b", "результат": "result", "победитель": "winner",
                "длина": "length", "счёт": "score", "счет": "score", "вид игры": "discipline", "турнир": "tournament",
                "фишки": "chips", "примечание": "note"}


def _column(heading: str) -> str:
    """The column a heading names: a column's name in any case (Date), or another name for it (White)."""
    key = " ".join(heading.casefold().split())
    return key if key in COLUMNS else HEADER_WORDS.get(key, heading)


def _delimiter(text: str) -> str:
    """The cells' separator, told by the header row: a comma; a semicolon or a tab where the header has
    no comma but those (a spreadsheet saved as CSV where the decimal mark is a comma, as in Russian)."""
    header = text.split("\n", 1)[0]
    if "," in header:
        return ","
    return ";" if ";" in header else "\t" if "\t" in header else ","


def parse_csv(raw: bytes, label: str) -> Parsed:
    parsed = Parsed(label)
    text = decode_text(raw, parsed)
    if text is None:
        return parsed
    delimiter = _delimiter(text)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        parsed.problem(1, _("the file is empty; a CSV sheet starts with a header row"))
        return parsed
    except csv.Error as exc:
        parsed.problem(1, _("not CSV: {error}").format(error=exc))
        return parsed
    header = [_column(h) for h in header]
    twice = sorted({h for h in header if header.count(h) > 1})
    if twice:
        parsed.problem(1, _("the header row names {columns} twice (a column and another name for it, such as white "
                            "for player_a)").format(columns=", ".join(twice)))
        return parsed
    unknown = [h for h in header if h not in COLUMNS]
    missing = [h for h in ("date", "player_a", "player_b") if h not in header]
    if unknown or missing or ("result" in header) == ("winner" in header):
        parsed.problem(1, (_("the header row needs date, player_a, player_b and one of result or winner; unknown "
                             "column(s): {unknown}; the columns are: {columns}") if unknown else
                           _("the header row needs date, player_a, player_b and one of result or winner; the columns "
                             "are: {columns}")).format(unknown=", ".join(unknown), columns=", ".join(COLUMNS)))
        return parsed
    line = 1
    try:
        for row in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                parsed.problem(line, _("{cells} cells, but the header has {columns}").format(cells=len(row),
                                                                                          columns=len(header)))
                continue
            _row(dict(zip(header, (cell.strip() for cell in row))), line, parsed, decimal_comma=delimiter != ",")
    except csv.Error as exc:
        parsed.problem(line + 1, _("not CSV: {error}").format(error=exc))
    if not parsed.games and not parsed.problems:
        parsed.problem(1, _("no rows after the header"))
    return parsed


def _row(row: dict[str, str], line: int, parsed: Parsed, decimal_comma: bool = False) -> None:
    bad: list[str] = []
    day = parse_day(row["date"])
    if day is None:
        bad.append(_("date {value!r} is not a date; {how}").format(value=row["date"], how=_(DATE_HELP)))
    a, b = row["player_a"], row["player_b"]
    if not a or not b:
        bad.append(_("player_a and player_b are both needed"))
    result = None
    if "winner" in row:
        winner = row["winner"]
        result = "1-0" if winner == a else "0-1" if winner == b else None
        if result is None:
            bad.append(_("winner {winner!r} is neither {a!r} nor {b!r}").format(winner=winner, a=a, b=b))
    else:
        result = RESULTS.get(row["result"].replace(" ", ""))
        if result is None:
            bad.append(_("result {value!r} is not a result; write 1-0, 0-1 or 1/2-1/2").format(value=row["result"]))
    length = whole_number(row.get("length") or "1")  # ASCII digits only: "²" is no length
    if length is None or length < 1:
        bad.append(_("length {value!r} must be a whole number of points, at least 1").format(value=row.get("length")))
    score = None
    if row.get("score"):
        parts = [whole_number(p) for p in row["score"].replace(":", "-").split("-")]
        if len(parts) != 2 or None in parts:
            bad.append(_("score {value!r} must be two whole numbers like 7-4").format(value=row["score"]))
        else:
            score = [p for p in parts if p is not None]
    flags = {}
    for key in ("rated", "forfeit"):
        value = row.get(key, "").lower()
        if value not in _FLAGS:
            bad.append(_("{column} {value!r} must be true or false").format(column=key, value=row[key]))
        flags[key] = _FLAGS.get(value)
    chips = None
    if row.get("chips"):
        # ASCII: float() would read "١٢" and "1_0"; 12,5 in a sheet whose cells a comma does not separate
        chips = decimal_number(row["chips"].replace(",", ".", 1) if decimal_comma else row["chips"])
        if chips is None:
            bad.append(_("chips {value!r} is not a number").format(value=row["chips"]))
    if bad or day is None or result is None:  # (either None has a line in `bad`)
        parsed.problem(line, "; ".join(bad))
        return
    parsed.games.append(Game(line, day, parsed.player(a), parsed.player(b), result, length=length or 1,
                             score=score, forfeit=bool(flags["forfeit"]), rated=flags["rated"] is not False,
                             note=row.get("note") or None, tournament=row.get("tournament") or None,
                             discipline=row.get("discipline") or None, chips=chips))
