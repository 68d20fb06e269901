"""The rules of a tournament run here that span entries, checked with every full read (validate.py).

- a `[[tournament]]`'s start list and forbidden pairs name known players;
- a `[[round]]` belongs to a known tournament with a start list, follows the tournament's previous
  round (1, 2, 3, … in journal order) and its planned `rounds`, is dated within the tournament and
  not before the round before it, and pairs only entrants who are in the event in that round;
- a `[[join]]` adds a known player not yet entered, from a round not yet paired; a `[[withdraw]]`
  takes out an entrant from a round not yet paired;
- a `[[match]]` of a tournament that has rounds names its `round`, and is the result of a board of
  that round with the pairing's colours (players = [white, black]), dated on or after the round,
  one result a board (a correction voids the first), a forfeit won by one side.
"""
from __future__ import annotations

from collections import defaultdict
from datetime import date

from ..errors import Problem, did_you_mean, player_hint
from ..i18n import _
from .model import Journal
from .play import RoundRecord


def play_problems(journal: Journal, first_match: int = 0, whole: bool = True) -> list[Problem]:
    """The problems of the tournaments' rounds, entries and changes (whole) and of the matches from
    `first_match` on that name a round."""
    problems: list[Problem] = []
    if whole:
        _tournaments(journal, problems)
        _rounds_and_changes(journal, problems)
    _matches(journal, first_match, problems)
    return problems


def _unknown(journal: Journal, player: str) -> str:
    return _("unknown player '{player}'{hint}; declare it with a [[player]] entry or `nardrating add-player`").format(
        player=player, hint=player_hint(player, journal.players))


def _tournaments(journal: Journal, problems: list[Problem]) -> None:
    for t in journal.tournaments_run_here():
        play = t.play
        assert play is not None
        for player in dict.fromkeys((*(play.players or ()), *(p for pair in play.forbidden for p in pair))):
            if player not in journal.players:
                problems.append(Problem(t.file, t.line, _unknown(journal, player), t.id))
        if play.players is not None:
            entered = set(play.players)
            for a, b in play.forbidden:
                for p in (a, b):
                    if p not in entered and p in journal.players and not any(
                            c.tournament == t.id and c.player == p and c.kind == "join" for c in journal.changes):
                        problems.append(Problem(t.file, t.line, _("forbidden: '{player}' is not an entrant of the "
                                                                  "tournament").format(player=p), t.id))


def _dates(problems: list[Problem], journal: Journal, tid: str, day: date, file: str, line: int | None,
           what: str) -> None:
    t = journal.tournaments[tid]
    if not t.start <= day <= t.end:
        problems.append(Problem(file, line, _("the {what} is dated {day}, outside its tournament '{tournament}' "
                                              "({start} to {end})").format(what=what, day=day, tournament=tid,
                                                                          start=t.start, end=t.end)))


def _rounds_and_changes(journal: Journal, problems: list[Problem]) -> None:
    events = sorted([(r.seq, "round", r) for r in journal.rounds] + [(c.seq, c.kind, c) for c in journal.changes],
                    key=lambda item: item[0])
    rounds: dict[str, list[RoundRecord]] = defaultdict(list)
    joined: dict[str, dict[str, int]] = defaultdict(dict)      # tournament → player → first round
    gone: dict[str, dict[str, int]] = defaultdict(dict)        # tournament → player → first round out
    for _seq, kind, entry in events:
        tid = entry.tournament
        t = journal.tournaments.get(tid)
        if t is None:
            problems.append(Problem(entry.file, entry.line, _("unknown tournament '{tournament}'{hint}; add it with a "
                                                              "[[tournament]] entry").format(
                tournament=tid, hint=did_you_mean(tid, journal.tournaments))))
            continue
        start_list = t.play.players if t.play is not None else None
        if start_list is None:
            problems.append(Problem(entry.file, entry.line, _("tournament '{tournament}' has no start list; add "
                                                              "players = [...] to its [[tournament]] entry").format(
                tournament=tid)))
            continue
        done = rounds[tid]
        if kind != "round":
            change = entry
            assert not isinstance(change, RoundRecord)
            _dates(problems, journal, tid, change.date, change.file, change.line,
                   _("late entry") if kind == "join" else _("withdrawal"))
            entered = change.player in start_list or change.player in joined[tid]
            if change.player not in journal.players:
                problems.append(Problem(change.file, change.line, _unknown(journal, change.player)))
            elif kind == "join" and entered:
                problems.append(Problem(change.file, change.line, _("'{player}' is already an entrant of "
                                                                    "'{tournament}'").format(player=change.player,
                                                                                             tournament=tid)))
            elif kind == "withdraw" and not entered:
                problems.append(Problem(change.file, change.line, _("'{player}' is not an entrant of '{tournament}'")
                                        .format(player=change.player, tournament=tid)))
            elif kind == "withdraw" and change.player in gone[tid]:
                problems.append(Problem(change.file, change.line, _("'{player}' has already withdrawn from "
                                                                    "'{tournament}'").format(player=change.player,
                                                                                             tournament=tid)))
            elif change.round <= len(done):
                problems.append(Problem(change.file, change.line, _(
                    "round {round} of '{tournament}' is already paired ({file}:{line}); this takes effect from a round "
                    "not yet paired, {next} or later").format(round=change.round, tournament=tid, file=done[-1].file,
                                                                line=done[-1].line, next=len(done) + 1)))
            else:
                (joined if kind == "join" else gone)[tid][change.player] = change.round
            continue
        r = entry
        assert isinstance(r, RoundRecord)
        where = (r.file, r.line)
        if r.round != len(done) + 1:
            problems.append(Problem(*where, _("round {round} of '{tournament}' follows round {before}; its rounds are "
                                              "numbered 1, 2, 3, … in journal order").format(
                round=r.round, tournament=tid, before=len(done))))
            continue
        planned = t.play.rounds if t.play is not None else None
        if planned is not None and r.round > planned:
            problems.append(Problem(*where, _("round {round} is beyond the {rounds} rounds of '{tournament}'").format(
                round=r.round, rounds=planned, tournament=tid)))
        _dates(problems, journal, tid, r.date, r.file, r.line, _("round"))
        if done and r.date < done[-1].date:
            problems.append(Problem(*where, _("round {round} is dated {day}, before round {before} ({earlier})").format(
                round=r.round, day=r.date, before=done[-1].round, earlier=done[-1].date)))
        players = [(p, None) for _b, w, b in r.boards for p in (w, b)] + [(p, k) for p, k in r.byes]
        for player, bye in players:
            out = gone[tid].get(player)
            if player not in journal.players:
                problems.append(Problem(*where, _unknown(journal, player)))
            elif player not in start_list and not (player in joined[tid] and joined[tid][player] <= r.round):
                problems.append(Problem(*where, _("'{player}' is not an entrant of '{tournament}' in round {round}; "
                                                  "add them with a [[join]] (a late entry)").format(
                    player=player, tournament=tid, round=r.round)))
            elif out is not None and out <= r.round and bye != "withdrawn":
                problems.append(Problem(*where, _("'{player}' withdrew from round {out} on and cannot be paired in "
                                                  "round {round}").format(player=player, out=out, round=r.round)))
            elif bye == "withdrawn" and (out is None or out > r.round):
                problems.append(Problem(*where, _("'{player}' has a withdrawn bye in round {round} but no [[withdraw]] "
                                                  "from that round").format(player=player, round=r.round)))
        done.append(r)


