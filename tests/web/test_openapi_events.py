"""Each game's events body in the OpenAPI document (Event<Game>, companion.plays.event_body)
says what the server takes: an event the schema allows is never a 400 (it is recorded, or a
422 when it breaks a rule of the play: a name nobody at the table has, an island not on it),
and an event the server refuses as malformed (400) is one the schema forbids."""
from __future__ import annotations

import re

import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import GAMES
from companion.games.inputs import is_whole_number_text
from companion.games.protocol import Game
from companion.games.reavers.box import number_text
from companion.plays import COMMON_EVENTS, event_body
from tests.conftest import standalone

EVENT_OF = {g: jsonschema_rs.validator_for(standalone(event_body(g))) for g in GAMES}


def test_every_event_type_a_game_takes_has_one_branch():
    for game in GAMES.values():
        schema = standalone(event_body(game.id))
        kinds = [schema["$defs"][b["$ref"].rsplit("/", 1)[-1]]["properties"]["type"]["const"]
                 for b in schema["oneOf"]]
        asks_box = type(game).parse_box_value is not Game.parse_box_value
        wanted = [k for k in COMMON_EVENTS if k != "box_value" or asks_box]
        assert sorted(kinds) == sorted(wanted + list(game.event_types)), game.id


def sheet(player="Ann", **data):
    return {"type": "sheet", "data": {"player": player, **data}}


# (game, players, options, body, status): status is the server's answer on a fresh play
CASES = [
    ("knarr", 2, {}, {"type": "turn"}, 200),
    ("knarr", 2, {}, {"type": "turn", "data": {"player": "Zed"}}, 422),
    ("knarr", 2, {}, {"type": "turn", "data": {"player": 7}}, 400),
    ("knarr", 2, {}, {"type": "turn", "data": {"recruits": 4}}, 422),
    ("knarr", 2, {}, {"type": "turn", "data": {"recruits": "", "vp_gained": 2.0}}, 200),
    ("knarr", 2, {}, {"type": "turn", "data": {"bogus": 1}}, 400),
    ("knarr", 2, {}, {"type": "box_value", "data": {"key": "track", "value": 1}}, 400),
    ("knarr", 2, {}, sheet(fields={"vp": 3}), 200),
    ("knarr", 2, {}, sheet(fields={"vp": 3}, add={"vp": 1}), 400),
    ("knarr", 2, {}, sheet(add={"vp": 0}), 400),
    ("knarr", 2, {}, sheet(), 400),
    ("knarr", 2, {}, sheet("Zed", add={"vp": 1}), 422),
    ("knarr", 2, {}, {"type": "advance", "data": {"anything": 1}}, 200),
    ("knarr", 2, {}, {"type": "pause", "expected_version": 0.0, "device": "phone-1"}, 200),
    ("knarr", 2, {}, {"type": "no_such_event"}, 400),
    ("explorers", 2, {}, sheet(fields={"gold": 1}), 422),
    ("explorers", 2, {}, sheet(add={"livestock": {"pig": 1}}), 200),
    ("explorers", 2, {}, sheet(add={"livestock": {}}), 400),
    ("explorers", 2, {}, sheet(set={"livestock": {"pig": 2}}), 200),
    ("explorers", 2, {}, sheet(set={"livestock": {"pig": 0}}, fields={"outposts": 2}), 200),
    ("explorers", 2, {}, sheet(set={"livestock": {"pig": 1}}, add={"livestock": {"goat": 1}}),
     400),
    ("explorers", 2, {}, sheet(set={"livestock": {"pig": 1}}, fields={"livestock": {}}), 400),
    ("explorers", 2, {}, sheet(set={"livestock": {}}), 400),
    ("explorers", 2, {}, sheet(set={"livestock": {"dragon": 1}}), 400),
    ("explorers", 2, {}, sheet(set={"outposts": {"x": 1}}), 400),
    ("explorers", 2, {}, sheet(set={"gold": {"x": 1}}), 400),
    ("explorers", 2, {}, sheet(set=None, add={"outposts": 1}), 200),
    ("shipwrights", 2, {}, sheet(set={"longship_bonuses": {"raid_cards": 2}}), 200),
    ("shipwrights", 2, {}, sheet(set={"longship_bonuses": {"raid_cards": 31}}), 400),
    ("shipwrights", 2, {}, sheet(set={"tracks": {"trade": 19}}), 400),
    ("reavers", 2, {}, sheet(set={"keep_spoils": {"Treasure": 2}}), 200),
    ("reavers", 2, {}, sheet(set={"keep_spoils": {"": 2}}), 400),
    ("explorers", 2, {}, {"type": "add_island", "data": {
        "tiles": 3, "complete": True, "influence": {"Ann": {"vikings": 1}}}}, 200),
    ("explorers", 2, {}, {"type": "add_island", "data": {
        "tiles": 3, "influence": {"Zed": {"vikings": 1}}}}, 422),
    ("explorers", 2, {}, {"type": "add_island", "data": {"complete": True}}, 400),
    ("explorers", 2, {}, {"type": "update_island", "data": {"island": 3}}, 422),
    ("explorers", 2, {}, {"type": "update_island", "data": {"island": 60}}, 400),
    ("explorers", 2, {}, {"type": "update_island", "data": {
        "island": 0, "tiles": 2, "add": {"tiles": 1}}}, 400),
    ("explorers", 2, {}, {"type": "set_influence", "data": {
        "island": 0, "player": "Ann", "vikings": 1}}, 422),
    ("explorers", 2, {}, {"type": "keep_captain", "data": {"player": "Ann", "captain": 5}},
     400),
    ("explorers", 2, {}, {"type": "turn", "data": {"x": 1}}, 400),
    ("reavers", 2, {}, {"type": "territories", "data": {"player": "Ann", "count": 2}}, 200),
    ("reavers", 2, {}, {"type": "territories", "data": {"player": "Ann", "count": 2,
                                                        "add": 1}}, 400),
    ("reavers", 2, {}, {"type": "territories", "data": {"player": "Ann"}}, 400),
    ("reavers", 2, {}, {"type": "territories", "data": {"player": "Ann", "add": -1}}, 422),
    ("reavers", 2, {}, {"type": "place", "data": {"location": "nowhere"}}, 400),
    ("reavers", 2, {}, {"type": "start_player", "data": {"player": "Zed"}}, 422),
    ("reavers", 2, {}, {"type": "box_value", "data": {
        "key": "keep_spoils_schedule.Treasure", "value": "1, 3 6"}}, 200),
    ("reavers", 2, {}, {"type": "box_value", "data": {
        "key": "keep_spoils_schedule.Treasure", "value": "1, 3 x"}}, 400),
    ("reavers", 2, {}, {"type": "box_value", "data": {
        "key": "keep_spoils_schedule. ", "value": [1, 2]}}, 400),
    ("reavers", 2, {}, {"type": "box_value", "data": {"key": "wall_majority.most",
                                                      "value": 5}}, 200),
    ("seafarers", 3, {"scenario": "oceans"}, {"type": "discover", "data": {"q": 0}}, 400),
    ("seafarers", 3, {"scenario": "oceans"}, {"type": "discover",
                                              "data": {"q": 101, "r": 0}}, 400),
    ("seafarers", 3, {"scenario": "oceans"}, {"type": "discover",
                                              "data": {"q": 50.0, "r": 0}}, 422),
    ("shipwrights", 2, {}, {"type": "track", "data": {"player": "Ann", "track": "trade",
                                                      "steps": 2}}, 200),
    ("shipwrights", 2, {}, {"type": "track", "data": {"player": "neutral", "track": "trade",
                                                      "steps": 2}}, 200),
    ("shipwrights", 3, {}, {"type": "track", "data": {"player": "neutral", "track": "trade",
                                                      "steps": 2}}, 422),
    ("shipwrights", 2, {}, {"type": "track", "data": {"player": "Ann", "track": "trade",
                                                      "steps": 0}}, 400),
    ("shipwrights", 2, {}, {"type": "reveal", "data": {
        "military": 1, "trade": 0, "renown": 1, "trades": "1 Silver -> 1 Oak; ;",
        "id": ""}}, 200),
    ("shipwrights", 2, {}, {"type": "reveal", "data": {
        "military": 1, "trade": 0, "renown": 1, "trades": " ; " + "x" * 101}}, 400),
    ("shipwrights", 2, {}, {"type": "reveal", "data": {
        "military": 1, "trade": 0, "renown": 1, "trades": "  " + "x" * 100 + " ;y"}}, 200),
    ("shipwrights", 2, {}, {"type": "reveal", "data": {"military": 1}}, 400),
    ("shipwrights", 2, {}, {"type": "reveal", "data": {
        "icons": {"military": 1, "trade": 0, "renown": 1}, "military": 1}}, 400),
    ("shipwrights", 2, {}, {"type": "reveal", "data": {"draft": "clockwise"}}, 422),
    ("shipwrights", 2, {}, {"type": "box_value", "data": {"key": "track_vp.15",
                                                          "value": 3}}, 200),
    ("shipwrights", 2, {}, {"type": "box_value", "data": {"key": "track_vp.14",
                                                          "value": 3}}, 400),
]


