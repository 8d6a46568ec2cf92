"""Seafarers sheets checked as a whole, worked from the 1997 rulebook's words
(shared/rulebooks/catan-seafarers-1997.txt) and the base box the scenarios need."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.errors import RuleError
from companion.games.seafarers import GAME

NAMES = ["Ann", "Bo", "Cy", "Di"]


def body(scenario, *sheets):
    return {"players": [{"name": NAMES[i], "sheet": s} for i, s in enumerate(sheets)],
            "options": {"scenario": scenario}}


def refused(scenario, *sheets) -> RuleError:
    with pytest.raises(RuleError) as caught:
        GAME.score(body(scenario, *sheets), {})
    err = caught.value
    assert (err.status, err.code) == (422, "impossible_sheet")
    assert err.as_dict()["error"]["fields"] == err.fields and err.field == err.fields[0]
    return err


def scored(scenario, *sheets) -> dict:
    return GAME.score(body(scenario, *sheets), {})


HOME = {"settlements": 2}


# ---- one card, one holder
@pytest.mark.parametrize("card,label", [("largest_army", "Largest Army"),
                                        ("longest_route", "Longest Trade Route")])
def test_a_single_card_has_a_single_holder(card, label):
    """The base game has one Largest Army card and one Longest Road card; Seafarers counts
    ships towards the "Longest trade road"."""
    err = refused("new_shores", {card: True}, {}, {card: True})
    assert label in err.message and "Ann and Cy both hold" in err.message
    three = refused("new_shores", {card: True}, {card: True}, {card: True})
    assert "Ann, Bo and Cy all hold" in three.message
    assert err.fields == [f"players[0].sheet.{card}", f"players[2].sheet.{card}"]
    assert scored("new_shores", {card: True}, {}, {})["players"][0]["total"] == 2


# ---- pieces
@pytest.mark.parametrize("scenario", ["new_shores", "four_islands", "oceans", "wasteland",
                                      "new_world", "great_crossing"])
def test_four_cities_per_player_outside_greater_catan(scenario):
    """The base box gives each colour 4 cities; only Greater Catan's "Each player takes 5
    villages, 8 cities" hands out more."""
    count = 4 if scenario == "great_crossing" else 3
    sheets = [{}] * (count - 1)
    assert scored(scenario, *sheets, {"cities": 4})["players"][-1]["total"] == 8
    err = refused(scenario, *sheets, {"cities": 5})
    assert err.field == f"players[{count - 1}].sheet.cities" and "only 4" in err.message
    assert "Greater Catan" in err.message


def test_greater_catan_hands_out_eight_cities_and_five_villages():
    """"Each player takes 5 villages, 8 cities, 15 roads and 15 ships"."""
    result = scored("greater_catan", {"cities": 8, "settlements": 5}, {}, {}, {})
    assert result["players"][0]["total"] == 21
    with pytest.raises(RuleError) as caught:
        scored("greater_catan", {"cities": 9}, {}, {}, {})
    assert caught.value.field == "players[0].sheet.cities" and "8" in caught.value.message


# ---- victory point cards
def test_five_victory_point_cards_for_one_player_and_for_all():
    """The base game's development deck holds 5 victory point cards."""
    assert scored("new_shores", {"vp_cards": 5}, {}, {})["players"][0]["total"] == 5
    err = refused("new_shores", {"vp_cards": 6}, {}, {})
    assert err.fields == ["players[0].sheet.vp_cards"] and "holds only 5" in err.message
    err = refused("new_shores", {"vp_cards": 3}, {}, {"vp_cards": 3})
    assert err.fields == ["players[0].sheet.vp_cards", "players[2].sheet.vp_cards"]
    assert "6 victory point cards together" in err.message


# ---- special victory points, scenario by scenario
def test_oceans_awards_no_special_vp():
    """Oceans: "No special VPs are awarded in this scenario"."""
    err = refused("oceans", HOME, {**HOME, "special_vp": 1}, HOME)
    assert err.fields == ["players[1].sheet.special_vp"]
    assert "Oceans awards no special victory points" in err.message


def test_greater_catan_awards_no_special_vp():
    """The Greater Catan section names no special victory points at all."""
    err = refused("greater_catan", {**HOME, "special_vp": 2}, {}, {}, {})
    assert "Greater Catan awards no special victory points" in err.message


@pytest.mark.parametrize("value,ok", [(0, True), (1, True), (2, False), (3, True), (4, False),
                                      (5, True), (6, False), (7, False)])
