"""Reavers of Midgard: setup, pawn placement, cleanup territory glory, final glory rows."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.errors import RuleError
from companion.games.protocol import make_rng
from companion.games.reavers import GAME
from companion.games.reavers.scoring import spoils_sets, tapestry_glory, wall_places
from companion.games.reavers.table import LOCATIONS
from companion.plays import apply_event, new_state, score_of

NAMES = ["Ann", "Bo", "Cy", "Di"]
SCHEDULE = {"Treasure": [1, 3, 6], "Art": [2, 4], "Armor": [1, 2, 4, 8]}
ROWS = ["glory", "artifacts", "favor", "keep_spoils", "tapestries", "walls", "prophecies"]


def setup_for(players, seed=1, options=None, catalogue=None):
    return GAME.setup(players, GAME.parse_options(options or {}), make_rng(seed), catalogue or {})


def seed_with_start(players, start):
    return next(s for s in range(500) if setup_for(players, s)["start_player"] == start)


def score(sheets, options=None, catalogue=None):
    body = {"players": [{"name": n, "sheet": s} for n, s in zip(NAMES, sheets, strict=False)],
            "options": {"wall_majority": [5, 2], "keep_spoils_schedule": SCHEDULE,
                        **(options or {})}}
    return GAME.score(body, catalogue or {})


def categories(result, row):
    return [p["categories"][row] for p in result["players"]]


def rule_error(call, *args, **kwargs) -> RuleError:
    with pytest.raises(RuleError) as err:
        call(*args, **kwargs)
    return err.value


def new_play(players, start=None, options=None):
    """A play's initial state as companion.plays builds it."""
    seed = seed_with_start(players, start) if start else 7
    return new_state("reavers", list(players), options or {}, seed, {})


def play(state, kind, **data):
    """An event through companion.plays (common events, box values and the game's own)."""
    return apply_event(state, {"type": kind, "data": data})


def event(state, kind, **data):
    return apply_event(state, {"type": kind, "data": data})


def advance(state, times=1):
    """Advance ``times`` phases; an actions phase first gets its remaining pawns placed on
    free locations (cleanup waits for every pawn)."""
    for _ in range(times):
        state = place_remaining(state)
        state = apply_event(state, {"type": "advance"})
    return state


def place_remaining(state):
    while state["phase"] == "actions" and state["table"]["next_player"] is not None:
        taken = {p["location"] for p in state["table"]["placements"]}
        free = next(loc for loc in LOCATIONS   # Trade with Villages would move the marker
                    if loc not in taken and loc != "trade_with_villages")
        state = event(state, "place", location=free)
    return state


def place_all(state, locations):
    for location in locations:
        state = event(state, "place", location=location)
    return state


# --------------------------------------------------------------------------- setup
@pytest.mark.parametrize("count", [2, 3, 4])
def test_food_is_four_for_the_start_player_and_one_more_per_seat_clockwise(count):
    players = NAMES[:count]
    for start in players:
        setup = setup_for(players, seed_with_start(players, start))
        first = players.index(start)
        expected = {players[(first + k) % count]: 4 + k for k in range(count)}
        assert setup["food"] == expected


def test_food_example_with_the_third_seat_starting():
    setup = setup_for(NAMES, seed_with_start(NAMES, "Cy"))
    assert setup["food"] == {"Cy": 4, "Di": 5, "Ann": 6, "Bo": 7}


@pytest.mark.parametrize("count,pawns", [(2, 2), (3, 1), (4, 1)])
def test_pawns_by_player_count(count, pawns):
    setup = setup_for(NAMES[:count])
    assert setup["pawns"] == {n: pawns for n in NAMES[:count]}


def test_honor_ship_goes_to_the_start_player_only_with_three_players():
    for seed in range(5):
        three = setup_for(NAMES[:3], seed)
        assert three["honor_ship"] == three["start_player"]
        assert setup_for(NAMES[:2], seed)["honor_ship"] is None
        assert setup_for(NAMES, seed)["honor_ship"] is None
    assert any("Honor Ship" in line for line in three["checklist"])
    assert not any("Honor Ship" in line for line in setup_for(NAMES)["checklist"])