@pytest.mark.parametrize("game, players, options, body, status", CASES)
def test_the_schema_allows_exactly_what_the_server_does_not_refuse_as_malformed(
        client, game, players, options, body, status):
    names = ["Ann", "Bo", "Cy", "Di"][:players]
    play = client.post("/api/v1/plays", json={"game": game, "players": names, "seed": 3,
                                              "options": options}).get_json()
    reply = client.post(f"/api/v1/plays/{play['id']}/events", json=body,
                        headers={"Authorization": f"Bearer {play['edit_token']}"})
    assert reply.status_code == status, reply.get_json()
    assert EVENT_OF[game].is_valid(body) == (status != 400), reply.get_json()


def reads_as(text: str, minimum: int, maximum: int) -> bool:
    """What the server reads as a number from a text (a form's, a schedule's)."""
    return is_whole_number_text(text) and minimum <= int(text) <= maximum


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.from_regex(r"\A-?0{0,4}[0-9]{1,13}\Z"), st.text(max_size=6)),
       st.integers(-20_000, 20_000), st.integers(0, 20_000))
def test_number_text_is_the_text_the_server_reads_in_range(text, minimum, width):
    maximum = minimum + width
    assert (re.fullmatch(number_text(minimum, maximum), text) is not None) == (
        reads_as(text, minimum, maximum) and text.strip() == text), (text, minimum, maximum)
