"""The shared parts of the rules core: declared inputs, ranking, tie-break sentences."""
import pytest

from companion.games import GAMES
from companion.games.bodies import check, whole
from companion.games.errors import RuleError
from companion.games.inputs import check_players
from companion.games.protocol import seat_after
from companion.games.ranking import Tiebreak, rank
from companion.games.requests import options_type


def test_a_whole_number_is_a_json_number_within_its_bounds():
    """Strict: 7 and 7.0 (JSON Schema's integer), never text, a flag or a fraction; the
    field is named."""
    number = whole(0, 10_000, "VP")
    assert check(number, 7) == 7 and check(number, 7.0) == 7
    for junk in ("7", "seven", 10_001, -1, True, 2.5):
        with pytest.raises(RuleError) as err:
            check(number, junk, "players[0].sheet.vp")
        assert (err.value.status, err.value.field) == (400, "players[0].sheet.vp")


def test_wrong_player_count_and_duplicates_are_422():
    """Both depend on the other players (api.md: a 422 with its code)."""
    with pytest.raises(RuleError) as err:
        check_players(["Ann"], 2, 4)
    assert err.value.status == 422
    with pytest.raises(RuleError) as err:
        check_players(["Ann", "ann"], 2, 4)
    assert (err.value.status, err.value.code, err.value.field) == (422, "duplicate_name",
                                                                  "players[1]")


def test_unknown_option_and_sheet_field_name_the_field():
    knarr = GAMES["knarr"]
    with pytest.raises(RuleError) as err:
        check(options_type(knarr), {"bogus": 1}, "options")
    assert (err.value.field, err.value.code) == ("options.bogus", "unknown_field")
    with pytest.raises(RuleError) as err:
        knarr.score({"players": [{"name": "Ann", "sheet": {"vq": 3}}, {"name": "Bo"}]}, {})
    assert err.value.field == "players[0].sheet.vq"
    result = knarr.score({"players": [{"name": "Ann", "sheet": {}}, {"name": "Bo"}]}, {})
    assert [p["total"] for p in result["players"]] == [0, 0]


def test_rank_shares_ranks_and_explains_the_tiebreak():
    results = [{"name": "Ann", "total": 10, "d": 2}, {"name": "Bo", "total": 10, "d": 3},
               {"name": "Cy", "total": 4, "d": 9}]
    tiebreak = Tiebreak("deaths", lambda r: r["d"], "the most deaths")
    ranked, winners, sentence = rank(results, [tiebreak])
    assert winners == ["Bo"]
    assert [r["rank"] for r in ranked] == [2, 1, 3]
    assert "Bo wins with the most deaths (3 against 2)" in sentence


def test_rank_full_tie_is_a_shared_win():
    results = [{"name": "Ann", "total": 10}, {"name": "Bo", "total": 10}]
    _, winners, sentence = rank(results, [Tiebreak("gold", lambda r: 0, "the most gold")])
    assert winners == ["Ann", "Bo"]
    assert "shared win" in sentence


def test_seat_after_wraps_both_ways():
    seats = ["Ann", "Bo", "Cy"]
    assert seat_after(seats, "Cy") == "Ann"
    assert seat_after(seats, "Ann", -1) == "Cy"


def test_form_text_of_unicode_digits_stays_text():
    """A form's "²" or "١٢" is no number (int() refuses what str.isdigit accepts): it stays
    text, which the declared whole number refuses cleanly."""
    from companion.web.forms import coerce

    for text in ("²", "١٢", "1²", "-", "", "9" * 40):
        assert not isinstance(coerce(text), int)
        with pytest.raises(RuleError):
            check(whole(), coerce(text), "f")
