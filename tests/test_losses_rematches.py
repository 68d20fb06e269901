"""A `losses` event ("until 2 losses") whose field has shrunk so far that no round is left without a
rematch: `pair` says so and how to go on; `pair --rematches` pairs it with as few rematches as
can be, by the system's usual rule. Worked by hand below."""
import json

from .conftest import make_club

CONFIG = """\
[club]
name = "Nardy club"
journal = ["journal.toml"]
default_discipline = "long-nardy"

[rating.club]
engine = "fibs"
"""

PLAYERS = ("ali", "bek", "cem", "dan", "eli", "fai")   # pairing numbers 1 to 6


def _round(number, day, boards, byes=()):
    text = f'[[round]]\ntournament = "cup"\nround = {number}\ndate = {day}\nboards = [\n'
    text += "".join(f'  {{board = {k}, white = "{w}", black = "{b}"}},\n' for k, (w, b) in enumerate(boards, 1))
    text += "]\n"
    if byes:
        text += "byes = [\n" + "".join(f'  {{player = "{p}", kind = "pairing-allocated"}},\n' for p in byes) + "]\n"
    return text + "\n"


def _results(number, day, boards, first):
    # every board won by white
    return "".join(f'[[match]]\nid = "m{first + k}"\ndate = {day}\nplayers = ["{w}", "{b}"]\nresult = "1-0"\n'
                   f'tournament = "cup"\nround = {number}\n\n' for k, (w, b) in enumerate(boards))


# Round 1: ali-bek, cem-dan, eli-fai; round 2: ali-cem, bek-eli, dan-fai; round 3: dan-ali, cem-bek, eli's bye.
# White wins every game. Losses after round 3: bek 2 (ali, cem) and fai 2 (eli, dan) are out; ali (to dan),
# cem (to ali), dan (to cem) and eli (to bek) have one. Each of the four has 2 points (eli: a win and the
# bye), so they rank by pairing number: ali, cem, dan, eli. ali has met cem and dan, cem has met dan:
# ali can only meet eli, and then cem and dan meet again, so no round is left without a rematch.
ROUNDS = [
    (1, "2020-11-01", [("ali", "bek"), ("cem", "dan"), ("eli", "fai")], ()),
    (2, "2020-11-02", [("ali", "cem"), ("bek", "eli"), ("dan", "fai")], ()),
    (3, "2020-11-03", [("dan", "ali"), ("cem", "bek")], ("eli",)),
]


def _club(tmp_path, pairing='pairing = "losses"\nmax_losses = 2'):
    journal = "".join(f'[[player]]\nid = "{p}"\nname = "{p.title()}"\n\n' for p in PLAYERS)
    journal += ('[[tournament]]\nid = "cup"\nname = "Cup"\nsystem = "swiss"\nstart = 2020-11-01\nend = 2020-11-30\n'
                f'{pairing}\nplayers = {json.dumps(list(PLAYERS))}\n\n')
    first = 1
    for number, day, boards, byes in ROUNDS:
        journal += _round(number, day, boards, byes) + _results(number, day, boards, first)
        first += len(boards)
    return make_club(tmp_path / "club", journal, CONFIG)


def test_a_round_left_only_with_rematches_is_refused_saying_how_to_go_on(cli, tmp_path):
    club = _club(tmp_path)
    before = (club / "journal.toml").read_bytes()
    result = cli("pair", "cup", "--date", "2020-11-04", "--club", club)
    assert result.exit_code == 1
    assert ("round 4 of 'cup' cannot be paired without two players meeting again (or a forbidden pair); to let "
            "players meet again, as few pairs as can be: nardrating pair cup --rematches") in result.stderr
    assert (club / "journal.toml").read_bytes() == before


def test_rematches_pair_as_few_as_can_be_by_the_usual_rule(cli, tmp_path):
    club = _club(tmp_path)
    result = cli("pair", "cup", "--date", "2020-11-04", "--rematches", "--club", club, "--format", "json")
    assert result.exit_code == 0, result.output
    # One rematch is the fewest (ali-eli leaves cem-dan; any pairing has one). With one allowed, the
    # usual rule: ali, the highest ranked, meets the highest-ranked opponent that leaves the others
    # pairable: cem (a rematch), then dan meets eli, who have not met.
    # Colours: ali and cem have both had white twice and black once; ali had black last: white.
    # dan has had white twice, eli white once and black once (the bye is no game): eli has fewer
    # whites over blacks: white.
    pairs = [(board["white"], board["black"]) for board in json.loads(result.stdout)["pairs"]]
    assert pairs == [("ali", "cem"), ("eli", "dan")]
    assert cli("check", "--club", club).exit_code == 0   # the round written reads back


def test_rematches_are_for_the_losses_system_only(cli, tmp_path):
    club = _club(tmp_path, 'pairing = "dutch"\nrounds = 5')
    before = (club / "journal.toml").read_bytes()
    result = cli("pair", "cup", "--date", "2020-11-04", "--rematches", "--club", club)
    assert result.exit_code == 1
    assert "--rematches is for pairing = \"losses\"; 'cup' is paired by dutch" in result.stderr
    assert (club / "journal.toml").read_bytes() == before


def test_an_event_its_losses_ended_says_who_is_left(cli, tmp_path):
    club = _club(tmp_path)
    assert cli("pair", "cup", "--date", "2020-11-04", "--rematches", "--club", club).exit_code == 0
    # Round 4: ali beats cem and eli beats dan: cem and dan have their second loss. Left: ali and eli,
    # one loss each, who have not met: round 5 pairs them without a rematch (eli white: one white
    # over blacks against ali's two).
    for white, black in (("ali", "cem"), ("eli", "dan")):
        assert cli("add-match", white, black, "--winner", white, "--tournament", "cup", "--date", "2020-11-04",
                   "--club", club).exit_code == 0
    paired = cli("pair", "cup", "--date", "2020-11-05", "--club", club, "--format", "json")
    assert paired.exit_code == 0, paired.output
    assert [(b["white"], b["black"]) for b in json.loads(paired.stdout)["pairs"]] == [("eli", "ali")]
    assert cli("add-match", "eli", "ali", "--winner", "ali", "--tournament", "cup", "--date", "2020-11-05",
               "--club", club).exit_code == 0
    # eli's second loss: ali alone is left with fewer than 2, and the event is over (it planned no rounds).
    result = cli("pair", "cup", "--date", "2020-11-06", "--club", club)
    assert result.exit_code == 1
    assert "tournament 'cup' is finished: ali is the only player left with fewer than 2 losses" in result.stderr
