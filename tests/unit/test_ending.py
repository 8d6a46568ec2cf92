"""When a play's result is final (companion.games.ending), worked from each rulebook's final
scoring.

- Reavers, "End of the Game": players "score the following things from the Glory Pile":
  Artifacts, Favor Tokens, Keeps Spoils (tapestries are keep spoils), the Defense Token
  majorities and Prophecies. Glory earned during play is on the track already.
- Explorers: the score pad (delivered livestock, outposts, enemy ships, raided settlements,
  viking deaths, the captain; Rocks of Ruin adds salvaged gold and raided fortresses); a row
  only one captain reads (the Archer's tiles, the Adventurer's shipwreck tokens) is needed by a
  sheet naming that captain.
- Shipwrights, SCORING: longships "including any bonuses", buildings, jarls, the tracks (kept
  by the table), hero and labourer VP, gold; "If tied, the tied player with the most Oak, Wool,
  and Iron ... then most Workers": the supplies matter only to a tied player.
- Knarr: "The person with the most points on the Score Track wins" (kept turn by turn) and
  Seafarers' points are on the board: no end-game rows, their end is final at once.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import GAMES, get_game
from companion.plays import apply_event, new_state, score_of
from companion.undo import inverse_event

REAVERS_END = ["artifacts", "favor", "keep_spoils", "tapestries", "walls", "prophecies"]


def ev(state, kind, **data):
    return apply_event(state, {"type": kind, "data": data})


def reavers_over(players=("Ann", "Bo")):
    state = new_state("reavers", list(players), {}, 3, {})
    for _ in range(6):
        for location in ("recruit_reavers", "raid_villages", "raid_keeps", "battle_at_sea"):
            state = ev(state, "place", location=location)
        state = ev(ev(state, "advance"), "advance")
    assert state["finished"]
    return state


def end_rows(game_id, **options):
    game = get_game(game_id)
    return [f.name for f in game.sheet_fields_for(game.parse_options(options)) if f.end_game]


def test_each_game_declares_the_rows_its_rulebook_scores_at_the_end():
    assert end_rows("reavers") == REAVERS_END
    assert end_rows("knarr") == [] and end_rows("seafarers") == []
    explorers = ["livestock", "outposts", "enemy_ships", "settlements", "viking_deaths",
                 "captain", "archer_tiles"]
    assert end_rows("explorers") == explorers
    assert end_rows("explorers", rocks_of_ruin=True) == explorers + [
        "gold", "fortresses", "shipwreck_tokens", "captain_vp", "captain_2_vp"]
    assert "tracks" not in end_rows("shipwrights")
    assert {"longships_vp", "longship_bonuses", "buildings_vp", "jarls_vp", "heroes_vp",
            "gold"} <= set(end_rows("shipwrights"))


def test_reavers_is_provisional_after_round_six_until_every_row_is_in():
    state = reavers_over()
    score = score_of(state)
    assert score["game_over"] and score["provisional"]
    assert score["to_enter"] == [{"player": "Ann", "rows": REAVERS_END},
                                 {"player": "Bo", "rows": REAVERS_END}]
    state = ev(state, "sheet", player="Ann", fields={"artifacts": [4], "favor": 0,
                                                     "keep_spoils": {}, "tapestries": {},
                                                     "walls": 0, "prophecies": []})
    state = ev(state, "sheet", player="Bo", done=True)
    score = score_of(state)
    assert score["to_enter"] == [] and score["provisional"] is False
    assert score["winners"] == ["Ann"]


def test_the_game_going_on_is_provisional_whatever_is_entered():
    state = new_state("reavers", ["Ann", "Bo"], {}, 3, {})
    state = ev(ev(state, "sheet", player="Ann", done=True), "sheet", player="Bo", done=True)
    score = score_of(state)
    assert score["game_over"] is False and score["to_enter"] == []
    assert score["provisional"] is True


def test_explorers_rows_by_captain():
    state = new_state("explorers", ["Ann", "Bo"], {"rocks_of_ruin": True}, 5, {})
    dealt = state["setup"]["captains"]
    game = get_game("explorers")
    archer = next(f for f in game.sheet_fields if f.name == "archer_tiles")
    wreck = next(f for f in game.sheet_fields if f.name == "shipwreck_tokens")
    box = next(f for f in game.sheet_fields if f.name == "captain_vp")
    assert archer.needed({"captain": "archer"}) and not archer.needed({"captain": "Hero"})
    assert wreck.needed({"captain": "Adventurer"}) and not wreck.needed({"captain": "Tyrant"})
    assert box.needed({"captain": "Smuggler"}) and not box.needed({"captain": "Queen"})
    assert not box.needed({"captain": ""})
    state = ev(state, "keep_captain", player="Ann", captain=dealt["Ann"][0])
    while not state["table"]["game_over"]:
        state = ev(state, "turn")
    rows = {e["player"]: e["rows"] for e in score_of(state)["to_enter"]}
    assert "captain" not in rows["Ann"] and "captain" in rows["Bo"]
    assert ("archer_tiles" in rows["Ann"]) == (dealt["Ann"][0] == "Archer")
    assert ("shipwreck_tokens" in rows["Ann"]) == (dealt["Ann"][0] == "Adventurer")


def test_explorers_solo_captains_are_the_dealt_ones_and_need_no_entry():
    state = new_state("explorers", ["Ann"], {}, 5, {})
    while not state["table"]["game_over"]:
        state = ev(state, "turn")
    rows = score_of(state)["to_enter"][0]["rows"]
    assert "captain" not in rows and "captain_2" not in rows


def test_shipwrights_bonus_counts_and_tie_breaks_only_where_they_count():
    game = get_game("shipwrights")
    field = {f.name: f for f in game.sheet_fields}
    sets = {"longship_bonuses": ["raid_trade_upgrade_sets"]}
    assert field["raid_cards"].needed(sets) and field["upgrades"].needed(sets)
    assert not field["unique_buildings"].needed(sets)
    assert field["unique_buildings"].needed({"longship_bonuses": ["unique_buildings"]})
    assert not field["raid_cards"].needed({"longship_bonuses": []})
    assert field["resources"].when_tied and field["workers"].when_tied
    from companion.games.ending import rows_to_enter
    state = new_state("shipwrights", ["Ann", "Bo", "Cy"], {}, 2, {})
    state = ev(state, "sheet", player="Ann", fields={"gold": 3})
    state = ev(state, "sheet", player="Bo", fields={"gold": 3})
    state = ev(state, "sheet", player="Cy", fields={"gold": 1})
    rows = {e["player"]: e["rows"] for e in rows_to_enter(game, state, score_of(state))}
    assert "resources" in rows["Ann"] and "workers" in rows["Bo"]     # tied on 3
    assert "resources" not in rows["Cy"]


def test_undo_of_done_reopens_and_the_inverse_event_says_so():
    state = reavers_over()
    done = {"type": "sheet", "data": {"player": "Ann", "done": True}}
    after = apply_event(state, done)
    assert after["sheets_done"] == ["Ann"]
    back = inverse_event(state, after, done)
    assert back == {"type": "sheet", "data": {"player": "Ann", "done": False}}
    assert apply_event(after, back).get("sheets_done") == []


def test_undoing_an_entry_puts_its_rows_back_on_the_list():
    """An undo is a compensating change that puts the old values back: rows the undone
    change entered are listed again (a value typed on the wrong sheet and taken back must
    not count as entered), rows entered before it stay entered, and its redo enters them
    again."""
    state = ev(reavers_over(), "sheet", player="Ann", fields={"favor": 0})
    typed = {"type": "sheet", "data": {"player": "Ann", "fields": {"artifacts": [4],
                                                                   "favor": 2},
                                       "add": {"walls": 1}}}
    after = apply_event(state, typed)
    assert score_of(after)["to_enter"][0]["rows"] == ["keep_spoils", "tapestries",
                                                      "prophecies"]
    back = inverse_event(state, after, typed)
    assert back["data"]["reopen"] == ["artifacts", "walls"]       # favor was entered before
    undone = apply_event(after, back)
    assert score_of(undone)["to_enter"] == score_of(state)["to_enter"]
    assert score_of(undone)["to_enter"][0]["rows"] == [r for r in REAVERS_END if r != "favor"]
    redone = apply_event(undone, inverse_event(after, undone, back))
    assert score_of(redone)["to_enter"] == score_of(after)["to_enter"]


@settings(max_examples=80, deadline=None)
@given(entries=st.lists(st.tuples(st.sampled_from(["Ann", "Bo"]),
                                  st.sampled_from(REAVERS_END + ["done", "glory"])),
                        max_size=14))
def test_final_exactly_when_every_player_has_every_row_or_is_done(entries):
    """Property: after any mix of entries (a row set to a value that says nothing, 0 or
    empty) and "done" taps, a player is listed with exactly the rows nobody entered for them
    and the result is final exactly when no player is listed (no box value is asked: no
    walls)."""
    state = reavers_over()
    empty = {"artifacts": [], "favor": 0, "keep_spoils": {}, "tapestries": {}, "walls": 0,
             "prophecies": [], "glory": 0}
    entered = {"Ann": set(), "Bo": set()}
    done = set()
    for player, row in entries:
        if row == "done":
            state = ev(state, "sheet", player=player, done=True)
            done.add(player)
        else:
            state = ev(state, "sheet", player=player, fields={row: empty[row]})
            entered[player].add(row)
    score = score_of(state)
    expected = [{"player": p, "rows": [r for r in REAVERS_END if r not in entered[p]]}
                for p in ("Ann", "Bo") if p not in done]
    assert score["to_enter"] == [e for e in expected if e["rows"]]
    assert score["provisional"] == bool(score["to_enter"])


def test_every_game_answers_the_ending_fields():
    for game_id, game in GAMES.items():
        names = ["Ann", "Bo", "Cy", "Di"][:max(game.min_players, 3)]
        options = {"scenario": "four_islands", "layout": "variable"} if game_id == (
            "seafarers") else {}
        score = score_of(new_state(game_id, names, options, 1, {}))
        assert {"game_over", "provisional", "to_enter"} <= set(score), game_id
        assert score["game_over"] is False and score["provisional"] is True


# --------------------------------------------------------------------------- every game with
# end-game rows: Shipwrights' SCORING (bonus counts by bonus, supplies only when tied) and the
# Explorers score pad (the captain's own rows by captain), beside Reavers' property above.
def finished(game_id: str) -> dict:
    """Three players at the final scoring: Shipwrights after its last round (the table
    finishes it), Explorers after the Winter Token holder's last turn."""
    options = {"rocks_of_ruin": True} if game_id == "explorers" else {}
    state = new_state(game_id, ["Ann", "Bo", "Cy"], options, 4, {})
    if game_id == "shipwrights":
        return ev(state, "finish")
    while not state["table"]["game_over"]:
        state = ev(state, "turn")
    return state


