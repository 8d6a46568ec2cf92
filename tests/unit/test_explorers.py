"""Explorers of the North Sea (+ Rocks of Ruin): setup, every score-pad row, island control,
every captain, the tie-breaks, and a play's turn counter and islands."""
import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import get_game
from companion.games.errors import RuleError
from companion.games.explorers import GAME
from companion.games.explorers.captains import BASE_CAPTAINS, ROCKS_CAPTAINS
from companion.games.explorers.scoring import LIVESTOCK, livestock_sets, triangular
from companion.games.protocol import make_rng, seat_after
from companion.plays import apply_event, new_state

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]
EXTRA = {"captains": [{"name": "Navigator", "bonus": "VP as the card says."}]}


def setup(n=3, seed=1, catalogue=None, **options):
    return GAME.setup(NAMES[:n], GAME.parse_options(options), make_rng(seed), catalogue or {})


def score(*sheets, islands=None, catalogue=None, names=NAMES, **options):
    pairs = zip(names[:len(sheets)], sheets, strict=True)
    body = {"players": [{"name": n, "sheet": s} for n, s in pairs], "options": options}
    if islands is not None:
        body["islands"] = islands
    return GAME.score(body, catalogue or {})


def player(result, name="Ann"):
    return next(p for p in result["players"] if p["name"] == name)


def rejected(call, field, status=400):
    with pytest.raises(RuleError) as err:
        call()
    assert err.value.field == field, err.value.message
    assert err.value.status == status, err.value.message
    return err.value


def island(tiles=5, complete=True, fortress=False, **influence):
    return {"tiles": tiles, "complete": complete, "unraided_fortress": fortress,
            "influence": influence}


# --------------------------------------------------------------------------- metadata
def test_registered_with_its_option_and_score_pad():
    assert get_game("explorers") is GAME
    described = GAME.describe()
    assert (described["min_players"], described["max_players"]) == (1, 5)
    assert described["options"] == {"rocks_of_ruin": {"type": "bool", "default": False,
                                                      "label": "Rocks of Ruin expansion"}}
    base = [f.name for f in GAME.sheet_fields_for({"rocks_of_ruin": False})]
    assert base == ["livestock", "outposts", "enemy_ships", "settlements", "viking_deaths",
                    "captain", "captain_2", "archer_tiles"]
    rocks = [f.name for f in GAME.sheet_fields_for({"rocks_of_ruin": True})]
    assert set(rocks) - set(base) == {"gold", "fortresses", "shipwreck_tokens", "captain_vp",
                                      "captain_2_vp"}


# --------------------------------------------------------------------------- setup
@pytest.mark.parametrize("n, rocks, tiles, face_up", [
    (1, False, 48, 0), (2, False, 48, 0), (3, False, 48, 0), (4, False, 48, 0),
    (1, True, 72, 0), (2, True, 72, 3), (3, True, 72, 3), (4, True, 72, 3), (5, True, 70, 3)])
def test_setup_for_every_player_count(n, rocks, tiles, face_up):
    for seed in range(20):
        s = setup(n, seed, rocks_of_ruin=rocks)
        players = NAMES[:n]
        assert s["tiles_in_play"] == tiles and s["face_up_tiles"] == face_up
        assert s["start_player"] in players
        assert s["turn_order"][0] == s["start_player"]
        assert sorted(s["turn_order"]) == sorted(players)
        dealt = [c for pair in s["captains"].values() for c in pair]
        assert list(s["captains"]) == players and len(dealt) == len(set(dealt)) == 2 * n
        allowed = set(BASE_CAPTAINS) | (set(ROCKS_CAPTAINS) if rocks else set())
        assert set(dealt) <= allowed
        if n == 1:
            assert s["winter_token"] is None and s["total_turns"] == tiles // 3
            assert not {"Queen", "Scout"} & set(dealt)
        else:
            assert s["winter_token"] == seat_after(players, s["start_player"], -1)
            assert s["turn_order"][-1] == s["winter_token"]
            assert s["total_turns"] == tiles and tiles % n == 0
        assert s["checklist"] and all(isinstance(line, str) and line for line in
                                      s["checklist"])


def test_five_players_need_rocks_of_ruin():
    err = rejected(lambda: setup(5), "players", 422)
    assert "Rocks of Ruin" in err.message
    six = NAMES + ["Fay"]
    rejected(lambda: GAME.setup(six, GAME.parse_options({"rocks_of_ruin": True}), make_rng(1),
                                {}), "players", 422)
    rejected(lambda: setup(0), "players", 422)


def test_solo_lasts_16_turns_in_the_base_game_and_deals_no_hand():
    s = setup(1)
    assert s["total_turns"] == 16 and s["hand_size"] == 0 and s["solo"]
    assert any("draw 3, place 2 and discard 1" in line for line in s["checklist"])
    assert not any("Winter Token" in line and "takes" in line for line in s["checklist"])
    assert setup(1, rocks_of_ruin=True)["total_turns"] == 24   # 72 tiles, 3 a turn


def test_setup_is_deterministic_and_varies_with_the_seed():
    assert setup(4, 42) == setup(4, 42)
    starts = {setup(4, seed)["start_player"] for seed in range(40)}
    deals = {tuple(setup(4, seed)["captains"]["Ann"]) for seed in range(40)}
    assert starts == set(NAMES[:4]) and len(deals) > 10


def test_checklist_names_the_deal_the_winter_token_and_the_game_length():
    s = setup(4, 3)
    text = " ".join(s["checklist"])
    for name, (a, b) in s["captains"].items():
        assert f"{name}: {a} or {b}" in text
    assert f"{s['winter_token']}, to the start player's right, takes the Winter Token" in text
    assert "48 turns in all (12 each)" in text
    rocks = " ".join(setup(5, 3, rocks_of_ruin=True)["checklist"])
    assert "Return 2 tiles to the box unseen: 70 tiles" in rocks
    assert "top 3 tiles" in rocks and "Fortress tokens" in rocks and "Dashboard" in rocks
    assert "Rocks of Ruin" not in text and "face up beside" not in text


