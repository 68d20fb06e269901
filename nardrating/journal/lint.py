"""Warnings: entries that are valid but probably not what the organiser meant.

`check` shows them (exit 0) and `check --strict` fails on them (exit 1). A
journal with warnings still replays: each of these can be on purpose (two
players called Иванов, a discipline that has no list yet), but each is also
the usual way a typo forks the data without anyone noticing.
"""
from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Collection, Iterable
from datetime import date
from typing import TYPE_CHECKING

from ..errors import Problem
from ..i18n import N_, _
from .model import Journal

if TYPE_CHECKING:
    from ..config import ClubConfig

# Latin letters that look like Cyrillic ones, folded to the Cyrillic letter, so that
# "Ivanov" typed with a Latin "o" in a Cyrillic name still meets its twin.
_LOOKALIKES = str.maketrans("aceopxykmthb", "асеорхукмтнв")


def folded(text: str) -> str:
    """A name as a reader would compare it: case, ё/е, accents and look-alike letters folded."""
    if text.isascii():   # (most ids: no accents to take off, and casefold() is lower())
        return " ".join(text.lower().translate(_LOOKALIKES).split())
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))  # ё → е, й → и, é → e
    return " ".join(text.translate(_LOOKALIKES).split())


def _one_edit_apart(x: str, y: str) -> bool:
    """One insertion, deletion, substitution or swap of neighbours turns x into y."""
    if x == y or abs(len(x) - len(y)) > 1:
        return False
    if len(x) > len(y):
        x, y = y, x
    i = 0
    while i < len(x) and x[i] == y[i]:
        i += 1
    if len(x) == len(y) and x[i + 2:] == y[i + 2:] and x[i:i + 2] == y[i:i + 2][::-1]:
        return True  # borsi for boris
    return x[i + (len(x) == len(y)):] == y[i + 1:]


def _skeleton(text: str) -> str:
    """A text without its digits. Two names one edit apart with the same skeleton differ in a digit:
    p00001 and p00002, cup-2008 and cup-2009, numbered on purpose, not a typo."""
    return "".join([ch for ch in text if not ch.isdigit()])


def near_duplicates(names: dict[str, str], only: Collection[str] | None = None) -> list[tuple[str, str, str]]:
    """Pairs of keys whose names are alike: (key, earlier key, how).

    `names` maps a key (a player id) to a text to compare (the id or the name).
    The same text → "are equal"; the same after folding → "differ only in case, ё/е or
    look-alike letters"; else one edit apart after folding (names of four letters or more) →
    "one letter apart" (English, marked N_: translated where shown). The earlier key is the first
    such key in `names`' order. `only`: the pairs of these keys alone (a writer's new player: the
    others are not compared with each other).
    Linear in the number of names: candidates meet through their one-deletion variants, and
    numbered ids (p1234, p1235…: many share a variant) are set apart by their letters first.
    """
    found: list[tuple[str, str, str]] = []
    keys: list[str] = []
    folds: list[str] = []                 # by position in `keys`
    skeletons: list[str] = []
    by_fold: dict[str, str] = {}
    by_deletion: dict[str, list[int]] = defaultdict(list)
    for key, text in names.items():
        f = folded(text)
        if not f:
            continue
        asked = only is None or key in only
        twin = by_fold.get(f)
        if twin is not None:
            if asked:
                found.append((key, twin, N_("are equal") if " ".join(text.split()) == " ".join(names[twin].split())
                              else N_("differ only in case, ё/е or look-alike letters")))
            continue
        by_fold[f] = key
        if len(f) < 4:
            continue
        variants = _variants(f)
        position = len(keys)
        keys.append(key)
        folds.append(f)
        skeletons.append(skeleton := _skeleton(f))
        if asked:
            for other in sorted({p for variant in variants for p in by_deletion.get(variant, ())}):
                g = folds[other]
                if skeletons[other] != skeleton and _one_edit_apart(f, g):
                    found.append((key, keys[other], N_("one letter apart")))
                    break
        for variant in variants:
            by_deletion[variant].append(position)
    return found


