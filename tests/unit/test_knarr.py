"""Knarr: setup, the score pad, and a play recorded turn by turn (reputation, the 40 VP end)."""
import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import get_game
from companion.games.errors import RuleError
from companion.games.knarr import ARTIFACTS, GAME, MEAD_CUP
from companion.games.protocol import make_rng, seat_after
from companion.plays import apply_event, new_state

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
TRACK = [0, 1, 1, 2, 2, 3, 3, 4]


def setup(players, seed=1, catalogue=None, **options):
    return GAME.setup(players, GAME.parse_options(options), make_rng(seed), catalogue or {})


def new_play(players=("Ann", "Bo", "Cy"), seed=7, catalogue=None, **options):
    """A play's initial state, made as every new play is (companion.plays.new_state)."""
    catalogue = catalogue if catalogue is not None else {"reputation_track": TRACK}
    return new_state("knarr", list(players), options, seed, catalogue)


def turn(state, **data):
    """The state after a turn, through companion.plays (the input is never changed)."""
    return apply_event(state, {"type": "turn", "data": data})


def advance(state):
    return apply_event(state, {"type": "advance"})


def rejects(state, field, status=400, type_="turn", **data):
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as err:
        GAME.apply(state, {"type": type_, "data": data})
    assert err.value.field == field
    assert err.value.status == status
    assert state == before, "a rejected event must change nothing"
    return err.value


def score(*sheets, names=PLAYERS, **extra):
    pairs = zip(names[:len(sheets)], sheets, strict=True)
    body = {"players": [{"name": n, "sheet": s} for n, s in pairs], **extra}
    return GAME.score(body, {})


# --------------------------------------------------------------------------- metadata
def test_registered_with_its_options_and_score_pad():
    assert get_game("knarr") is GAME
    described = GAME.describe()
    assert (described["min_players"], described["max_players"]) == (2, 4)
    assert set(described["options"]) == {"artifacts", "advanced_ships"}
    assert all(o["type"] == "bool" and o["default"] is False
               for o in described["options"].values())
    assert [f.name for f in GAME.sheet_fields] == ["vp", "recruits", "bracelets"]


# --------------------------------------------------------------------------- setup
@pytest.mark.parametrize("count, removed", [(4, []), (3, ["4"]), (2, ["3", "4"])])
def test_viking_cards_removed_for_the_player_count(count, removed):
    result = setup(PLAYERS[:count])
    assert result["remove_viking_cards_marked"] == removed
    vikings = next(s for s in result["checklist"] if s.startswith("Viking cards"))
    assert all(mark in vikings for mark in removed)
    assert ("all 50" in vikings) == (count == 4)


def test_face_up_cards_and_checklist_sentences():
    result = setup(PLAYERS[:3])
    assert result["face_up"] == {"trading_lands": 3, "lands_of_influence": 3, "vikings": 5}
    text = " ".join(result["checklist"])
    assert "Trading Lands" in text and "Lands of Influence" in text
    assert "turn the top 5 face up" in text
    assert all(isinstance(s, str) and s.endswith(".") for s in result["checklist"])


def test_first_player_by_destiny_draw_and_the_last_seat_is_to_their_right():
    for seed in range(20):
        result = setup(PLAYERS, seed)
        first = result["first_player"]
        assert first in PLAYERS
        assert result["turn_order"][0] == first
        assert sorted(result["turn_order"]) == sorted(PLAYERS)
        assert result["last_player"] == seat_after(PLAYERS, first, -1)
        assert f"{first} plays first" in " ".join(result["checklist"])


@pytest.mark.parametrize("advanced, side", [(False, "normal"), (True, "advanced")])
def test_ship_side_option(advanced, side):
    result = setup(PLAYERS[:2], advanced_ships=advanced)
    assert result["ship_side"] == side
    assert f"{side} side up" in " ".join(result["checklist"])


@pytest.mark.parametrize("count", [2, 3, 4])
def test_no_artifacts_without_the_variant(count):
    result = setup(PLAYERS[:count], artifacts=False)
    assert result["artifacts"] == [] and result["artifact_texts"] == []
    assert "Artifact" not in " ".join(result["checklist"])