def test_turn_order_of_the_first_round_is_four_pawns_clockwise_from_the_start_player():
    assert setup_for(NAMES[:2], seed_with_start(NAMES[:2], "Bo"))["turn_order"] == [
        "Bo", "Ann", "Bo", "Ann"]
    assert setup_for(NAMES[:3], seed_with_start(NAMES[:3], "Bo"))["turn_order"] == [
        "Bo", "Cy", "Ann", "Bo"]
    assert setup_for(NAMES, seed_with_start(NAMES, "Di"))["turn_order"] == [
        "Di", "Ann", "Bo", "Cy"]


def test_round_track_locations_board_side_and_checklist():
    setup = setup_for(NAMES[:2])
    assert setup["rounds"] == 6 and setup["round_track"] == [1, 2, 3, 4, 5, 6]
    assert setup["actions_per_round"] == 4
    assert [loc["name"] for loc in setup["locations"]] == [
        "Recruit Reavers", "Trade with Villages", "Raid Villages", "Raid Keeps",
        "Conquer Territories", "Battle at Sea"]
    assert setup["board_side"] == "2 players"
    assert setup_for(NAMES)["board_side"] == "3-4 players"
    food_line = next(line for line in setup["checklist"] if line.startswith("Food by seat"))
    assert all(f"{n} {f}" in food_line for n, f in setup["food"].items())
    assert all(isinstance(line, str) and line for line in setup["checklist"])


def test_setup_is_deterministic_and_varies_with_the_seed():
    assert setup_for(NAMES, "abc") == setup_for(NAMES, "abc")
    assert len({setup_for(NAMES, s)["start_player"] for s in range(40)}) == 4


def test_setup_rejects_wrong_player_counts_and_bad_box_options():
    assert rule_error(setup_for, ["Ann"]).status == 422
    assert rule_error(setup_for, NAMES + ["Eve"]).code == "wrong_player_count"
    err = rule_error(setup_for, NAMES, options={"wall_majority": [2]})
    assert err.field == "options.wall_majority"


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**40), count=st.integers(2, 4))
def test_any_setup_is_consistent(seed, count):
    players = NAMES[:count]
    setup = setup_for(players, seed)
    assert setup["start_player"] in players
    assert sorted(setup["food"].values()) == list(range(4, 4 + count))
    assert setup["food"][setup["start_player"]] == 4
    assert sum(setup["pawns"].values()) + (setup["honor_ship"] is not None) == 4
    assert len(setup["turn_order"]) == 4 and setup["turn_order"][0] == setup["start_player"]


# --------------------------------------------------------------------------- placing pawns
def test_two_players_alternate_two_pawns_each():
    state = new_play(NAMES[:2], start="Ann")
    assert state["table"]["next_player"] == "Ann"
    state = event(state, "place", player="Ann", location="raid_keeps")
    state = event(state, "place", player="Bo", location="raid_villages")
    state = event(state, "place", location="battle_at_sea")
    assert state["table"]["next_player"] == "Bo"
    state = event(state, "place", player="Bo", location="recruit_reavers")
    assert [p["player"] for p in state["table"]["placements"]] == ["Ann", "Bo", "Ann", "Bo"]
    assert state["table"]["next_player"] is None
    assert "advance to cleanup" in state["table"]["notices"][-1]


def test_only_the_next_pawn_may_be_placed():
    state = new_play(NAMES, start="Bo")
    err = rule_error(event, state, "place", player="Ann", location="raid_keeps")
    assert (err.field, err.status, err.code) == ("data.player", 422, "not_your_turn")
    err = rule_error(event, state, "place", player="Zed", location="raid_keeps")
    assert (err.field, err.status, err.code) == ("data.player", 422, "unknown_player")
    err = rule_error(event, state, "place", player=["Ann"], location="raid_keeps")
    assert (err.field, err.status) == ("data.player", 400)


def test_each_location_once_per_round_and_four_per_round():
    state = new_play(NAMES, start="Ann")
    state = event(state, "place", location="raid_keeps")
    err = rule_error(event, state, "place", location="raid_keeps")
    assert (err.field, err.status, err.code) == ("data.location", 422, "location_taken")
    state = place_all(state, ["raid_villages", "recruit_reavers", "battle_at_sea"])
    err = rule_error(event, state, "place", location="conquer_territories")
    assert (err.status, err.code) == (422, "no_pawns_left")


