"""Sentences with a number in them say it in the singular or the plural by the number: the
core's counted messages (say_n) in English, as the JSON API and the CLI answer; the pages'
German and French forms are tests/web/test_plurals.py's and test_core_words.py's."""
from __future__ import annotations

import pytest

from companion.games.box_questions import Unknowns
from companion.games.errors import RuleError
from companion.games.explorers import GAME as EXPLORERS
from companion.games.explorers.play import describe as explorers_describe
from companion.games.reavers import GAME as REAVERS
from companion.games.reavers.table import describe as reavers_describe
from companion.games.shipwrights.scoring import opponent_result


def explorers(*sheets, **options):
    names = ["Ann", "Bo", "Cy"][:len(sheets)]
    body = {"players": [{"name": n, "sheet": s} for n, s in zip(names, sheets, strict=True)],
            "options": options}
    return EXPLORERS.score(body, {})["players"]


def why(players, row, name="Ann"):
    return str(next(p for p in players if p["name"] == name)["explanations"][row])


@pytest.mark.parametrize("n, words", [
    (0, "0 outposts, the k-th worth k + 1 VP = 0 VP."),
    (1, "1 outpost, the k-th worth k + 1 VP = 2 VP."),
    (2, "2 outposts, the k-th worth k + 1 VP = 5 VP.")])
def test_explorers_outposts_row(n, words):
    assert why(explorers({"outposts": n}), "outposts") == words


@pytest.mark.parametrize("n, ships, deaths", [
    (0, "0 enemy ships destroyed", "0 Viking deaths squared"),
    (1, "1 enemy ship destroyed", "1 Viking death squared"),
    (2, "2 enemy ships destroyed", "2 Viking deaths squared")])
def test_explorers_ships_and_deaths_rows(n, ships, deaths):
    players = explorers({"enemy_ships": n, "viking_deaths": n})
    assert why(players, "enemy_ships").startswith(ships)
    assert why(players, "viking_deaths").startswith(deaths)


@pytest.mark.parametrize("captain, sheet, words", [
    ("Barbarian", {"enemy_ships": 1}, "Barbarian: 1 enemy ship destroyed = 1 VP."),
    ("Barbarian", {"enemy_ships": 2}, "Barbarian: 2 enemy ships destroyed = 2 VP."),
    ("Barbarian", {"enemy_ships": 0}, "Barbarian: 0 enemy ships destroyed = 0 VP."),
    ("Archer", {"outposts": 1, "archer_tiles": 1},
     "Archer: 1 tile from the Mainland to the farthest outpost = 1 VP."),
    ("Archer", {"outposts": 1, "archer_tiles": 3},
     "Archer: 3 tiles from the Mainland to the farthest outpost = 3 VP."),
    ("Hero", {"outposts": 1, "settlements": [2], "enemy_ships": 1},
     "Hero: 1 set of outpost, settlement and enemy ship x 2 = 2 VP."),
    ("Hero", {"outposts": 2, "settlements": [2, 3], "enemy_ships": 2},
     "Hero: 2 sets of outpost, settlement and enemy ship x 2 = 4 VP."),
    ("Huntsman", {"livestock": {"pig": 2}}, "Huntsman: 1 pair of the same livestock x 2 = 2 VP."),
    ("Huntsman", {"livestock": {"pig": 2, "goat": 3}},
     "Huntsman: 2 pairs of the same livestock x 2 = 4 VP."),
])
def test_explorers_captain_bonuses(captain, sheet, words):
    assert why(explorers({"captain": captain, **sheet}, {}), "captain") == words


@pytest.mark.parametrize("sheets, words", [
    (({"livestock": {"horse": 4}},), "The box holds only 3 horses, but the sheets add up to 4."),
    (({"livestock": {"pig": 4}}, {"livestock": {"pig": 3}}),
     "The box holds only 6 pigs, but the sheets add up to 7."),
    (({"enemy_ships": 7}, {"enemy_ships": 6}),
     "The box holds only 12 Enemy Ships, but the sheets add up to 13."),
])
def test_explorers_box_limits_say_the_box_in_the_plural(sheets, words):
    with pytest.raises(RuleError) as err:
        explorers(*sheets)
    assert str(err.value.message) == words