@pytest.mark.parametrize("count", [3, 4])
def test_one_random_artifact_with_three_or_four_players(count):
    drawn = set()
    for seed in range(60):
        result = setup(PLAYERS[:count], seed, artifacts=True)
        assert len(result["artifacts"]) == 1
        drawn.add(result["artifacts"][0])
    assert drawn == set(ARTIFACTS), "every artifact can be drawn"


def test_two_players_add_the_mead_cup_unless_it_was_drawn():
    lengths = set()
    for seed in range(60):
        arts = setup(PLAYERS[:2], seed, artifacts=True)["artifacts"]
        assert arts[-1] == MEAD_CUP
        assert len(arts) == len(set(arts))
        assert (arts == [MEAD_CUP]) == (len(arts) == 1)
        lengths.add(len(arts))
    assert lengths == {1, 2}, "both the drawn-Mead-Cup case and the added case happen"


def test_the_seven_artifacts_and_their_texts_are_shown():
    assert list(ARTIFACTS) == ["Amulet", "Weathervane", "Golden Bracelet", "Cauldron", "Helmet",
                               "Mead Cup", "Silver Coin"]
    result = setup(PLAYERS[:2], 3, artifacts=True)
    assert [a["name"] for a in result["artifact_texts"]] == result["artifacts"]
    for entry in result["artifact_texts"]:
        assert entry["text"] == ARTIFACTS[entry["name"]] and len(entry["text"]) > 20
        assert any(entry["text"] in s for s in result["checklist"])
    play = new_play(PLAYERS[:2], 3, artifacts=True)
    assert play["table"]["artifacts"] == result["artifact_texts"]
    assert play["table"]["artifact_timing"]


def test_setup_is_deterministic_and_varies_with_the_seed():
    assert setup(PLAYERS, "x", artifacts=True) == setup(PLAYERS, "x", artifacts=True)
    firsts = {setup(PLAYERS, s)["first_player"] for s in range(30)}
    arts = {tuple(setup(PLAYERS, s, artifacts=True)["artifacts"]) for s in range(30)}
    assert len(firsts) > 1 and len(arts) > 1


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**53), count=st.integers(2, 4), artifacts=st.booleans(),
       advanced=st.booleans())
def test_every_setup_is_valid(seed, count, artifacts, advanced):
    players = PLAYERS[:count]
    result = setup(players, seed, artifacts=artifacts, advanced_ships=advanced)
    assert result["first_player"] in players
    assert result["remove_viking_cards_marked"] == {4: [], 3: ["4"], 2: ["3", "4"]}[count]
    assert all(a in ARTIFACTS for a in result["artifacts"])
    expected = 0 if not artifacts else (1 if count > 2 or result["artifacts"][0] == MEAD_CUP
                                        else 2)
    assert len(result["artifacts"]) == expected
    assert (MEAD_CUP in result["artifacts"]) or count > 2 or not artifacts


def test_wrong_player_count_is_422():
    for players in (["Ann"], PLAYERS + ["Eve"]):
        with pytest.raises(RuleError) as err:
            GAME.check_players(players)
        assert err.value.status == 422


def test_setup_reports_the_catalogue_track_or_says_the_table_will_type_it():
    with_track = setup(PLAYERS[:2], catalogue={"reputation_track": TRACK})
    assert with_track["reputation_track"] == TRACK
    assert "adds each reputation step itself" in " ".join(with_track["checklist"])
    without = setup(PLAYERS[:2])
    assert without["reputation_track"] == []
    assert "asks for each player's reputation VP" in " ".join(without["checklist"])


# --------------------------------------------------------------------------- box catalogue
def test_catalogue_cleans_a_track_and_defaults_to_empty():
    assert GAME.empty_catalogue() == {"reputation_track": []}
    assert GAME.validate_catalogue({}) == {"reputation_track": []}
    assert GAME.validate_catalogue({"reputation_track": [0, 1, 2.0]}) == {
        "reputation_track": [0, 1, 2]}
    with pytest.raises(RuleError) as err:       # text is not a number (a form types its own)
        GAME.validate_catalogue({"reputation_track": [0, "1"]})
    assert (err.value.status, err.value.field) == (400, "reputation_track[1]")