def test_bad_place_data_names_the_field():
    state = new_play(NAMES)
    assert rule_error(event, state, "place", location="tavern").field == "data.location"
    assert rule_error(event, state, "place").field == "data.location"
    err = rule_error(event, state, "place", location="raid_keeps", pawn=2)
    assert (err.field, err.code) == ("data.pawn", "unknown_field")
    assert rule_error(event, state, "dance").code == "unknown_event"


@pytest.mark.parametrize("count", [2, 3, 4])
def test_cleanup_waits_until_every_pawn_is_placed(count):
    """Rulebook: placing "is repeated until no player has Longship Pawns remaining. Then, all
    players proceed to the Clean Up phase"."""
    state = new_play(NAMES[:count], start=NAMES[0])
    order = state["table"]["turn_order"]
    for placed, location in enumerate(list(LOCATIONS)[:len(order)]):
        err = rule_error(event, state, "advance")
        left = len(order) - placed
        assert (err.status, err.code, err.field) == (422, "pawns_left", "type")
        assert f"{left} pawn" in err.message and f"{order[placed]} is next" in err.message
        state = event(state, "place", location=location)
    state = event(state, "advance")
    assert state["phase"] == "cleanup"


def test_no_placing_during_cleanup():
    state = advance(new_play(NAMES))
    err = rule_error(event, state, "place", location="raid_keeps")
    assert (err.status, err.code) == (422, "wrong_phase")


def test_three_players_use_the_honor_ship_as_a_fourth_pawn_passing_clockwise():
    state = new_play(NAMES[:3], start="Ann")
    assert state["table"]["turn_order"] == ["Ann", "Bo", "Cy", "Ann"]
    state = place_all(state, ["raid_keeps", "raid_villages", "recruit_reavers"])
    assert "Honor Ship" in state["table"]["notices"][-1]
    state = event(state, "place", player="Ann", location="battle_at_sea")
    assert [p["honor_ship"] for p in state["table"]["placements"]] == [False] * 3 + [True]
    state = advance(state)
    assert state["table"]["honor_ship"] == "Bo"
    state = advance(state)
    assert state["round"] == 2 and state["phase"] == "actions"
    assert state["table"]["turn_order"] == ["Ann", "Bo", "Cy", "Bo"]
    assert state["table"]["placements"] == []
    state = advance(state, 2)
    assert state["table"]["turn_order"] == ["Ann", "Bo", "Cy", "Cy"]
    state = advance(state, 2)
    assert state["table"]["honor_ship"] == "Ann"


def test_trade_with_villages_takes_the_start_player_marker_from_the_next_round():
    state = new_play(NAMES, start="Ann")
    state = place_all(state, ["raid_keeps", "trade_with_villages"])
    assert state["table"]["start_player"] == "Bo"
    assert state["table"]["next_player"] == "Cy"
    state = place_all(state, ["raid_villages", "recruit_reavers"])
    state = advance(state, 2)
    assert state["table"]["turn_order"] == ["Bo", "Cy", "Di", "Ann"]


def test_start_player_correction_event():
    state = event(new_play(NAMES, start="Ann"), "start_player", player="Di")
    assert state["table"]["turn_order"][0] == "Ann"
    state = advance(state, 2)
    assert state["table"]["turn_order"] == ["Di", "Ann", "Bo", "Cy"]
    assert rule_error(event, state, "start_player", player="Eve").field == "data.player"


# --------------------------------------------------------------------------- cleanup
def test_territory_glory_is_added_at_every_cleanup():
    state = event(new_play(NAMES[:2]), "territories", player="Ann", count=2)
    state = advance(state)
    assert state["phase"] == "cleanup"
    assert state["table"]["territory_glory"] == {"Ann": 2, "Bo": 0}
    state = advance(state)
    state = event(state, "territories", player="Ann", count=3)
    state = event(state, "territories", player="Bo", count=1)
    state = advance(state, 2)
    assert state["table"]["territory_glory"] == {"Ann": 5, "Bo": 1}
    assert [h["glory"] for h in state["table"]["history"]] == [
        {"Ann": 2, "Bo": 0}, {"Ann": 3, "Bo": 1}]
    assert state["table"]["history"][1]["round"] == 2


