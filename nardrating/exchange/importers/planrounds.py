"""A TRF's rounds as journal entries: the new tournament's start list (`players`, by start number),
`rounds` (XXR, else the file's), pairing "dutch" for a Swiss; a [[round]] a round with its boards
and byes; a [[withdraw]] before the round a withdrawal takes effect in; `round` on each match.

A tournament the journal already has gets the file's further rounds only if it is run here with
the same start list (a tournament in progress imported again, further on); otherwise its matches
are joined to it as before, without rounds.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...i18n import _, ngettext
from .records import Parsed
from .trfrounds import TrfRun

if TYPE_CHECKING:
    from ...journal.model import Journal, Tournament

Resolve = Callable[[str], "str | None"]
Planned = tuple[str, dict[str, Any], str, "int | None"]   # (kind, data, file, line), as plan.PlannedEntry


def plan_rounds(parsed_files: list[Parsed], tids: dict[tuple[int, str], tuple[str, Tournament | None]],
                new: dict[str, Any], journal: Journal, resolve: Resolve, matches: list[dict[str, Any]],
                notes: list[list[str]]) -> list[Planned]:
    """The [[round]] and [[withdraw]] entries of every run in the files (matches: the planned
    matches' data; notes: each file's notes); the new tournaments' data get their start list, and
    matches of tournaments without rounds lose `round`."""
    found: list[Planned] = []
    given: set[str] = set()
    for k, parsed in enumerate(parsed_files):
        for key, run in parsed.runs.items():
            assert isinstance(run, TrfRun)
            target = tids.get((k, key))
            ids = [resolve(name) for name in run.start_list]
            if target is None or None in ids:
                continue
            tid, joined = target
            entrants = [p for p in ids if p is not None]
            if joined is None:
                held = new[tid]
                held.data["pairing"] = "dutch" if held.data.get("system") == "swiss" else None
                held.data["rounds"] = run.planned or len(run.rounds)
                held.data["players"] = entrants
                first = 1
            elif joined.play is not None and list(joined.play.players or ()) == entrants:
                first = sum(1 for r in journal.rounds if r.tournament == tid) + 1
            else:
                continue
            line = held.line if joined is None else 1
            out = {(c.tournament, c.player) for c in journal.changes if c.kind == "withdraw"}
            added = 0
            for number, rnd in enumerate(run.rounds, start=1):
                if number < first:
                    continue
                for name, at in run.withdrawn.items():
                    player = resolve(name)
                    if at == number and player is not None and (tid, player) not in out:
                        found.append(("withdraw", {"tournament": tid, "player": player, "round": number,
                                                   "date": rnd.day}, parsed.file, line))
                boards = [{"board": n, "white": resolve(w), "black": resolve(b)}
                          for n, (w, b) in enumerate(rnd.boards, start=1)]
                byes = [{"player": resolve(name), "kind": kind} for name, kind in rnd.byes]
                found.append(("round", {"tournament": tid, "round": number, "date": rnd.day,
                                        "boards": boards or None, "byes": byes or None}, parsed.file, line))
                added += 1
            given.add(tid)
            if added:
                paired = held.data["pairing"] if joined is None else joined.play and joined.play.pairing
                notes[k].append(_round_note(tid, added, run, first, bool(paired)))
    for match in matches:
        if match.get("tournament") not in given:
            match.pop("round", None)
    return found


def _round_note(tid: str, added: int, run: TrfRun, first: int, paired: bool = True) -> str:
    rounds = ngettext("{n} round", "{n} rounds", added).format(n=added)
    note = _("{tournament}: {rounds} recorded round by round (the start list, every board, bye and "
             "withdrawal)").format(tournament=tid, rounds=rounds)
    if run.waiting:
        note += ngettext("; round {round} is paired, {n} board without a result: `nardrating results {tournament}` "
                         "enters it", "; round {round} is paired, {n} boards without a result: `nardrating results "
                         "{tournament}` enters them", run.waiting).format(round=len(run.rounds), n=run.waiting,
                                                                        tournament=tid)
    elif not run.complete and not paired:  # a round-robin or a knockout of a TRF: its table is not known here
        note += _("; in progress, {done} of {planned} rounds (no pairing system: `pair` cannot pair it)").format(
            done=len(run.rounds), planned=run.planned)
    elif not run.complete:
        note += _("; in progress, {done} of {planned} rounds: `nardrating pair {tournament}` pairs round {next}").format(
            done=len(run.rounds), planned=run.planned, tournament=tid, next=len(run.rounds) + 1)
    return note