@pytest.mark.parametrize("data, field", [
    ({"reputation_track": [0, 1, True]}, "reputation_track[2]"),
    ({"reputation_track": [0, -1]}, "reputation_track[1]"),
    ({"reputation_track": [0, 41]}, "reputation_track[1]"),
    ({"reputation_track": [0, "two"]}, "reputation_track[1]"),
    ({"reputation_track": [0, 1.5]}, "reputation_track[1]"),
    ({"reputation_track": "0,1,2"}, "reputation_track"),
    ({"reputation_track": None}, "reputation_track"),
    ({"reputation_track": [1] * 61}, "reputation_track"),
    ({"reputation_track": [], "score_track": [1]}, "score_track"),
])
def test_catalogue_rejects_bad_entries_naming_them(data, field):
    with pytest.raises(RuleError) as err:
        GAME.validate_catalogue(data)
    assert err.value.field == field and err.value.status == 400


def test_catalogue_must_be_an_object():
    with pytest.raises(RuleError):
        GAME.validate_catalogue([0, 1, 2])


# --------------------------------------------------------------------------- a play: turns
def test_a_new_play_starts_with_the_first_player_and_one_recruit_and_bracelet():
    play = new_play()
    table = play["table"]
    first = play["setup"]["first_player"]
    assert table["current_player"] == first == table["order"][0]
    assert play["players"][table["current_player_index"]]["name"] == first
    assert (table["turn"], table["round"], play["round"]) == (1, 1, 1)
    assert all(s == {"vp": 0, "recruits": 1, "bracelets": 1} for s in play["sheets"].values())
    assert table["next_reputation_vp"] == 0 and table["asks_reputation_vp"] is False


def test_turns_pass_clockwise_and_count_turns_and_rounds():
    play = new_play(PLAYERS)
    order = play["table"]["order"]
    for expected_turn in range(1, 10):
        i = expected_turn - 1
        assert play["table"]["turn"] == expected_turn
        assert play["table"]["current_player"] == order[i % 4]
        assert play["table"]["round"] == play["round"] == i // 4 + 1
        play = turn(play)
    assert play["table"]["current_player_index"] == PLAYERS.index(order[1])


def test_reputation_step_scores_where_the_marker_stood_at_the_start_of_the_turn():
    play = new_play(("Ann", "Bo"))
    me = play["table"]["current_player"]
    play = turn(play, vp_gained=3, reputation=3)       # space 0 is worth 0; marker moves to 3
    assert play["sheets"][me]["vp"] == 3
    assert play["table"]["reputation"][me] == 3
    play = turn(play)                                  # the other player
    assert play["table"]["next_reputation_vp"] == TRACK[3]
    play = turn(play, vp_gained=1, reputation=5)       # +2 from space 3, +1 gained
    assert play["sheets"][me]["vp"] == 3 + 2 + 1
    assert play["table"]["history"][-1]["reputation_vp"] == 2
    play = turn(turn(play))                            # +3 from space 5
    assert play["sheets"][me]["vp"] == 9


def test_reputation_step_takes_the_highest_value_reached():
    play = new_play(("Ann", "Bo"), catalogue={"reputation_track": [0, 4, 2, 3]})
    me = play["table"]["current_player"]
    play = turn(turn(play, reputation=2))
    assert play["table"]["next_reputation_vp"] == 4
    play = turn(play)
    assert play["sheets"][me]["vp"] == 4


def test_advance_is_a_turn_with_only_the_reputation_step():
    play = new_play(("Ann", "Bo"))
    me = play["table"]["current_player"]
    play = turn(play, reputation=7)
    play = advance(advance(play))
    assert play["sheets"][me]["vp"] == TRACK[7]
    assert play["table"]["turn"] == 4


def test_a_typed_reputation_vp_must_match_the_track():
    play = new_play(("Ann", "Bo"))
    assert turn(play, reputation_vp=0)["table"]["turn"] == 2
    err = rejects(play, "data.reputation_vp", 422, reputation_vp=1)
    assert "gives" in err.message and "0 VP" in err.message


def test_without_a_track_the_table_types_the_reputation_vp():
    play = new_play(("Ann", "Bo"), catalogue={})
    assert play["table"]["asks_reputation_vp"] is True
    assert play["table"]["next_reputation_vp"] is None
    me = play["table"]["current_player"]
    play = turn(turn(play, reputation_vp=1, vp_gained=2, reputation=2), reputation_vp=0)
    assert play["sheets"][me]["vp"] == 3
    rejects(play, "data.reputation_vp", 422, reputation_vp=0)   # below last turn's 1
    assert turn(play, reputation_vp=2)["sheets"][me]["vp"] == 5