def a_value(draw, state: dict, player: str, field):
    """A value the row takes (0 and empty included: typed, they count as entered)."""
    if field.kind == "int":
        return draw(st.integers(0, min(field.maximum, 3)))
    if field.kind == "choices":
        return draw(st.lists(st.sampled_from(field.choices), unique=True, max_size=3))
    if field.kind == "choice":                        # a captain: one dealt to this player
        return draw(st.sampled_from(state["setup"]["captains"][player]))
    if field.kind == "counts":
        return draw(st.sampled_from([{}, {field.keys[0]: 1}]))
    return draw(st.sampled_from([[], [max(field.minimum, 1)]]))     # a list of numbers


@settings(max_examples=60, deadline=None)
@given(game_id=st.sampled_from(["shipwrights", "explorers"]), data=st.data())
def test_no_result_is_final_while_a_row_a_player_needs_is_missing(game_id, data):
    """Property: after any mix of rows typed (0 and empty included), added to, "Nothing more"
    taps and sheets opened again, the result is final exactly when every player has tapped
    "Nothing more" or typed every end-game row their sheet needs (a bonus count by the bonus,
    a captain's row by the captain, the supplies when tied on total); each player is listed
    with the rows they still owe; and undoing the last change gives back the list before it.
    The rows typed are kept here, apart from the play's own record."""
    game = get_game(game_id)
    state = finished(game_id)
    fields = [f for f in game.sheet_fields_for(state["options"]) if f.end_game]
    typed = {p: set() for p in ("Ann", "Bo", "Cy")}
    done: set[str] = set()
    last = None                                           # (state before, event, list before)
    for _ in range(data.draw(st.integers(0, 12), label="changes")):
        player = data.draw(st.sampled_from(["Ann", "Bo", "Cy"]), label="player")
        what = data.draw(st.sampled_from(["done", "open", "add"] + [f.name for f in fields]),
                         label="what")
        if what in ("done", "open"):
            change = {"player": player, "done": what == "done"}
            done = done | {player} if what == "done" else done - {player}
        elif what == "add":
            row = data.draw(st.sampled_from([f for f in fields if f.kind == "int"]))
            change = {"player": player, "add": {row.name: 1}}
            typed[player].add(row.name)
        else:
            field = next(f for f in fields if f.name == what)
            change = {"player": player,
                      "fields": {what: a_value(data.draw, state, player, field)}}
            typed[player].add(what)
        event = {"type": "sheet", "data": change}
        last = (state, event, score_of(state)["to_enter"])
        state = apply_event(state, event)
        score = score_of(state)
        assert score["game_over"] is True and score.get("complete", True) is not False
        totals = [p["total"] for p in score["players"]]
        tied = {p["name"] for p in score["players"] if totals.count(p["total"]) > 1}
        sheets = {p["name"]: p["sheet"] for p in game.score_body(state)["players"]}
        owed = {}
        for name in ("Ann", "Bo", "Cy"):
            needs = {f.name for f in fields if (f.needed is None or f.needed(sheets[name]))
                     and (not f.when_tied or name in tied)}
            if name not in done and needs - typed[name]:
                owed[name] = needs - typed[name]
        listed = {e["player"]: set(e["rows"]) for e in score["to_enter"]}
        assert listed == owed
        assert score["provisional"] is bool(owed)
        if not score["provisional"]:
            assert score["winners"]
    if last is not None:                # the undo of the last change: its compensation
        before, event, listed_before = last
        back = inverse_event(before, state, event)
        assert score_of(apply_event(state, back))["to_enter"] == listed_before