def test_setup_describes_every_dealt_captain():
    s = setup(5, 9, rocks_of_ruin=True)
    dealt = {c for pair in s["captains"].values() for c in pair}
    assert set(s["captain_bonuses"]) == dealt and all(s["captain_bonuses"].values())


def test_catalogue_captains_join_the_deal_only_with_the_expansion():
    with_rocks = [c for seed in range(60)
                  for pair in setup(5, seed, EXTRA, rocks_of_ruin=True)["captains"].values()
                  for c in pair]
    assert "Navigator" in with_rocks
    without = [c for seed in range(60)
               for pair in setup(4, seed, EXTRA)["captains"].values() for c in pair]
    assert "Navigator" not in without
    s = next(setup(5, seed, EXTRA, rocks_of_ruin=True) for seed in range(60)
             if any("Navigator" in p for p in
                    setup(5, seed, EXTRA, rocks_of_ruin=True)["captains"].values()))
    assert s["captain_bonuses"]["Navigator"] == "VP as the card says."


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**40), n=st.integers(1, 5), rocks=st.booleans())
def test_any_seed_gives_a_valid_setup(seed, n, rocks):
    if n == 5 and not rocks:
        return
    s = setup(n, seed, rocks_of_ruin=rocks)
    dealt = [c for pair in s["captains"].values() for c in pair]
    assert len(set(dealt)) == 2 * n
    assert s["total_turns"] * (3 if n == 1 else 1) <= s["tiles_in_play"]


# --------------------------------------------------------------------------- catalogue
def test_catalogue_validation_names_the_bad_entry():
    assert GAME.validate_catalogue(GAME.empty_catalogue()) == {"captains": []}
    assert GAME.validate_catalogue(EXTRA) == EXTRA
    rejected(lambda: GAME.validate_catalogue({"captains": [{"name": "Hero", "bonus": "x"}]}),
             "captains[0].name", 422)
    rejected(lambda: GAME.validate_catalogue({"captains": [{"name": "Navigator"}]}),
             "captains[0].bonus")
    rejected(lambda: GAME.validate_catalogue({"captains": [{"name": "X", "bonus": "y",
                                                            "vp": 3}]}), "captains[0].vp")
    rejected(lambda: GAME.validate_catalogue({"captains": [EXTRA["captains"][0]] * 2}),
             "captains[1].name", 422)
    rejected(lambda: GAME.validate_catalogue({"tiles": 3}), "tiles")
    rejected(lambda: GAME.validate_catalogue({"captains": "Navigator"}), "captains")


def test_a_catalogue_captains_name_is_40_characters_as_sent_and_duplicates_have_a_code():
    """Like every other text of the box data, the name's length is counted as sent (spaces
    around it included); two entries with one name are a rule across entries (422) with its
    own code, while a captain the box already has stays invalid_input (a 422 too)."""
    def refusal(captains):
        with pytest.raises(RuleError) as err:
            GAME.validate_catalogue({"captains": captains})
        return err.value.code

    assert GAME.validate_catalogue({"captains": [{"name": " " + "N" * 39, "bonus": "b"}]})
    assert refusal([{"name": " " + "N" * 40, "bonus": "b"}]) == "invalid_input"
    assert refusal([{"name": "Navigator", "bonus": "b"}, {"name": "NAVIGATOR",
                                                         "bonus": "c"}]) == "duplicate_entry"
    assert refusal([{"name": "ſcout", "bonus": "b"}]) == "invalid_input"   # casefold: Scout


# --------------------------------------------------------------------------- score rows
def test_categories_without_and_with_the_expansion():
    assert list(player(score({}))["categories"]) == [
        "livestock", "outposts", "enemy_ships", "settlements", "viking_deaths", "islands",
        "captain"]
    assert set(player(score({}, rocks_of_ruin=True))["categories"]) == {
        "livestock", "outposts", "enemy_ships", "settlements", "viking_deaths", "islands",
        "captain", "gold", "fortresses"}
    assert player(score({}))["total"] == 0


def test_rulebook_livestock_example_scores_28():
    # horse, cattle, sheep, pig, goat, chicken + cattle, sheep, chicken + cattle
    herd = {"horse": 1, "cattle": 3, "sheep": 2, "pig": 1, "goat": 1, "chicken": 2}
    result = player(score({"livestock": herd}))
    assert result["categories"]["livestock"] == 28
    assert result["explanations"]["livestock"] == (
        "Sets of 6, 3, 1 different types: 21 + 6 + 1 = 28 VP.")


@pytest.mark.parametrize("herd, vp", [
    ({}, 0), ({"pig": 1}, 1), ({"pig": 3}, 3), ({"pig": 1, "goat": 1}, 3),
    ({"pig": 1, "chicken": 1, "goat": 1, "sheep": 1, "cattle": 1, "horse": 1}, 21),
    ({"pig": 2, "horse": 1}, 4), ({"pig": 0, "sheep": 4}, 4)])
def test_livestock_sets_of_distinct_types(herd, vp):
    assert player(score({"livestock": herd}))["categories"]["livestock"] == vp


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_livestock_layering_beats_any_other_grouping(data):
    counts = {k: data.draw(st.integers(0, min(limit, 4)), label=k)
              for k, limit in LIVESTOCK.items()}
    best = sum(triangular(s) for s in livestock_sets(counts))
    slots = max(sum(counts.values()), 1)
    sizes = [0] * slots
    for kind, n in counts.items():   # the same type never twice in one set
        for s in data.draw(st.lists(st.integers(0, slots - 1), min_size=n, max_size=n,
                                    unique=True), label=kind):
            sizes[s] += 1
    assert sum(triangular(s) for s in sizes) <= best


