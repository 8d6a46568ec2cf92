"""Seafarers setups follow the 1997 book's words (shared/rulebooks/catan-seafarers-1997.txt):
the pirate and the robber, Great Crossing's missing target, the checklists, hex labels and
Greater Catan's chip moves."""
import copy

import pytest

from companion.games.errors import RuleError
from companion.games.protocol import make_rng
from companion.games.seafarers import GAME, hexgrid, svg
from companion.games.seafarers.scenarios import SCENARIOS
from companion.games.seafarers.table import chip_moves

NAMES = ["Ann", "Bo", "Cy", "Di"]


def setup(scenario, players=None, seed=3, **options):
    players = players or max(SCENARIOS[scenario].player_counts)
    return GAME.setup(NAMES[:players], GAME.parse_options({"scenario": scenario, **options}),
                      make_rng(seed), {})


def at(hexes, where):
    return next(h for h in hexes if (h["q"], h["r"]) == (where["q"], where["r"]))


# ---- the pirate ship and the robber
@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
@pytest.mark.parametrize("seed", [1, 2])
def test_the_pirate_starts_on_a_sea_hex(scenario, seed):
    """"The pirate ship starts on any sea hex, in the middle of that hex"."""
    board = setup(scenario, seed=seed, layout="variable")
    assert at(board["hexes"], board["pirate"])["terrain"] == "sea"
    assert board["pirate"]["label"] in board["pirate_note"] and "any sea hex" in \
        board["pirate_note"]


@pytest.mark.parametrize("scenario", ["new_shores", "greater_catan"])
def test_the_robber_starts_on_the_main_islands_desert(scenario):
    """The base game's main island: the robber starts on its desert (facts.md 3.1)."""
    board = setup(scenario)
    assert at(board["hexes"], board["robber"])["terrain"] == "desert"
    assert "as in the base game" in board["robber_note"]


@pytest.mark.parametrize("scenario", ["four_islands", "oceans", "new_world", "great_crossing"])
def test_without_a_desert_the_book_gives_no_place_and_the_app_suggests_one(scenario):
    board = setup(scenario, layout="variable")
    assert board["robber"] is None
    assert "gives" in board["robber_note"] and "no starting place" in board["robber_note"]
    assert "the app suggests" in board["robber_note"]


def test_wasteland_suggests_a_wasteland_tile_and_says_the_book_is_silent():
    board = setup("wasteland", layout="variable")
    assert at(board["hexes"], board["robber"])["terrain"] == "desert"
    assert "no starting place" in board["robber_note"]
    assert f"the wasteland at {board['robber']['label']}" in board["robber_note"]


# ---- The Great Crossing's target
def test_great_crossing_has_no_target_unless_the_table_sets_one():
    """The Great Crossing section states no victory target (facts.md 3.3 corrected)."""
    board = setup("great_crossing")
    assert board["target_vp"] is None
    assert "the 1997 book gives no target" in board["checklist"][0]
    sheets = {"players": [{"name": n, "sheet": {"settlements": 5, "cities": 4}}
                          for n in NAMES], "options": {"scenario": "great_crossing"}}
    result = GAME.score(sheets, {})
    assert result["target_vp"] is None and result["reached_target"] == []
    assert any("gives no target" in note for note in result["notes"])
    set_by_table = setup("great_crossing", target_vp=14)
    assert set_by_table["target_vp"] == 14 and "table set 14" in set_by_table["target_note"]
    sheets["options"]["target_vp"] = 13
    assert GAME.score(sheets, {})["reached_target"] == NAMES


def test_other_scenarios_keep_the_books_target():
    assert setup("oceans", target_vp=12)["target_vp"] == 12
    with pytest.raises(RuleError) as err:
        setup("oceans", target_vp=10)
    assert err.value.field == "options.target_vp" and "plays to 12" in err.value.message


# ---- checklists
@pytest.mark.parametrize("scenario", ["greater_catan", "oceans"])
def test_start_settlements_go_on_the_main_island(scenario):
    """Oceans: "all players found their two start villages on the main island"; Greater
    Catan: "each player founds his start villages on the main island"."""
    assert any("on the main island" in item for item in setup(scenario)["checklist"])


def test_new_world_harbours_begin_with_the_oldest_player():
    """New World: "Beginning with the oldest player, place them one at a time"."""
    assert any("beginning with the oldest player" in item
               for item in setup("new_world")["checklist"])


def test_a_discovered_wasteland_is_announced_as_wasteland():
    state = oceans_state_with_wasteland_next()
    spot = next(h for h in state["table"]["hexes"] if h["hidden"])
    state = GAME.apply(state, {"type": "discover", "data": {"q": spot["q"], "r": spot["r"]}})
    notice = state["table"]["notices"][-1]
    assert notice.startswith("Discovered wasteland at ") and "desert" not in notice
    assert notice.endswith(f"{spot['label']}.") and "(" not in notice