@pytest.mark.parametrize("event, words", [
    ({"type": "set_influence", "data": {"player": "Ann", "island": 0, "add": {"vikings": 1}}},
     "Ann +1 viking on island 1"),
    ({"type": "set_influence", "data": {"player": "Ann", "island": 0,
                                        "add": {"vikings": -2, "mill": 1}}},
     "Ann -2 vikings, +1 mill on island 1"),
    ({"type": "update_island", "data": {"island": 0, "add": {"tiles": 1}}}, "Island 1: +1 tile"),
    ({"type": "update_island", "data": {"island": 0, "add": {"tiles": -2}}},
     "Island 1: -2 tiles"),
])
def test_explorers_undo_labels(event, words):
    state = {"table": {"islands": [{"name": None}]}}
    assert explorers_describe(state, event) == words


def reavers(**sheet):
    body = {"players": [{"name": "Ann", "sheet": sheet}, {"name": "Bo", "sheet": {}}],
            "options": {"wall_majority": [5, 2]}}
    return REAVERS.score(body, {})["players"]


@pytest.mark.parametrize("n, artifacts, favor, prophecies", [
    (0, "0 artifacts.", "0 favor tokens at 2 glory each.", "0 prophecies."),
    (1, "1 artifact.", "1 favor token at 2 glory each.", "1 prophecy."),
    (2, "2 artifacts.", "2 favor tokens at 2 glory each.", "2 prophecies.")])
def test_reavers_rows(n, artifacts, favor, prophecies):
    players = reavers(artifacts=[3] * n, favor=n, prophecies=[4] * n)
    assert why(players, "artifacts") == artifacts and why(players, "favor") == favor
    assert why(players, "prophecies") == prophecies


@pytest.mark.parametrize("held, words", [
    ({"a": 1, "b": 1, "c": 2}, "1 set of 3 different at 15 and 1 other tapestry at 2."),
    ({"a": 2, "b": 2, "c": 2}, "2 sets of 3 different at 15 and 0 other tapestries at 2."),
    ({"a": 3}, "0 sets of 3 different at 15 and 3 other tapestries at 2.")])
def test_reavers_tapestries(held, words):
    assert why(reavers(tapestries=held), "tapestries") == words


@pytest.mark.parametrize("data, words", [
    ({"player": "Ann", "add": 1}, "Ann +1 territory"), ({"player": "Ann", "add": -2},
                                                         "Ann -2 territories"),
    ({"player": "Ann", "count": 1}, "Ann holds 1 territory"),
    ({"player": "Ann", "count": 0}, "Ann holds 0 territories")])
def test_reavers_territory_labels(data, words):
    assert reavers_describe({}, {"type": "territories", "data": data}) == words


@pytest.mark.parametrize("won, words", [(0, "0 Hero cards at 3 VP each."),
                                        (1, "1 Hero card at 3 VP each."),
                                        (2, "2 Hero cards at 3 VP each.")])
def test_shipwrights_solo_opponents_heroes(won, words):
    opponent = {"tracks": {"military": 0, "trade": 0, "renown": 0}, "heroes_won": won,
                "round_card_vp": []}
    result = opponent_result(opponent, {}, Unknowns())
    assert str(result["explanations"]["heroes"]) == words


def test_a_book_layout_with_the_wrong_material_counts_each_thing():
    """The owner's copy of a book layout: one number chip of 2 too few, one harbour spot
    left ("1 number chip", "1 harbour spot"), and the plural beside."""
    from companion.games.seafarers import GAME as SEAFARERS
    from tests.unit.test_seafarers_book import entry_from, setup

    entry = entry_from(setup("four_islands", 3, layout="variable"))

    def refusal(change):
        data = {"hexes": [dict(h) for h in entry["hexes"]],
                "harbours": [dict(h) for h in entry["harbours"]]}
        change(data)
        with pytest.raises(RuleError) as err:
            SEAFARERS.validate_catalogue({"layouts": {"four_islands/3": data}})
        return str(err.value.message)

    two = next(h for h in entry["hexes"] if h.get("number") == 2)
    said = refusal(lambda d: d["hexes"][entry["hexes"].index(two)].update(number=3))
    assert said.endswith("lists 1 number chip of 2; the layout has 0.")
    said = refusal(lambda d: d.update(harbours=d["harbours"][:1]))
    assert said.endswith(f"lists {len(entry['harbours'])} harbours; the layout has 1 harbour "
                         "spot.")
