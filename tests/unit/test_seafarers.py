"""Catan: Seafarers (1997): scenario data and board generation."""
import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.errors import RuleError
from companion.games.seafarers import GAME
from companion.games.seafarers import hexgrid as hg
from companion.games.seafarers.generator import Fairness, Search, blame, generate
from companion.games.seafarers.scenarios import (
    HARBOUR_CODES,
    LAND,
    PIPS,
    PRODUCING,
    RED,
    SCENARIOS,
    SEA_SYMBOLS,
)

NAMES = ["Ann", "Bo", "Cy", "Di"]
CASES = [(sid, n) for sid, sc in SCENARIOS.items() for n in sc.player_counts]
SEEDS = st.integers(min_value=0, max_value=2**32)


def make(scenario, players, seed=1, **options):
    """The app's own shuffled board (the "as shown" scenarios' book layout is tested in
    test_seafarers_book)."""
    opts = GAME.parse_options({"scenario": scenario, "layout": "variable", **options})
    return GAME.setup(NAMES[:players], opts, random.Random(seed), {})


def by_position(setup):
    return {(h["q"], h["r"]): h for h in setup["hexes"]}


def check_material(setup):
    """The board holds exactly the material the setup's rulebook list names."""
    material = setup["material"]
    face_up = [h for h in setup["hexes"] if not h["hidden"]]
    assert Counter(h["terrain"] for h in face_up) == Counter(material["tiles"])
    numbers = Counter(str(h["number"]) for h in face_up if h["number"] is not None)
    assert numbers == Counter(material["numbers"])
    assert Counter(h["type"] for h in setup["harbours"]) == Counter(material["harbours"])
    hidden = [h for h in setup["hexes"] if h["hidden"]]
    assert all(h["terrain"] is None and h["number"] is None for h in hidden)
    assert Counter(setup["stacks"]["tiles"]) == Counter(material["stack_tiles"])
    assert len(hidden) == len(setup["stacks"]["tiles"])
    assert Counter(map(str, setup["stacks"]["numbers"])) == Counter(material["stack_numbers"])


def check_rules(setup, scenario):
    board = by_position(setup)
    for (q, r), h in board.items():
        if h["terrain"] in ("sea", "desert"):
            assert h["number"] is None
        if h["number"] in RED:
            around = [board.get(n) for n in hg.neighbours((q, r))]
            assert not any(a and a["number"] in RED for a in around), (q, r)
            if scenario.red_off_gold:
                assert h["terrain"] != "gold"
            if setup["stacks"]["numbers"] and not scenario.chip_bag:
                assert not any(a and a["hidden"] for a in around)
    docks = []
    for harbour in setup["harbours"]:
        sea = board[(harbour["q"], harbour["r"])]
        land = board[hg.step((harbour["q"], harbour["r"]), harbour["facing"])]
        assert sea["terrain"] == "sea" and land["terrain"] in LAND   # the desert is land too
        docks += hg.edge_corners((harbour["q"], harbour["r"]), harbour["facing"])
    assert len(docks) == len(set(docks)), "a corner is a dock of two harbours"


# --------------------------------------------------------------------------- the rulebook's data
RULEBOOK_TOTALS = {  # the tables' Total columns: (tiles, chips); Oceans face-up + face-down
    ("new_shores", 3): (18, 8), ("four_islands", 3): (32, 15), ("four_islands", 4): (39, 21),
    ("oceans", 3): (18 + 14, 12 + 6), ("oceans", 4): (24 + 22, 17 + 7),
    ("wasteland", 3): (39, 23), ("wasteland", 4): (46, 26), ("new_world", 3): (39, 20),
    ("new_world", 4): (46, 23), ("great_crossing", 4): (39, 22),
}


@pytest.mark.parametrize("case", sorted(RULEBOOK_TOTALS))
def test_material_tables_add_up_to_the_rulebooks_totals(case):
    layout = SCENARIOS[case[0]].layout(case[1])
    tiles = sum(layout.tiles.values()) + sum(layout.hidden_tiles.values())
    chips = sum(layout.chips.values()) + sum(layout.hidden_chips.values())
    assert (tiles, chips) == RULEBOOK_TOTALS[case]