def test_a_blank_reputation_vp_is_last_turns_value():
    # The reputation step scores the highest value the marker has reached: without a typed
    # value it is what it was last turn, so a blank field never refuses (or resets) the turn.
    play = new_play(("Ann", "Bo"), catalogue={})
    me, other = play["table"]["order"]
    play = turn(play, vp_gained=2)                        # blank on the first turn: 0
    assert play["sheets"][me]["vp"] == 2
    play = turn(play, reputation_vp=3, vp_gained=1)       # Bo's step is typed: 3
    play = turn(play, reputation_vp="", vp_gained=4)      # Ann: blank keeps her 0
    assert play["sheets"][me]["vp"] == 6
    play = turn(play, vp_gained=0)                        # Bo: blank keeps his 3
    assert play["sheets"][other]["vp"] == 7
    assert play["table"]["history"][-1]["reputation_vp"] == 3


def test_pass_turn_works_without_a_track():
    play = new_play(("Ann", "Bo"), catalogue={})
    me, other = play["table"]["order"]
    play = turn(play, reputation_vp=2, vp_gained=5)
    play = advance(play)                                  # Bo passes: his 0 reputation VP
    play = advance(play)                                  # Ann passes: last turn's 2 again
    assert play["sheets"][me]["vp"] == 9 and play["sheets"][other]["vp"] == 0
    assert play["table"]["turn"] == 4 and play["table"]["current_player"] == other


def test_a_marker_sent_past_the_last_space_stops_there_and_keeps_scoring_its_vp():
    """Rulebook: "Gain 1 Reputation Point: the player moves their token forward 1 space on
    the Reputation Track" and each turn "moves their Scoring marker forward a number of
    spaces equal to the highest value that their Reputation marker has reached". The track
    has no space past its last one: the marker stops there and every later reputation step
    scores the last space's VP (never 0, never a value the table must type)."""
    play = new_play(("Ann", "Bo"), catalogue={"reputation_track": [0, 1, 2]})
    me = play["table"]["current_player"]
    play = turn(play, reputation=4)                       # Ann jumps from 0 past the end (2)
    assert play["table"]["reputation"][me] == 2
    assert any("ends at space 2" in n for n in play["table"]["notices"])
    play = turn(play)                                     # Bo
    assert play["table"]["asks_reputation_vp"] is False
    assert play["table"]["next_reputation_vp"] == 2
    for n in range(1, 4):                                 # every later step scores 2
        play = turn(turn(play, reputation=9))
        assert play["sheets"][me]["vp"] == 2 * n
        assert play["table"]["reputation"][me] == 2
    rejects(play, "data.reputation_vp", 422, reputation_vp=0)   # the track says 2


def test_a_marker_reaching_the_last_space_exactly_says_nothing_extra():
    play = new_play(("Ann", "Bo"), catalogue={"reputation_track": [0, 1, 2]})
    play = turn(play, reputation=2)
    assert play["table"]["reputation"][play["table"]["order"][0]] == 2
    assert not any("ends at space" in n for n in play["table"]["notices"])


@settings(max_examples=60, deadline=None)
@given(track=st.lists(st.integers(0, 6), min_size=1, max_size=8),   # 6 turns: under 40
       moves=st.lists(st.integers(0, 12), min_size=1, max_size=6))
def test_the_marker_is_always_on_the_track_and_each_step_scores_the_highest_value_reached(
        track, moves):
    """Property: however far the table moves a marker, it stands on the track, and the
    reputation step adds the highest value among the spaces it has passed."""
    play = new_play(("Ann", "Bo"), catalogue={"reputation_track": track})
    me = play["table"]["current_player"]
    for move in moves:
        before, vp = play["table"]["reputation"][me], play["sheets"][me]["vp"]
        play = turn(play, reputation=before + move)
        assert play["sheets"][me]["vp"] == vp + max(track[:before + 1])
        assert play["table"]["reputation"][me] == min(before + move, len(track) - 1)
        play = turn(play)


def test_the_reputation_marker_never_moves_back():
    play = new_play(("Ann", "Bo"))
    play = turn(turn(play, reputation=3))
    rejects(play, "data.reputation", 422, reputation=2)
    rejects(play, "data.reputation", 400, reputation=100)
    assert turn(play, reputation=3)["table"]["turn"] == 4


