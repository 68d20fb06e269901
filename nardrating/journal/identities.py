"""Renames and merges of players, applied once after reading.

A [[rename]] (player → to) or a [[merge]] (player's entries become into's) holds for the
whole journal, before and after its date: the journal stays append-only and every command
shows the final id. They are applied by rewriting the player codes once, so engines see only
final ids. Applying is idempotent: a journal already rewritten (as the cache stores it) is only
rewritten again for codes a newer entry named by an old id.
"""
from __future__ import annotations

from dataclasses import replace

from ..errors import Problem, did_you_mean
from ..i18n import _
from .model import Identity, Journal, Placing


def final_ids(identities: list[Identity]) -> dict[str, str]:
    """Every id that was renamed or merged → the id it is known by at the end of the journal."""
    mapping: dict[str, str] = {}
    for ident in identities:
        for old, new in mapping.items():
            if new == ident.player:
                mapping[old] = ident.into
        mapping[ident.player] = ident.into
    return {old: new for old, new in mapping.items() if old != new}


def apply_identities(journal: Journal) -> list[Problem]:
    """Check the identities not applied yet against the players, and rewrite every id they change;
    then the player edits not applied yet (apply_edits)."""
    problems = _check_new(journal)
    if problems:
        return problems
    _rewrite(journal)
    return apply_edits(journal)


def apply_edits(journal: Journal) -> list[Problem]:
    """Each [[edit-player]] not applied yet replaces fields of its player's record, for the whole journal.

    An edit names the player by any id a rename gave them (it follows renames, as every entry does).
    One of a player later merged into another changes nothing: the record it changed is gone (a cached
    journal applied it before the merge came: the same)."""
    problems: list[Problem] = []
    for edit in journal.player_edits[journal.edits_applied:]:
        player, merged = edit.player, False
        for ident in journal.identities:
            if ident.player == player:
                player, merged = ident.into, merged or ident.kind == "merge"
        found = journal.players.get(player)
        if merged:
            continue
        if found is None:
            problems.append(Problem(edit.file, edit.line, _("[[edit-player]] of an unknown player {player}{hint}").format(
                player=repr(edit.player), hint=did_you_mean(edit.player, journal.players)), edit.player))
            continue
        journal.players[player] = replace(found, **dict(edit.changes))
    journal.edits_applied = len(journal.player_edits)
    return problems


def _rewrite(journal: Journal) -> None:
    """Every id the identities change, rewritten in the players, codes, adjustments and standings."""
    mapping = final_ids(journal.identities)
    if not mapping:
        return
    players = journal.players
    for old in mapping:  # a CSV row of an old id made an undeclared player of it
        p = players.get(old)
        if p is not None and not p.declared:
            del players[old]
    for old in list(journal.csv_named):
        if old in mapping:
            del journal.csv_named[old]
    _recode(journal, mapping)
    if any(a.player in mapping for a in journal.adjusts):
        journal.adjusts = [replace(a, player=mapping.get(a.player, a.player)) for a in journal.adjusts]
    for tid, t in journal.tournaments.items():
        if t.standings and any(s.player in mapping for s in t.standings):
            journal.tournaments[tid] = t = replace(t, standings=tuple(
                Placing(mapping.get(s.player, s.player), s.low, s.high) for s in t.standings))
        play = t.play
        if play is not None and any(p in mapping for p in (*(play.players or ()), *(x for pair in play.forbidden
                                                                                     for x in pair))):
            journal.tournaments[tid] = replace(t, play=replace(
                play, players=None if play.players is None else tuple(mapping.get(p, p) for p in play.players),
                forbidden=tuple((mapping.get(a, a), mapping.get(b, b)) for a, b in play.forbidden)))
    _rewrite_play(journal, mapping)