def test_rulebook_facts_players_targets_and_harbours():
    assert {s: sc.player_counts for s, sc in SCENARIOS.items()} == {
        "new_shores": (3, 4), "four_islands": (3, 4), "oceans": (3, 4), "wasteland": (3, 4),
        "new_world": (3, 4), "great_crossing": (4,), "greater_catan": (4,)}
    assert {s: sc.target_vp for s, sc in SCENARIOS.items()} == {
        "new_shores": 13, "four_islands": 12, "oceans": 12, "wasteland": 12, "new_world": 12,
        "great_crossing": None, "greater_catan": 18}
    harbours = {case: sum(SCENARIOS[case[0]].layout(case[1]).harbours.values()) for case in CASES}
    assert harbours == {("new_shores", 3): 9, ("new_shores", 4): 9, ("four_islands", 3): 8,
                        ("four_islands", 4): 10, ("oceans", 3): 8, ("oceans", 4): 9,
                        ("wasteland", 3): 9, ("wasteland", 4): 9, ("new_world", 3): 9,
                        ("new_world", 4): 10, ("great_crossing", 4): 10,
                        ("greater_catan", 4): 9}
    catan = SCENARIOS["greater_catan"].layout(4)
    assert sorted(catan.chips) == [2, 3, 4, 5, 9, 10, 11]
    assert catan.tiles == {"sea": 23, "forest": 4, "pasture": 4, "fields": 4, "hills": 3,
                           "mountains": 3}


@pytest.mark.parametrize("sid,players", CASES)
def test_each_frame_holds_exactly_its_listed_material(sid, players):
    scenario, layout = SCENARIOS[sid], SCENARIOS[sid].layout(players)
    symbols = Counter(layout.cells.values())
    sea = sum(n for s, n in symbols.items() if s in SEA_SYMBOLS)
    ring = 18 if scenario.main_island else 0
    if scenario.free_harbours:
        assert symbols == {"*": sum(layout.tiles.values())}
        return
    assert sea == layout.tiles["sea"] + ring
    assert symbols["D"] == layout.tiles.get("desert", 0)
    assert symbols["M"] == (19 if scenario.main_island else 0)
    assert symbols["L"] == sum(layout.tiles.values()) - layout.tiles["sea"] - symbols["D"]
    assert symbols["?"] == sum(layout.hidden_tiles.values())
    spots = sum(len(HARBOUR_CODES[s]) for s in layout.cells.values() if s in HARBOUR_CODES)
    assert spots == sum(layout.harbours.values())


def test_new_world_frame_alternates_long_and_short_rows():
    for players, long_row in ((3, 6), (4, 7)):
        rows = Counter(r for _, r in SCENARIOS["new_world"].layout(players).cells)
        assert [rows[r] for r in range(7)] == [long_row, long_row - 1] * 3 + [long_row]


def land_groups(sid, players, symbols="LMD"):
    cells = SCENARIOS[sid].layout(players).cells
    return hg.components(h for h, s in cells.items() if s in symbols)


def test_frames_have_the_scenarios_structure():
    for players in (3, 4):
        islands = land_groups("four_islands", players)
        assert len(islands) == 4
        assert len(islands[0]) > len(islands[1])          # one big island
    assert [len(g) for g in land_groups("great_crossing", 4)] == [11, 11]
    assert len(land_groups("new_shores", 3, "M")) == 1
    assert len(land_groups("new_shores", 3)) == 4          # main island + 3 small islands
    assert [len(g) for g in land_groups("greater_catan", 4)] == [19] + [3] * 6
    for players in (3, 4):
        main, *small = land_groups("wasteland", players)
        parts = hg.components(h for h in main
                              if SCENARIOS["wasteland"].layout(players).cells[h] == "L")
        assert len(parts) == 2 and len(parts[0]) > 2 * len(parts[1])   # cut by wasteland
        assert len(small) >= 1


@pytest.mark.parametrize("sid,players", CASES)
def test_drawn_harbour_spots_face_land_and_share_no_dock(sid, players):
    cells = SCENARIOS[sid].layout(players).cells
    docks = []
    for hex_, symbol in cells.items():
        for facing in HARBOUR_CODES.get(symbol, ()):
            assert cells.get(hg.step(hex_, facing)) in ("L", "M")
            docks += hg.edge_corners(hex_, facing)
    assert len(docks) == len(set(docks))