@pytest.mark.parametrize("outposts, vp", [(0, 0), (1, 2), (2, 5), (3, 9), (4, 14), (5, 20)])
def test_outposts_score_2_5_9_14_20(outposts, vp):
    assert player(score({"outposts": outposts}))["categories"]["outposts"] == vp


def test_a_sixth_outpost_is_rejected():
    rejected(lambda: score({"outposts": 6}), "players[0].sheet.outposts")


def test_enemy_ships_settlements_and_deaths():
    result = player(score({"enemy_ships": 4, "settlements": [2, 5, 3], "viking_deaths": 3}))
    assert result["categories"]["enemy_ships"] == 4
    assert result["categories"]["settlements"] == 10
    assert result["categories"]["viking_deaths"] == 9
    assert result["explanations"]["viking_deaths"] == "3 Viking deaths squared = 9 VP."


@pytest.mark.parametrize("deaths, vp", [(0, 0), (1, 1), (2, 4), (5, 25), (7, 49)])
def test_viking_deaths_are_squared(deaths, vp):
    assert player(score({"viking_deaths": deaths}))["categories"]["viking_deaths"] == vp


def test_settlement_strength_is_2_to_5_and_deaths_at_most_7():
    rejected(lambda: score({"settlements": [2, 6]}), "players[0].sheet.settlements[1]")
    rejected(lambda: score({"settlements": [1]}), "players[0].sheet.settlements[0]")
    rejected(lambda: score({"viking_deaths": 8}), "players[0].sheet.viking_deaths", 422)


def test_rocks_of_ruin_gold_and_fortresses():
    result = player(score({"gold": 3, "fortresses": [4, 6]}, rocks_of_ruin=True))
    assert result["categories"]["gold"] == 9 and result["categories"]["fortresses"] == 10
    assert result["total"] == 19
    rejected(lambda: score({"fortresses": [7]}, rocks_of_ruin=True),
             "players[0].sheet.fortresses[0]")
    # a row of the expansion without it: a rule of the game as set up (422), not an unknown
    # field (400), so the API's document can describe the sheet exactly
    without = rejected(lambda: score({"gold": 1}), "players[0].sheet.gold", 422)
    assert without.code == "field_not_in_play" and "Rocks of Ruin" in without.message
    assert rejected(lambda: score({"goldd": 1}), "players[0].sheet.goldd").code \
        == "unknown_field"


def test_every_row_is_explained():
    result = player(score({"captain": "Hero"}, rocks_of_ruin=True))
    assert set(result["explanations"]) == set(result["categories"])
    assert all(isinstance(v, str) and v for v in result["explanations"].values())


# --------------------------------------------------------------------------- box limits
def test_more_livestock_than_the_box_holds_is_refused():
    """The box: 6 pigs, 5 chickens, 5 goats, 4 sheep, 3 cattle, 3 horses (facts.md 2.1)."""
    err = rejected(lambda: score({"livestock": {"horse": 4}}),
                   "players[0].sheet.livestock.horse", 422)
    assert err.code == "impossible_sheet" and "only 3 horses," in err.message
    err = rejected(lambda: score({"livestock": {"pig": 4}}, {"livestock": {"pig": 3}}),
                   "players[1].sheet.livestock.pig", 422)
    assert err.fields == ["players[1].sheet.livestock.pig", "players[0].sheet.livestock.pig"]
    rejected(lambda: score({"livestock": {"goose": 1}}), "players[0].sheet.livestock.goose")


def test_more_tokens_than_the_box_holds_is_refused():
    """12 Enemy Ships, 14 Settlement tokens (facts.md 2.1), 5 Fortress tokens (2.5)."""
    err = rejected(lambda: score({"enemy_ships": 7}, {"enemy_ships": 5}, {"enemy_ships": 1}),
                   "players[2].sheet.enemy_ships", 422)
    assert len(err.fields) == 3 and "12 Enemy Ships" in err.message
    rejected(lambda: score({"settlements": [2] * 8}, {"settlements": [3] * 7}),
             "players[1].sheet.settlements", 422)
    rejected(lambda: score({"fortresses": [4, 5, 6]}, {"fortresses": [4, 4, 4]},
                           rocks_of_ruin=True), "players[1].sheet.fortresses", 422)


def test_dead_vikings_cannot_also_stand_on_the_islands():
    """Each colour has 7 Vikings (facts.md 2.1) and the dead go onto the Captain card."""
    held = [island(5, Ann={"vikings": 4}), island(3, Ann={"vikings": 2})]
    assert player(score({"viking_deaths": 1}, {}, islands=held))["total"] == 1 + 8
    err = rejected(lambda: score({"viking_deaths": 2}, {}, islands=held),
                   "players[0].sheet.viking_deaths", 422)
    assert err.fields == ["players[0].sheet.viking_deaths", "islands"]
    assert "6 on the islands and 2 dead make 8" in err.message


def test_malformed_requests_name_the_field():
    rejected(lambda: score({"vp": 3}), "players[0].sheet.vp")
    rejected(lambda: GAME.score({"players": [{"name": "Ann"}], "bogus": 1}, {}), "bogus")
    rejected(lambda: GAME.score({"players": "Ann"}, {}), "players")
    rejected(lambda: score({"enemy_ships": -1}), "players[0].sheet.enemy_ships")
    rejected(lambda: score({"enemy_ships": 10_001}), "players[0].sheet.enemy_ships")
    rejected(lambda: score({}, {}, {}, {}, {}), "players", 422)
    rejected(lambda: score({}, bogus=True), "options.bogus")
    rejected(lambda: score({}, rocks_of_ruin="maybe"), "options.rocks_of_ruin")


