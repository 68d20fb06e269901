"""publish: the static site's pages, their content, escaping, and where it may write."""
import re
import shutil
import sys
from pathlib import Path

import pytest

from nardrating.exchange.publish import MARKER
from nardrating.exchange.publish.site import file_stem

from .conftest import SAMPLES, make_club

pytest.importorskip("jinja2")

EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", re.IGNORECASE)


def entries(club: str, kind: str) -> int:
    """The journal's [[kind]] entries, counted from its text (not by nardrating)."""
    text = (SAMPLES / club / "journal.toml").read_text("utf-8")
    return len(re.findall(rf"^\[\[{kind}\]\]", text, re.MULTILINE))


def html_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.html"))


@pytest.mark.parametrize("club", [pytest.param("fide-club", marks=pytest.mark.slow),
                                  pytest.param("federation-2009", marks=pytest.mark.slow), "nardy-club"])
def test_a_page_per_player_and_tournament_no_external_urls(cli, tmp_path, club):
    out = tmp_path / "site"
    result = cli("publish", out, "--club", SAMPLES / club)
    assert result.exit_code == 0, result.output
    assert len(list((out / "players").glob("*.html"))) == entries(club, "player")
    for page in (out / "players").glob("*.html"):   # ids are unique on a page, charts' titles too
        ids = re.findall(r' id="([^"]+)"', page.read_text("utf-8"))
        assert len(ids) == len(set(ids)), page
    tournaments = entries(club, "tournament")
    assert len(list(out.glob("tournaments/*.html"))) == tournaments
    for page in html_files(out):
        text = page.read_text("utf-8")
        assert text.startswith("<!DOCTYPE html>") and '<html lang="en">' in text, page
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in text
        assert not EXTERNAL.findall(text), page   # nothing fetched from elsewhere
        assert "<link" not in text and "<script src" not in text and "<img" not in text
        for target in re.findall(r'href="([^"#]+)"', text):   # every link is a page of the site
            assert (page.parent / target).resolve().is_file(), (page, target)
    assert (out / MARKER).is_file()


def test_index_has_every_rating_list_and_its_first_player(cli, tmp_path):
    out = tmp_path / "site"
    assert cli("publish", out, "--club", SAMPLES / "nardy-club").exit_code == 0
    index = (out / "index.html").read_text("utf-8")
    for rating in ("fibs", "elo", "tournament", "chips"):    # the four lists of its nardrating.toml
        assert f"<h2>{rating} · " in index
    assert "<h1>Нардовый клуб «Шеш-беш»</h1>" in index      # Cyrillic as it is, UTF-8
    assert '<th scope="col"' in index and "<caption>" in index and 'id="search"' in index
    assert "<td class=\"num\" data-sort=\"1\">1</td>" in index.replace("\n", "")   # rank 1 of the first table


def test_player_page_explains_each_change(cli, tmp_path):
    """chess-club is seed 003's Elo club (start 1200, K 20). Anna beats Boris, both 1200: E 0.5,
    +20·0.5 = +10, 1210. Vera draws Gleb at 1200: still 1200. Anna loses to Vera: E =
    1/(1+10^(-10/400)) = 1/1.944061 = 0.514387, change 20·(0 − 0.514387) = −10.29, 1199.71."""
    out = tmp_path / "site"
    assert cli("publish", out, "--club", SAMPLES / "chess-club").exit_code == 0
    anna = (out / "players" / "anna.html").read_text("utf-8")
    assert "<h1>Анна (anna)</h1>" in anna
    assert "<svg" in anna and "<title id=\"chart-1-title\">Rating of Анна" in anna
    for number in ("0.5000", "0.5144", "1210.00", "1199.71", "10.29"):
        assert f">{number}<" in anna or f">+{number}<" in anna or f">−{number}<" in anna or f">-{number}<" in anna, number
    assert ">Expected</button>" in anna


def test_tournament_page_has_standings_and_crosstable(cli, tmp_path):
    out = tmp_path / "site"
    assert cli("publish", out, "--club", SAMPLES / "fide-club").exit_code == 0
    pages = sorted((out / "tournaments").glob("*.html"))
    text = pages[0].read_text("utf-8")
    assert "<h2>Standings</h2>" in text and "<h2>Crosstable</h2>" in text
    rows = text.split("Crosstable of")[1].count("<tr>") - 1    # header row left out
    assert rows > 1 and text.count(">×<") == rows               # the diagonal: a player against self