def test_recruits_and_bracelets_are_capped_at_three():
    play = new_play(("Ann", "Bo"))
    me = play["table"]["current_player"]
    after = turn(play, recruits=3, bracelets=0)
    assert after["sheets"][me]["recruits"] == 3 and after["sheets"][me]["bracelets"] == 0
    for key in ("recruits", "bracelets"):
        err = rejects(play, f"data.{key}", 422, **{key: 4})
        assert err.code == "over_cap" and "at most 3" in err.message
        rejects(play, f"data.{key}", 400, **{key: -1})
    unchanged = turn(play)
    assert unchanged["sheets"][me]["recruits"] == unchanged["sheets"][me]["bracelets"] == 1


@pytest.mark.parametrize("data, field, status", [
    ({"bogus": 1}, "data.bogus", 400),
    ({"vp_gained": "lots"}, "data.vp_gained", 400),
    ({"vp_gained": -2}, "data.vp_gained", 400),
    ({"vp_gained": 10_001}, "data.vp_gained", 400),
    ({"player": "Zed"}, "data.player", 422),           # nobody at this table: a rule
    ({"player": 7}, "data.player", 400),
    ({"recruits": 1.5}, "data.recruits", 400),
])
def test_bad_turn_data_names_the_field(data, field, status):
    rejects(new_play(), field, status, **data)


def test_only_the_current_player_can_take_a_turn():
    play = new_play()
    current = play["table"]["current_player"]
    other = next(n for n in play["table"]["order"] if n != current)
    err = rejects(play, "data.player", 422, player=other)
    assert err.code == "not_your_turn" and current in err.message
    assert turn(play, player=current)["table"]["current_player"] == other


def test_turn_data_must_be_an_object_and_unknown_events_fail():
    play = new_play()
    with pytest.raises(RuleError) as err:
        GAME.apply(play, {"type": "turn", "data": [1]})
    assert err.value.field == "data"
    with pytest.raises(RuleError) as err:
        GAME.apply(play, {"type": "raid", "data": {}})
    assert err.value.code == "unknown_event"


# --------------------------------------------------------------------------- the end at 40
def play_to_trigger(players, seat, gain=40):
    """Turns with no VP until the player at ``seat`` (in turn order) gains ``gain``."""
    play = new_play(players)
    for _ in range(seat):
        play = turn(play)
    return turn(play, vp_gained=gain)


@pytest.mark.parametrize("count", [2, 3, 4])
def test_reaching_40_plays_out_the_round_from_every_seat(count):
    for seat in range(count):
        play = play_to_trigger(PLAYERS[:count], seat)
        order = play["table"]["order"]
        assert play["table"]["end_triggered_by"] == order[seat]
        assert any(f"{order[seat]} reached 40 VP" in n for n in play["table"]["notices"])
        for _ in range(count - 1 - seat):
            assert not play["finished"]
            play = turn(play)
        assert play["finished"] is True
        assert play["table"]["history"][-1]["player"] == order[-1]
        assert play["table"]["history"][-1]["player"] == seat_after(order, order[0], -1)
        assert len(play["table"]["history"]) == count and play["table"]["round"] == 1
        assert play["table"]["current_player"] is None
        rejects(play, "type", 422)


def test_the_trigger_in_a_later_round_and_by_the_reputation_step():
    play = new_play(("Ann", "Bo", "Cy"), catalogue={"reputation_track": [0, 5]})
    play = turn(play, vp_gained=35, reputation=1)     # first player: 35 VP
    play = turn(turn(play))
    assert play["table"]["round"] == 2 and not play["table"]["end_triggered_by"]
    play = turn(play)                                 # +5 from the reputation step: 40
    assert play["table"]["end_triggered_by"] == play["table"]["order"][0]
    play = turn(turn(play, vp_gained=50))
    assert play["finished"] and play["table"]["round"] == 2
    assert play["table"]["end_triggered_by"] == play["table"]["order"][0]


def test_the_last_seat_reaching_40_ends_the_game_at_once():
    play = play_to_trigger(PLAYERS[:3], 2)
    assert play["finished"]
    assert "last turn" in play["table"]["notices"][-2]