def test_four_islands_special_vp_is_0_1_3_or_5(value, ok):
    """Four Islands: "You receive 1 special VP for your first village which you found on the
    first foreign island you reach. You receive 2 special VPs for your first village which
    you build on each other foreign island." Of four islands at least one is home: 1, 1 + 2,
    1 + 2 + 2."""
    sheet = {"settlements": 4, "special_vp": value}
    if ok:
        assert scored("four_islands", sheet, {}, {})["players"][0]["total"] == 4 + value
    else:
        assert "0, 1, 3 or 5" in refused("four_islands", sheet, {}, {}).message


def test_four_islands_chips_lie_under_one_village_per_foreign_island():
    """5 special VP come from 3 foreign islands, so 3 villages carry them."""
    err = refused("four_islands", {"settlements": 1, "cities": 1, "special_vp": 5}, {}, {})
    assert "3 different settlements or cities" in err.message
    assert "players[0].sheet.settlements" in err.fields


@pytest.mark.parametrize("scenario", ["new_shores", "wasteland"])
def test_first_small_island_gives_one_special_vp(scenario):
    """New Shores: "For the first village which each player founds on a little island, he
    will receive a flag tile"; Wasteland: "You receive a special VP for the first village
    you found on one of the little islands"."""
    assert scored(scenario, {**HOME, "special_vp": 1}, {}, {})["players"][0]["total"] == 3
    err = refused(scenario, {**HOME, "special_vp": 2}, {}, {})
    assert "1 special victory point" in err.message


@pytest.mark.parametrize("scenario", ["new_shores", "four_islands", "wasteland", "new_world",
                                      "great_crossing"])
def test_special_vp_needs_a_settlement_or_city_to_lie_under(scenario):
    """"Special victory points These are always placed beneath the village/city via which
    the point was won"."""
    players = 4 if scenario == "great_crossing" else 3
    err = refused(scenario, {"special_vp": 1}, *[{}] * (players - 1))
    assert "no settlement or city" in err.message
    assert err.fields == ["players[0].sheet.special_vp", "players[0].sheet.settlements",
                          "players[0].sheet.cities"]
    assert scored(scenario, {"cities": 1, "special_vp": 1},
                  *[{}] * (players - 1))["players"][0]["total"] == 3


def test_new_world_gives_one_chip_per_village_on_a_foreign_island():
    """New World: "You receive one extra VP for each of your first villages founded on
    foreign islands": each chip lies under its own village."""
    assert scored("new_world", {"settlements": 3, "special_vp": 3}, {}, {})["notes"] == []
    err = refused("new_world", {"settlements": 2, "special_vp": 3}, {}, {})
    assert "3 different settlements or cities" in err.message


def test_great_crossing_accepts_more_chips_than_villages_and_says_why():
    """The Great Crossing places each direct line's chip "under his exit village"; whether one
    village can carry several is not said, so the sheet is accepted with a note."""
    result = scored("great_crossing", {"settlements": 1, "special_vp": 3}, {}, {}, {})
    assert result["players"][0]["total"] == 4
    assert any("does not say" in note for note in result["notes"])   # and no target


def test_more_special_vp_than_the_box_has_chips_is_accepted_with_a_note():
    """The 1997 box holds "8 x victory point chips"; what happens when they run out is not
    said: accepted, and the answer says so."""
    sheet = {"settlements": 5, "special_vp": 5}
    result = scored("four_islands", sheet, sheet, {})
    assert [p["total"] for p in result["players"]] == [10, 10, 0]
    assert any("8 victory point chips" in note for note in result["notes"])
    assert scored("four_islands", sheet, {}, {})["notes"] == []


@settings(max_examples=60, deadline=None)
@given(st.lists(st.fixed_dictionaries({
    "settlements": st.integers(0, 5), "cities": st.integers(0, 4),
    "vp_cards": st.integers(0, 1), "special_vp": st.sampled_from([0, 1, 3, 5])}),
    min_size=3, max_size=3))
def test_four_islands_sheets_within_every_rule_score(sheets):
    """Any sheets within the pieces, the cards and the scenario's chips score (or are refused
    only for lacking villages under their chips)."""
    try:
        result = scored("four_islands", *sheets)
    except RuleError as err:
        assert err.code == "impossible_sheet" and "beneath" in err.message
        return
    for sheet, player in zip(sheets, result["players"], strict=True):
        assert player["total"] == (sheet["settlements"] + 2 * sheet["cities"]
                                   + sheet["vp_cards"] + sheet["special_vp"])
