"""The leaderboard of a list, and the players of the club with their games per discipline."""
from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from itertools import repeat
from operator import attrgetter, itemgetter
from typing import TYPE_CHECKING

from ..engines.base import RatingResult, Standing
from ..i18n import _, ngettext
from ..i18n.terms import status_text
from .asof import AsOf
from .table import Column, Row, Section, Table, heading

if TYPE_CHECKING:
    from ..journal.model import Journal
    from ..replay.ledger import Ledger


def leaderboard(ledger: Ledger, result: RatingResult, show_all: bool = False, public: bool = False,
                day: AsOf | None = None) -> Table:
    journal = ledger.journal
    shown: list[Standing] = []
    hidden: list[Standing] = []
    section_titles = dict(result.sections)
    grouped: dict[str, list[Standing]] = {status: [] for status in section_titles}
    for s in result.standings.values():
        if s.status in section_titles:
            grouped[s.status].append(s)
        elif s.status in result.hidden_statuses and not show_all:
            hidden.append(s)
        else:
            shown.append(s)
    # By rating, highest first, equal ratings by player, no rating last: two stable sorts by
    # attribute (in C), not a key tuple made per player.
    rated = sorted((s for s in shown if s.rating is not None), key=attrgetter("player"))
    rated.sort(key=attrgetter("rating"), reverse=True)
    shown = rated + sorted((s for s in shown if s.rating is None), key=attrgetter("player"))

    extra_keys = [key for key, _ in result.columns]

    def rows_of(standings: list[Standing], ranked: bool) -> list[Row]:
        """A row a standing, ranked from 1 or not at all (a section); one comprehension, no call a
        row: a leaderboard is 10,000 rows, read by every daily command."""
        names = journal.player_names([s.player for s in standings], public)
        ranks: Iterable[int | None] = range(1, len(standings) + 1) if ranked else repeat(None)
        rows: list[Row] = [{"rank": rank, "player": s.player, "name": name, "rating": s.rating, "games": s.games,
                            "status": s.status, "last_played": s.last_played}
                           for rank, s, name in zip(ranks, standings, names)]
        for key in extra_keys:
            for r, s in zip(rows, standings):
                r[key] = s.extra.get(key)
        return rows

    rows = rows_of(shown, True)
    columns = [Column("rank", _("#"), "int"), Column("player", _("Player")), Column("name", _("Name")),
               Column("rating", _("Rating"), "rating"), Column("games", _("Games"), "int"),
               Column("status", _("Status")), Column("last_played", _("Last played"), "date")]
    columns += [Column(key, heading(key), "rating") for key, _ in result.columns]
    sections: list[Section] = []
    for status, title in result.sections:
        members = sorted(grouped[status], key=lambda s: s.player)
        if members:
            sections.append(Section(_(title), rows_of(members, False)))
    caption = None
    if hidden:
        caption = ngettext("{count} player not shown ({statuses}); --all shows them",
                           "{count} players not shown ({statuses}); --all shows them", len(hidden)).format(
            count=len(hidden), statuses=", ".join(sorted({status_text(s.status) for s in hidden})))
    shown_as_of = day or (AsOf(result.as_of) if result.as_of else None)
    title = f"{result.rating} · {result.discipline}" + (f" · {shown_as_of}" if shown_as_of else "")
    if not rows and not sections and not hidden:
        caption = empty_reason(journal, result.discipline, shown_as_of.day if shown_as_of else None)
    return Table(title, columns, rows, sections, caption)


def empty_reason(journal: Journal, discipline: str, day: date | None) -> str:
    """Why a leaderboard has nobody on it: no rated game by its date, or none in the discipline at all."""
    m = journal.matches
    code = journal.discipline_codes.index.get(discipline)
    excluded = journal.excluded_rows()
    played = [d for i, (d, c) in enumerate(zip(m.dates, m.discipline)) if c == code and i not in excluded]
    if not played:
        return _("no rated games in {discipline} yet").format(discipline=discipline)
    first = date.fromordinal(min(played))
    if day is not None and day < first:
        return _("no rated games as of {day}: the first in {discipline} is on {first}").format(
            day=day, discipline=discipline, first=first)
    return _("no rated games as of {day}").format(day=day)


def players(ledger: Ledger, rating: str | None = None, day: AsOf | None = None) -> Table:
    """Players and their games per discipline, counted as the leaderboard counts them.

    Each discipline's games come from `rating` if it rates it, else from the first list
    that does (voided, forfeit, unrated and pair-limited games do not count); a discipline
    no list rates counts its games that are not voided, forfeit or unrated.
    """
    journal = ledger.journal
    lists = list(ledger.config.ratings.values())
    if rating is not None:
        chosen = ledger.rating(rating)
        lists = [chosen] + [r for r in lists if r is not chosen]
    counts: dict[str, dict[str, int]] = {}
    for discipline in journal.disciplines():
        rated_by = next((r for r in lists if r.rates(discipline)), None)
        if rated_by is not None:
            standings = ledger.standings_run(rated_by, discipline, day.day if day else None).standings
            for player, s in standings.items():
                if s.games:
                    counts.setdefault(player, {})[discipline] = s.games
            continue
        m, code = journal.matches, journal.discipline_codes.index[discipline]
        limit = day.day.toordinal() if day else None
        for i in range(len(m.ids)):
            if m.discipline[i] == code and journal.exclusion(i) is None and (limit is None or m.dates[i] <= limit):
                for who in (m.a[i], m.b[i]):
                    per = counts.setdefault(journal.player_codes.names[who], {})
                    per[discipline] = per.get(discipline, 0) + 1
    # The cache's table gives each player's facts from its rows: 10,000 listed, no Player made.
    facts = getattr(journal.players, "facts", None)
    listed = facts() if facts is not None else [(p.id, p.name, p.alias, p.qualification, p.title)
                                                for p in journal.players.values()]
    rows: list[Row] = [{"player": player, "name": name, "alias": alias, "qualification": qualification, "title": title,
                        "games": counts.get(player, {})}
                       for player, name, alias, qualification, title in sorted(listed, key=itemgetter(0))]
    columns = [Column("player", _("Player")), Column("name", _("Name")), Column("alias", _("Alias")),
               Column("qualification", _("Qualification")), Column("title", _("Title")), Column("games", _("Games"))]
    return Table(_("Players") + (f" · {day}" if day else ""), columns, rows)
