"""The JSON API as shared/design/api.md names it: every endpoint, tokens, conflicts, errors."""
from __future__ import annotations

import pytest

from companion.games import GAMES

CONTRACT_IDS = {"shipwrights", "explorers", "knarr", "reavers", "seafarers"}


def create(client, game="knarr", names=("Ann", "Bo"), **extra):
    body = {"game": game, "players": [{"name": n} for n in names], "seed": 7, **extra}
    response = client.post("/api/v1/plays", json=body)
    assert response.status_code == 201, response.json
    return response.json


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def sheet(client, play, player, fields, token=None, **extra):
    body = {"type": "sheet", "data": {"player": player, "fields": fields}, **extra}
    return client.post(f"/api/v1/plays/{play['id']}/events",
                       headers=auth(token or play["edit_token"]), json=body)


def read(client, play, token):
    return client.get(f"/api/v1/plays/{play['id']}", headers=auth(token)).json["state"]


def test_games_lists_the_five_contract_ids_with_player_counts(client):
    games = client.get("/api/v1/games").json["games"]
    assert {g["id"] for g in games} == CONTRACT_IDS
    for g in games:
        assert set(g) >= {"id", "name", "min_players", "max_players", "options"}
        assert 1 <= g["min_players"] <= g["max_players"] <= 5


@pytest.mark.parametrize("game_id", sorted(CONTRACT_IDS))
def test_setup_is_seeded_and_reproducible(client, game_id):
    game = GAMES[game_id]
    names = ["Ann", "Bo", "Cy", "Di"][:max(game.min_players, 3 if game_id != "knarr" else 2)]
    if game_id == "seafarers":
        names = ["Ann", "Bo", "Cy", "Di"]
    body = {"players": names, "seed": "table-1"}
    first = client.post(f"/api/v1/games/{game_id}/setup", json=body)
    again = client.post(f"/api/v1/games/{game_id}/setup", json=body)
    assert first.status_code == 200, first.json
    assert first.json == again.json
    assert first.json["seed"] == "table-1" and first.json["game"] == game_id
    assert first.json["players"] == names


def test_setup_without_seed_says_which_seed_it_used(client):
    response = client.post("/api/v1/games/knarr/setup", json={"players": ["Ann", "Bo"]})
    seed = response.json["seed"]
    again = client.post("/api/v1/games/knarr/setup", json={"players": ["Ann", "Bo"], "seed": seed})
    assert again.json == response.json


def test_wrong_player_count_is_422(client):
    response = client.post("/api/v1/games/knarr/setup", json={"players": ["Solo"]})
    assert response.status_code == 422
    assert response.json["error"]["field"] == "players"