# --------------------------------------------------------------------------- islands
def test_rulebook_island_example_red_controls_five_tiles():
    result = score({}, {}, names=["Red", "Yellow"],
                   islands=[island(5, Red={"vikings": 1, "outposts": 2},
                                   Yellow={"vikings": 2})])
    assert result["islands"][0]["controllers"] == ["Red"]
    assert result["islands"][0]["influence"] == {"Red": 5, "Yellow": 2}
    assert player(result, "Red")["categories"]["islands"] == 5
    assert player(result, "Yellow")["categories"]["islands"] == 0
    assert result["islands"][0]["reason"] == "Red controls it with 5 influence: 5 VP."


def test_a_tie_scores_in_full_for_every_tied_player():
    result = score({}, {}, {}, islands=[island(6, Ann={"outposts": 1}, Bo={"vikings": 2},
                                               Cy={"vikings": 1})])
    assert result["islands"][0]["controllers"] == ["Ann", "Bo"]
    assert [p["categories"]["islands"] for p in result["players"]] == [6, 6, 0]
    assert "tie on 2 influence" in result["islands"][0]["reason"]


def test_incomplete_islands_and_unraided_fortresses_score_for_nobody():
    result = score({}, {}, rocks_of_ruin=True, islands=[
        island(4, complete=False, Ann={"vikings": 3}),
        island(7, fortress=True, Ann={"outposts": 2}),
        island(3, Ann={"vikings": 1})])
    controls = result["islands"]
    assert [c["controllers"] for c in controls] == [[], [], ["Ann"]]
    assert controls[0]["reason"].startswith("Incomplete")
    assert "fortress" in controls[1]["reason"]
    assert controls[1]["influence"] == {"Ann": 4, "Bo": 0}
    assert player(result)["categories"]["islands"] == 3


def test_zero_influence_never_controls():
    result = score({}, {}, islands=[island(5)])
    assert result["islands"][0]["controllers"] == []
    assert result["islands"][0]["reason"] == "Nobody has any influence here: scores for nobody."
    solo = score({}, islands=[island(5)])
    assert solo["islands"][0]["controllers"] == []


def test_solo_one_influence_controls():
    result = score({}, islands=[island(4, Ann={"vikings": 1})])
    assert result["islands"][0]["controllers"] == ["Ann"]
    assert player(result)["categories"]["islands"] == 4


def test_structures_add_influence_with_the_expansion():
    pieces = {"vikings": 1, "outposts": 1, "mill": 1, "workshop": True, "barracks": 1}
    result = score({}, {}, rocks_of_ruin=True,
                   islands=[island(5, Ann=pieces, Bo={"vikings": 6})])
    assert result["islands"][0]["influence"] == {"Ann": 7, "Bo": 6}
    assert result["islands"][0]["controllers"] == ["Ann"]
    rejected(lambda: score({}, islands=[island(5, Ann={"mill": 1})]),
             "islands[0].influence.Ann.mill", 422)
    rejected(lambda: score({}, islands=[island(5, fortress=True)]),
             "islands[0].unraided_fortress", 422)


def test_islands_come_back_in_request_order_with_every_player():
    result = score({}, {}, islands=[island(2, Bo={"vikings": 1}), island(3),
                                    island(4, Ann={"vikings": 1})])
    assert [c["controllers"] for c in result["islands"]] == [["Bo"], [], ["Ann"]]
    assert all(set(c["influence"]) == {"Ann", "Bo"} for c in result["islands"])
    assert [c["tiles"] for c in result["islands"]] == [2, 3, 4]


PIECES = st.fixed_dictionaries({"vikings": st.integers(0, 3), "outposts": st.integers(0, 2),
                                "mill": st.integers(0, 1), "barracks": st.booleans()})


@settings(max_examples=120, deadline=None)
@given(tiles=st.integers(1, 20), complete=st.booleans(), fortress=st.booleans(),
       pieces=st.lists(PIECES, min_size=2, max_size=2))
def test_island_control_properties(tiles, complete, fortress, pieces):
    spec = island(tiles, complete, fortress, Ann=pieces[0], Bo=pieces[1])
    result = score({}, {}, islands=[spec], rocks_of_ruin=True)
    control = result["islands"][0]
    influence = control["influence"]
    for name, p in zip(("Ann", "Bo"), pieces, strict=True):
        assert influence[name] == (p["vikings"] + 2 * p["outposts"] + p["mill"]
                                   + 2 * int(p["barracks"]))
    if not complete or fortress or max(influence.values()) == 0:
        assert control["controllers"] == []
    else:
        assert control["controllers"] == [n for n in ("Ann", "Bo")
                                          if influence[n] == max(influence.values())]
    for p in result["players"]:
        held = p["name"] in control["controllers"]
        assert p["categories"]["islands"] == (tiles if held else 0)


def test_bad_islands_name_the_field():
    rejected(lambda: score({}, islands=[island(5, Zed={"vikings": 1})]),
             "islands[0].influence.Zed", 422)
    rejected(lambda: score({}, islands=[{"complete": True}]), "islands[0].tiles")
    rejected(lambda: score({}, islands=[{"tiles": 3}]), "islands[0].complete")
    rejected(lambda: score({}, islands=[island(0)]), "islands[0].tiles")
    rejected(lambda: score({}, islands=[{**island(3), "shape": "round"}]), "islands[0].shape")
    rejected(lambda: score({}, islands=[island(3, Ann={"ships": 1})]),
             "islands[0].influence.Ann.ships")
    rejected(lambda: score({}, islands=[island(3, Ann={"vikings": -1})]),
             "islands[0].influence.Ann.vikings")
    rejected(lambda: score({}, islands={"tiles": 3}), "islands")


def test_more_pieces_on_islands_than_a_player_owns_is_422():
    rejected(lambda: score({}, islands=[island(3, Ann={"vikings": 4}),
                                        island(3, Ann={"vikings": 4})]),
             "islands[1].influence.Ann.vikings", 422)
    rejected(lambda: score({}, islands=[island(3, Ann={"outposts": 6})]),
             "islands[0].influence.Ann.outposts", 422)
    rejected(lambda: score({}, rocks_of_ruin=True,
                           islands=[island(3, Ann={"mill": 1}), island(3, Ann={"mill": 1})]),
             "islands[1].influence.Ann.mill", 422)