def oceans_state_with_wasteland_next():
    """An Oceans play for 4, whose face-down pile holds "1" wasteland, with it on top."""
    board = setup("oceans", 4, layout="variable")
    state = {"options": GAME.parse_options({"scenario": "oceans", "layout": "variable"}),
             "setup": board}
    state = GAME.start_state(state)
    tiles = state["table"]["stacks"]["tiles"]
    tiles.insert(0, tiles.pop(tiles.index("desert")))
    return state


# ---- hex labels
def test_labels_are_a_row_letter_and_a_number_from_the_west():
    cells = [(2, 0), (3, 0), (1, 1), (2, 1), (3, 1), (0, 2)]
    assert hexgrid.labels(cells) == {(2, 0): "A1", (3, 0): "A2", (1, 1): "B1", (2, 1): "B2",
                                     (3, 1): "B3", (0, 2): "C1"}


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_every_hex_has_a_distinct_label_printed_on_the_drawing(scenario):
    board = setup(scenario, layout="variable")
    names = [h["label"] for h in board["hexes"]]
    assert len(set(names)) == len(names)
    drawing = svg.render(board)
    for name in names:
        assert f">{name}</text>" in drawing


# ---- Greater Catan's chip moves
def greater_catan_with_empty_bag(seed=3):
    board = setup("greater_catan", seed=seed)
    state = {"options": GAME.parse_options({"scenario": "greater_catan"}), "setup": board}
    state = GAME.start_state(state)
    state["table"]["stacks"]["numbers"] = []
    return state


def test_chip_moves_keep_red_chips_apart_while_any_move_can():
    """Rule c: "Red chips must not lie next to each other on small islands", broken only
    when no chip can be removed otherwise (rules a, b, c give way in that order)."""
    state = greater_catan_with_empty_bag()
    small = [h for h in state["table"]["hexes"] if h["terrain"] not in ("sea", "desert")
             and SCENARIOS["greater_catan"].layouts[0].cells[(h["q"], h["r"])] == "L"]
    first, neighbour = next((a, b) for a in small for b in small
                            if (b["q"], b["r"]) in hexgrid.neighbours((a["q"], a["r"])))
    first["number"] = 6
    moves = chip_moves(state)
    assert moves and not any(m["breaks_c"] for m in moves)
    assert not any(m["number"] in (6, 8) and (m["q"], m["r"]) == (neighbour["q"], neighbour["r"])
                   for m in moves)
    red_source = next(m for m in moves if m["number"] in (6, 8))
    with pytest.raises(RuleError) as err:
        GAME.apply(copy.deepcopy(state), {"type": "move_chip", "data": {
            "from_q": red_source["from_q"], "from_r": red_source["from_r"],
            "q": neighbour["q"], "r": neighbour["r"]}})
    assert err.value.code == "red_chips_touch" and neighbour["label"] in err.value.message
    for h in small:               # only the neighbour is left without a chip
        if h is not neighbour and h is not first:
            h["number"] = 3
    for h in state["table"]["hexes"]:    # and only red chips are left on the main island
        if SCENARIOS["greater_catan"].layouts[0].cells[(h["q"], h["r"])] == "M" \
                and h["number"] not in (6, 8):
            h["number"] = None
    moves = chip_moves(state)
    assert moves and all(m["breaks_c"] for m in moves)
    state = GAME.apply(state, {"type": "move_chip", "data": {
        "from_q": moves[0]["from_q"], "from_r": moves[0]["from_r"],
        "q": neighbour["q"], "r": neighbour["r"]}})
    assert "rule c gave way" in state["table"]["notices"][-1]
    assert f"to {neighbour['label']}" in state["table"]["notices"][-2]


# ---- the book's layouts of the "as shown" scenarios
def entry_from(board):
    """A layout entry built from a board (test data only, not the book's diagram)."""
    return {"hexes": [{k: h[k] for k in ("q", "r", "terrain", "number")} if not h["hidden"]
                      else {"q": h["q"], "r": h["r"], "hidden": True} for h in board["hexes"]],
            "harbours": [{k: h[k] for k in ("q", "r", "facing")} for h in board["harbours"]]}


@pytest.mark.parametrize("scenario,players", [("four_islands", 3), ("oceans", 4),
                                              ("wasteland", 3)])
def test_until_entered_the_book_layout_is_the_frame_with_no_terrain(scenario, players):
    """Four Islands and Wasteland: "Set out the board as shown"; Oceans: "Lay out the large
    and small islands and sea tiles as shown": the diagrams are not in our text."""
    board = setup(scenario, players)
    assert board["layout"] == "book" and board["layout_entered"] is False
    assert all(h["terrain"] is None and h["number"] is None for h in board["hexes"])
    assert board["harbours"] == [] and board["pirate"] is None
    assert any("as in your rulebook's diagram" in item for item in board["checklist"])
    assert sum(board["material"]["tiles"].values()) > 0