# --------------------------------------------------------------------------- generated boards
@settings(max_examples=200, deadline=None)
@given(case=st.sampled_from(CASES), seed=SEEDS)
def test_every_board_holds_its_material_and_obeys_the_rules(case, seed):
    setup = make(*case, seed=seed)
    check_material(setup)
    check_rules(setup, SCENARIOS[case[0]])
    assert setup["target_vp"] == SCENARIOS[case[0]].target_vp
    assert setup["start_player"] in NAMES[:case[1]]


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, players=st.sampled_from([3, 4]))
def test_new_world_suggests_harbours_by_the_placing_rule(seed, players):
    setup = make("new_world", players, seed=seed)
    assert setup["harbours_suggested"] is True
    check_rules(setup, SCENARIOS["new_world"])
    assert len({(h["q"], h["r"]) for h in setup["harbours"]}) == len(setup["harbours"])


FAIRNESS_ON = [{"no_equal_neighbours": True}, {"no_2_12_neighbours": True},
               {"max_corner_pips": 11}, {"max_terrain_cluster": 2},
               {"no_equal_neighbours": True, "no_2_12_neighbours": True,
                "max_corner_pips": 12, "max_terrain_cluster": 3}]


def fairness_measures(setup):
    """What the fairness settings measure, counted independently of the generator."""
    board = by_position(setup)
    out = {"no_equal_neighbours": False, "no_2_12_neighbours": False}
    for (q, r), h in board.items():
        around = [board.get(n) for n in hg.neighbours((q, r))]
        numbers = {a["number"] for a in around if a and a["number"]}
        if h["number"] and h["number"] in numbers:
            out["no_equal_neighbours"] = True          # broken
        if h["number"] in (2, 12) and {2, 12} & numbers:
            out["no_2_12_neighbours"] = True
    out["pips"] = max(sum(PIPS[board[c]["number"]] for c in corner
                          if c in board and board[c]["number"])
                      for corner in hg.board_corners(board))
    producing = [p for p, h in board.items() if h["terrain"] in PRODUCING]
    out["cluster"] = max(len(g) for t in PRODUCING
                         for g in hg.components(p for p in producing if board[p]["terrain"] == t))
    return out


@settings(max_examples=150, deadline=None)
@given(case=st.sampled_from(CASES), seed=SEEDS, options=st.sampled_from(FAIRNESS_ON))
def test_fairness_settings_hold_when_switched_on(case, seed, options):
    setup = make(*case, seed=seed, **options)
    check_material(setup)
    check_rules(setup, SCENARIOS[case[0]])
    measured = fairness_measures(setup)
    for name in ("no_equal_neighbours", "no_2_12_neighbours"):
        if options.get(name):
            assert not measured[name]
    if options.get("max_corner_pips"):
        assert measured["pips"] <= options["max_corner_pips"]
        assert setup["balance"]["busiest_corner"]["pips"] <= options["max_corner_pips"]
    if options.get("max_terrain_cluster"):
        assert measured["cluster"] <= options["max_terrain_cluster"]
    assert setup["fairness"] == {**setup["fairness"], **options}


def test_fairness_settings_are_off_by_default_and_boards_then_break_them():
    measured = [fairness_measures(make("wasteland", 4, seed=seed)) for seed in range(40)]
    assert any(m["no_equal_neighbours"] for m in measured)
    assert any(m["no_2_12_neighbours"] for m in measured)
    assert max(m["pips"] for m in measured) > 12
    assert max(m["cluster"] for m in measured) > 3
    assert GAME.parse_options({})["max_corner_pips"] == 0
    assert GAME.parse_options({})["no_equal_neighbours"] is False


def test_impossible_fairness_is_a_422_naming_the_setting():
    with pytest.raises(RuleError) as err:
        make("new_shores", 4, max_corner_pips=4)
    assert err.value.status == 422 and err.value.field == "options.max_corner_pips"
    assert "relax" in err.value.message
    with pytest.raises(RuleError) as err:
        make("four_islands", 3, seed=2, max_corner_pips=6)
    assert err.value.field == "options.max_corner_pips"


