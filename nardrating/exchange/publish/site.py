"""The pages of the published site, as data: every table a `HtmlTable` the templates lay out.

The numbers come from reports.py (leaderboard, history, the commission's report), formatted as
the terminal shows them; what is only here is the tournament's standings and crosstable.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...datarecords import datarecord, field
from ... import reports
from ...engines.base import score_text
from ...i18n import _
from ...periods import Period
from ...i18n import ngettext
from ...i18n.terms import status_text
from ...render import charts, column_texts

if TYPE_CHECKING:
    from markupsafe import Markup

    from ...engines.base import RatingResult
    from ...journal.model import MatchView, Tournament
    from ...replay.ledger import Ledger

NUMERIC = ("rating", "change", "number", "probability", "measure", "int", "score", "auto")
LINKED = ("player", "opponent")   # columns whose ids are players: linked to their pages
CROSSTABLE_MAX = 40   # players; a bigger tournament (an open) lists each player's results instead
# The columns a phone (390 px) shows of each table; the others show on a wider screen.
HISTORY_CORE = ("date", "opponent", "result", "change", "after")
BOARD_CORE = ("rank", "player", "name", "rating", "games")
STANDINGS_CORE = ("place", "player", "games", "points")


@datarecord
class Cell:
    """One cell of a page's table: its text, and how the template shows, links and sorts it."""
    text: str
    sort: str | None = None      # data-sort: the exact number, for sorting
    href: str | None = None
    header: bool = False         # the row's header (th scope="row")
    numeric: bool = False
    more: bool = False           # one of the columns a narrow screen leaves out
    long: bool = False           # long text (a reason, a list of results): wraps at spaces, not the table wider
    aside: str | None = None     # shown in the cell on a narrow screen only (what a hidden column said)


@datarecord
class HtmlTable:
    """One table of a page: caption, headers, rows of cells, and the columns a narrow screen leaves out."""
    caption: str
    headers: list[tuple[str, bool]]   # (label, numeric)
    rows: list[list[Cell]]
    sortable: bool = True
    note: str | None = None
    more: list[bool] = field(default_factory=list)  # per column: shown only on a wider screen

    def __post_init__(self) -> None:
        self.more = self.more or [False] * len(self.headers)

    @property
    def narrow_note(self) -> str | None:
        """What a narrow screen leaves out, said on it (None: it shows every column)."""
        left_out = [label for (label, _), more in zip(self.headers, self.more) if more]
        return _("A wider screen also shows: {columns}.").format(columns=", ".join(left_out)) if left_out else None


@datarecord
class Section:
    """A part of a page under its heading: its tables, a chart with what it shows in words, links."""
    heading: str
    tables: list[HtmlTable] = field(default_factory=list)
    chart: str | None = None       # an inline <svg>
    chart_text: str | None = None  # what the chart shows, in words (for those who cannot see it)
    links: list[tuple[str, str]] = field(default_factory=list)   # (href, text)


@datarecord
class Page:
    """One page of the site: where it goes under OUTDIR, its title, intro and sections."""
    path: str          # relative to OUTDIR, with "/" between folders
    title: str
    sections: list[Section]
    intro: list[str] = field(default_factory=list)
    search: bool = False

    @property
    def root(self) -> str:
        return "../" * self.path.count("/")


def words(text: object) -> Markup:
    """Text for a line that may wrap: escaped, each word with a hyphen (a date, an id, long-nardy)
    kept whole, as a browser would otherwise break it after the hyphen (a Jinja filter). Control and
    bidi override characters are written out first, as everywhere on the site (render/text.py)."""
    from markupsafe import Markup, escape

    from ...render.text import visible

    shown = str(text) if isinstance(text, Markup) else visible(str(text))
    if "-" not in shown:   # (most texts: no word to keep whole, the words escaped as the whole is)
        return escape(shown)
    return Markup(" ".join([f'<span class="w">{escape(w)}</span>' if "-" in w else escape(w) for w in shown.split(" ")]))


_CYRILLIC_WORD = re.compile(r"[А-Яа-яЁё]{8,}")   # (Статус, Игрок, Партий: whole)
_VOWELS, _SIGNS = set("аеёиоуыэюяАЕЁИОУЫЭЮЯ"), set("ьъй")


def hyphenated(text: str) -> str:
    """A table's heading, or a word in a cell (a history's "соревнование"), with soft hyphens in its long
    Russian words (also a Jinja filter): on a phone it takes two lines rather than the table wider.
    Other text as it is (a browser breaks English headings at spaces, and they fit)."""
    return _CYRILLIC_WORD.sub(lambda word: "\u00ad".join(_syllables(word.group())), text)


