"""Catan: Seafarers (1997): the score sheet, the live board of a play, the SVG board."""
import math
import random
import xml.etree.ElementTree as ET

import pytest

from companion.games.errors import RuleError
from companion.games.seafarers import GAME
from companion.games.seafarers import hexgrid as hg
from companion.games.seafarers.scenarios import PRODUCING, SCENARIOS
from companion.games.seafarers.svg import SIZE, corner_point, dock_points, render
from companion.plays import apply_event
from companion.plays import new_state as new_play_state

NAMES = ["Ann", "Bo", "Cy", "Di"]
SVG = "{http://www.w3.org/2000/svg}"


def body(sheets, scenario="four_islands", **extra):
    return {"players": [{"name": n, "sheet": s} for n, s in zip(NAMES, sheets, strict=False)],
            "options": {"scenario": scenario}, **extra}


def new_state(scenario, players=4, seed=1):
    """A play's initial state, made as every new play is (companion.plays.new_state)."""
    return new_play_state("seafarers", NAMES[:players], {"scenario": scenario,
                                                         "layout": "variable"}, seed, {})


def play(state, kind, **data):
    """The state after an event, through companion.plays (the input is never changed)."""
    return apply_event(state, {"type": kind, "data": data})


def at(state, q, r):
    return next(h for h in state["table"]["hexes"] if (h["q"], h["r"]) == (q, r))


# --------------------------------------------------------------------------- scoring
def test_each_sheet_row_scores_its_vp():
    sheets = [{"settlements": 3, "cities": 2, "longest_route": True, "vp_cards": 1,
               "special_vp": 1},
              {"settlements": 1}, {"cities": 1}, {"largest_army": True}]
    result = GAME.score(body(sheets), {})
    ann = result["players"][0]
    assert ann["categories"] == {"settlements": 3, "cities": 4, "longest_route": 2,
                                 "largest_army": 0, "vp_cards": 1, "special_vp": 1}
    assert ann["total"] == 11 and ann["rank"] == 1
    assert [p["total"] for p in result["players"]] == [11, 1, 2, 2]
    assert [p["rank"] for p in result["players"]] == [1, 4, 2, 2]
    assert ann["explanations"]["cities"] == "2 x 2 VP"
    assert result["winners"] == ["Ann"] and result["tiebreak"] is None


def test_target_is_the_scenarios_and_reaching_it_is_reported():
    sheets = [{"settlements": 5, "cities": 4}, {"settlements": 2}, {"settlements": 2}]
    assert GAME.score(body(sheets, "four_islands"), {})["reached_target"] == ["Ann"]
    result = GAME.score(body(sheets, "new_shores"), {})
    assert result["target_vp"] == 13 and result["reached_target"] == ["Ann"]
    sheets[0] = {"settlements": 4, "cities": 4}     # 12 VP: short of New Shores' 13
    assert GAME.score(body(sheets, "new_shores"), {})["reached_target"] == []
    catan = [{"settlements": 5, "cities": 7}] + [{}] * 3
    result = GAME.score(body(catan, "greater_catan"), {})
    assert result["target_vp"] == 18 and result["reached_target"] == ["Ann"]


def test_equal_totals_share_the_win():
    result = GAME.score(body([{"settlements": 2}, {"cities": 1}, {"vp_cards": 1}]), {})
    assert result["winners"] == ["Ann", "Bo"]
    assert "shared win" in result["tiebreak"]


@pytest.mark.parametrize("sheet,field", [
    ({"castles": 1}, "players[0].sheet.castles"),
    ({"settlements": -1}, "players[0].sheet.settlements"),
    ({"settlements": 6}, "players[0].sheet.settlements"),
    ({"special_vp": 10_001}, "players[0].sheet.special_vp"),
    ({"longest_route": "maybe"}, "players[0].sheet.longest_route"),
])
def test_bad_sheets_are_400_naming_the_field(sheet, field):
    with pytest.raises(RuleError) as err:
        GAME.score(body([sheet, {}, {}]), {})
    assert (err.value.status, err.value.field) == (400, field)


def test_bad_requests_name_the_field():
    with pytest.raises(RuleError) as err:
        GAME.score(body([{}, {}, {}], "great_crossing"), {})
    assert (err.value.status, err.value.field) == (422, "players")
    with pytest.raises(RuleError) as err:
        GAME.score(body([{}, {}, {}], extra_field=1), {})
    assert err.value.field == "extra_field"
    with pytest.raises(RuleError) as err:
        GAME.score(body([{}, {}, {}], "atlantis"), {})
    assert err.value.field == "options.scenario"