def test_correcting_territories_during_cleanup_rescores_that_round_once():
    state = advance(event(new_play(NAMES[:2]), "territories", player="Bo", count=1))
    state = event(state, "territories", player="Bo", count=4)
    state = event(state, "territories", player="Bo", count=2)
    assert state["table"]["territory_glory"]["Bo"] == 2
    assert len(state["table"]["history"]) == 1


def test_bad_territories_data_names_the_field():
    state = new_play(NAMES)
    assert rule_error(event, state, "territories", player="Ann", count=-1).field == "data.count"
    assert rule_error(event, state, "territories", player="Ann", count="x").field == "data.count"
    assert rule_error(event, state, "territories", player="Ann", count=101).field == "data.count"
    assert rule_error(event, state, "territories", count=1).field == "data.player"


def test_the_play_ends_after_the_sixth_round_with_six_cleanups():
    state = event(new_play(NAMES[:3]), "territories", player="Cy", count=1)
    state = advance(state, 11)
    assert (state["round"], state["phase"], state["finished"]) == (6, "cleanup", False)
    state = advance(state)
    assert state["finished"] and state["round"] == 6
    assert len(state["table"]["history"]) == 6
    assert state["table"]["territory_glory"]["Cy"] == 6


def test_score_body_adds_territory_glory_to_the_sheet():
    state = event(new_play(NAMES[:2]), "territories", player="Ann", count=2)
    state = advance(state, 3)
    state = play(state, "sheet", player="Ann", fields={"glory": 10, "favor": 1})
    body = GAME.score_body(state)      # every row of the sheets, those not typed empty
    assert {k: body["players"][0]["sheet"][k] for k in ("glory", "favor")} == {"glory": 14,
                                                                               "favor": 1}
    assert body["players"][1]["sheet"] == GAME.score_body(new_play(NAMES[:2]))["players"][1][
        "sheet"]
    assert body["players"][1]["sheet"]["glory"] == 0
    result = GAME.score(body, state["catalogue"])
    assert categories(result, "glory") == [14, 0]
    assert result["players"][0]["total"] == 16


# --------------------------------------------------------------------------- scoring rows
def test_simple_rows_glory_artifacts_favor_prophecies():
    result = score([{"glory": 31, "artifacts": [3, 2], "favor": 4, "prophecies": [5, 0, 7]}, {}])
    first = result["players"][0]
    assert list(first["categories"]) == ROWS
    assert first["categories"] == {"glory": 31, "artifacts": 5, "favor": 8, "keep_spoils": 0,
                                   "tapestries": 0, "walls": 0, "prophecies": 12}
    assert first["total"] == 56
    assert first["explanations"]["favor"] == "4 favor tokens at 2 glory each."
    assert result["winners"] == ["Ann"] and result["tiebreak"] is None


@pytest.mark.parametrize("count,glory", [(0, 0), (1, 1), (2, 3), (3, 6), (4, 7), (5, 9),
                                         (6, 12), (7, 13)])
def test_keep_spoils_sets_wrap_past_the_longest_step(count, glory):
    assert spoils_sets(count, [1, 3, 6])[0] == glory
    assert categories(score([{"keep_spoils": {"Treasure": count}}, {}]), "keep_spoils")[0] == glory


def test_keep_spoils_several_types_and_explanation():
    result = score([{"keep_spoils": {"Treasure": 5, "art": 3, "Armor": 0}}, {}])
    assert categories(result, "keep_spoils") == [9 + 4 + 2, 0]
    assert "Treasure 5 as sets of 3+2 = 9" in result["players"][0]["explanations"]["keep_spoils"]


def test_keep_spoils_options_win_over_the_catalogue_and_the_catalogue_fills_in():
    catalogue = {"keep_spoils_schedule": {"Treasure": [10], "Gems": [4, 9]}}
    result = score([{"keep_spoils": {"Treasure": 2, "gems": 2}}, {}], catalogue=catalogue)
    assert categories(result, "keep_spoils") == [3 + 9, 0]