def test_the_setting_to_relax_is_the_enabled_one_that_rejected_most():
    search = Search(random.Random(1))
    search.rejected.update({"red_neighbours": 50, "max_terrain_cluster": 3,
                            "max_corner_pips": 9})
    both = Fairness(max_corner_pips=10, max_terrain_cluster=2)
    assert blame(search, both) == "max_corner_pips"
    assert blame(search, Fairness(max_terrain_cluster=2)) == "max_terrain_cluster"
    assert blame(search, Fairness()) is None


def test_same_seed_same_board_and_seeds_vary():
    for sid, players in CASES:
        assert make(sid, players, seed=7) == make(sid, players, seed=7)
        boards = {str(make(sid, players, seed=s)["hexes"]) for s in range(5)}
        assert len(boards) == 5
    oceans = {str(make("oceans", 3, seed=s)["stacks"]) for s in range(5)}
    assert len(oceans) == 5


def test_wrong_player_count_for_a_scenario_is_422():
    with pytest.raises(RuleError) as err:
        make("great_crossing", 3)
    assert (err.value.status, err.value.field) == (422, "players")
    assert "4" in err.value.message
    with pytest.raises(RuleError) as err:
        GAME.parse_options({"scenario": "atlantis"})
    assert err.value.field == "options.scenario"


def test_greater_catan_small_islands_wait_for_the_bag():
    setup = make("greater_catan", 4, seed=3)
    cells = SCENARIOS["greater_catan"].layout(4).cells
    for h in setup["hexes"]:
        if cells[(h["q"], h["r"])] == "L":
            assert h["number"] is None and not h["hidden"]
    assert sorted(setup["stacks"]["numbers"]) == [2, 3, 4, 5, 9, 10, 11]
    assert setup["stacks"]["tiles"] == []


def test_balance_report_adds_up():
    setup = make("new_world", 4, seed=11)
    pips = Counter()
    for h in setup["hexes"]:
        if h["number"]:
            pips[{"fields": "grain", "hills": "brick", "mountains": "ore", "pasture": "wool",
                  "forest": "lumber", "gold": "gold"}[h["terrain"]]] += PIPS[h["number"]]
    balance = setup["balance"]
    assert balance["pips"] == {**dict.fromkeys(balance["pips"], 0), **pips}
    corner = balance["busiest_corner"]
    assert corner["pips"] == sum(PIPS[h["number"]] for h in corner["hexes"])
    assert corner["pips"] == fairness_measures(setup)["pips"]
    assert balance["tries"] >= 1 and balance["steps"] >= 1


def test_oceans_keeps_the_draw_stacks_off_the_board():
    setup = make("oceans", 4, seed=5)
    hidden = [h for h in setup["hexes"] if h["hidden"]]
    assert len(hidden) == 22 and len(setup["stacks"]["numbers"]) == 7
    assert setup["stacks"]["tiles"].count("desert") == 1


def test_hexgrid_directions_corners_and_art():
    assert hg.DIRECTIONS == ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    assert hg.direction_to((0, 0), (0, 1)) == 5 and hg.direction_to((0, 0), (2, 0)) is None
    assert hg.corner((0, 0), 0) == frozenset({(0, 0), (1, 0), (1, -1)})
    assert len(hg.board_corners([(0, 0)])) == 6 and len(hg.board_corners([(0, 0), (1, 0)])) == 10
    assert hg.parse_art(["~ L", " ?"]) == {(0, 0): "~", (1, 0): "L", (0, 1): "?"}
    with pytest.raises(ValueError):
        hg.parse_art(["~ L", "?"])


def test_red_chips_stay_off_gold_when_a_scenario_says_so():
    """New World's rule, tried on a board that has gold (1997 New World itself has none)."""
    oceans = SCENARIOS["oceans"]
    strict = replace(oceans, red_off_gold=True)
    layout = oceans.layout(4)
    reds_on_gold = 0
    for seed in range(150):
        for ruled, scenario in ((True, strict), (False, oceans)):
            board = generate(scenario, layout, Fairness(), random.Random(seed))
            on_gold = [h for h, t in board.terrain.items()
                       if t == "gold" and board.numbers.get(h) in RED]
            if ruled:
                assert not on_gold
            reds_on_gold += len(on_gold)
    assert reds_on_gold > 0          # without the rule, 6s and 8s do land on gold
