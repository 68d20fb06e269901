"""A tournament run here in the journal: the entry model's fields and kinds, the rules across entries
(FILE:LINE), the state a read builds, and the cache keeping it all."""
import shutil

import pytest

from nardrating.journal.entries import ENTRY_MODELS
from nardrating.journal.playentries import PlayedTournamentEntry
from nardrating.replay.loader import load_club
from nardrating.tournaments.fromjournal import tournament_state
from nardrating.tournaments.names import PAIRINGS, TIEBREAKS

from .conftest import SAMPLES, make_club

HEAD = """\
[[player]]
id = "anna"

[[player]]
id = "boris"

[[player]]
id = "vera"

[[player]]
id = "gleb"

[[tournament]]
id = "cup"
name = "Cup"
system = "swiss"
start = 2025-03-01
end = 2025-03-31
pairing = "dutch"
rounds = 3
players = ["anna", "boris", "vera", "gleb"]

[[round]]
tournament = "cup"
round = 1
date = 2025-03-01
boards = [
  {board = 1, white = "anna", black = "vera"},
  {board = 2, white = "gleb", black = "boris"},
]

[[match]]
id = "m1"
date = 2025-03-01
players = ["anna", "vera"]
result = "1-0"
tournament = "cup"
round = 1
"""


def check(cli, club):
    import os

    os.chdir(club)  # messages name files relative to the current folder
    result = cli("check", "--club", club, env={"NARDRATING_NO_CACHE": "1"})
    return result.exit_code, result.stderr.splitlines()


def test_the_names_the_model_takes_are_the_librarys():
    fields = PlayedTournamentEntry.model_fields
    assert set(fields["pairing"].annotation.__args__[0].__args__) == set(PAIRINGS)
    assert set(fields["tiebreaks"].annotation.__args__[0].__origin__.__args__[0].__args__) == set(TIEBREAKS)
    assert {"round", "join", "withdraw"} <= set(ENTRY_MODELS)


def test_a_valid_tournament_reads_into_its_state(cli, tmp_path):
    club = make_club(tmp_path, HEAD + '\n[[match]]\nid = "m2"\ndate = 2025-03-02\nplayers = ["gleb", "boris"]\n'
                     'result = "0-1"\nforfeit = true\ntournament = "cup"\nround = 1\n')
    assert check(cli, club) == (0, [])
    state = tournament_state(load_club(club, use_cache=False).journal, "cup")
    assert [e.player for e in state.entrants] == ["anna", "boris", "vera", "gleb"]
    assert [(b.white, b.black, b.result) for b in state.rounds[0].boards] == [("anna", "vera", "1-0"),
                                                                             ("gleb", "boris", "-+")]
    assert (state.pairing, state.rounds_planned, state.bye_points) == ("dutch", 3, 1.0)