def test_keep_spoils_type_without_schedule_counts_0_and_asks_for_it():
    result = score([{"keep_spoils": {"Runes": 2, "Treasure": 2}, "favor": 1},
                    {"keep_spoils": {"runes": 1}}])
    assert categories(result, "keep_spoils") == [3, 0]           # Treasure 2 = 3; Runes: 0
    ann, bo = result["players"]
    assert ann["unknown"] == ["keep_spoils"] and bo["unknown"] == ["keep_spoils"]
    assert [ann["total"], bo["total"]] == [5, 0] and result["winners"] == ["Ann"]
    assert result["complete"] is False
    (asked,) = result["missing"]                      # "Runes" and "runes": one question
    assert asked["key"] == "keep_spoils_schedule.Runes"
    assert "set of 1, 2, 3 … Runes cards" in asked["question"]
    none = score([{"keep_spoils": {"Runes": 0}}, {}])
    assert categories(none, "keep_spoils") == [0, 0] and none["complete"] is True


@pytest.mark.parametrize("counts,glory", [
    ({"Loom": 1, "Hunt": 1, "Ship": 1}, 15),
    ({"Loom": 2, "Hunt": 1, "Ship": 1}, 17),
    ({"Loom": 2, "Hunt": 2, "Ship": 2}, 30),
    ({"Loom": 3, "Hunt": 2, "Ship": 1}, 15 + 6),
    ({"Loom": 3}, 6),
    ({"Loom": 2, "Hunt": 2}, 8),
    ({"Loom": 1, "Hunt": 0, "Ship": 1}, 4),
    ({}, 0),
])
def test_tapestries_fifteen_per_set_of_three_different_two_for_each_other(counts, glory):
    assert categories(score([{"tapestries": counts}, {}]), "tapestries")[0] == glory


def test_more_than_three_tapestry_kinds_is_refused_on_the_field():
    """Tapestries score "a set of the 3 different Tapestries" (facts.md 4.1): a fourth kind
    cannot exist."""
    err = rule_error(score, [{}, {"tapestries": {"a": 1, "b": 1, "c": 1, "d": 1}}])
    assert (err.status, err.code, err.field) == (422, "impossible_sheet",
                                                 "players[1].sheet.tapestries")


def test_a_fifth_artifact_is_scored_with_a_note_as_the_rulebook_is_silent():
    """Rulebook: an Artifact goes "in one of the 4 available Artifact spaces on your Longship
    Player Board"; it does not say whether a fifth can be kept."""
    four = score([{"artifacts": [1, 2, 3, 4]}, {}])
    assert four["notes"] == [] and four["players"][0]["total"] == 10
    five = score([{"artifacts": [1, 2, 3, 4, 5]}, {}])
    assert five["players"][0]["total"] == 15
    assert len(five["notes"]) == 1 and "Ann has 5 artifacts" in five["notes"][0]
    assert "does not say" in five["notes"][0]


@pytest.mark.parametrize("rule,walls,glory", [
    ("share", [3, 2, 1], [5, 2, 0]),
    ("share", [3, 3, 1], [5, 5, 0]),
    ("share", [4, 2, 2], [5, 2, 2]),
    ("share", [2, 0, 0], [5, 0, 0]),
    ("share", [0, 0, 0], [0, 0, 0]),
    ("split", [3, 3, 1], [3, 3, 0]),
    ("split", [4, 2, 2], [5, 1, 1]),
    ("split", [1, 1, 1], [2, 2, 2]),
    ("split", [3, 2, 1], [5, 2, 0]),
])
def test_wall_majorities_and_their_tie_rules(rule, walls, glory):
    sheets = [{"walls": w} for w in walls]
    result = score(sheets, {"wall_ties": rule})
    assert categories(result, "walls") == glory
    assert result["wall_majority"] == [5, 2]


def test_wall_explanations_state_the_tie_rule():
    result = score([{"walls": 3}, {"walls": 3}, {"walls": 0}])
    text = result["players"][0]["explanations"]["walls"]
    assert "most, tied with Bo" in text and "Tie rule 'share'" in text
    assert result["players"][2]["explanations"]["walls"] == "No wall tokens."
    assert "no second place" in result["wall_tie_rule"]