# --------------------------------------------------------------------------- captains
def captain_vp(sheet, islands=None, others=1, **options):
    sheets = [sheet] + [{}] * others
    result = player(score(*sheets, islands=islands, **options))
    return result["categories"]["captain"], result["explanations"]["captain"]


def test_archer_scores_the_tiles_to_the_farthest_outpost():
    """Archer: "+1 VP per Tile between the Mainland and your farthest Outpost" (facts.md 2.4):
    with no outpost there is no farthest one, so nothing."""
    assert captain_vp({"captain": "Archer", "archer_tiles": 6, "outposts": 1})[0] == 6
    vp, why = captain_vp({"captain": "Archer", "archer_tiles": 6})
    assert vp == 0 and "no outpost" in why
    assert captain_vp({"captain": "Watchman", "archer_tiles": 6})[0] == 0


def test_barbarian_scores_enemy_ships():
    assert captain_vp({"captain": "Barbarian", "enemy_ships": 3}) == (
        3, "Barbarian: 3 enemy ships destroyed = 3 VP.")


def test_cartographer_scores_the_second_largest_controlled_island_again():
    held = [island(7, Ann={"vikings": 1}), island(5, Ann={"vikings": 1}, Bo={"vikings": 1}),
            island(4, Ann={"vikings": 1}), island(9, Bo={"vikings": 1}),
            island(8, complete=False, Ann={"vikings": 1})]
    assert captain_vp({"captain": "Cartographer"}, held)[0] == 5   # the tie counts as held
    assert captain_vp({"captain": "Cartographer"}, held[:1])[0] == 0
    equal = [island(6, Ann={"vikings": 1}), island(6, Ann={"vikings": 1})]
    assert captain_vp({"captain": "Cartographer"}, equal)[0] == 6


def test_hero_rulebook_example_three_sets_six_vp():
    sheet = {"captain": "Hero", "outposts": 4, "settlements": [2, 3, 4], "enemy_ships": 5}
    assert captain_vp(sheet)[0] == 6
    assert captain_vp({"captain": "Hero", "outposts": 4, "enemy_ships": 5})[0] == 0


def test_huntsman_rulebook_example_three_pairs_six_vp():
    sheet = {"captain": "Huntsman", "livestock": {"pig": 3, "sheep": 4, "cattle": 1}}
    assert captain_vp(sheet) == (6, "Huntsman: 3 pairs of the same livestock x 2 = 6 VP.")


def test_queen_rulebook_example_and_minimum_zero():
    best = [island(5, Ann={"vikings": 2, "outposts": 3}), island(4, Ann={"vikings": 5})]
    assert captain_vp({"captain": "Queen"}, best, others=2)[0] == 5   # 8 influence - 3
    assert captain_vp({"captain": "Queen"}, [island(3, Ann={"vikings": 1})], others=2)[0] == 0
    assert captain_vp({"captain": "Queen"}, [island(3, Bo={"vikings": 9 - 2})])[0] == 0
    blocked = [island(5, complete=False, Ann={"vikings": 7})]
    assert captain_vp({"captain": "Queen"}, blocked)[0] == 0


def test_scout_counts_completed_islands_held_by_others_with_a_viking():
    islands = [island(3, Ann={"vikings": 1}, Bo={"vikings": 2}),      # Bo's: counts
               island(3, Ann={"vikings": 2}),                          # Ann's own: no
               island(3, complete=False, Ann={"vikings": 1}),          # incomplete: no
               island(3, Ann={"outposts": 1}, Bo={"outposts": 2}),     # no Viking: no
               island(3, fortress=True, Ann={"vikings": 1})]           # nobody's: counts
    assert captain_vp({"captain": "Scout"}, islands, rocks_of_ruin=True)[0] == 2


def test_shieldmaiden_trader_tyrant_watchman():
    held = [island(2, Ann={"vikings": 1}), island(3, Ann={"vikings": 1})]
    assert captain_vp({"captain": "Shieldmaiden"}, held)[0] == 2
    assert captain_vp({"captain": "Trader", "livestock": {"pig": 4, "goat": 3}})[0] == 4
    assert captain_vp({"captain": "Tyrant", "settlements": [2, 3, 4, 5]})[0] == 4
    assert captain_vp({"captain": "Watchman", "outposts": 5})[0] == 5


def test_berserker_adds_one_per_death_on_top_of_the_square():
    result = player(score({"captain": "Berserker", "viking_deaths": 4}, {},
                          rocks_of_ruin=True))
    assert result["categories"]["viking_deaths"] == 16
    assert result["categories"]["captain"] == 4


def test_adventurer_counts_shipwreck_tokens_gold_included():
    sheet = {"captain": "Adventurer", "shipwreck_tokens": 5, "gold": 2}
    assert captain_vp(sheet, rocks_of_ruin=True)[0] == 5
    rejected(lambda: score({"captain": "Adventurer", "shipwreck_tokens": 1, "gold": 2},
                           rocks_of_ruin=True), "players[0].sheet.shipwreck_tokens", 422)


def test_expansion_captains_need_the_expansion():
    rejected(lambda: score({"captain": "Berserker"}), "players[0].sheet.captain", 422)
    rejected(lambda: score({"captain": "Nobody"}), "players[0].sheet.captain", 422)