def _syllables(word: str) -> list[str]:
    """A Russian word in parts where it may break, three letters kept on each side: before a consonant
    between vowels (Изме-не-ние), after the first consonant of a cluster (Пос-лед-няя, Бух-гольц),
    after ь, ъ or й (Резуль-тат); every part with a vowel."""
    def vowel(k: int) -> bool:
        return word[k] in _VOWELS

    cuts = [k for k in range(3, len(word) - 2)
            if not vowel(k) and word[k] not in _SIGNS and any(map(vowel, range(k))) and any(map(vowel, range(k, len(word))))
            and (word[k - 1] in _SIGNS or (not vowel(k - 1) and vowel(k - 2)) or (vowel(k - 1) and vowel(k + 1)))]
    return [word[a:b] for a, b in zip([0, *cuts], [*cuts, len(word)])]


def cells(env: Any, row: list[Cell]) -> Markup:
    """A table row's cells as HTML (a Jinja filter given its environment: the pages' tables are most
    of a site, a cell at a time through the template's tags took most of its time). Each cell: th
    for the row's header, else td; its classes (num, more, long); data-sort; the text (linked, or as
    `words` where it may wrap); the aside. Each value written as the template writes {{ value }}:
    the environment's finalize, then escaped."""
    from markupsafe import Markup, escape

    finalize = env.finalize

    def shown(value: object) -> Markup:
        return escape(finalize(value))

    out = []
    for c in row:
        classes = " ".join([name for name, on in (("num", c.numeric), ("more", c.more), ("long", c.long)) if on])
        out.append('<th scope="row"' if c.header else "<td")
        if classes:
            out.append(f' class="{classes}"')
        if c.sort is not None:
            out.append(f' data-sort="{shown(c.sort)}"')
        out.append(">")
        if c.href:
            out.append(f'<a href="{shown(c.href)}">{shown(c.text)}</a>')
        elif c.numeric:
            out.append(shown(c.text))
        else:
            out.append(words(c.text))
        if c.aside:
            out.append(f'<span class="aside">{shown(hyphenated(c.aside))}</span>')
        out.append("</th>" if c.header else "</td>")
    return Markup("".join(out))


def file_stem(key: str, taken: set[str]) -> str:
    """A file name for an id: the id itself when it is plain ASCII, else an ASCII part and a hash.

    Never a path (no dots or slashes survive), never a name given before (a hashed name can be
    another id's plain one: "x-5d2b8b775a" and 李明), and never two names that differ only in case,
    which a case-insensitive disk would write into one file.
    """
    stem = re.sub(r"[^A-Za-z0-9_-]", "", key)[:60]
    digest = hashlib.sha1(key.encode("utf-8")).hexdigest()
    candidates = [stem] if stem == key and stem else []
    candidates += [f"{stem or 'x'}-{digest[:n]}" for n in (10, 16, 40)]
    found = next((c for c in candidates if c.lower() not in taken), None)
    n = 1
    while found is None:
        n += 1
        candidate = f"{stem or 'x'}-{digest}-{n}"
        found = None if candidate.lower() in taken else candidate
    taken.add(found.lower())
    return found