def test_wall_majority_comes_from_the_catalogue_and_is_asked_for_when_missing():
    body = {"players": [{"name": "Ann", "sheet": {"walls": 2}}, {"name": "Bo", "sheet": {}}]}
    assert categories(GAME.score(body, {"wall_majority": [6, 3]}), "walls") == [6, 0]
    unknown = GAME.score(body, {})
    assert categories(unknown, "walls") == [0, 0] and unknown["complete"] is False
    assert [m["key"] for m in unknown["missing"]] == ["wall_majority.most"]   # nobody 2nd
    assert unknown["players"][0]["unknown"] == ["walls"]
    assert "not known yet" in unknown["players"][0]["explanations"]["walls"]
    body["players"][1]["sheet"]["walls"] = 1
    both = GAME.score(body, {})
    assert [m["key"] for m in both["missing"]] == ["wall_majority.most", "wall_majority.second"]
    half = GAME.score(body, {"wall_majority": [6, None]})
    assert categories(half, "walls") == [6, 0]
    assert [m["key"] for m in half["missing"]] == ["wall_majority.second"]
    body["players"][0]["sheet"]["walls"] = body["players"][1]["sheet"]["walls"] = 0
    assert GAME.score(body, {})["complete"] is True


def test_answers_in_a_play_complete_the_score_and_can_be_saved_as_box_data():
    state = new_play(["Ann", "Bo"])
    state = play(state, "sheet", player="Ann", fields={"walls": 2, "keep_spoils": {"Art": 3}})
    state = play(state, "finish")
    assert score_of(state)["complete"] is False
    state = play(state, "box_value", key="wall_majority.most", value=5)
    state = play(state, "box_value", key="keep_spoils_schedule.Art", value="2 4")
    result = score_of(state)
    assert result["complete"] is True and categories(result, "walls") == [5, 0]
    assert categories(result, "keep_spoils") == [4 + 2, 0]      # a set of 2, then of 1
    box = GAME.with_box_values({}, state["box_values"])
    assert box == {"keep_spoils_schedule": {"Art": [2, 4]}, "wall_majority": [5, None]}
    with pytest.raises(RuleError):
        play(state, "box_value", key="keep_spoils_schedule.Art", value="2 x")
    with pytest.raises(RuleError):
        play(state, "box_value", key="tapestry", value=3)


def test_equal_totals_share_the_win():
    result = score([{"glory": 20}, {"favor": 10}, {"glory": 3}])
    assert result["winners"] == ["Ann", "Bo"]
    assert [p["rank"] for p in result["players"]] == [1, 1, 3]
    assert "shared win" in result["tiebreak"]


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("sheet,field", [
    ({"gold": 1}, "players[0].sheet.gold"),
    ({"favor": -1}, "players[0].sheet.favor"),
    ({"walls": 10_001}, "players[0].sheet.walls"),
    ({"artifacts": [2, "x"]}, "players[0].sheet.artifacts[1]"),
    ({"keep_spoils": {"Treasure": -2}}, "players[0].sheet.keep_spoils.Treasure"),
    ({"tapestries": [1]}, "players[0].sheet.tapestries"),
])
def test_bad_sheet_values_are_400_naming_the_field(sheet, field):
    err = rule_error(score, [sheet, {}])
    assert (err.status, err.field) == (400, field)


def test_bad_requests_name_the_field():
    assert rule_error(score, [{}]).status == 422
    assert rule_error(score, [{}, {}], {"wall_ties": "coin"}).field == "options.wall_ties"
    assert rule_error(score, [{}, {}], {"bonus": 1}).field == "options.bonus"
    err = rule_error(score, [{}, {}], {"keep_spoils_schedule": {"Art": []}})
    assert err.field == "options.keep_spoils_schedule.Art"
    err = rule_error(GAME.score, {"players": [], "islands": []}, {})
    assert err.field == "islands"


# --------------------------------------------------------------------------- catalogue
def test_catalogue_round_trip_and_empty():
    assert GAME.validate_catalogue(GAME.empty_catalogue()) == GAME.empty_catalogue()
    assert GAME.validate_catalogue({}) == GAME.empty_catalogue()
    data = {"keep_spoils_schedule": {" Treasure ": [1, 3.0, 6]}, "wall_majority": [5, 2]}
    assert GAME.validate_catalogue(data) == {"keep_spoils_schedule": {"Treasure": [1, 3, 6]},
                                             "wall_majority": [5, 2]}