def _matches(journal: Journal, first_match: int, problems: list[Problem]) -> None:
    m = journal.matches_for(journal.match_count() - first_match)
    with_round = {i: extra["round"] for i, extra in m.extra.items() if i >= first_match and "round" in extra}
    played = {r.tournament for r in journal.rounds}
    codes = {journal.tournament_codes.index.get(tid, -2): tid for tid in played}
    rows = [i for i in range(first_match, len(m.ids)) if m.tournament[i] in codes] if codes else []
    if not with_round and not rows:
        return
    boards = {(r.tournament, r.round): {frozenset((w, b)): (n, w, b) for n, w, b in r.boards} for r in journal.rounds}
    days = {(r.tournament, r.round): r.date for r in journal.rounds}
    taken: dict[tuple[str, int, int], int] = {}
    for i, extra in m.extra.items():  # the boards already decided (not voided)
        if "round" in extra and i not in journal.voided and i < first_match:
            t = m.tournament[i]
            tid = journal.tournament_codes.names[t] if t >= 0 else None
            board = boards.get((tid or "", extra["round"]), {}).get(frozenset(journal.match(i).players))
            if board is not None:
                taken[(tid or "", extra["round"], board[0])] = i
    for i in sorted(set(with_round) | set(rows)):
        match = journal.match(i)
        where = (match.file, match.line)
        number = with_round.get(i)
        if match.tournament is None:
            problems.append(Problem(*where, _("round = {round} needs the match's tournament = \"...\"").format(
                round=number), match.id))
            continue
        if number is None:
            problems.append(Problem(*where, _("tournament '{tournament}' is paired by rounds: give the match its "
                                              "round = N (add-match --tournament fills it in)").format(
                tournament=match.tournament), match.id))
            continue
        key = (match.tournament, number)
        if key not in boards:
            problems.append(Problem(*where, _("tournament '{tournament}' has no round {round}").format(
                tournament=match.tournament, round=number), match.id))
            continue
        board = boards[key].get(frozenset(match.players))
        if board is None:
            problems.append(Problem(*where, _("{a} v {b} is not a board of round {round} of '{tournament}'").format(
                a=match.a, b=match.b, round=number, tournament=match.tournament), match.id))
            continue
        if (match.a, match.b) != (board[1], board[2]):
            problems.append(Problem(*where, _("board {board} of round {round} is {white} (white) v {black} (black): "
                                              "write players = [\"{white}\", \"{black}\"]").format(
                board=board[0], round=number, white=board[1], black=board[2]), match.id))
        if match.date < days[key]:
            problems.append(Problem(*where, _("the result is dated {day}, before its round ({round_day})").format(
                day=match.date, round_day=days[key]), match.id))
        if match.forfeit and match.score_a == 0.5:
            problems.append(Problem(*where, _("a forfeit is won by one side: result = \"1-0\" or \"0-1\""), match.id))
        if i in journal.voided:
            continue
        first = taken.get((match.tournament, number, board[0]))
        if first is not None:
            earlier = journal.match(first)
            problems.append(Problem(*where, _("board {board} of round {round} has its result already ({id} at "
                                              "{file}:{line}); to correct it, amend or void that match").format(
                board=board[0], round=number, id=earlier.id, file=earlier.file, line=earlier.line), match.id))
        else:
            taken[(match.tournament, number, board[0])] = i
