"""The shared helpers of the rules core: validation, ranking, tie-break sentences."""
import pytest

from companion.games.errors import RuleError
from companion.games.inputs import (
    Option,
    SheetField,
    check_int,
    check_players,
    parse_options,
    parse_sheet,
)
from companion.games.protocol import seat_after
from companion.games.ranking import Tiebreak, rank


def test_check_int_accepts_form_strings_and_rejects_junk():
    assert check_int("7", "x") == 7
    with pytest.raises(RuleError) as err:
        check_int("seven", "players[0].sheet.vp", "VP")
    assert err.value.field == "players[0].sheet.vp"
    with pytest.raises(RuleError):
        check_int(10_001, "x")
    with pytest.raises(RuleError):
        check_int(-1, "x")
    with pytest.raises(RuleError):
        check_int(True, "x")


def test_wrong_player_count_is_422_and_duplicates_400():
    with pytest.raises(RuleError) as err:
        check_players(["Ann"], 2, 4)
    assert err.value.status == 422
    with pytest.raises(RuleError) as err:
        check_players(["Ann", "ann"], 2, 4)
    assert err.value.status == 400 and err.value.field == "players[1]"


def test_unknown_option_and_sheet_field_name_the_field():
    with pytest.raises(RuleError) as err:
        parse_options([Option("artifacts", "Artifacts")], {"bogus": 1})
    assert err.value.field == "options.bogus"
    fields = [SheetField("vp", "VP")]
    with pytest.raises(RuleError) as err:
        parse_sheet(fields, {"vq": 3}, {}, "players[0].sheet")
    assert err.value.field == "players[0].sheet.vq"
    assert parse_sheet(fields, {}, {}, "s") == {"vp": 0}


def test_rank_shares_ranks_and_explains_the_tiebreak():
    results = [{"name": "Ann", "total": 10, "d": 2}, {"name": "Bo", "total": 10, "d": 3},
               {"name": "Cy", "total": 4, "d": 9}]
    ranked, winners, sentence = rank(results, [Tiebreak("deaths", lambda r: r["d"])])
    assert winners == ["Bo"]
    assert [r["rank"] for r in ranked] == [2, 1, 3]
    assert "Bo wins with the most deaths (3 against 2)" in sentence


def test_rank_full_tie_is_a_shared_win():
    results = [{"name": "Ann", "total": 10}, {"name": "Bo", "total": 10}]
    _, winners, sentence = rank(results, [Tiebreak("gold", lambda r: 0)])
    assert winners == ["Ann", "Bo"]
    assert "shared win" in sentence


def test_seat_after_wraps_both_ways():
    seats = ["Ann", "Bo", "Cy"]
    assert seat_after(seats, "Cy") == "Ann"
    assert seat_after(seats, "Ann", -1) == "Cy"


def test_check_int_refuses_unicode_digits_cleanly():
    for text in ("²", "١٢", "1²", "-", "", "9" * 40):
        with pytest.raises(RuleError):
            check_int(text, "f")