# --------------------------------------------------------------------------- a play
def test_oceans_discovery_reveals_the_stacks_in_order():
    state = new_state("oceans", 3, seed=4)
    stacks = state["setup"]["stacks"]
    hidden = [h for h in state["table"]["hexes"] if h["hidden"]]
    numbers = list(stacks["numbers"])
    for i, spot in enumerate(hidden):
        state = play(state, "discover", q=spot["q"], r=spot["r"])
        tile = at(state, spot["q"], spot["r"])
        assert tile["terrain"] == stacks["tiles"][i] and not tile["hidden"]
        if tile["terrain"] in PRODUCING:
            assert tile["number"] == numbers.pop(0)
        else:
            assert tile["number"] is None
    assert numbers == [] and state["table"]["stacks"] == {"tiles": [], "numbers": []}
    assert len(state["table"]["notices"]) == len(hidden)
    assert state["setup"]["stacks"] == stacks            # the setup itself never changes


def test_discovered_wasteland_takes_no_chip():
    """Discover face-down tiles in turn: a desert takes no chip (the next chip stays on the
    stack for the next producing tile), a forest takes the next chip and gives one lumber."""
    def desert_then_forest(state):
        tiles = state["table"]["stacks"]["tiles"]
        return "desert" in tiles and "forest" in tiles[tiles.index("desert"):]

    state = next(s for s in (new_state("oceans", 4, seed=n) for n in range(100))
                 if desert_then_forest(s))
    tiles = state["table"]["stacks"]["tiles"]
    desert, forest = tiles.index("desert"), tiles.index("forest", tiles.index("desert"))
    hidden = [h for h in state["table"]["hexes"] if h["hidden"]]
    for spot in hidden[:desert + 1]:
        state = play(state, "discover", q=spot["q"], r=spot["r"])
    chips = list(state["table"]["stacks"]["numbers"])
    assert at(state, hidden[desert]["q"], hidden[desert]["r"])["terrain"] == "desert"
    assert at(state, hidden[desert]["q"], hidden[desert]["r"])["number"] is None
    for spot in hidden[desert + 1:forest + 1]:
        state = play(state, "discover", q=spot["q"], r=spot["r"])
    found = at(state, hidden[forest]["q"], hidden[forest]["r"])
    taken = [at(state, h["q"], h["r"])["number"] for h in hidden[desert + 1:forest + 1]]
    assert found["terrain"] == "forest" and found["number"] == taken[-1]
    assert [n for n in taken if n is not None] == chips[:len([n for n in taken if n])]
    assert "takes one lumber" in state["table"]["notices"][-1]


def test_discover_rejects_what_it_cannot_reveal():
    state = new_state("oceans", 3)
    face_up = next(h for h in state["table"]["hexes"] if not h["hidden"])
    hidden = next(h for h in state["table"]["hexes"] if h["hidden"])
    cases = [({"q": face_up["q"], "r": face_up["r"]}, 422, "data.q"),
             ({"q": 99, "r": 99}, 422, "data.q"),
             ({"q": "1", "r": 0}, 400, "data.q"),
             ({"q": hidden["q"]}, 400, "data.r"),
             ({"q": hidden["q"], "r": hidden["r"], "x": 1}, 400, "data.x")]
    for data, status, field in cases:
        with pytest.raises(RuleError) as err:
            apply_event(state, {"type": "discover", "data": data})
        assert (err.value.status, err.value.field) == (status, field), data
    with pytest.raises(RuleError) as err:
        play(new_state("four_islands"), "discover", q=0, r=0)
    assert err.value.status == 422
    with pytest.raises(RuleError) as err:
        play(state, "teleport")
    assert err.value.code == "unknown_event"


def small_islands(state):
    cells = SCENARIOS["greater_catan"].layout(4).cells
    return [h for h in state["table"]["hexes"] if cells[(h["q"], h["r"])] == "L"]


def test_greater_catan_draws_from_the_bag_then_moves_chips():
    state = new_state("greater_catan", 4, seed=6)
    bag = list(state["setup"]["stacks"]["numbers"])
    islands = small_islands(state)
    for spot, number in zip(islands, bag, strict=False):
        state = play(state, "discover", q=spot["q"], r=spot["r"])
        assert at(state, spot["q"], spot["r"])["number"] == number
    with pytest.raises(RuleError) as err:            # already has a chip
        play(state, "discover", q=islands[0]["q"], r=islands[0]["r"])
    assert err.value.code == "has_number"
    empty = islands[len(bag)]
    with pytest.raises(RuleError) as err:
        play(state, "discover", q=empty["q"], r=empty["r"])
    assert err.value.code == "bag_empty" and "move_chip" in err.value.message
    source = next(h for h in state["table"]["hexes"] if h["number"] and h not in islands
                  and SCENARIOS["greater_catan"].layout(4).cells[(h["q"], h["r"])] == "M")
    moved = play(state, "move_chip", from_q=source["q"], from_r=source["r"], q=empty["q"],
                 r=empty["r"])
    assert at(moved, empty["q"], empty["r"])["number"] == source["number"]
    assert at(moved, source["q"], source["r"])["number"] is None