def test_a_catalogue_captain_scores_the_vp_entered_by_hand():
    result = player(score({"captain": "Navigator", "captain_vp": 7}, {}, catalogue=EXTRA,
                          rocks_of_ruin=True))
    assert result["categories"]["captain"] == 7
    assert "entered by hand" in result["explanations"]["captain"]
    computed = player(score({"captain": "Watchman", "outposts": 2, "captain_vp": 7}, {},
                            rocks_of_ruin=True))
    assert computed["categories"]["captain"] == 2
    rejected(lambda: score({"captain": "Navigator"}, catalogue=EXTRA),
             "players[0].sheet.captain", 422)


def test_captain_names_ignore_case_and_no_captain_scores_zero():
    assert captain_vp({"captain": "watchman", "outposts": 3})[0] == 3
    assert captain_vp({}) == (0, "No captain entered.")


def test_one_captain_cannot_belong_to_two_players():
    err = rejected(lambda: score({"captain": "Hero"}, {"captain": "hero"}),
                   "players[1].sheet.captain", 422)
    assert err.fields == ["players[1].sheet.captain", "players[0].sheet.captain"]


# --------------------------------------------------------------------------- solo
def test_solo_scores_the_lower_captain_rulebook_example():
    held = [island(2, Ann={"vikings": 1}) for _ in range(5)]
    sheet = {"captain": "Hero", "captain_2": "Shieldmaiden", "outposts": 4,
             "settlements": [2, 3, 4, 5], "enemy_ships": 4}
    result = player(score(sheet, islands=held))
    assert result["categories"]["captain"] == 5       # Hero 8, Shieldmaiden 5
    assert "lower captain" in result["explanations"]["captain"]


def test_solo_captain_rules():
    assert captain_vp({"captain": "Watchman", "outposts": 2}, others=0)[0] == 2
    rejected(lambda: score({"captain": "Queen"}), "players[0].sheet.captain", 422)
    rejected(lambda: score({"captain_2": "Scout"}), "players[0].sheet.captain_2", 422)
    rejected(lambda: score({"captain": "Hero", "captain_2": "hero"}),
             "players[0].sheet.captain_2", 422)
    rejected(lambda: score({"captain_2": "Hero"}, {}), "players[0].sheet.captain_2", 422)


def test_solo_with_two_catalogue_values():
    catalogue = {"captains": [{"name": "Navigator", "bonus": "x"}]}
    sheet = {"captain": "Navigator", "captain_vp": 9, "captain_2": "Berserker",
             "viking_deaths": 3}
    result = player(score(sheet, catalogue=catalogue, rocks_of_ruin=True))
    assert result["categories"]["captain"] == 3


# --------------------------------------------------------------------------- tie-breaks
def test_most_viking_deaths_breaks_a_tie():
    result = score({"viking_deaths": 2}, {"enemy_ships": 4})
    assert result["winners"] == ["Ann"]
    assert [p["rank"] for p in result["players"]] == [1, 2]
    assert result["tiebreak"] == ("Ann and Bo tied on 4; Ann wins with the most viking deaths "
                                  "(2 against 0).")


def test_then_most_settlements_raided_counts_tokens_not_strength():
    result = score({"settlements": [2, 2]}, {"settlements": [4]})
    assert result["winners"] == ["Ann"]
    assert "most settlements raided (2 against 1)" in result["tiebreak"]


def test_then_a_shared_win():
    sheet = {"viking_deaths": 1, "settlements": [3]}
    result = score(sheet, dict(sheet), {})
    assert result["winners"] == ["Ann", "Bo"]
    assert [p["rank"] for p in result["players"]] == [1, 1, 3]
    assert result["tiebreak"] == "Ann and Bo tied on 4 and on every tie-break: a shared win."


def test_no_tie_no_sentence():
    result = score({"enemy_ships": 2}, {"enemy_ships": 1})
    assert result["winners"] == ["Ann"] and result["tiebreak"] is None


# --------------------------------------------------------------------------- a play
def new_play(n=4, seed=5, catalogue=None, **options):
    """A play's initial state, made as every new play is (companion.plays.new_state)."""
    return new_state("explorers", NAMES[:n], options, seed, catalogue or {})


def event(state, type_, **data):
    """The state after an event, through companion.plays (the input is never changed)."""
    return apply_event(state, {"type": type_, "data": data})


def refused(state, type_, field, status=400, **data):
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as err:
        GAME.apply(state, {"type": type_, "data": data})
    assert err.value.field == field, err.value.message
    assert err.value.status == status, err.value.message
    assert state == before, "a rejected event must change nothing"
    return err.value


def play_turns(state, count):
    for _ in range(count):
        state = event(state, "turn")
    return state


def test_a_new_play_starts_at_turn_one_with_full_hands():
    state = new_play()
    table, setup_ = state["table"], state["setup"]
    assert table["turn"] == 1 and table["turns_done"] == 0 and table["total_turns"] == 48
    assert table["current_player"] == setup_["start_player"]
    assert table["hands"] == {p: 3 for p in NAMES[:4]}
    assert table["tiles_left"] == 48 and table["stack_left"] == 36
    assert table["islands"] == [] and not table["game_over"] and state["round"] == 1


def test_four_players_play_48_turns_and_the_winter_token_holder_plays_last():
    state = new_play()
    order, winter = state["setup"]["turn_order"], state["setup"]["winter_token"]
    for done in range(48):
        table = state["table"]
        assert table["current_player"] == order[done % 4]
        assert table["hands"][table["current_player"]] >= 1, "nobody plays from an empty hand"
        assert table["last_turn"] == (done == 47)
        state = event(state, "turn")
    table = state["table"]
    assert table["game_over"] and table["current_player"] is None
    assert table["hands"] == {p: 0 for p in order} and table["tiles_left"] == 0
    assert order[-1] == winter and state["round"] == 12 and not state["finished"]
    assert "game is over" in table["notices"][0]
    refused(state, "turn", "type", 422)