@pytest.mark.parametrize("tail, message", [
    ('\n[[round]]\ntournament = "cup"\nround = 3\ndate = 2025-03-08\n',
     "journal.toml:40: round 3 of 'cup' follows round 1; its rounds are numbered 1, 2, 3, … in journal order"),
    ('\n[[round]]\ntournament = "cup"\nround = 2\ndate = 2025-04-08\n',
     "journal.toml:40: the round is dated 2025-04-08, outside its tournament 'cup' (2025-03-01 to 2025-03-31)"),
    ('\n[[round]]\ntournament = "cup"\nround = 2\ndate = 2025-03-08\nboards = [{board = 1, white = "anna", black = "zed"}]\n',
     "journal.toml:40: unknown player 'zed'"),
    ('\n[[round]]\ntournament = "cupp"\nround = 1\ndate = 2025-03-08\n',
     "journal.toml:40: unknown tournament 'cupp' (did you mean \"cup\"?)"),
    ('\n[[round]]\ntournament = "cup"\nround = 2\ndate = 2025-03-08\nboards = [{board = 2, white = "anna", black = "boris"}]\n',
     "journal.toml:40: the boards are numbered 2; number them 1, 2, 3, … in order"),
    ('\n[[round]]\ntournament = "cup"\nround = 2\ndate = 2025-03-08\nbyes = [{player = "anna", kind = "late"}]\n',
     "journal.toml:40: byes[0].kind: 'late' is not one of 'pairing-allocated', 'half-point', 'full-point', "
     "'absent' or 'withdrawn'"),
    ('\n[[join]]\ntournament = "cup"\nplayer = "anna"\nround = 2\ndate = 2025-03-03\n',
     "journal.toml:40: 'anna' is already an entrant of 'cup'"),
    ('\n[[player]]\nid = "dina"\n\n[[join]]\ntournament = "cup"\nplayer = "dina"\nround = 1\ndate = 2025-03-03\n',
     "journal.toml:43: round 1 of 'cup' is already paired (journal.toml:23); this takes effect from a round not yet "
     "paired, 2 or later"),
    ('\n[[withdraw]]\ntournament = "cup"\nplayer = "boris"\nround = 2\ndate = 2025-03-03\n\n[[round]]\ntournament = "cup"'
     '\nround = 2\ndate = 2025-03-08\nboards = [{board = 1, white = "boris", black = "anna"}]\n',
     "journal.toml:46: 'boris' withdrew from round 2 on and cannot be paired in round 2"),
    ('\n[[match]]\nid = "m9"\ndate = 2025-03-01\nplayers = ["vera", "anna"]\nresult = "1-0"\ntournament = "cup"\nround = 1\n',
     'journal.toml:40: m9: board 1 of round 1 is anna (white) v vera (black): write players = ["anna", "vera"]'),
    ('\n[[match]]\nid = "m9"\ndate = 2025-03-02\nplayers = ["anna", "vera"]\nresult = "0-1"\ntournament = "cup"\nround = 1\n',
     "journal.toml:40: m9: board 1 of round 1 has its result already (m1 at journal.toml:32); to correct it, "
     "amend or void that match"),
    ('\n[[match]]\nid = "m9"\ndate = 2025-03-02\nplayers = ["anna", "boris"]\nresult = "0-1"\ntournament = "cup"\n',
     "journal.toml:40: m9: tournament 'cup' is paired by rounds: give the match its round = N"),
    ('\n[[match]]\nid = "m9"\ndate = 2025-03-02\nplayers = ["gleb", "boris"]\nresult = "1/2-1/2"\nforfeit = true\n'
     'tournament = "cup"\nround = 1\n', 'journal.toml:40: m9: a forfeit is won by one side'),
    ('\n[[tournament]]\nid = "nardy"\nsystem = "swiss"\nstart = 2025-03-01\nend = 2025-03-02\npairing = "losses"\n',
     'journal.toml:40: nardy: pairing = "losses" needs max_losses'),
    ('\n[[tournament]]\nid = "t2"\nsystem = "swiss"\nstart = 2025-03-01\nend = 2025-03-02\nplayers = ["anna", "zed", "anna"]\n',
     "journal.toml:40: t2: players: 'anna' listed twice"),
    ('\n[[tournament]]\nid = "t2"\nsystem = "swiss"\nstart = 2025-03-01\nend = 2025-03-02\nplayers = ["anna", "zed"]\n',
     "journal.toml:40: t2: unknown player 'zed'"),
    ('\n[[tournament]]\nid = "t2"\nsystem = "swiss"\nstart = 2025-03-01\nend = 2025-03-02\ntiebreaks = ["bucholz"]\n',
     "journal.toml:40: t2: tiebreaks[0]: 'bucholz' is not one of 'buchholz', 'buchholz-cut1'"),
    ('\n[[tournament]]\nid = "t2"\nsystem = "swiss"\nstart = 2025-03-01\nend = 2025-03-02\nbye_points = 2\n',
     "journal.toml:40: t2: bye_points: 2 is not the points of a pairing-allocated bye; write 0, 0.5 or 1"),
    ('\n[[tournament]]\nid = "t2"\nsystem = "swiss"\nstart = 2025-03-01\nend = 2025-03-02\nplayers = "anna"\n',
     "journal.toml:40: t2: players: 'anna' is not a start list; write a list like"),
])
def test_every_rule_names_file_and_line(cli, tmp_path, tail, message):
    code, errors = check(cli, make_club(tmp_path, HEAD + tail))
    assert code == 1
    assert any(line.startswith(message) for line in errors), errors


def test_the_cache_keeps_the_tournament(cli, tmp_path):
    club = tmp_path / "club"
    shutil.copytree(SAMPLES / "club-swiss", club)
    full = load_club(club, use_cache=False).journal
    assert cli("recalc", "--club", club).exit_code == 0            # writes the cache
    cached = load_club(club)
    assert cached.cache_token is not None
    for tid in ("spring-open", "club-championship"):
        assert tournament_state(cached.journal, tid) == tournament_state(full, tid)
    assert cached.journal.rounds == full.rounds and cached.journal.changes == full.changes
    assert cached.journal.tournaments["spring-open"].play == full.tournaments["spring-open"].play
    # an appended round is read from the tail and checked with the whole journal
    with open(club / "journal.toml", "a", encoding="utf-8") as journal:
        journal.write('\n[[round]]\ntournament = "club-championship"\nround = 4\ndate = 2025-04-26\n')
    result = cli("check", "--club", club)
    assert result.exit_code == 1 and "round 4 of 'club-championship' follows round 2" in result.stderr
