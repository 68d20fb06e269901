"""`check` warnings: valid entries that are probably typos (issue: typos fork the data silently)."""
from nardrating.journal.lint import folded, near_duplicates
from nardrating.replay.loader import load_club

from .conftest import ELO_CONFIG, make_club


def test_folding_joins_case_yo_and_lookalike_letters():
    assert folded("Пётр") == folded("Петр")
    assert folded("иван") == folded("Иван")
    assert folded("Oсипов") == folded("Осипов")  # the first letter is a Latin O
    assert folded("Анна  Петрова") == folded("анна петрова")
    assert folded("Пётр") != folded("Павел")


def test_near_duplicates_pairs_what_a_reader_would_confuse():
    found = near_duplicates({"petr": "Пётр Иванов", "petr2": "Петр Иванов", "boris": "boris",
                             "borsi": "borsi", "anna": "Анна", "anja": "Аня"})
    assert ("petr2", "petr", "differ only in case, ё/е or look-alike letters") in found
    assert ("borsi", "boris", "one letter apart") in found  # two letters swapped
    assert not any("anja" in pair[:2] for pair in found)  # Анна / Аня: two edits apart


def test_numbered_ids_are_not_typos():
    names = {f"p{k:05d}": f"p{k:05d}" for k in range(1, 2000)}
    assert near_duplicates(names) == []
    assert near_duplicates({"cup-2008": "cup-2008", "cup-2009": "cup-2009"}) == []


def warnings_of(tmp_path, journal, config=ELO_CONFIG, name="journal.toml"):
    from nardrating.journal.lint import lint

    club = make_club(tmp_path, journal, config, name)
    ledger = load_club(club, use_cache=False)
    return [p.message for p in lint(ledger.journal, ledger.config)]


PLAYERS = '[[player]]\nid = "anna"\njoined = 2009-02-01\n\n[[player]]\nid = "boris"\n\n'


def test_typos_and_contradictions_are_warned(tmp_path):
    journal = PLAYERS + (
        '[[match]]\nid = "m1"\ndate = 2009-01-15\nplayers = ["anna", "boris"]\nwinner = "anna"\n'
        'discipline = "shess"\n\n'
        '[[match]]\nid = "m2"\ndate = 2009-02-15\nplayers = ["anna", "boris"]\nwinner = "anna"\n'
        'length = 5\nscore = [2, 5]\n\n'
        '[[match]]\nid = "m3"\ndate = 2009-02-16\nplayers = ["anna", "boris"]\nwinner = "boris"\n'
        'length = 5\nscore = [5, 6]\n\n'
        '[[void]]\nmatch = "m2"\ndate = 2009-02-10\nreason = "typed wrong"\n')
    config = ELO_CONFIG.replace("pair_limit_per_day = 2", 'pair_limit_per_day = 2\ndisciplines = ["chess"]')
    messages = warnings_of(tmp_path, journal, config)
    assert any(m.startswith("discipline 'shess' is rated by no list") and 'did you mean "chess"' in m
               for m in messages), messages
    assert "the match is dated 2009-01-15, before 'anna' joined (2009-02-01)" in messages
    assert "score 2-5 contradicts the result (the first player won)" in messages
    assert "score 5-6: both players reached the match length 5" in messages
    assert "the void is dated 2009-02-10, before its match 'm2' (2009-02-15)" in messages


def test_csv_players_without_a_declaration_are_warned_with_their_twin(tmp_path):
    config = ELO_CONFIG.replace('journal = ["journal.toml"]', 'journal = ["journal.toml", "games.csv"]')
    club = make_club(tmp_path, '[[player]]\nid = "Иван"\n', config)
    (club / "games.csv").write_text("date,player_a,player_b,result\n2009-01-15,иван,Иван,1-0\n", encoding="utf-8")
    from nardrating.journal.lint import lint

    ledger = load_club(club, use_cache=False)
    messages = [str(p) for p in lint(ledger.journal, ledger.config)]
    assert any("player 'иван' is named by a CSV row but not declared" in m and 'did you mean "Иван"' in m
               and "games.csv:2" in m for m in messages), messages
    assert any("player ids 'иван' and 'Иван' differ only in case" in m for m in messages), messages


def test_a_clean_sample_has_no_warnings():
    from pathlib import Path

    from nardrating.journal.lint import lint

    samples = Path(__file__).resolve().parent.parent / "sample_ledgers"
    for club in ("chess-club", "nardy-club", "federation-2009", "fide-club"):
        ledger = load_club(samples / club, use_cache=False)
        assert [str(p) for p in lint(ledger.journal, ledger.config)] == [], club


def test_the_did_you_mean_index_finds_what_comparing_all_with_all_finds():
    # The hint of an undeclared player used to compare it with every player (minutes for a CSV club of
    # thousands of undeclared players); the index of one-deletion variants must give the same first
    # close word, for words of every length, swaps, look-alike letters and ё/е included.
    import random

    from nardrating.journal.lint import _Alike, _one_edit_apart

    rng = random.Random(20261202)
    letters = "abcеёoо"   # Latin and Cyrillic look-alikes, ё/е
    known = list(dict.fromkeys("".join(rng.choice(letters) for _ in range(rng.randint(1, 5))) for _ in range(400)))
    index = _Alike(known)
    words = known[:100] + ["".join(rng.choice(letters) for _ in range(rng.randint(0, 6))) for _ in range(300)]
    known_folded = [(k, folded(k)) for k in known]
    for word in words:
        fw = folded(word)
        close = [k for k, fk in known_folded if k != word and (fk == fw or _one_edit_apart(fk, fw))]
        assert index.hint(word) == (f' (did you mean "{close[0]}"?)' if close else ""), word