def test_the_winter_token_holder_draws_the_last_tile_and_empties_their_hand_last():
    state = play_turns(new_play(), 36)
    assert state["table"]["stack_left"] == 0
    assert state["table"]["hands"] == {p: 3 for p in NAMES[:4]}
    assert "No tiles left to draw" in state["table"]["notices"][0]
    state = play_turns(state, 11)
    winter = state["setup"]["winter_token"]
    assert state["table"]["hands"] == {**{p: 0 for p in NAMES[:4]}, winter: 1}
    assert state["table"]["notices"] == [f"Last turn: {winter} holds the Winter Token and "
                                         "plays their last tile."]


@pytest.mark.parametrize("n, rocks", [(1, False), (1, True), (2, False), (3, True), (4, True),
                                      (5, True)])
def test_tiles_are_always_accounted_for(n, rocks):
    state = new_play(n, rocks_of_ruin=rocks)
    tiles, total = state["setup"]["tiles_in_play"], state["setup"]["total_turns"]
    for done in range(total + 1):
        table = state["table"]
        drawn = table["stack_left"] + table["face_up_left"]
        if n > 1:
            assert sum(table["hands"].values()) + drawn + done == tiles
            assert min(table["hands"].values()) >= 0
            if done < total:
                assert table["hands"][table["current_player"]] >= 1
        else:
            assert drawn == tiles - 3 * done == table["tiles_left"]
        if done < total:
            state = event(state, "turn")
    assert state["table"]["game_over"] and state["table"]["turns_done"] == total


def test_solo_lasts_16_turns():
    state = play_turns(new_play(1), 15)
    assert state["table"]["last_turn"] and state["table"]["stack_left"] == 3
    assert state["table"]["notices"] == ["Last turn: the last 3 tiles are drawn."]
    state = event(state, "turn")
    assert state["table"]["game_over"] and state["round"] == 16


def test_face_up_tiles_run_out_after_the_stack():
    state = new_play(3, rocks_of_ruin=True)       # 72 - 9 = 63 to draw, 3 of them face up
    assert (state["table"]["stack_left"], state["table"]["face_up_left"]) == (60, 3)
    state = play_turns(state, 61)
    assert (state["table"]["stack_left"], state["table"]["face_up_left"]) == (0, 2)
    assert state["table"]["notices"] == ["The stack is empty: draw one of the face-up tiles."]


def test_advance_ends_the_turn_like_the_turn_event():
    state = new_play()
    assert event(state, "advance") == event(state, "turn")
    refused(state, "turn", "data.player", player="Ann")


def test_islands_are_added_edited_and_removed():
    state = new_play(2)
    state = event(state, "add_island", tiles=4, name="North")
    assert state["table"]["islands"][0]["complete"] is False
    state = event(state, "update_island", island=0, complete=True)
    state = event(state, "set_influence", island=0, player="Bo", vikings=2)
    state = event(state, "set_influence", island=0, player="Bo", outposts=1)
    state = event(state, "add_island", tiles=3, complete=True,
                  influence={"Ann": {"vikings": 1}})
    assert state["table"]["islands"][0]["influence"]["Bo"]["vikings"] == 2
    body = GAME.score_body(state)
    assert [i["tiles"] for i in body["islands"]] == [4, 3]
    result = GAME.score(body, state["catalogue"])
    assert result["islands"][0]["influence"] == {"Ann": 0, "Bo": 4}
    assert result["islands"][0]["name"] == "North"
    assert [p["categories"]["islands"] for p in result["players"]] == [3, 4]
    state = event(state, "remove_island", island=0)
    assert [i["tiles"] for i in state["table"]["islands"]] == [3]


def test_bad_island_events_change_nothing():
    state = new_play(2)
    refused(state, "update_island", "data.island", 422, island=0, tiles=3)
    refused(state, "add_island", "data.tiles", tiles=0)
    refused(state, "add_island", "data.shape", tiles=3, shape="round")
    refused(state, "add_island", "data.influence.Zed", 422, tiles=3,
            influence={"Zed": {"vikings": 1}})
    refused(state, "add_island", "data.unraided_fortress", 422, tiles=3,
            unraided_fortress=True)
    state = event(state, "add_island", tiles=3, influence={"Ann": {"vikings": 6}})
    refused(state, "update_island", "data.island", 422, island=1, tiles=3)   # not on the table
    refused(state, "update_island", "data.island", island=60, tiles=3)       # never a table's
    refused(state, "set_influence", "data.player", 422, island=0, player="Zed", vikings=1)
    refused(state, "set_influence", "data.player", island=0, player=7, vikings=1)
    refused(state, "set_influence", "data.vikings", island=0, player="Ann", vikings=-1)
    refused(state, "set_influence", "data.mill", 422, island=0, player="Ann", mill=1)
    refused(state, "add_island", "data.influence.Ann.vikings", 422, tiles=2,
            influence={"Ann": {"vikings": 2}})
    event(state, "add_island", tiles=2, influence={"Ann": {"vikings": 1}})
    refused(state, "remove_island", "data.island", island="first")
    refused(state, "bogus", "type")


def test_set_influence_over_the_box_names_the_data_field():
    state = new_play(2)
    state = event(state, "add_island", tiles=3, influence={"Ann": {"vikings": 5}})
    state = event(state, "add_island", tiles=3)
    refused(state, "set_influence", "data.vikings", 422, island=1, player="Ann", vikings=3)


def test_structures_and_fortresses_in_a_rocks_of_ruin_play():
    state = new_play(2, rocks_of_ruin=True)
    state = event(state, "add_island", tiles=5, complete=True, unraided_fortress=True)
    state = event(state, "set_influence", island=0, player="Ann", barracks=True, vikings=1)
    result = GAME.score(GAME.score_body(state), state["catalogue"])
    assert result["islands"][0]["influence"]["Ann"] == 3
    assert result["islands"][0]["controllers"] == []
    state = event(state, "update_island", island=0, unraided_fortress=False)
    result = GAME.score(GAME.score_body(state), state["catalogue"])
    assert result["islands"][0]["controllers"] == ["Ann"]


