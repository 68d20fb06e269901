"""CRLF CSV files (Python's csv.writer, Excel) read exactly like their LF twins, on the fast path."""
import csv
import io
import random
from pathlib import Path

import pytest

from nardrating.journal import csvfast
from nardrating.journal.model import Journal
from nardrating.journal.csvjournal import read_csv_journal

COLUMNS = ("dates", "a", "b", "score_a", "length", "discipline", "tournament", "rated", "forfeit",
           "seq", "source", "line")


def read(text: str, newline: str):
    journal, problems = Journal(), []
    raw = text.replace("\n", newline).encode()
    read_csv_journal(raw, Path("games.csv"), "games.csv", journal, "long-nardy", problems)
    m = journal.matches
    names = {"a": journal.player_codes.names, "b": journal.player_codes.names,
             "discipline": journal.discipline_codes.names, "tournament": journal.tournament_codes.names + [None]}
    # Codes as the names they stand for: which code a name gets depends on the order it is met in.
    columns = {c: [names[c][v] for v in getattr(m, c)] if c in names else list(getattr(m, c)) for c in COLUMNS}
    return [str(p) for p in problems], list(m.ids), columns, dict(m.extra)


def rows(seed: int, n: int = 300) -> str:
    rng = random.Random(seed)
    lines = ["id,date,player_a,player_b,result,length,discipline,tournament,rated,note"]
    for k in range(n):
        a, b = rng.sample(["anna", "boris", "vera", "gleb", "dina"], 2)
        lines.append(f"g{k},2009-{1 + k % 12:02d}-{1 + k % 28:02d},{a},{b},{rng.choice(['1-0', '0-1'])},"
                     f"{rng.randint(1, 9)},{rng.choice(['', 'short-nardy'])},{rng.choice(['', 'cup'])},"
                     f"{rng.choice(['', 'false'])},{rng.choice(['', 'fine'])}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(3))
def test_crlf_file_reads_as_its_lf_twin_on_the_fast_path(seed, monkeypatch):
    text = rows(seed)
    lf = read(text, "\n")
    careful = []  # the row-by-row path must not be needed for either file
    parse = csvfast._parse
    monkeypatch.setattr(csvfast, "_parse", lambda *a: careful.append(1) or parse(*a))
    assert read(text, "\r\n") == lf and careful == []
    assert lf[0] == [] and len(lf[1]) == 300 and lf[2]["line"][:3] == [2, 3, 4]  # row k on line k + 2


def test_crlf_with_small_chunks_and_no_final_newline(monkeypatch):
    monkeypatch.setattr(csvfast, "CHUNK", 50)  # chunk borders fall between CR and LF and mid-row
    text = rows(7, 40).rstrip("\n")
    assert read(text, "\r\n") == read(text, "\n")


def test_crlf_with_quoted_cells_holding_newlines_as_csv_writer_writes_them():
    # csv.writer ends rows with \r\n and keeps a cell's own \n inside quotes: both files must give
    # the same journal; the note's newline is the cell's.
    records = [["id", "date", "player_a", "player_b", "result", "note"],
               ["g1", "2009-01-01", "anna", "boris", "1-0", "two\nlines"],
               ["g2", "2009-01-02", "vera", "anna", "0-1", ""]]
    out = io.StringIO(newline="")
    csv.writer(out).writerows(records)
    crlf = out.getvalue()
    assert crlf.count("\r\n") == 3
    lf = crlf.replace("\r\n", "\n")
    got_crlf, got_lf = read(crlf, "\n"), read(lf, "\n")  # (newline "\n": the texts are used as they are)
    assert got_crlf == got_lf
    problems, ids, columns, extra = got_lf[:4]
    assert problems == [] and ids == ["g1", "g2"] and extra[0]["note"] == "two\nlines"
    assert columns["line"][1] == 4  # g1 spans lines 2-3, so g2 is on line 4


def test_a_lone_cr_is_a_line_end_as_for_the_csv_module():
    # "\r" alone ends a row for csv.reader: the fast path must not read it as part of a cell.
    text = "id,date,player_a,player_b,result\r\ng1,2009-01-01,anna,boris,1-0\rg2,2009-01-02,vera,anna,0-1\r\n"
    problems, ids = read(text, "\n")[:2]
    assert (problems, ids) == ([], ["g1", "g2"])


@pytest.mark.parametrize("separator, named", [(";", "';'"), ("\t", "tabs")])
def test_a_journal_csv_separated_by_semicolons_or_tabs_says_so(separator, named):
    # (a spreadsheet saved as CSV where the decimal mark is a comma: `import` reads it, a journal file does not)
    text = separator.join(["date", "player_a", "player_b", "result"]) + "\n" + separator.join(
        ["2026-11-25", "anna", "boris", "1-0"]) + "\n"
    problems, ids, _, _ = read(text, "\r\n")
    assert ids == [] and problems == [
        f"games.csv:1: the header's cells are separated by {named}, not by commas, as a journal's CSV file needs; save it "
        "with commas, or import it (nardrating import FILE reads either)"]