def lint(journal: Journal, config: ClubConfig) -> list[Problem]:
    """Every warning, in the order of the entries they concern."""
    warnings: list[Problem] = []
    players = journal.players

    undeclared = [p for p in players.values() if not p.declared]
    first_rows = _first_rows(journal, {p.id for p in undeclared}) if undeclared else {}
    alike = _Alike(players if undeclared else ())
    for p in undeclared:
        line = journal.line_of(first_rows[p.id]) if p.id in first_rows else p.line
        warnings.append(Problem(p.file, line, _("player {player!r} is named by a CSV row but not declared; if it is "
                                                "a new player, add a [[player]] entry (`nardrating add-player`)").format(
            player=p.id) + alike.hint(p.id)))

    for key, other, how in near_duplicates({p.id: p.id for p in players.values()}):
        p = players[key]
        warnings.append(Problem(p.file, p.line, _("player ids {a!r} and {b!r} {how}: the same person entered twice? "
                                                  "(merge them, or ignore this if they are two people)").format(
            a=key, b=other, how=_(how)), key))
    named = {p.id: p.name for p in players.values() if p.name != p.id}
    for key, other, how in near_duplicates(named):
        p = players[key]
        warnings.append(Problem(p.file, p.line, _("player names {a} ({a_id}) and {b} ({b_id}) {how}").format(
            a=repr(p.name), a_id=key, b=repr(players[other].name), b_id=other, how=_(how)), key))

    rated = [d for d in journal.disciplines() if any(r.rates(d) for r in config.ratings.values())]
    for d in journal.disciplines():
        if d not in rated:
            where = _first_use_of_discipline(journal, d)
            every = _("all")  # (a list's disciplines: all)
            lists = ", ".join(f"{r.name} ({', '.join(r.disciplines or [every])})" for r in config.ratings.values())
            warnings.append(Problem(where[0], where[1], _("discipline {discipline!r} is rated by no list (lists: "
                                                          "{lists})").format(discipline=d, lists=lists)
                                    + _alike_hint(d, rated), where[2]))

    m = journal.matches
    for void in journal.voids:
        i = journal.match_index.get(void.match)
        if i is not None and void.date.toordinal() < m.dates[i]:
            warnings.append(Problem(void.file, void.line, _("the void is dated {day}, before its match {match!r} "
                                                            "({match_day})").format(
                day=void.date, match=void.match, match_day=date.fromordinal(m.dates[i]))))

    today = date.today()
    for p in players.values():
        if p.joined is not None and p.joined > today:
            warnings.append(Problem(p.file, p.line, after_today("joined", p.joined, today), p.id))
    if journal.max_date > today.toordinal():  # the usual case, no later match, at once
        for i in range(len(m.ids)):
            if m.dates[i] > today.toordinal():
                warnings.append(Problem(journal.files[m.source[i]], journal.line_of(i),
                                        after_today("date", date.fromordinal(m.dates[i]), today), m.ids[i]))
    joined = {p.id: p.joined for p in players.values() if p.joined is not None}
    names = journal.player_codes.names
    for i in range(len(m.ids)) if joined else ():   # (no joined dates, the usual: no pass over the matches)
        day = m.dates[i]
        for code in (m.a[i], m.b[i]):
            player = names[code]
            since = joined.get(player)
            if since is not None and day < since.toordinal():
                warnings.append(Problem(journal.files[m.source[i]], journal.line_of(i),
                                        _("the match is dated {day}, before {player!r} joined ({joined})").format(
                                            day=date.fromordinal(day), player=player, joined=since), m.ids[i]))
    for i, extra in sorted(m.extra.items()):
        score = extra.get("score")
        if score is None:
            continue
        label, line, entry = journal.files[m.source[i]], journal.line_of(i), m.ids[i]
        mine, theirs = score
        won = m.score_a[i]
        if score_contradicts(score, won):
            warnings.append(Problem(label, line, _("score {mine}-{theirs} contradicts the result ({result})").format(
                mine=mine, theirs=theirs, result=_result_words(won)), entry))
        length = m.length[i]
        if length > 1 and min(mine, theirs) >= length:
            warnings.append(Problem(label, line, _("score {mine}-{theirs}: both players reached the match length "
                                                   "{length}").format(mine=mine, theirs=theirs, length=length), entry))
    warnings += _list_files(journal, config)
    # In file order (files as club.journal lists them, then line), whatever order the entries were
    # read in: a journal that grew is read from the cache plus its tail.
    files = {name: k for k, name in enumerate(journal.files)}
    return sorted(warnings, key=lambda p: (files.get(p.file, len(files)), p.line or 0))


# --- What the writers refuse or warn of at entry, as check flags it later ---------------------

def score_contradicts(score: tuple[int, int] | list[int], score_a: float) -> bool:
    """A final score that says otherwise than the result (first player's points first)."""
    mine, theirs = score
    return (score_a == 1.0 and mine <= theirs) or (score_a == 0.0 and mine >= theirs) or (score_a == 0.5 and mine != theirs)


def score_message(score: tuple[int, int] | list[int], score_a: float) -> str:
    """Why a score is refused at entry, and what would be right."""
    mine, theirs = score
    if score_a != 0.5 and score_contradicts((theirs, mine), score_a):
        hint = _("the winner needs more points than the loser")
    elif score_a == 0.5:
        hint = _("a draw needs equal points")
    else:
        hint = _("give the first player's points first: --score {theirs}-{mine}").format(theirs=theirs, mine=mine)
    return _("--score {mine}-{theirs} contradicts the result ({result}); {hint}").format(
        mine=mine, theirs=theirs, result=_result_words(score_a), hint=hint)


def after_today(field: str, day: date, today: date) -> str:
    """A date after today (a match's `date`, a player's `joined`): valid, but mostly a typo of the
    year (2090 for 2009)."""
    if field == "joined":
        return _("joined {day} is after today ({today}); a typo of the year?").format(day=day, today=today)
    return _("the match is dated {day}, after today ({today}); a typo of the year?").format(day=day, today=today)