@pytest.mark.parametrize("data,field", [
    ({"track_vp": {}}, "track_vp"),
    ({"keep_spoils_schedule": [1, 2]}, "keep_spoils_schedule"),
    ({"keep_spoils_schedule": {"Art": []}}, "keep_spoils_schedule.Art"),
    ({"keep_spoils_schedule": {"Art": 3}}, "keep_spoils_schedule.Art"),
    ({"keep_spoils_schedule": {"Art": [1, -1]}}, "keep_spoils_schedule.Art[1]"),
    ({"keep_spoils_schedule": {"Art": [1, 2.5]}}, "keep_spoils_schedule.Art[1]"),
    ({"keep_spoils_schedule": {"Art": [1, "3"]}}, "keep_spoils_schedule.Art[1]"),
    ({"keep_spoils_schedule": {"": [1]}}, 'keep_spoils_schedule[""]'),
    ({"keep_spoils_schedule": {"Art": list(range(21))}}, "keep_spoils_schedule.Art"),
    ({"wall_majority": [5]}, "wall_majority"),
    ({"wall_majority": "5,2"}, "wall_majority"),
    ({"wall_majority": [5, True]}, "wall_majority[1]"),
])
def test_catalogue_validation_names_the_bad_entry(data, field):
    err = rule_error(GAME.validate_catalogue, data)
    assert (err.status, err.field) == (400, field)


def test_catalogue_must_be_an_object():
    assert rule_error(GAME.validate_catalogue, [1]).status == 400


# --------------------------------------------------------------------------- properties
@settings(max_examples=100, deadline=None)
@given(schedule=st.lists(st.integers(0, 50), min_size=1, max_size=6),
       count=st.integers(0, 40))
def test_a_full_extra_set_adds_exactly_the_top_step(schedule, count):
    base, sizes = spoils_sets(count, schedule)
    more, _ = spoils_sets(count + len(schedule), schedule)
    assert more - base == schedule[-1]
    assert sum(sizes) == count and all(1 <= s <= len(schedule) for s in sizes)


@settings(max_examples=100, deadline=None)
@given(counts=st.lists(st.integers(0, 12), min_size=3, max_size=3))
def test_one_more_of_each_tapestry_adds_a_set(counts):
    held = dict(zip("abc", counts, strict=True))
    before = tapestry_glory(held, "t")[0]
    after = tapestry_glory({k: v + 1 for k, v in held.items()}, "t")[0]
    assert after - before == 15
    assert before >= 2 * sum(counts) and before <= 5 * sum(counts)


@settings(max_examples=100, deadline=None)
@given(walls=st.lists(st.integers(0, 6), min_size=2, max_size=4),
       rule=st.sampled_from(["share", "split"]))
def test_more_walls_never_score_less(walls, rule):
    awards = wall_places(walls, [5, 2], rule)
    for i, a in enumerate(awards):
        for j, b in enumerate(awards):
            if walls[i] > walls[j]:
                assert a["glory"] >= b["glory"]
        assert (a["place"] is None) == (walls[i] == 0)


def test_box_data_refusals_no_schema_can_say_have_their_own_codes():
    """A spoils type listed twice (ignoring case and spaces) and a second place worth more
    than the first: rules across entries of a body of the right shape, a 422 each with its
    code (the field to blame named)."""
    def code_of(data):
        with pytest.raises(RuleError) as err:
            GAME.validate_catalogue(data)
        return err.value.status, err.value.code

    assert code_of({"keep_spoils_schedule": {"Art": [1], " art": [2]}}) == (422, "duplicate_entry")
    assert code_of({"keep_spoils_schedule": {"Art": [1], "ART": [2]}}) == (422, "duplicate_entry")
    assert code_of({"wall_majority": [2, 5]}) == (422, "second_above_most")
    assert rule_error(GAME.validate_catalogue, {"wall_majority": [2, 5]}).field == \
        "wall_majority[1]"
    assert code_of({"wall_majority": [2, 10_001]})[1] == "invalid_input"
