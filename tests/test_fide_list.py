"""leaderboard --format fide-list: FIDE-style fixed-width rating list."""
from .conftest import SAMPLES


def test_seed_003_final_table_as_a_fide_list(cli):
    result = cli("leaderboard", "--club", SAMPLES / "chess-club", "--as-of", "2009-12-31", "--format", "fide-list")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    # Seed 003's final table: Вера 1220.00, Анна 1199.42, Борис 1190.58, Глеб 1190.00, 3 games each;
    # FIDE publishes whole numbers: 1220, 1199, 1191, 1190.
    assert lines[0] == "Rank ID Number       " + "Name".ljust(61) + "Rtng  Gms Flag"
    assert lines[1:5] == [
        "   1 vera            " + "Вера".ljust(61) + "1220    3",
        "   2 anna            " + "Анна".ljust(61) + "1199    3",
        "   3 boris           " + "Борис".ljust(61) + "1191    3",
        "   4 gleb            " + "Глеб".ljust(61) + "1190    3",
    ]
    # After a blank line, the provenance as comment lines (tests/test_lists.py checks the digests).
    assert lines[5] == "" and [line.split()[:2] for line in lines[6:]] == [
        ["#", "journal_sha256"], ["#", "config_sha256"], ["#", "nardrating"]]


def test_inactive_flag_and_unrated_titled_player(cli):
    result = cli("leaderboard", "--club", SAMPLES / "fide-club", "--as-of", "2025-06-30", "--format", "fide-list")
    assert result.exit_code == 0, result.output
    rows = {line[5:21].strip(): line for line in result.stdout.splitlines()[1:]}
    # lebedev has had no rated game for over a year (the sample's inactive player): flag i
    assert rows["lebedev"].endswith(" i") and not rows["novik"].endswith(" i")
    # the FM without a rating: listed without a rank or a rating
    assert rows["petrov"][:5].strip() == "" and rows["petrov"][82:87].strip() == ""


def test_fide_list_is_for_leaderboards(cli):
    result = cli("history", "anna", "--club", SAMPLES / "chess-club", "--format", "fide-list")
    assert result.exit_code == 2  # a usage error: history takes table, csv, json, md
    assert "fide-list is a rating list's format: nardrating leaderboard --format fide-list" in result.stderr
