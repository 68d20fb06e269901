"""Rules that span entries: every reference must resolve, ids must be unique…

Each check appends Problems; nothing stops at the first one.
"""
from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import TYPE_CHECKING

from ..datarecords import datarecord
from ..contract.events import Adjust, DrawnMatch
from ..errors import Problem, did_you_mean
from ..fast import any_same
from ..i18n import _, ngettext
from .model import Journal, Player, Tournament

if TYPE_CHECKING:
    from ..config import ClubConfig


def finish_players(journal: Journal) -> None:
    """Create the players that CSV rows name without declaring them."""
    # (one set difference in C: the cache's table of players answers `in` through Python, 10,000 times)
    undeclared = journal.csv_named.keys() - set(journal.players)
    for name, (label, line) in journal.csv_named.items() if undeclared else ():
        if name in undeclared:
            journal.players[name] = Player(name, name, file=label, line=line, declared=False)
            journal.player_codes.code(name)


def validate(journal: Journal, config: ClubConfig, first_match: int = 0, others: bool | None = None) -> list[Problem]:
    """All cross-entry problems; with first_match > 0, only of the matches from there on.

    `others` (by default when first_match is 0): also tournaments' standings, voids and
    adjustments, and the engines' rules over the whole journal. A writer appending one of those
    passes first_match = the number of matches: an entry that is not a match changes no match's
    checks, and a million matches need not be scanned again.
    """
    if others is None:
        others = not first_match
    problems: list[Problem] = []
    known = journal.players
    names = journal.player_codes.names
    m = journal.matches_for(journal.match_count() - first_match)

    def unknown_player(player: str, label: str, line: int | None, entry: str | None) -> None:
        problems.append(Problem(label, line, _("unknown player {player!r}{hint}; declare it with a [[player]] entry "
                                               "or `nardrating add-player`").format(
            player=player, hint=did_you_mean(player, known)), entry))

    tournaments = journal.tournaments
    tournament_names = journal.tournament_codes.names
    files = journal.files
    n = len(m.ids)
    # A million matches: check per distinct player first, then visit only the rows that fail.
    unknown = set(names).difference(known)   # (in C, as finish_players)
    unknown_codes = {code for code, name in enumerate(names) if name in unknown} if unknown else set()
    suspicious: set[int] = set()
    if unknown_codes:
        suspicious.update(i for i in range(first_match, n) if m.a[i] in unknown_codes or m.b[i] in unknown_codes)
    a_col, b_col = m.a[first_match:], m.b[first_match:]
    same = any_same(m.a, m.b, first_match)  # by numpy, where the [fast] extra has loaded it for a big journal
    if same if same is not None else any(map(int.__eq__, a_col, b_col)):
        suspicious.update(first_match + k for k, (x, y) in enumerate(zip(a_col, b_col)) if x == y)
    tournament_col = m.tournament[first_match:]
    if max(tournament_col, default=-1) >= 0:  # a bulk journal often names none: one pass in C
        # A match of a tournament is dated within it, in its discipline: each tournament's first and
        # last day and discipline code looked up once; an unknown one's range holds no day.
        def span(held: Tournament | None) -> tuple[int, int, int]:
            if held is None:
                return 1, 0, -1
            return held.start.toordinal(), held.end.toordinal(), journal.discipline_codes.index.get(held.discipline, -1)

        first_day, last_day, wanted = zip(*[span(tournaments.get(tid)) for tid in tournament_names])

        def misplaced(t: int, day: int, discipline: int) -> bool:
            return t >= 0 and not (first_day[t] <= day <= last_day[t] and discipline == wanted[t])

        # Each distinct (tournament, day, discipline) judged once (a set made in C: a tournament's
        # thousands of games fall on a few days); the rows visited only where one is misplaced.
        def rows() -> Iterator[tuple[int, int, int]]:
            return zip(tournament_col, m.dates[first_match:], m.discipline[first_match:])

        if any(misplaced(*key) for key in set(rows())):
            suspicious.update(first_match + k for k, key in enumerate(rows()) if misplaced(*key))
    for i in sorted(suspicious):
        a, b = names[m.a[i]], names[m.b[i]]
        label, line, entry = files[m.source[i]], journal.line_of(i), m.ids[i]
        for player in (a, b):
            if player not in known:
                unknown_player(player, label, line, entry)
        if a == b:
            problems.append(Problem(label, line, _("a match needs two different players, not {player!r} against "
                                                   "themself").format(player=a), entry))
        t = m.tournament[i]
        if t >= 0:
            tid = tournament_names[t]
            tournament = tournaments.get(tid)
            if tournament is None:
                problems.append(Problem(label, line, _("unknown tournament {tournament!r}{hint}; add it with a "
                                                       "[[tournament]] entry or `nardrating add-tournament`").format(
                    tournament=tid, hint=did_you_mean(tid, tournaments)), entry))
            else:
                day = date.fromordinal(m.dates[i])
                if not tournament.start <= day <= tournament.end:
                    problems.append(Problem(label, line, _("the match is dated {day}, outside its tournament "
                                                           "{tournament!r} ({start} to {end})").format(
                        day=day, tournament=tid, start=tournament.start, end=tournament.end), entry))
                discipline = journal.discipline_codes.names[m.discipline[i]]
                if discipline != tournament.discipline:
                    problems.append(Problem(label, line, _("the match's discipline {discipline!r} differs from its "
                                                           "tournament's {tournament!r}").format(
                        discipline=discipline, tournament=tournament.discipline), entry))

    from ..engines.registry import engine_class
    from .playcheck import play_problems

    if not others:
        problems += play_problems(journal, first_match, whole=False)
        for rating in config.ratings.values():
            problems += engine_class(rating.engine).check(rating, JournalCheck(journal), first_match)
        return problems

    for held in journal.tournaments_with_standings():
        for placing in held.standings or ():
            if placing.player not in known:
                unknown_player(placing.player, held.file, held.line, held.id)

    journal.voided = {}
    for void in journal.voids:
        voided = journal.match_row(void.match)
        if voided is None:
            problems.append(Problem(void.file, void.line, _("void of an unknown match {match!r}{hint}").format(
                match=void.match, hint=did_you_mean(void.match, journal.match_index))))
        elif voided in journal.voided:
            first = journal.voided[voided]
            problems.append(Problem(void.file, void.line, _("match {match!r} is already voided at {file}:{line}").format(
                match=void.match, file=first.file, line=first.line)))
        else:
            journal.voided[voided] = void

    problems += play_problems(journal)

    for i, extra in m.extra.items():
        amends = extra.get("amends")
        if amends is not None and journal.match_row(amends) not in journal.voided:
            problems.append(Problem(files[m.source[i]], journal.line_of(i), (
                _("amends = {amends!r}: no such match{hint}").format(
                    amends=amends, hint=did_you_mean(amends, journal.match_index))
                if amends not in journal.match_index else
                _("amends = {amends!r}: that match is not voided; an amended match is voided by a [[void]] "
                  "(nardrating amend writes both)").format(amends=amends)), m.ids[i]))

    ratings = config.ratings
    for adjust in journal.adjusts:
        if adjust.player not in known:
            unknown_player(adjust.player, adjust.file, adjust.line, None)
        if adjust.rating is None and len(ratings) > 1:
            problems.append(Problem(adjust.file, adjust.line, _("say which rating list this adjustment is for: "
                                                               "rating = one of {lists}").format(
                lists=", ".join(map(repr, ratings)))))
        elif adjust.rating is not None and adjust.rating not in ratings:
            problems.append(Problem(adjust.file, adjust.line, _("adjustment of an unknown rating list {rating!r}{hint}; "
                                                               "the lists are: {lists}").format(
                rating=adjust.rating, hint=did_you_mean(adjust.rating, ratings), lists=", ".join(ratings))))
        else:
            target = ratings[adjust.rating] if adjust.rating is not None else next(iter(ratings.values()), None)
            given = adjust.engine_fields()
            if target is not None and given:
                taken = engine_class(target.engine).adjust_fields
                refused = [name for name in given if name not in taken]
                if refused:
                    values = {"fields": ", ".join(refused), "rating": target.name, "engine": target.engine,
                              "taken": ", ".join(sorted(taken))}
                    problems.append(Problem(adjust.file, adjust.line, (
                        ngettext("{fields} is not used by rating list {rating!r} ({engine}); it takes {taken}",
                                 "{fields} are not used by rating list {rating!r} ({engine}); it takes {taken}",
                                 len(refused)) if taken else
                        ngettext("{fields} is not used by rating list {rating!r} ({engine}); leave it out",
                                 "{fields} are not used by rating list {rating!r} ({engine}); leave them out",
                                 len(refused))).format(**values)))

    for rating in ratings.values():
        problems += engine_class(rating.engine).check(rating, JournalCheck(journal), 0)
    return problems


@datarecord(frozen=True)
class JournalCheck:
    """What an engine's `check` sees of the whole journal (contract.view.CheckView): its adjustments
    and the drawn matches."""

    journal: Journal

    @property
    def adjusts(self) -> list[Adjust]:
        return self.journal.adjusts

    def draws(self, first_match: int = 0) -> Iterator[DrawnMatch]:
        """The matches scored ½-½ and not voided, from row `first_match` on."""
        journal = self.journal
        m = journal.matches_for(journal.match_count() - first_match)
        scores = m.score_a
        if 0.5 not in (scores[first_match:] if first_match else scores):
            return  # the usual case, at C speed
        disciplines = journal.discipline_codes.names
        for i in range(first_match, len(scores)):
            if scores[i] == 0.5 and i not in journal.voided:
                yield DrawnMatch(m.ids[i], disciplines[m.discipline[i]], journal.files[m.source[i]], journal.line_of(i))