def name_warnings(journal: Journal, player: str, name: str | None, ids: bool = True) -> list[str]:
    """What check will warn of a player's id and name (near-duplicates of another player's), as the
    writers say it at entry: "player names 'Иванов' (ivanov2) and 'Иванов' (ivanov) are equal"."""
    others = {p.id: p for p in journal.players.values() if p.id != player}
    found = []
    for key, other, how in near_duplicates({**{p: p for p in others}, player: player}, {player}) if ids else ():
        if key == player:
            found.append(_("player ids {a} and {b} {how}: the same person entered twice? (then use "
                           "{b}, or merge them later)").format(a=repr(key), b=repr(other), how=_(how)))
    shown = name or player
    if shown != player:
        names = {p.id: p.name for p in others.values() if p.name != p.id}
        for key, other, how in near_duplicates({**names, player: shown}, {player}):
            if key == player:
                found.append(_("player names {a} ({a_id}) and {b} ({b_id}) {how}").format(
                    a=repr(shown), a_id=player, b=repr(names[other]), b_id=other, how=_(how)))
    return found


def _first_rows(journal: Journal, wanted: set[str]) -> dict[str, int]:
    """The first match naming each of these players, in one pass over the columns."""
    codes = {journal.player_codes.index[name]: name for name in wanted if name in journal.player_codes.index}
    first: dict[str, int] = {}
    m = journal.matches
    for i, (a, b) in enumerate(zip(m.a, m.b)):
        for code in (a, b):
            name = codes.pop(code, None)
            if name is not None:
                first[name] = i
        if not codes:
            break
    return first


def _variants(f: str) -> set[str]:
    """A folded word and its one-deletion variants: two words one edit apart (or folded alike) share one."""
    return {f} | {f[:k] + f[k + 1:] for k in range(len(f))}


class _Alike:
    """The first known word one edit from a word (or folded alike), found through the words' shared
    one-deletion variants: a club's thousands of undeclared players are not compared all with all."""

    def __init__(self, known: Iterable[str]) -> None:
        self.order = list(known)
        self.folds = [folded(k) for k in self.order]
        self.by_variant: dict[str, list[int]] = defaultdict(list)
        for position, f in enumerate(self.folds):
            for variant in _variants(f):
                self.by_variant[variant].append(position)

    def hint(self, word: str) -> str:
        f = folded(word)
        candidates = sorted({p for variant in _variants(f) for p in self.by_variant.get(variant, ())})
        for position in candidates:   # in the known words' order: the first close one, as before
            k, g = self.order[position], self.folds[position]
            if k != word and (g == f or _one_edit_apart(g, f)):
                return " " + _("(did you mean {names}?)").format(names=f'"{k}"')  # as did_you_mean says it
        return ""


def _alike_hint(word: str, known: Iterable[str]) -> str:
    return _Alike(known).hint(word)


def _first_use_of_discipline(journal: Journal, discipline: str) -> tuple[str, int | None, str | None]:
    code = journal.discipline_codes.index[discipline]
    m = journal.matches
    for i, d in enumerate(m.discipline):
        if d == code:
            return journal.files[m.source[i]], journal.line_of(i), m.ids[i]
    for t in journal.tournaments.values():
        if t.discipline == discipline:
            return t.file, t.line, t.id
    return (journal.files[0] if journal.files else ""), None, None


_RESULT_WORDS = {1.0: N_("the first player won"), 0.0: N_("the second player won")}
_DRAW = N_("a draw")


def _result_words(score_a: float) -> str:
    return _(_RESULT_WORDS.get(score_a, _DRAW))


def _list_files(journal: Journal, config: ClubConfig) -> list[Problem]:
    """A [[list]] whose file, in the club folder, is gone or no longer has the SHA-256 the entry records
    (a list written outside the club folder is not the club's to watch)."""
    import hashlib
    import os

    from ..config import inside_club
    from ..safefile import open_regular

    found = []
    for entry in journal.lists:
        path = config.folder / entry.path
        if os.path.isabs(entry.path) or inside_club(config.folder, path) is None:
            continue
        try:
            with open(open_regular(path), "rb") as f:
                digest = hashlib.file_digest(f, "sha256").hexdigest()
        except FileNotFoundError:
            found.append(Problem(entry.file, entry.line, _("the list file {path} is not there any more").format(
                path=entry.path)))
            continue
        except OSError as exc:
            found.append(Problem(entry.file, entry.line, _("the list file {path} cannot be read: {why}").format(
                path=entry.path, why=exc.strerror or exc)))
            continue
        if digest != entry.sha256:
            found.append(Problem(entry.file, entry.line, _(
                "the list file {path} no longer has the SHA-256 this entry records: it was altered after it was "
                "frozen; `nardrating verify {path}` shows what differs").format(path=entry.path)))
    return found
