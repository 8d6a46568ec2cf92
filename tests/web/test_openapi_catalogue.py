"""The document's box data schemas (Catalogue<Game>: each game's catalogue_type, the one
declaration that checks the box data) against the server: what a schema allows is saved or
breaks a rule across entries (a 422 with its code), what it forbids is a 400 naming the
field."""
from __future__ import annotations

import jsonschema_rs
import pytest

from companion.games.explorers.captains import (
    MAX_BONUS_TEXT,
    MAX_CATALOGUE_CAPTAINS,
)
from companion.games.knarr import TRACK_MAX_SPACES, TRACK_MAX_VP
from companion.games.reavers.box import MAX_SCHEDULE_LENGTH
from companion.games.seafarers.book import COORD_LIMIT, MAX_HEXES
from companion.games.shipwrights.catalogue import MAX_ROUND_CARDS, MAX_TEXT
from tests.conftest import owner_headers


def icons(m=0, t=0, r=0):
    return {"military": m, "trade": t, "renown": r}


def layout_from_setup(client) -> dict:
    """A Four Islands layout for 3 with the book's material (the app's own variable board)."""
    board = client.post("/api/v1/games/seafarers/setup", json={
        "players": ["Ann", "Bo", "Cy"], "seed": 3,
        "options": {"scenario": "four_islands", "layout": "variable"}}).json["setup"]
    return {"hexes": [{k: h[k] for k in ("q", "r", "terrain", "number", "label")}
                      for h in board["hexes"]],
            "harbours": [{k: h[k] for k in ("q", "r", "facing", "type")}
                         for h in board["harbours"]]}


GOOD = {
    "shipwrights": {"round_cards": [{"id": "Harbour", "icons": icons(1, 0, 1),
                                     "draft": "clockwise", "solo_vp": 4, "name": None,
                                     "trades": ["1 Silver -> 1 Oak"]}],
                    "huts": {"1": "military", "6": "renown"}, "track_vp": {"15": 3},
                    "nemesis": [{"id": "N1", "icons": icons(0, 2, 0)}]},
    "explorers": {"captains": [{"name": " Navigator ", "bonus": "VP as the card says."}]},
    "knarr": {"reputation_track": [0, 1, 1, 2, TRACK_MAX_VP]},
    "reavers": {"keep_spoils_schedule": {"Treasure": [1, 3, 6]}, "wall_majority": [5, None]},
}
# (game, body, field the server names): each one forbidden by the schema, too
BAD = [
    ("shipwrights", {"round_cards": [{"id": "C", "icons": icons(), "draft": "left"}]},
     "round_cards[0].draft"),
    ("shipwrights", {"round_cards": [{"id": "C", "icons": icons(), "draft": "clockwise",
                                      "trades": ["ok", None]}]}, "round_cards[0].trades[1]"),
    ("shipwrights", {"round_cards": [{"id": "x" * (MAX_TEXT + 1), "icons": icons(),
                                      "draft": "clockwise"}]}, "round_cards[0].id"),
    ("shipwrights", {"round_cards": [{"id": "C", "icons": icons(),
                                      "draft": "clockwise"}] * (MAX_ROUND_CARDS + 1)},
     "round_cards"),
    ("shipwrights", {"huts": {"7": "trade"}}, "huts.7"),
    ("explorers", {"captains": [{"name": "\x1f", "bonus": "b"}]}, "captains[0].name"),
    ("explorers", {"captains": [{"name": "N", "bonus": "b" * (MAX_BONUS_TEXT + 1)}]},
     "captains[0].bonus"),
    ("explorers", {"captains": [{"name": f"N{i}", "bonus": "b"}
                                for i in range(MAX_CATALOGUE_CAPTAINS + 1)]}, "captains"),
    ("knarr", {"reputation_track": [TRACK_MAX_VP + 1]}, "reputation_track[0]"),
    ("knarr", {"reputation_track": [0] * (TRACK_MAX_SPACES + 1)}, "reputation_track"),
    ("reavers", {"keep_spoils_schedule": {"Art": [1] * (MAX_SCHEDULE_LENGTH + 1)}},
     "keep_spoils_schedule.Art"),
    ("reavers", {"wall_majority": [5]}, "wall_majority"),
    ("seafarers", {"layouts": {"new_world/3": {"hexes": []}}}, "layouts.new_world/3"),
]


def document(client) -> dict:
    return client.get("/api/v1/openapi.json").json


def body_validator(doc, game_id):
    """The PUT body's schema, its references read from the document."""
    body = doc["paths"][f"/api/v1/catalogue/{game_id}"]["put"]["requestBody"]
    return jsonschema_rs.validator_for({**body["content"]["application/json"]["schema"],
                                        "components": doc["components"]})