def _rewrite_play(journal: Journal, mapping: dict[str, str]) -> None:
    """The rounds' boards and byes, the late entries and withdrawals of tournaments run here, by final id."""
    if any(p in mapping for r in journal.rounds for p in (*(x for _, w, b in r.boards for x in (w, b)),
                                                          *(p for p, _ in r.byes))):
        journal.rounds = [replace(r, boards=tuple((k, mapping.get(w, w), mapping.get(b, b)) for k, w, b in r.boards),
                                  byes=tuple((mapping.get(p, p), kind) for p, kind in r.byes))
                          for r in journal.rounds]
    if any(c.player in mapping for c in journal.changes):
        journal.changes = [replace(c, player=mapping.get(c.player, c.player)) for c in journal.changes]


def _check_new(journal: Journal) -> list[Problem]:
    """Each identity not applied yet names a player of its moment; the players dict follows it."""
    problems = []
    players = journal.players
    for k, ident in enumerate(journal.identities[journal.identities_applied:], start=journal.identities_applied):
        if ident.player not in players:
            problems.append(Problem(ident.file, ident.line, _("[[{kind}]] of an unknown player {player!r}{hint}").format(
                kind=ident.kind, player=ident.player, hint=did_you_mean(ident.player, players)), ident.player))
            continue
        target = players.get(ident.into)
        if ident.kind == "rename":
            if target is not None and target.declared:
                problems.append(Problem(ident.file, ident.line, _(
                    "cannot rename {old!r} to {new!r}: {new!r} is already a player; if they are one person, merge "
                    "them: nardrating merge-players {old} {new}").format(old=ident.player, new=ident.into),
                    ident.player))
                continue
            old = players[ident.player]
            new = replace(old, id=ident.into, name=ident.into if old.name == old.id else old.name)
            journal.players = players = {(ident.into if k == ident.player else k): (new if k == ident.player else v)
                                         for k, v in players.items() if k != ident.into}
        else:
            if target is None:
                problems.append(Problem(ident.file, ident.line, _("[[merge]] into an unknown player {player!r}{hint}").format(
                    player=ident.into, hint=did_you_mean(ident.into, players)), ident.player))
                continue
            shared = _entered_together(journal, k)
            if shared is not None:
                problems.append(Problem(ident.file, ident.line, _(
                    "cannot merge {dup!r} into {into!r}: both are entrants of the tournament {tournament!r}, which "
                    "merged would be one player twice in its start list and rounds; if they are two people, keep "
                    "both ids").format(dup=ident.player, into=ident.into, tournament=shared), ident.player))
                continue
            del players[ident.player]
    journal.identities_applied = len(journal.identities)
    return problems


def _entered_together(journal: Journal, k: int) -> str | None:
    """The first tournament run here whose start list or late entries hold both players of the k-th
    identity, a merge (by the ids the identities before it give them), else None."""
    ident = journal.identities[k]
    mapping = final_ids(journal.identities[:k])
    both = {ident.player, ident.into}
    for t in journal.tournaments_run_here():
        assert t.play is not None
        entered = {mapping.get(p, p) for p in t.play.players or ()}
        entered |= {mapping.get(c.player, c.player) for c in journal.changes if c.kind == "join" and c.tournament == t.id}
        if both <= entered:
            return t.id
    return None


def _recode(journal: Journal, mapping: dict[str, str]) -> None:
    """Old ids' player codes become the final id's: relabelled, or folded into its code."""
    codes = journal.player_codes
    names, index = codes.names, codes.index
    folded: dict[int, int] = {}
    for old, new in mapping.items():
        c = index.get(old)
        if c is None:
            continue
        if new in index:
            folded[c] = index[new]
        else:
            del index[old]
            names[c] = new
            index[new] = c
    if not folded:
        return
    table = list(range(len(names)))
    for c, target in folded.items():
        table[c] = target
    for c in sorted(folded, reverse=True):  # remove each folded code: the last code takes its place
        last = len(names) - 1
        del index[names[c]]
        if c != last:
            names[c] = names[last]
            index[names[c]] = c
            table = [c if t == last else t for t in table]
        names.pop()
    m = journal.matches.writable()
    for column in (m.a, m.b):
        for i, x in enumerate(column):
            if table[x] != x:
                column[i] = table[x]