def test_move_chip_is_checked():
    state = new_state("greater_catan", 4, seed=6)
    island = small_islands(state)[0]
    main = next(h for h in state["table"]["hexes"] if h["number"])
    with pytest.raises(RuleError) as err:
        play(state, "move_chip", from_q=main["q"], from_r=main["r"], q=island["q"],
             r=island["r"])
    assert err.value.code == "bag_not_empty"
    for spot in small_islands(state)[:len(state["table"]["stacks"]["numbers"])]:
        state = play(state, "discover", q=spot["q"], r=spot["r"])      # the bag runs empty
    assert state["table"]["stacks"]["numbers"] == []
    with pytest.raises(RuleError) as err:            # the source must be a main-island chip
        play(state, "move_chip", from_q=island["q"], from_r=island["r"], q=island["q"],
             r=island["r"])
    assert err.value.field == "data.from_q"
    sea = next(h for h in state["table"]["hexes"] if h["terrain"] == "sea")
    with pytest.raises(RuleError) as err:            # the target must be a small island
        play(state, "move_chip", from_q=main["q"], from_r=main["r"], q=sea["q"], r=sea["r"])
    assert err.value.field == "data.q"
    with pytest.raises(RuleError):
        play(new_state("oceans"), "move_chip", from_q=0, from_r=0, q=0, r=0)


def test_a_play_recorded_before_turns_were_kept_still_counts_rounds():
    """A play whose stored initial state has no turn (made before the race was kept turn by
    turn) replays as it was recorded: an advance is a round, and the advance after someone
    reached the target ends it. (New plays: tests/unit/test_seafarers_race.py.)"""
    state = new_state("four_islands", 3)
    state["table"] = {k: v for k, v in state["table"].items()
                      if k not in ("current_player", "turn")}
    state = play(state, "advance")
    assert state["round"] == 2 and not state["finished"]
    state = play(state, "sheet", player="Bo", fields={"settlements": 4, "cities": 4})
    assert not state["finished"]
    state = play(state, "advance")
    assert state["finished"] and state["round"] == 2
    assert "Bo reached 12" in state["table"]["notices"][-1]


# --------------------------------------------------------------------------- SVG
@pytest.mark.parametrize("scenario,players", [("oceans", 4), ("new_world", 3),
                                              ("greater_catan", 4)])
def test_svg_is_plain_scalable_and_complete(scenario, players):
    setup = GAME.setup(NAMES[:players], GAME.parse_options({"scenario": scenario,
                                                            "layout": "variable"}),
                       random.Random(9), {})
    svg = render(setup)
    root = ET.fromstring(svg)
    assert root.get("viewBox") and root.get("role") == "img" and root.get("aria-label")
    assert root.find(f"{SVG}title").text.startswith(setup["scenario_name"])
    assert len(root.findall(f".//{SVG}polygon")) == len(setup["hexes"])
    assert "<script" not in svg and "http://" not in svg.replace(
        'xmlns="http://www.w3.org/2000/svg"', "")
    texts = [t.text for t in root.iter(f"{SVG}text")]
    numbers = [h["number"] for h in setup["hexes"] if h["number"]]
    assert sorted(int(t) for t in texts if t.isdigit()) == sorted(numbers)
    assert texts.count("3:1") == setup["material"]["harbours"]["3:1"]
    assert texts.count("2:1") == 5
    assert texts.count("?") == sum(h["hidden"] for h in setup["hexes"])
    red = [t for t in root.iter(f"{SVG}text") if t.text in ("6", "8")]
    assert red and all(t.get("fill") == "#c0392b" for t in red)


def test_svg_escapes_text_and_draws_pips():
    setup = {"scenario_name": '<script>alert("x")</script>',
             "hexes": [{"q": 0, "r": 0, "terrain": "forest", "number": 6, "hidden": False}],
             "harbours": []}
    svg = render(setup)
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    root = ET.fromstring(svg)
    assert len([c for c in root.iter(f"{SVG}circle") if c.get("r") == "1.3"]) == 5
    assert ET.fromstring(render({"hexes": []})).get("viewBox")


def test_harbour_docks_sit_on_the_coast_they_serve():
    for facing in range(6):
        sea, land = (0, 0), hg.step((0, 0), facing)
        for x, y in dock_points(*sea, facing):
            for hex_ in (sea, land):
                centre = hg.pixel(hex_, SIZE)
                corners = [corner_point(centre, i) for i in range(6)]
                assert min(math.dist((x, y), c) for c in corners) < 1e-6