def test_a_score_corrected_on_the_sheet_triggers_at_the_next_turn():
    play = new_play(PLAYERS[:3])
    order = play["table"]["order"]
    play = apply_event(play, {"type": "sheet", "data": {"player": order[2],
                                                        "fields": {"vp": 41}}})
    play = turn(play)
    assert play["table"]["end_triggered_by"] == order[2]


def test_39_does_not_trigger():
    play = play_to_trigger(PLAYERS[:2], 0, gain=39)
    assert play["table"]["end_triggered_by"] is None and not play["finished"]


# --------------------------------------------------------------------------- scoring
def test_score_is_the_score_track():
    result = score({"vp": 41, "recruits": 1, "bracelets": 2}, {"vp": 38},
                   names=["Ann", "Bo"])
    ann, bo = result["players"]
    assert ann["categories"] == {"score": 41} and ann["total"] == 41 and ann["rank"] == 1
    assert bo["total"] == 38 and bo["rank"] == 2
    assert result["winners"] == ["Ann"] and result["tiebreak"] is None
    assert result["reached_target"] == ["Ann"]
    assert "41 VP" in ann["explanations"]["score"]


def test_tie_goes_to_most_recruits_and_bracelets_together():
    result = score({"vp": 42, "recruits": 3, "bracelets": 0},
                   {"vp": 42, "recruits": 1, "bracelets": 1},
                   {"vp": 42, "recruits": 0, "bracelets": 2}, {"vp": 10, "recruits": 3,
                                                                "bracelets": 3})
    assert result["winners"] == ["Ann"]
    assert [p["rank"] for p in result["players"]] == [1, 2, 2, 4]
    assert "Ann wins with the most recruits and silver bracelets together (3 against 2, 2)" \
        in result["tiebreak"]


def test_a_full_tie_is_a_shared_win():
    result = score({"vp": 40, "recruits": 2, "bracelets": 1},
                   {"vp": 40, "recruits": 1, "bracelets": 2}, names=["Ann", "Bo"])
    assert result["winners"] == ["Ann", "Bo"]
    assert [p["rank"] for p in result["players"]] == [1, 1]
    assert "shared win" in result["tiebreak"]


@pytest.mark.parametrize("sheet, field", [
    ({"recruits": 4}, "players[1].sheet.recruits"),
    ({"bracelets": 4}, "players[1].sheet.bracelets"),
    ({"vp": -1}, "players[1].sheet.vp"),
    ({"vp": 10_001}, "players[1].sheet.vp"),
    ({"reputation": 3}, "players[1].sheet.reputation"),
])
def test_bad_sheets_name_the_field(sheet, field):
    with pytest.raises(RuleError) as err:
        score({"vp": 1}, sheet, names=["Ann", "Bo"])
    assert err.value.field == field and err.value.status == 400


def test_bad_requests():
    with pytest.raises(RuleError) as err:
        score({"vp": 1}, names=["Ann"])
    assert err.value.status == 422
    with pytest.raises(RuleError) as err:
        score({}, {}, names=["Ann", "Bo"], islands=[])
    assert err.value.field == "islands"
    with pytest.raises(RuleError) as err:
        score({}, {}, names=["Ann", "Bo"], options={"expansion": True})
    assert err.value.field == "options.expansion"
    with pytest.raises(RuleError):
        GAME.score([], {})


def test_a_play_scores_its_current_sheets():
    play = new_play(("Ann", "Bo"))
    play = turn(play, vp_gained=5, recruits=2)
    result = GAME.score(GAME.score_body(play), play["catalogue"])
    first = play["table"]["order"][0]
    assert result["winners"] == [first]
    assert {p["name"]: p["total"] for p in result["players"]}[first] == 5


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 4), seed=st.integers(0, 10**6),
       gains=st.lists(st.integers(0, 12), min_size=1, max_size=40))
def test_a_race_always_ends_after_the_last_seat(count, seed, gains):
    play = new_play(PLAYERS[:count], seed)
    for gain in gains:
        if play["finished"]:
            break
        play = turn(play, vp_gained=gain)
    history = play["table"]["history"]
    if play["finished"]:
        assert history[-1]["player"] == play["table"]["order"][-1]
        assert len(history) % count == 0
        assert max(s["vp"] for s in play["sheets"].values()) >= 40
    else:
        assert all(h["vp"] < 40 for h in history[:len(history) - len(history) % count])