class Site:
    """Builds the pages of one club as of one day; `pages()` returns them, nothing is written here."""

    def __init__(self, ledger: Ledger, rating: str | None, day: reports.AsOf, public: bool = False) -> None:
        self.ledger, self.day, self.public = ledger, day, public
        journal = ledger.journal
        lists = [ledger.rating(rating)] if rating is not None else list(ledger.config.ratings.values())
        self.results = [ledger.run(r, d, day.day) for r in lists for d in ledger.disciplines(r)]
        taken: set[str] = set()
        self.player_path = {p: f"players/{file_stem(p, taken)}.html" for p in sorted(journal.players)}
        self.tournament_path = {t: f"tournaments/{file_stem(t, taken)}.html" for t in sorted(journal.tournaments)}
        self.list_pages = [(result, span, f"lists/{file_stem(f'{result.rating}-{result.discipline}-{span.end}', taken)}.html")
                           for result in self.results for span in list_periods(result)]

    def name(self, player: str) -> str:
        return self.ledger.journal.player_name(player, self.public)

    def html_table(self, table: reports.Table, page: Page, part: int | None = None, sortable: bool = True,
                   core: tuple[str, ...] | None = None, caption: str | None = None) -> HtmlTable:
        """A reports.Table's rows (or its section `part`) as cells: the terminal's text (one number of
        decimals per column over the whole table), the exact number to sort by, links to players.

        A column is numeric (right-aligned, sorted as numbers) when its kind is and its values are:
        an engine's column of ids or words is text. `core`: the columns a phone shows."""
        texts = column_texts(table)
        offset, rows = 0, table.rows
        caption = caption or table.title
        if part is not None:
            offset = len(table.rows) + sum(len(r) for _, r in table.sections[:part])
            caption, rows = table.sections[part]
        every = table.all_rows()
        numeric = {c.key: c.kind in NUMERIC and all(_is_number(r.get(c.key)) for r in every) for c in table.columns}
        more = {c.key: core is not None and c.key not in core for c in table.columns}
        out = []
        for n, row in enumerate(rows):
            cells = []
            for c in table.columns:
                value = row.get(c.key)
                cell = Cell(texts[c.key][n + offset], numeric=numeric[c.key], header=c.key == "player",
                            more=more[c.key], long=c.kind == "footnote" or c.wrap)
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    cell.sort = repr(value)
                if c.key in LINKED and value in self.player_path:
                    cell.href = page.root + self.player_path[value]
                cells.append(cell)
            out.append(cells)
        return HtmlTable(caption, [(c.heading, numeric[c.key]) for c in table.columns], out,
                         sortable, table.caption if part is None else None, [more[c.key] for c in table.columns])

    def pages(self) -> Iterator[Page]:
        """Every page, one at a time (a big club's pages, as objects, took gigabytes held at once)."""
        yield self.index()
        yield from (self.player(p) for p in self.player_path)
        yield from (self.tournament(t) for t in self.tournament_path)
        yield from (self.list_page(*item) for item in self.list_pages)

    # --- the pages ---

    def index(self) -> Page:
        page = Page("index.html", self.ledger.config.club.name or _("Ratings"), [], search=True)
        page.intro.append(_("Ratings {as_of}.").format(as_of=self.day))
        for result in self.results:
            table = reports.leaderboard(self.ledger, result, public=self.public, day=self.day)
            section = Section(f"{result.rating} · {result.discipline}")
            board = self.html_table(table, page, core=BOARD_CORE)
            board.note = self.hidden_note(result) or (table.caption if not table.rows else None)
            section.tables.append(board)
            section.tables += [self.html_table(table, page, n, core=BOARD_CORE) for n in range(len(table.sections))]
            section.links = [(page.root + path, _("List of {day}").format(day=span.end)) for res, span, path in self.list_pages
                             if res is result]
            page.sections.append(section)
        if self.tournament_path:
            tournaments = self.ledger.journal.tournaments
            page.sections.append(Section(_("Tournaments"), links=[
                (path, f"{tournaments[t].name} ({tournaments[t].start}..{tournaments[t].end})")
                for t, path in sorted(self.tournament_path.items(), key=lambda kv: (tournaments[kv[0]].start, kv[0]))]))
        return page

    def hidden_note(self, result: RatingResult) -> str | None:
        """Who the published list leaves out, as the leaderboard does without --all (no option on a page)."""
        own = dict(result.sections)
        hidden = [s for s in result.standings.values() if s.status in result.hidden_statuses and s.status not in own]
        if not hidden:
            return None
        return ngettext("{n} player not listed ({statuses}).", "{n} players not listed ({statuses}).",
                        len(hidden)).format(n=len(hidden), statuses=", ".join(sorted({status_text(s.status) for s in hidden})))

    def player(self, player: str) -> Page:
        name = self.name(player)
        page = Page(self.player_path[player], f"{name} ({player})", [])
        info = self.ledger.journal.players[player]
        facts = [f"{label}: {value}" for label, value in ((_("Title"), info.title), (_("Qualification"), info.qualification))
                 if value]
        page.intro += facts
        for result in self.results:
            if not result.history(player):
                continue
            table = reports.history(self.ledger, result, player, self.day)
            section = Section(f"{result.rating} · {result.discipline}")
            points = charts.rating_points(result, player)
            if points:
                title = _("Rating of {name}, {rating} · {discipline}").format(name=name, rating=result.rating,
                                                                                discipline=result.discipline)
                section.chart = charts.svg([charts.Series(name, points)], title, chart_id=f"chart-{len(page.sections) + 1}")
                section.chart_text = _("{title}: from {first} on {first_day} to {last} on {last_day}; lowest "
                                       "{lowest}, highest {highest}.").format(
                    title=title, first=charts.rating_label(points[0].rating), first_day=points[0].day,
                    last=charts.rating_label(points[-1].rating), last_day=points[-1].day,
                    lowest=charts.rating_label(min(p.rating for p in points)),
                    highest=charts.rating_label(max(p.rating for p in points)))
            games = self.html_table(table, page, core=HISTORY_CORE)
            keys = [c.key for c in table.columns]
            for cells in games.rows:  # a phone hides Kind: an event without an opponent says there what it is
                opponent, kind = cells[keys.index("opponent")], cells[keys.index("kind")]
                if not opponent.text and kind.text:
                    opponent.aside = kind.text
            games.note = (table.caption or "").split("\n")[0] or None  # the summary; the chart above, not a sparkline
            section.tables.append(games)
            page.sections.append(section)
        if not page.sections:
            page.intro.append(_("No games in the published rating lists."))
        return page

    def tournament(self, tournament_id: str) -> Page:
        t = self.ledger.journal.tournaments[tournament_id]
        page = Page(self.tournament_path[tournament_id], t.name, [])
        page.intro.append(f"{t.start}..{t.end} · {t.system} · {t.discipline}" + (" · " + _("official") if t.official else ""))
        from .rounds import round_tables

        run_here = round_tables(self.ledger, tournament_id, self.day.day)
        if run_here is not None:  # paired here: standings with tie-breaks, the crosstable round by round
            for heading, table in run_here:
                for row in table.rows:
                    row["name"] = self.name(row["player"])
                page.sections.append(Section(heading, [self.html_table(table, page)]))
            return page
        from ...reports.tournaments import tournament_games, tournament_standings

        games = tournament_games(self.ledger.journal, tournament_id, self.day.day)
        standings = tournament_standings(t, games)
        order = [row["player"] for row in standings]
        columns = [reports.Column("place", _("Place")), reports.Column("player", _("Player")),
                   reports.Column("name", _("Name")), reports.Column("games", _("Games"), "int"),
                   reports.Column("points", _("Points"), "number")]
        for row in standings:
            row["name"] = self.name(row["player"])
        table = reports.Table(_("Standings of {tournament}").format(tournament=t.name), columns, standings)
        page.sections.append(Section(_("Standings"), [self.html_table(table, page, core=STANDINGS_CORE)]))
        if order:
            page.sections.append(Section(_("Crosstable"), [self.crosstable(t, order, games, page)]))
        return page

    def crosstable(self, t: Tournament, order: list[str], games: list[MatchView], page: Page) -> HtmlTable:
        """Each player's scores against each other player, in the standings' order; ½ for a draw."""
        scores: dict[tuple[str, str], list[str]] = {}
        for g in games:
            for who in g.players:
                mark = score_text(g.score_of(who)) + ("F" if g.forfeit else "")
                scores.setdefault((who, g.opponent_of(who)), []).append(mark)
        rows = []
        if len(order) > CROSSTABLE_MAX:   # a square of hundreds of columns: each row's games in a list
            number = {who: n for n, who in enumerate(order, start=1)}
            for n, a in enumerate(order, start=1):
                results = "; ".join(f"{number[b]}: {' '.join(marks)}" for (who, b), marks in scores.items() if who == a)
                rows.append([Cell(str(n), numeric=True), self.player_cell(a, page), Cell(results, long=True)])
            return HtmlTable(_("Results of {tournament}: each player's scores against the players numbered "
                               "as in the standings (F: forfeit)").format(tournament=t.name),
                             [("#", True), (_("Player"), False), (_("Results"), False)],
                             rows, sortable=False)
        headers = [("#", True), (_("Player"), False)] + [(str(n), True) for n in range(1, len(order) + 1)]
        for n, a in enumerate(order, start=1):
            cells = [Cell(str(n), numeric=True), self.player_cell(a, page)]
            cells += [Cell("×" if a == b else " ".join(scores.get((a, b), [])), numeric=True) for b in order]
            rows.append(cells)
        return HtmlTable(_("Crosstable of {tournament}: row player's scores against column player (F: forfeit)").format(
                             tournament=t.name),
                         headers, rows, sortable=False)

    def player_cell(self, player: str, page: Page) -> Cell:
        return Cell(self.name(player), href=page.root + self.player_path[player] if player in self.player_path else None,
                    header=True)

    def list_page(self, result: RatingResult, span: Period, path: str) -> Page:
        page = Page(path, _("{rating} · {discipline} · list of {day}").format(
            rating=result.rating, discipline=result.discipline, day=span.end), [])
        table = reports.report(self.ledger, result, span, details=True)
        section = Section(_("The commission's report"), [self.html_table(table, page)])
        for detail in reports.report_details(table):
            section.tables.append(self.html_table(detail, page))
        page.sections.append(section)
        return page


def _is_number(value: Any) -> bool:
    """A number, or no value (an empty cell sorts last either way)."""
    return value is None or value == "" or (isinstance(value, (int, float)) and not isinstance(value, bool))


def list_periods(result: RatingResult) -> list[Period]:
    """The lists of a period engine, each as the span its report covers: mfsnb's period (a quarter…)
    ending on the list's date; a fide list, its date alone (its report is that list's)."""
    if result.list_kind == "periods":  # mfsnb: [(period, rows)], as RatingResult.list_kind declares
        periods: Any = result
        return [period for period, rows in periods.lists() if rows]
    return [Period(day, day) for day in reports.list_dates(result)]