def test_period_engines_have_a_page_per_list(cli, tmp_path):
    out = tmp_path / "site"
    assert cli("publish", out, "--club", SAMPLES / "federation-2009").exit_code == 0
    page = out / "lists" / "federation-long-nardy-2009-03-31.html"   # the list of 2009-Q1
    text = page.read_text("utf-8")
    assert "The commission&#39;s report" in text and "Total" in text
    assert '<caption>federation · <span class="w">long-nardy</span> · <span class="w">2009-01-01..2009-03-31</span>' in text
    # Seed 000's worked example: Авакян's 2337 on the 2008 list becomes 2354 on the list of 2009-Q1.
    avakyan = text.split('href="../players/avakyan.html"')[1].split("</tr>")[0]
    assert ">2337<" in avakyan and ">2354<" in avakyan
    assert 'href="lists/federation-long-nardy-2009-03-31.html"' in (out / "index.html").read_text("utf-8")


NASTY = "<script>alert(1)</script>"
NASTY_CLUB = f"""\
[club]
name = "Клуб & {NASTY}"
journal = ["journal.toml"]
default_discipline = "chess"

[rating.club]
engine = "elo"
"""


def test_names_are_text_not_markup(cli, tmp_path):
    journal = f"""\
[[player]]
id = "x"
name = "{NASTY}"

[[player]]
id = "y"
name = "\\"><img src=x onerror=alert(1)>"

[[tournament]]
id = "t1"
name = "Cup {NASTY}"
system = "round-robin"
start = 2024-01-01
end = 2024-01-02

[[match]]
date = 2024-01-01
players = ["x", "y"]
result = "1-0"
tournament = "t1"
"""
    club = make_club(tmp_path / "club", journal, NASTY_CLUB)
    out = tmp_path / "site"
    result = cli("publish", out, "--club", club)
    assert result.exit_code == 0, result.output
    for page in html_files(out):
        text = page.read_text("utf-8")
        assert "<script>alert" not in text and "<img" not in text, page
        assert text.count("<script>") == 1   # only the page's own script
    index = (out / "index.html").read_text("utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in index and "Клуб &amp;" in index


def test_refuses_a_folder_it_did_not_make(cli, tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    (out / "mine.txt").write_text("keep me")
    result = cli("publish", out, "--club", SAMPLES / "chess-club")
    assert result.exit_code == 1
    assert "not empty" in result.stderr and "--force" in result.stderr
    assert [p.name for p in out.iterdir()] == ["mine.txt"]
    assert cli("publish", out, "--club", SAMPLES / "chess-club", "--force").exit_code == 0
    assert (out / "mine.txt").read_text() == "keep me" and (out / "index.html").is_file()


def test_republishing_replaces_its_own_pages(cli, tmp_path):
    out = tmp_path / "site"
    club = tmp_path / "club"
    shutil.copytree(SAMPLES / "chess-club", club)
    assert cli("publish", out, "--club", club).exit_code == 0
    old_page = out / "players" / "gleb.html"
    assert old_page.is_file()
    text = (club / "journal.toml").read_text("utf-8")
    (club / "journal.toml").write_text(text.replace('id = "gleb"', 'id = "glebushka"').replace('"gleb"', '"glebushka"'),
                                       "utf-8")
    assert cli("publish", out, "--club", club).exit_code == 0      # no --force: it made this folder
    assert not old_page.exists() and (out / "players" / "glebushka.html").is_file()


def test_without_jinja2_it_says_what_to_install(cli, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "jinja2", None)
    out = tmp_path / "site"
    result = cli("publish", out, "--club", SAMPLES / "chess-club")
    assert result.exit_code == 1
    assert "pip install 'nardrating[site]'" in result.stderr
    assert not out.exists()


def test_unknown_rating_list_is_refused_before_writing(cli, tmp_path):
    out = tmp_path / "site"
    result = cli("publish", out, "--club", SAMPLES / "chess-club", "--rating", "nope")
    assert result.exit_code == 1 and not out.exists()


def test_as_of_limits_the_site(cli, tmp_path):
    """Before 2009-01-22 Anna had played only Boris: one game, one rating (1210)."""
    out = tmp_path / "site"
    assert cli("publish", out, "--club", SAMPLES / "chess-club", "--as-of", "2009-01-15").exit_code == 0
    anna = (out / "players" / "anna.html").read_text("utf-8")
    assert "1210" in anna and "1199.71" not in anna and "2009-01-15" in (out / "index.html").read_text("utf-8")


def test_file_names_stay_inside_and_apart():
    taken: set[str] = set()
    assert file_stem("anna", taken) == "anna"
    other = file_stem("Anna", taken)          # the same file on a case-insensitive disk: renamed
    assert other.startswith("Anna-") and other.lower() != "anna"
    cyrillic = file_stem("анна", taken)
    assert re.fullmatch(r"x-[0-9a-f]{10}", cyrillic)
    for key in ("../etc", "a/b", ".."):
        stem = file_stem(key, taken)
        assert "/" not in stem and "." not in stem


def test_a_big_tournament_lists_results_instead_of_a_crosstable(cli, tmp_path):
    """42 players, 21 games (p00–p01, p02–p03, …): a 42-column square would be mostly empty."""
    players = "".join(f'[[player]]\nid = "p{n:02}"\nname = "Игрок {n}"\n\n' for n in range(42))
    matches = "".join(f'[[match]]\ndate = 2024-01-01\nplayers = ["p{n:02}", "p{n + 1:02}"]\nresult = "1-0"\n'
                      f'tournament = "open"\n\n' for n in range(0, 42, 2))
    tournament = ('[[tournament]]\nid = "open"\nname = "Open"\nsystem = "swiss"\nstart = 2024-01-01\n'
                  'end = 2024-01-01\n\n')
    club = make_club(tmp_path / "club", players + tournament + matches)
    out = tmp_path / "site"
    assert cli("publish", out, "--club", club).exit_code == 0
    text = (out / "tournaments" / "open.html").read_text("utf-8")
    assert "Crosstable of" not in text
    results = text.split("<caption>Results of Open")[1].split("</table>")[0]
    rows = results.split("<tbody>")[1].split("<tr>")[1:]
    assert len(rows) == 42 and all(row.count("<td") + row.count("<th") == 3 for row in rows)
    # The winners (1 point each) come first, by id: p00 is number 1 and beat p01, a loser;
    # the losers follow from number 22, p01 first: p00's row reads "22: 1".
    assert '<td class="long">22: 1</td>' in rows[0]


def test_the_footer_names_the_day_published_and_the_as_of_date(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    out = tmp_path / "site"
    assert cli("publish", out, "--club", SAMPLES / "chess-club", "--as-of", "2009-01-15").exit_code == 0
    index = (out / "index.html").read_text("utf-8")
    assert re.search(r'Published <span class="w">2023-11-14</span> with nardrating [^;]+; ratings as of '
                     r'<span class="w">2009-01-15\.</span>', index), index[-600:]
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    from datetime import date

    assert cli("publish", out, "--club", SAMPLES / "chess-club").exit_code == 0
    assert f'Published <span class="w">{date.today()}</span>' in (out / "index.html").read_text("utf-8")


def test_hidden_players_are_counted_without_a_command_line_option(cli, tmp_path):
    out = tmp_path / "site"
    # nardy-club's fibs list hides players below 10 experience (docs/nardy-engines.md: "1 player not shown")
    assert cli("publish", out, "--club", SAMPLES / "nardy-club").exit_code == 0
    index = (out / "index.html").read_text("utf-8")
    assert "not listed (provisional)." in index and "--all" not in index


def test_text_columns_are_text_and_numbers_numbers(cli, tmp_path):
    """fide's report has engine columns of words (the tournaments, why a game was ignored): text, not numbers."""
    out = tmp_path / "site"
    assert cli("publish", out, "--club", SAMPLES / "fide-club").exit_code == 0
    page = (out / "lists" / "fide-chess-2024-10-01.html").read_text("utf-8")
    heads = {label: cls for cls, label in re.findall(r'<th scope="col"( class="[^"]*")?[^>]*>'
                                                     r'<button type="button">([^<]+)<', page)}
    assert "num" not in heads["Tournaments"] and "num" not in heads["Ignored"] and "num" not in heads["Name"]
    assert "num" in heads["Before"] and "num" in heads["Games"] and "num" in heads["After"]
    assert 'data-type="number"><button type="button">Tournaments' not in page


def test_long_russian_words_of_a_heading_break_where_russian_hyphenates():
    # Russian hyphenation, by hand: before a consonant between vowels, after the first consonant of a
    # cluster, after ь/й; never leaving fewer than three letters on a line; in words of 8 letters or more.
    from nardrating.exchange.publish.site import hyphenated

    def parts(text):
        return hyphenated(text).replace("\u00ad", "-")

    assert parts("Изменение") == "Изме-не-ние"
    assert parts("Результат") == "Резуль-тат"
    assert parts("Соперник") == "Сопер-ник"
    assert parts("Последняя партия") == "Пос-лед-няя партия"   # (words under 8 letters whole: Статус, партия)
    assert parts("Усечённый Бухгольц 1") == "Усе-чён-ный Бух-гольц 1"
    assert parts("соревнование") == "сорев-но-ва-ние"   # (со-рев-…: "со" alone would be two letters)
    assert parts("Дата") == "Дата" and parts("После") == "После"   # short words whole
    assert parts("Expected change") == "Expected change"            # English breaks at its spaces