def test_variable_layout_is_labelled_as_not_the_books():
    board = setup("four_islands", 3, layout="variable")
    assert board["layout_label"] == "Variable layout (not the book's)"
    assert any(item.startswith("Variable layout (not the book's)")
               for item in board["checklist"])
    assert setup("new_world", 3)["layout"] == "random"      # New World stays random


@pytest.mark.parametrize("scenario,players", [("four_islands", 3), ("four_islands", 4),
                                              ("oceans", 3), ("wasteland", 4)])
def test_an_entered_layout_is_what_every_later_setup_lays(scenario, players):
    entry = entry_from(setup(scenario, players, layout="variable"))
    key = f"{scenario}/{players}"
    catalogue = GAME.validate_catalogue({"layouts": {key: entry}})
    for seed in (1, 2, 3):
        board = GAME.setup(NAMES[:players], GAME.parse_options({"scenario": scenario}),
                           make_rng(seed), catalogue)
        assert board["layout_entered"] is True
        laid = {(h["q"], h["r"]): (h["terrain"], h["number"], h["hidden"])
                for h in board["hexes"]}
        assert laid == {(h["q"], h["r"]): (h.get("terrain"), h.get("number"),
                                           h.get("hidden", False)) for h in entry["hexes"]}
        assert [(h["q"], h["r"], h["facing"]) for h in board["harbours"]] == [
            (h["q"], h["r"], h["facing"]) for h in entry["harbours"]]
        assert at(board["hexes"], board["pirate"])["terrain"] == "sea"


def test_an_entered_layout_must_hold_the_books_material():
    """Four Islands for 3: "17 0 0 3 3 3 3 3 32" tiles, 15 chips, "8 ( 5 special and 3 x
    3:1 )" harbours."""
    entry = entry_from(setup("four_islands", 3, layout="variable"))
    land = next(h for h in entry["hexes"] if h["terrain"] == "forest")
    land["terrain"] = "fields"
    with pytest.raises(RuleError) as err:
        GAME.validate_catalogue({"layouts": {"four_islands/3": entry}})
    assert "lists 3 fields tiles face up; the layout has 4" in err.value.message
    land["terrain"] = "forest"
    entry["harbours"].pop()
    with pytest.raises(RuleError) as err:
        GAME.validate_catalogue({"layouts": {"four_islands/3": entry}})
    assert "8 harbours" in err.value.message
    with pytest.raises(RuleError) as err:
        GAME.validate_catalogue({"layouts": {"new_world/3": entry}})
    assert err.value.field == "layouts.new_world/3"


def test_an_entered_layouts_cross_entry_refusals_have_their_own_codes():
    """What no JSON Schema can say is a rule across entries, a 422 each with its code:
    two hexes on one position or harbours on one spot (duplicate_entry), a harbour off the
    coast (harbour_not_on_coast), the wrong material (wrong_material)."""
    entry = entry_from(setup("four_islands", 3, layout="variable"))

    def code_of(change):
        data = copy.deepcopy(entry)
        change(data)
        with pytest.raises(RuleError) as err:
            GAME.validate_catalogue({"layouts": {"four_islands/3": data}})
        return err.value.status, err.value.code

    land = next(i for i, h in enumerate(entry["hexes"]) if h["terrain"] != "sea")
    assert code_of(lambda d: d["hexes"].append(dict(d["hexes"][0]))) == (422, "duplicate_entry")
    assert code_of(lambda d: d["harbours"].append(dict(d["harbours"][0]))) == (
        422, "duplicate_entry")
    assert code_of(lambda d: d["harbours"][0].update(q=d["hexes"][land]["q"],
                                                     r=d["hexes"][land]["r"])) == (
        422, "harbour_not_on_coast")
    assert code_of(lambda d: d["harbours"].pop()) == (422, "wrong_material")


def test_an_entered_hex_takes_hidden_as_true_or_false_and_label_or_type_as_text():
    """A setup's own hexes and harbours (label, type) can be sent back; anything else in
    those keys was silently taken before, and is now a 400 naming it."""
    entry = entry_from(setup("four_islands", 3, layout="variable"))
    entry["hexes"][0].update(label="A1", hidden=False)
    entry["harbours"][0]["type"] = "3:1"
    clean = GAME.validate_catalogue({"layouts": {"four_islands/3": entry}})
    assert "label" not in clean["layouts"]["four_islands/3"]["hexes"][0]
    for where, key, value in (("hexes", "hidden", "yes"), ("hexes", "label", 5),
                              ("harbours", "type", ["3:1"])):
        data = copy.deepcopy(entry)
        data[where][0][key] = value
        with pytest.raises(RuleError) as err:
            GAME.validate_catalogue({"layouts": {"four_islands/3": data}})
        assert err.value.field == f"layouts.four_islands/3.{where}[0].{key}"