def answer_validator(doc, game_id, method):
    answer = doc["paths"][f"/api/v1/catalogue/{game_id}"][method]["responses"]["200"]
    return jsonschema_rs.validator_for({**answer["content"]["application/json"]["schema"],
                                        "components": doc["components"]})


def test_each_game_puts_its_own_schema_and_the_bounds_are_the_games(client):
    doc = document(client)
    schemas = doc["components"]["schemas"]
    for game_id in ("shipwrights", "explorers", "knarr", "reavers", "seafarers"):
        put = doc["paths"][f"/api/v1/catalogue/{game_id}"]["put"]
        body = put["requestBody"]["content"]["application/json"]["schema"]
        component = f"#/components/schemas/Catalogue{game_id.capitalize()}"
        assert body["anyOf"][0] == {"$ref": component}
        assert "get" in doc["paths"][f"/api/v1/catalogue/{game_id}"]
    assert "/api/v1/catalogue/{game_id}" not in doc["paths"]
    assert schemas["CatalogueShipwrights"]["properties"]["round_cards"]["maxItems"] \
        == MAX_ROUND_CARDS
    track = schemas["CatalogueKnarr"]["properties"]["reputation_track"]
    assert (track["maxItems"], track["items"]["maximum"]) == (TRACK_MAX_SPACES, TRACK_MAX_VP)

    def named(node):                       # a reference read from the document
        return schemas[node["$ref"].rsplit("/", 1)[-1]] if "$ref" in node else node

    layouts = named(schemas["CatalogueSeafarers"]["properties"]["layouts"])
    layout = named(layouts["properties"]["four_islands/3"])["properties"]["hexes"]
    assert layout["maxItems"] == MAX_HEXES
    assert named(layout["items"])["properties"]["q"]["minimum"] == -COORD_LIMIT


def test_what_the_schema_allows_is_saved_and_a_get_answer_can_be_sent_back(client, app):
    doc = document(client)
    good = {**GOOD, "seafarers": {"layouts": {"four_islands/3": layout_from_setup(client)}}}
    for game_id, body in good.items():
        valid = body_validator(doc, game_id)
        assert valid.is_valid(body), game_id
        url = f"/api/v1/catalogue/{game_id}"
        assert answer_validator(doc, game_id, "get").is_valid(client.get(url).json)  # empty
        saved = client.put(url, json=body, headers=owner_headers(app))
        assert saved.status_code == 200, (game_id, saved.json)
        assert answer_validator(doc, game_id, "put").is_valid(saved.json)   # as cleaned
        read = client.get(url).json
        assert answer_validator(doc, game_id, "get").is_valid(read)
        assert valid.is_valid(read)                # {"game", "catalogue", "help"} as a body
        assert client.put(url, json=read, headers=owner_headers(app)).status_code == 200


@pytest.mark.parametrize("game_id, body, field", BAD)
def test_what_the_schema_forbids_is_a_400_naming_the_field(client, app, game_id, body, field):
    assert not body_validator(document(client), game_id).is_valid(body)
    refused = client.put(f"/api/v1/catalogue/{game_id}", json=body, headers=owner_headers(app))
    assert refused.status_code == 400 and refused.json["error"]["field"] == field


def test_a_body_of_the_right_shape_is_saved_or_breaks_a_rule_a_422_with_its_code(client, app):
    doc = document(client)
    layout = layout_from_setup(client)
    twice = {"hexes": [*layout["hexes"], layout["hexes"][0]], "harbours": layout["harbours"]}
    short = {"hexes": layout["hexes"], "harbours": layout["harbours"][1:]}
    cases = [
        ("shipwrights", {"nemesis": [{"id": "N", "icons": icons()},
                                     {"id": "n", "icons": icons()}]}, "duplicate_entry"),
        ("explorers", {"captains": [{"name": "Navigator", "bonus": "b"},
                                    {"name": "NAVIGATOR", "bonus": "c"}]}, "duplicate_entry"),
        ("explorers", {"captains": [{"name": "HUNT\u017fMAN", "bonus": "b"}]}, "invalid_input"),
        ("reavers", {"keep_spoils_schedule": {"Art": [1], " art": [2]}}, "duplicate_entry"),
        ("reavers", {"wall_majority": [2, 5]}, "second_above_most"),
        ("seafarers", {"layouts": {"four_islands/3": twice}}, "duplicate_entry"),
        ("seafarers", {"layouts": {"four_islands/3": short}}, "wrong_material"),
    ]
    for game_id, body, code in cases:
        assert body_validator(doc, game_id).is_valid(body), body
        refused = client.put(f"/api/v1/catalogue/{game_id}", json=body,
                             headers=owner_headers(app))
        assert (refused.status_code, refused.json["error"]["code"]) == (422, code), body
        assert "422" in doc["paths"][f"/api/v1/catalogue/{game_id}"]["put"]["summary"]