def test_keep_captain_takes_one_of_the_two_dealt():
    state = new_play(2)
    a, b = state["setup"]["captains"]["Ann"]
    state = event(state, "keep_captain", player="Ann", captain=b)
    assert state["sheets"]["Ann"]["captain"] == b
    other = state["setup"]["captains"]["Bo"][0]
    refused(state, "keep_captain", "data.captain", 422, player="Ann", captain=other)
    refused(state, "keep_captain", "data.player", 422, player="Zed", captain=a)
    refused(state, "keep_captain", "data.captain", player="Ann", captain=None)
    solo = new_play(1)
    refused(solo, "keep_captain", "data.captain", 422, player="Ann",
            captain=solo["setup"]["captains"]["Ann"][0])


def test_a_solo_play_scores_the_two_dealt_captains():
    state = new_play(1, seed=11)
    body = GAME.score_body(state)
    dealt = state["setup"]["captains"]["Ann"]
    assert [body["players"][0]["sheet"][k] for k in ("captain", "captain_2")] == dealt
    result = GAME.score(body, state["catalogue"])
    assert all(name in result["players"][0]["explanations"]["captain"] for name in dealt)
    state = event(state, "sheet", player="Ann", fields={"captain": dealt[1]})
    sheet = GAME.score_body(state)["players"][0]["sheet"]
    assert (sheet["captain"], sheet["captain_2"]) == (dealt[1], dealt[0])


def test_a_play_is_a_deterministic_replay():
    events = [("turn", {}), ("add_island", {"tiles": 3}), ("turn", {}),
              ("set_influence", {"island": 0, "player": "Cy", "vikings": 2})]

    def run():
        state = new_play(3, seed=21)
        for type_, data in events:
            state = event(state, type_, **data)
        return state
    assert run() == run()
    assert run()["table"]["islands"][0]["influence"]["Cy"] == {
        "vikings": 2, "outposts": 0, "mill": 0, "workshop": 0, "barracks": 0}


# --------------------------------------------------------------------------- a sheet's captain
def test_a_sheet_cannot_name_a_captain_dealt_to_another_player():
    """Rocks of Ruin setup 5: "Shuffle the additional 2 Captain Cards in with the original 11
    before dealing 2 to each player. Players still only choose 1 to keep." A score sheet
    naming a captain dealt to someone else is refused as the keep_captain event refuses it:
    a 422 ``not_dealt`` on the captain row, naming who holds it; nothing changes."""
    state = new_play(3)
    ann, bo = state["setup"]["captains"]["Ann"], state["setup"]["captains"]["Bo"]
    for kind, data, field in (
            ("sheet", {"player": "Ann", "fields": {"captain": bo[0]}}, "data.fields.captain"),
            ("keep_captain", {"player": "Ann", "captain": bo[0]}, "data.captain")):
        with pytest.raises(RuleError) as err:
            apply_event(state, {"type": kind, "data": data})
        assert (err.value.status, err.value.code, err.value.field) == (422, "not_dealt", field)
        assert "dealt to Bo" in err.value.message
    undealt = next(c for c in BASE_CAPTAINS if all(c not in pair for pair in
                                                   state["setup"]["captains"].values()))
    with pytest.raises(RuleError) as err:
        event(state, "sheet", player="Ann", fields={"captain": undealt})
    assert (err.value.status, err.value.code) == (422, "not_dealt")
    kept = event(state, "sheet", player="Ann", fields={"captain": " " + ann[1].upper()})
    assert kept["sheets"]["Ann"]["captain"].strip().casefold() == ann[1].casefold()
    assert event(kept, "sheet", player="Ann", fields={"captain": ""})["sheets"]["Ann"][
        "captain"] is None                                  # a captain row cleared again


def test_a_solo_sheet_names_only_its_two_dealt_captains():
    state = new_play(1, seed=11)
    dealt = state["setup"]["captains"]["Ann"]
    other = next(c for c in BASE_CAPTAINS if c not in dealt and c not in ("Queen", "Scout"))
    for key in ("captain", "captain_2"):
        with pytest.raises(RuleError) as err:
            event(state, "sheet", player="Ann", fields={key: other})
        assert (err.value.code, err.value.field) == ("not_dealt", f"data.fields.{key}")
    state = event(state, "sheet", player="Ann", fields={"captain": dealt[1],
                                                        "captain_2": dealt[0]})
    assert GAME.score_body(state)["players"][0]["sheet"]["captain"] == dealt[1]


def test_a_play_recorded_with_a_captain_of_another_player_still_opens():
    """A replay of recorded events does not ask (a play stored before this check still opens;
    its score names the duplicate captain)."""
    from companion.plays import replay
    state = new_play(2)
    bo = state["setup"]["captains"]["Bo"][0]
    recorded = [{"type": "sheet", "data": {"player": "Ann", "fields": {"captain": bo}}}]
    assert replay(state, recorded)["sheets"]["Ann"]["captain"] == bo


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), pick=st.integers(0, 7))
def test_a_sheet_captain_is_taken_exactly_when_keep_captain_takes_it(seed, players, pick):
    """Property: the sheet and the keep_captain event take and refuse the same captains."""
    state = new_play(players, seed=seed)
    every = [c for pair in state["setup"]["captains"].values() for c in pair]
    captain = every[pick % len(every)]
    outcomes = []
    for kind, data in (("sheet", {"player": "Ann", "fields": {"captain": captain}}),
                       ("keep_captain", {"player": "Ann", "captain": captain})):
        try:
            outcomes.append(apply_event(state, {"type": kind, "data": data})["sheets"]["Ann"][
                "captain"])
        except RuleError as err:
            outcomes.append(err.code)
    assert outcomes[0] == outcomes[1]
    assert (outcomes[0] == captain) == (captain in state["setup"]["captains"]["Ann"])