def test_unknown_game_is_404_and_non_json_is_415(client):
    assert client.post("/api/v1/games/chess/setup", json={"players": []}).status_code == 404
    response = client.post("/api/v1/games/knarr/setup", data="players=Ann",
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 415
    assert response.json["error"]["code"] == "unsupported_media_type"


def test_oversized_body_is_413(client):
    response = client.post("/api/v1/games/knarr/score", data="[" + "1," * 200_000 + "1]",
                           content_type="application/json")
    assert response.status_code == 413


def test_broken_json_is_400_with_a_message(client):
    response = client.post("/api/v1/games/knarr/score", data="{nope",
                           content_type="application/json")
    assert response.status_code == 400
    assert response.json["error"]["message"]


def test_score_names_the_bad_field(client):
    body = {"players": [{"name": "Ann", "sheet": {"vp": -3}}, {"name": "Bo", "sheet": {}}]}
    response = client.post("/api/v1/games/knarr/score", json=body)
    assert response.status_code == 400
    assert response.json["error"]["field"] == "players[0].sheet.vp"
    body["players"][0]["sheet"] = {"vpp": 1}
    assert client.post("/api/v1/games/knarr/score", json=body).json["error"]["field"] == \
        "players[0].sheet.vpp"


def test_score_ranks_with_the_tiebreak(client):
    body = {"players": [{"name": "Ann", "sheet": {"vp": 41, "recruits": 1, "bracelets": 1}},
                        {"name": "Bo", "sheet": {"vp": 41, "recruits": 3, "bracelets": 2}},
                        {"name": "Cy", "sheet": {"vp": 30}}]}
    result = client.post("/api/v1/games/knarr/score", json=body).json
    assert result["winners"] == ["Bo"]
    assert [p["rank"] for p in result["players"]] == [2, 1, 3]
    assert [p["total"] for p in result["players"]] == [41, 41, 30]
    assert "Bo" in result["tiebreak"]


def test_create_play_returns_tokens_links_and_state(client):
    play = create(client)
    assert set(play) >= {"id", "edit_token", "view_token", "edit_url", "view_url", "state"}
    assert len(play["edit_token"]) >= 22 and len(play["view_token"]) >= 22  # >= 128 bits
    assert play["edit_url"].startswith("http://192.168.1.20:5000/plays/")
    state = play["state"]
    assert set(state) >= {"version", "round", "phase", "players", "setup", "sheets", "score",
                          "finished"}
    assert state["version"] == 0 and state["finished"] is False


def test_view_token_reads_but_never_writes(client):
    play = create(client)
    assert read(client, play, play["view_token"])["version"] == 0
    response = sheet(client, play, "Ann", {"vp": 5}, token=play["view_token"])
    assert response.status_code == 403
    assert client.post(f"/api/v1/plays/{play['id']}/undo",
                       headers=auth(play["view_token"])).status_code == 403
    state = read(client, play, play["edit_token"])
    assert state["version"] == 0


def test_missing_or_foreign_token_is_refused_without_leaking(client):
    one, other = create(client), create(client)
    assert client.get(f"/api/v1/plays/{one['id']}").status_code == 401
    response = client.get(f"/api/v1/plays/{one['id']}", headers=auth(other["edit_token"]))
    assert response.status_code == 403
    assert "Ann" not in response.get_data(as_text=True)
    unknown = client.get("/api/v1/plays/nope", headers=auth(one["edit_token"]))
    assert unknown.status_code == 403


def test_events_undo_redo_and_branch_discard(client):
    play = create(client)
    headers = auth(play["edit_token"])
    assert sheet(client, play, "Ann", {"vp": 5}).json["state"]["sheets"]["Ann"]["vp"] == 5
    assert sheet(client, play, "Ann", {"vp": 9}).json["state"]["version"] == 2
    undone = client.post(f"/api/v1/plays/{play['id']}/undo", headers=headers).json["state"]
    assert undone["sheets"]["Ann"]["vp"] == 5 and undone["version"] == 3 and undone["can_redo"]
    redone = client.post(f"/api/v1/plays/{play['id']}/redo", headers=headers).json["state"]
    assert redone["sheets"]["Ann"]["vp"] == 9
    client.post(f"/api/v1/plays/{play['id']}/undo", headers=headers)
    branch = sheet(client, play, "Bo", {"vp": 2}).json["state"]
    assert branch["sheets"]["Ann"]["vp"] == 5 and branch["sheets"]["Bo"]["vp"] == 2
    assert branch["can_redo"] is False
    response = client.post(f"/api/v1/plays/{play['id']}/redo", headers=headers)
    assert response.status_code == 409 and response.json["error"]["code"] == "nothing_to_redo"


def test_undo_at_the_start_is_a_clear_409(client):
    play = create(client)
    response = client.post(f"/api/v1/plays/{play['id']}/undo", headers=auth(play["edit_token"]))
    assert response.status_code == 409
    assert response.json["error"]["code"] == "nothing_to_undo"


def test_stale_expected_version_is_409_and_changes_nothing(client):
    play = create(client)
    assert sheet(client, play, "Ann", {"vp": 5}, expected_version=0).status_code == 200
    stale = sheet(client, play, "Ann", {"vp": 7}, expected_version=0)
    assert stale.status_code == 409
    assert stale.json["error"]["field"] == "expected_version"
    state = read(client, play, play["view_token"])
    assert state["sheets"]["Ann"]["vp"] == 5 and state["version"] == 1


def test_bad_event_is_rejected_whole(client):
    play = create(client)
    response = sheet(client, play, "Ann", {"vp": 5, "recruits": "lots"})
    assert response.status_code == 400
    assert response.json["error"]["field"] == "data.fields.recruits"
    unknown = client.post(f"/api/v1/plays/{play['id']}/events", headers=auth(play["edit_token"]),
                          json={"type": "teleport"})
    assert unknown.status_code == 400
    state = read(client, play, play["view_token"])
    assert state["version"] == 0 and state["sheets"]["Ann"].get("vp", 0) == 0


def test_score_in_state_is_the_scoring_endpoint_response(client):
    play = create(client)
    state = sheet(client, play, "Bo", {"vp": 12}).json["state"]
    direct = client.post("/api/v1/games/knarr/score", json={"players": [
        {"name": n, "sheet": state["sheets"][n]} for n in ("Ann", "Bo")]}).json
    # a play's score adds what only the play knows: whether its game is over and what is
    # still to enter before the result is final (companion.games.ending)
    ending = {"game_over": False, "to_enter": [], "provisional": True}
    assert state["score"] == {**direct, **ending}


# The pawns of a round (2 players x 2, or 4 x 1), placed before cleanup; Trade with Villages
# is left out as it moves the Start Player marker.
REAVERS_PAWN_LOCATIONS = ("recruit_reavers", "raid_villages", "raid_keeps", "battle_at_sea")


def test_advance_and_finish(client):
    play = create(client, game="reavers")
    headers = auth(play["edit_token"])
    early = client.post(f"/api/v1/plays/{play['id']}/events", headers=headers,
                        json={"type": "advance"})
    assert early.status_code == 422 and early.json["error"]["code"] == "pawns_left"
    for location in REAVERS_PAWN_LOCATIONS:
        client.post(f"/api/v1/plays/{play['id']}/events", headers=headers,
                    json={"type": "place", "data": {"location": location}})
    state = client.post(f"/api/v1/plays/{play['id']}/events", headers=headers,
                        json={"type": "advance"}).json["state"]
    assert state["phase"] == "cleanup"
    state = client.post(f"/api/v1/plays/{play['id']}/events", headers=headers,
                        json={"type": "finish"}).json["state"]
    assert state["finished"] is True


def test_scoresheet_pdf_and_join_qr_need_a_token(client):
    play = create(client)
    pdf = client.get(f"/api/v1/plays/{play['id']}/scoresheet.pdf", headers=auth(play["view_token"]))
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert pdf.data.startswith(b"%PDF")
    svg = client.get(f"/api/v1/plays/{play['id']}/join.svg", headers=auth(play["view_token"]))
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml" and b"<svg" in svg.data
    assert client.get(f"/api/v1/plays/{play['id']}/join.svg").status_code == 401


def test_catalogue_roundtrip_and_validation(owner_client):
    client = owner_client
    assert client.get("/api/v1/catalogue/knarr").status_code == 200
    good = {"reputation_track": [0, 1, 2, 3, 5]}
    response = client.put("/api/v1/catalogue/knarr", json=good)
    assert response.status_code == 200
    assert client.get("/api/v1/catalogue/knarr").json["catalogue"]["reputation_track"] == \
        [0, 1, 2, 3, 5]
    bad = client.put("/api/v1/catalogue/knarr", json={"reputation_track": [0, "x"]})
    assert bad.status_code == 400 and bad.json["error"]["field"]
    assert client.get("/api/v1/catalogue/knarr").json["catalogue"]["reputation_track"] == \
        [0, 1, 2, 3, 5]
    assert client.get("/api/v1/catalogue/chess").status_code == 404


def test_openapi_document_lists_every_contract_path(client):
    doc = client.get("/api/v1/openapi.json").json
    assert doc["openapi"].startswith("3.1")
    per_game = [f"/api/v1/games/{g}/{op}" for g in CONTRACT_IDS for op in ("setup", "score")]
    for path in ("/api/v1/games", *per_game, "/api/v1/games/shipwrights/heroes",
                 "/api/v1/plays", "/api/v1/plays/{play_id}",
                 "/api/v1/plays/{play_id}/events", "/api/v1/plays/{play_id}/undo",
                 "/api/v1/plays/{play_id}/redo", "/api/v1/plays/{play_id}/scoresheet.pdf",
                 "/api/v1/plays/{play_id}/join.svg", "/api/v1/catalogue/knarr",
                 "/api/v1/catalogue/{game_id}/versions", "/api/v1/openapi.json"):
        assert path in doc["paths"], path


def test_openapi_event_types_are_exactly_what_the_server_takes(client):
    """The document's event types come from the registry: every game's own and the common
    ones, and nothing the server would refuse as unknown."""
    from companion.games import GAMES
    from companion.plays import COMMON_EVENTS

    doc = client.get("/api/v1/openapi.json").json
    schemas = doc["components"]["schemas"]
    for game in GAMES.values():
        branches = schemas[f"Event{game.id.capitalize()}"]["oneOf"]
        listed = [schemas[b["$ref"].rsplit("/", 1)[-1]]["properties"]["type"]["const"]
                  for b in branches]
        wanted = {*COMMON_EVENTS, *game.event_types} - (
            set() if game.box_value_type else {"box_value"})
        assert set(listed) == wanted and len(listed) == len(wanted), game.id
    seat = schemas["ScoreRequestKnarr"]["properties"]["players"]["items"]
    seat = schemas[seat["$ref"].rsplit("/", 1)[-1]]
    assert seat["required"] == ["name"] and seat["additionalProperties"] is False
    play = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo"]}).json
    refused = client.post(f"/api/v1/plays/{play['id']}/events", json={"type": "no_such_event"},
                          headers={"Authorization": f"Bearer {play['edit_token']}"})
    assert refused.status_code == 400 and "no_such_event" not in listed


def test_the_heroes_body_is_described_as_the_server_checks_it(client):
    """HeroesRequest: tracks by name, each with all three positions 0..18, nothing else; what
    the document refuses, the server refuses, and what it allows is adjudicated."""
    doc = client.get("/api/v1/openapi.json").json
    op = doc["paths"]["/api/v1/games/shipwrights/heroes"]["post"]
    assert op["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/HeroesRequest"}
    schema = doc["components"]["schemas"]["HeroesRequest"]
    positions = schema["properties"]["tracks"]["additionalProperties"]
    positions = doc["components"]["schemas"][positions["$ref"].rsplit("/", 1)[-1]]
    assert schema["required"] == ["tracks"] and positions["required"] == [
        "military", "trade", "renown"] and positions["properties"]["renown"]["maximum"] == 18
    url = "/api/v1/games/shipwrights/heroes"
    assert client.post(url, json={}).status_code == 400
    assert client.post(url, json={"tracks": {"Ann": {"military": 1, "trade": 2}}}
                       ).status_code == 400
    assert client.post(url, json={"tracks": {"Ann": {"military": 1, "trade": 2,
                                                     "renown": 19}}}).status_code == 400
    ok = client.post(url, json={"tracks": {"Ann": {"military": 3, "trade": 0, "renown": 0},
                                           "Bo": {"military": 1, "trade": 0, "renown": 0}},
                                "neutral": None})
    # Ann alone leads Military (Svend); Trade and Renown are tied at 0, so nobody takes Thyra
    # or Frode, and Bo, holding none, takes a Randi
    assert ok.status_code == 200 and ok.json == {
        "heroes": {"svend": "Ann", "thyra": None, "frode": None}, "randi": ["Bo"]}


def test_unknown_route_and_method_are_json_errors(client):
    assert client.get("/api/v1/nothing").json["error"]["code"] == "not_found"
    assert client.delete("/api/v1/games").status_code == 405


def test_join_qr_for_an_edit_token_still_shares_only_the_view_link(client):
    from companion.qr import qr_svg  # the same maker, so equal drawings mean equal links

    play = create(client)
    svg = client.get(f"/api/v1/plays/{play['id']}/join.svg", headers=auth(play["edit_token"]))
    assert svg.status_code == 200
    assert svg.get_data(as_text=True) == qr_svg(play["view_url"])
    assert svg.get_data(as_text=True) != qr_svg(play["edit_url"])


def test_every_text_in_the_document_carries_the_servers_text_rule(client):
    """The server refuses NUL and lone surrogates in any string or key (invalid_text); the
    document says so in every string schema and every object's open keys, so a generator
    never sends one as a valid body (schemathesis once did, in a Shipwrights heroes key)."""
    import re

    doc = client.get("/api/v1/openapi.json").json
    seen = {"strings": 0, "keys": 0}

    def refuses_bad_text(schema):
        patterns = [schema.get("pattern")] + [s.get("pattern") for s in schema.get("allOf", [])]
        return any(p and re.search(p, "a\x00") is None for p in patterns)

    def walk(schema):
        if isinstance(schema, dict):
            kinds = schema.get("type")
            kinds = kinds if isinstance(kinds, list) else [kinds]
            if "string" in kinds and "enum" not in schema and "const" not in schema:
                seen["strings"] += 1
                assert refuses_bad_text(schema), schema
            if ("object" in kinds or "properties" in schema) \
                    and schema.get("additionalProperties", True) is not False:
                seen["keys"] += 1
                assert refuses_bad_text(schema["propertyNames"]), schema
            for key, value in schema.items():
                if key == "not":        # what it names is refused: no text a request holds
                    continue
                if key in ("anyOf", "oneOf", "allOf"):    # a bare rule on the value itself
                    value = [v for v in value if "type" in v or "$ref" in v]
                walk(value)
        elif isinstance(schema, list):
            for value in schema:
                walk(value)

    answers = {"Error", "ScoreResponse", "State", "StateResponse", "Clock", "CatalogueVersions"}
    walk({name: s for name, s in doc["components"]["schemas"].items() if name not in answers})
    for operations in doc["paths"].values():   # what requests hold; answers may hold anything
        walk([{k: v for k, v in op.items() if k != "responses"} for op in operations.values()])
    error_field = doc["components"]["schemas"]["Error"]["properties"]["error"]["properties"]
    assert "pattern" not in error_field["field"]         # it names a key at fault, NUL and all
    assert seen["strings"] > 20 and seen["keys"] > 5
    assert "lone surrogate" in doc["info"]["description"]    # no portable pattern can say it
    name = doc["components"]["schemas"]["SetupRequestKnarr"]["properties"]["players"]["items"]
    assert re.search(name["pattern"], "Ann") and not re.search(name["pattern"], "  ")
    assert client.post("/api/v1/games/knarr/setup",
                       json={"players": ["Ann", "B\x00o"]}).json["error"]["code"] \
        == "invalid_text"


def test_every_pattern_in_the_document_is_a_regex_to_the_generators_validator(client):
    """schemathesis generates and checks with jsonschema_rs: a pattern it cannot compile (one
    naming surrogates, \\ud800-\\udfff) is dropped unseen, and the rule it held with it (NUL
    was then sent in bodies the document called valid)."""
    import jsonschema_rs

    doc = client.get("/api/v1/openapi.json").json
    patterns = set()

    def walk(schema):
        if isinstance(schema, dict):
            if isinstance(schema.get("pattern"), str):
                patterns.add(schema["pattern"])
            for value in schema.values():
                walk(value)
        elif isinstance(schema, list):
            for value in schema:
                walk(value)

    walk(doc)
    assert len(patterns) > 3
    for pattern in patterns:
        assert jsonschema_rs.validator_for({"type": "string", "pattern": pattern}), pattern


def test_not_blank_means_what_the_servers_strip_means_to_every_engine():
    """"\\S" in a schema is the server's "not blank" (str.strip/split: Python's whitespace).
    Spelt out, so the validator schemathesis uses (Rust regex, whose \\s leaves out \\x1c-\\x1f
    and \\x85) reads it as Python does: a captain named "\\x1f" was once sent as valid."""
    import re

    import jsonschema_rs

    from companion.games.bodies import NOT_BLANK_TEXT

    pattern = NOT_BLANK_TEXT
    rust = jsonschema_rs.validator_for({"type": "string", "pattern": pattern})
    for char in map(chr, [*range(1, 0x3001), 0xfeff, 0x10000]):
        if not 0xd800 <= ord(char) < 0xe000:
            blank = char.isspace()
            assert (re.search(pattern, char) is None) == blank, hex(ord(char))
            assert rust.is_valid(char) != blank, hex(ord(char))
            assert re.search(pattern, f"{char}a{char}")


def test_refusals_the_document_cannot_describe_are_rules_or_named(client):
    """What a JSON Schema cannot say is a rule (422, with its code): of the game as set up, or
    across the body's fields and players (api.md); the schemathesis test excuses no 400."""
    def error(path, body):
        reply = client.post(path, json=body)
        return reply.status_code, reply.get_json()["error"]["code"]

    # a book scenario plays to the book's target: a rule, not a malformed option
    assert error("/api/v1/games/seafarers/setup", {
        "players": ["Ann", "Bo", "Cy"], "options": {"scenario": "new_shores",
                                                   "target_vp": 29}}) == (422, "fixed_target")
    assert client.post("/api/v1/games/seafarers/setup", json={
        "players": ["Ann", "Bo", "Cy"], "options": {"scenario": "new_shores",
                                                   "target_vp": 13}}).status_code == 200
    assert error("/api/v1/games/knarr/score", {"players": [{"name": "Ann"}, {"name": "ANN"}]}
                 ) == (422, "duplicate_name")
    assert error("/api/v1/games/shipwrights/setup", {"players": ["Ann", "NEUTRAL"]}
                 ) == (422, "reserved_name")
    # Shipwrights checks its structured options wherever they arrive, setup included
    assert error("/api/v1/games/shipwrights/setup", {
        "players": ["Ann", "Bo"], "options": {"track_vp": {"19": 3}}}) == (400, "unknown_field")
    # bonus longships as counts that each fit but not together: more than the box holds
    sheet = {"longship_bonuses": {"raid_cards": 20, "upgrades": 20}}
    assert error("/api/v1/games/shipwrights/score", {
        "players": [{"name": "Ann", "sheet": sheet}, {"name": "Bo"}]}) == (422, "too_many_pieces")
    # JSON's 42.0 is the number 42, as JSON Schema's integer says: the same seed
    whole = client.post("/api/v1/games/knarr/setup", json={"players": ["Ann", "Bo"],
                                                            "seed": 42.0}).get_json()
    plain = client.post("/api/v1/games/knarr/setup", json={"players": ["Ann", "Bo"],
                                                            "seed": 42}).get_json()
    assert whole == plain and plain["seed"] == 42
