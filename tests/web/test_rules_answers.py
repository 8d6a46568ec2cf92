"""The API answers, pages and exports for issue 21's "no early winner" and the race end, and
issue 22's four rules, through the Flask client.

Reavers' "End of the Game" scores artifacts, favor tokens, keep spoils, the defense/wall
majorities and prophecies from what each player holds: until those are entered the result is
provisional, and every place that shows a result says so (the play page, the table display,
the score sheet PDF, the JSON and CSV exports, BG Stats, the history list).
"""
from __future__ import annotations

import csv
import io
import re

from pypdf import PdfReader

END_ROWS = ["artifacts", "favor", "keep_spoils", "tapestries", "walls", "prophecies"]
PAWNS = ("recruit_reavers", "raid_villages", "raid_keeps", "battle_at_sea")


def create(client, game, players, seed=7, **options):
    response = client.post("/api/v1/plays", json={"game": game, "players": players,
                                                  "seed": seed, "options": options})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def post(client, play, kind, data=None):
    return client.post(f"/api/v1/plays/{play['id']}/events", json={"type": kind,
                                                                   "data": data or {}},
                       headers={"Authorization": f"Bearer {play['edit_token']}"})


def ok(response) -> dict:
    assert response.status_code == 200, response.get_json()
    return response.get_json()["state"]


def page(client, play, suffix="", role="edit"):
    return client.get(f"/plays/{play['id']}/{play[role + '_token']}{suffix}")


def text(response) -> str:
    return response.get_data(as_text=True)


def six_rounds_of_reavers(client, play) -> dict:
    """Every pawn of every round placed, cleanup after each: round 6 ends the game."""
    state = None
    for _ in range(6):
        for location in PAWNS:
            ok(post(client, play, "place", {"location": location}))
        ok(post(client, play, "advance"))
        state = ok(post(client, play, "advance"))
    return state


def pdf_text(client, play) -> str:
    response = page(client, play, "/scoresheet.pdf", role="view")
    assert response.mimetype == "application/pdf"
    return " ".join(p.extract_text() for p in PdfReader(io.BytesIO(response.data)).pages)


def csv_rows(client, play) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text(page(client, play, "/export.csv",
                                                     role="view")))))


# --------------------------------------------------------------------------- Reavers' ending
def test_reavers_after_round_six_is_provisional_until_the_end_game_rows_are_in(client):
    play = create(client, "reavers", ["Ann", "Ben"])
    ok(post(client, play, "sheet", {"player": "Ann", "fields": {"glory": 9}}))
    state = six_rounds_of_reavers(client, play)
    score = state["score"]
    # the round-6 cleanup ends the play, but nobody has won yet
    assert state["finished"] and score["game_over"] and score["provisional"]
    assert score["to_enter"] == [{"player": "Ann", "rows": END_ROWS},
                                 {"player": "Ben", "rows": END_ROWS}]
    html = text(page(client, play))
    assert "Game over · Provisional ranking" in html and "Game over · Final ranking" not in html
    assert 'data-final="false"' in html and "Ann wins" not in html
    block = html[html.index('id="to-enter"'):html.index("</div>", html.index('id="to-enter"'))]
    rows = "Artifacts, Favor, Keep spoils, Tapestries, Walls, Prophecies"
    assert block.count(rows) == 2                         # each row by its scoring row's name
    assert 'aria-label="Ann has nothing more to enter"' in block
    for display in (text(page(client, play, "/display", role="view")),       # the page
                    text(page(client, play, "/display?version=0", role="view"))):  # its block
        assert "Game over · Provisional ranking" in display and "d-crown" not in display
        assert "data-to-enter" in display and "Final result" not in display
        assert display.count(rows) == 2
    pdf = pdf_text(client, play)
    assert "Still to enter before the result is final" in pdf and "Leading" in pdf
    assert "Winner:" not in pdf
    export = page(client, play, "/export.json", role="view").get_json()
    assert export["result"]["provisional"] is True
    assert export["result"]["to_enter"][0]["rows"] == END_ROWS
    assert {row["provisional"] for row in csv_rows(client, play)} == {"yes"}
    assert 'id="bgstats"' not in text(page(client, play, "/history"))
    history = text(client.get("/history"))
    assert "Still to enter before the result is final: Ann and Ben" in history


def test_reavers_result_is_final_once_each_player_has_entered_or_said_nothing_more(client):
    play = create(client, "reavers", ["Ann", "Ben"])
    six_rounds_of_reavers(client, play)
    state = ok(post(client, play, "sheet", {"player": "Ann", "fields": {
        "artifacts": [3, 2], "favor": 1, "prophecies": [4]}, "add": {"walls": 1}}))
    assert state["score"]["to_enter"] == [
        {"player": "Ann", "rows": ["keep_spoils", "tapestries"]},
        {"player": "Ben", "rows": END_ROWS}]
    # typed as 0 counts as entered, like any value
    state = ok(post(client, play, "sheet", {"player": "Ann", "fields": {
        "keep_spoils": {}, "tapestries": {}}}))
    assert state["score"]["to_enter"] == [{"player": "Ben", "rows": END_ROWS}]
    assert state["score"]["provisional"] is True
    # Ben taps "Nothing more" on the page: a sheet event with done (the form's own path)
    response = client.post(f"/plays/{play['id']}/{play['edit_token']}/events", data={
        "type": "sheet", "player": "Ben", "done": "true"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    state = client.get(f"/api/v1/plays/{play['id']}", headers={
        "Authorization": f"Bearer {play['view_token']}"}).get_json()["state"]
    assert state["sheets_done"] == ["Ben"]
    score = state["score"]
    assert score["to_enter"] == [] and score["game_over"] is True
    # walls: Ann alone holds some, so the glory for the most (box data no rulebook gives) is
    # asked for: the result stays provisional until the table answers it
    assert score["complete"] is False and score["provisional"] is True
    assert [m["key"] for m in score["missing"]] == ["wall_majority.most"]
    ok(post(client, play, "box_value", {"key": "wall_majority.most", "value": 5}))
    score = client.get(f"/api/v1/plays/{play['id']}", headers={
        "Authorization": f"Bearer {play['view_token']}"}).get_json()["state"]["score"]
    assert score["provisional"] is False and score["winners"] == ["Ann"]
    html = text(page(client, play))
    assert "Game over · Final ranking" in html and 'data-final="true"' in html
    assert "Ann wins" in html and 'id="to-enter"' not in html
    display = text(page(client, play, "/display", role="view"))
    assert "Final result" in display and "d-crown" in display
    assert "Winner:" in pdf_text(client, play)
    assert {row["provisional"] for row in csv_rows(client, play)} == {"no"}
    assert 'id="bgstats"' in text(page(client, play, "/history"))


def test_undo_takes_a_nothing_more_back(client):
    play = create(client, "reavers", ["Ann", "Ben"])
    six_rounds_of_reavers(client, play)
    ok(post(client, play, "sheet", {"player": "Ann", "done": True}))
    state = ok(client.post(f"/api/v1/plays/{play['id']}/undo",
                           headers={"Authorization": f"Bearer {play['edit_token']}"}))
    assert [e["player"] for e in state["score"]["to_enter"]] == ["Ann", "Ben"]
    bad = post(client, play, "sheet", {"player": "Ann", "done": "maybe"})
    assert (bad.status_code, bad.get_json()["error"]["field"]) == (400, "data.done")


def test_undo_of_a_typed_row_lists_it_again(client):
    """Ann's phone types her favor tokens on Ben's sheet by mistake, Ben's phone enters his
    artifacts, then Ann's phone takes its own change back (a compensating change, as another
    phone's came after it): Ben has favor to enter again and the result stays provisional."""
    play = create(client, "reavers", ["Ann", "Ben"])
    six_rounds_of_reavers(client, play)
    ok(post(client, play, "sheet", {"player": "Ann", "done": True}))
    ok(post(client, play, "sheet", {"player": "Ben", "fields": {
        "keep_spoils": {}, "tapestries": {}, "walls": 0, "prophecies": []}}))
    ann = {"HX-Request": "true", "X-Device-Id": "phone-ann"}
    ben = {"HX-Request": "true", "X-Device-Id": "phone-ben"}
    base = f"/plays/{play['id']}/{play['edit_token']}"
    for phone, form in ((ann, {"f:favor": "2"}), (ben, {"f:artifacts": "3, 4"})):
        response = client.post(base + "/events", headers=phone, data={
            "type": "sheet", "player": "Ben", **form})
        assert response.status_code == 200
    state = client.get(f"/api/v1/plays/{play['id']}", headers={
        "Authorization": f"Bearer {play['view_token']}"}).get_json()["state"]
    assert state["score"]["to_enter"] == [] and state["score"]["provisional"] is False
    response = client.post(base + "/undo", headers=ann, data={"mine": "1"})
    assert response.status_code == 200
    state = client.get(f"/api/v1/plays/{play['id']}", headers={
        "Authorization": f"Bearer {play['view_token']}"}).get_json()["state"]
    assert state["sheets"]["Ben"]["favor"] == 0 and state["sheets"]["Ben"]["artifacts"] == [3, 4]
    assert state["score"]["to_enter"] == [{"player": "Ben", "rows": ["favor"]}]
    assert state["score"]["provisional"] is True
    html = text(page(client, play))
    assert "Game over · Provisional ranking" in html
    assert "Ann wins" not in html and "Ben wins" not in html


def test_a_game_without_end_game_rows_is_final_when_it_ends(client):
    """Knarr scores only the score track, kept turn by turn: its end is final at once."""
    play = create(client, "knarr", ["Ann", "Bo"])
    state = ok(post(client, play, "sheet", {"player": "Ann", "fields": {"vp": 41}}))
    assert state["score"]["to_enter"] == [] and state["score"]["provisional"] is True
    while not state["finished"]:
        state = ok(post(client, play, "advance"))
    assert state["score"]["provisional"] is False and state["score"]["winners"] == ["Ann"]


def test_explorers_lists_only_the_rows_a_sheet_needs_after_the_last_turn(client):
    play = create(client, "explorers", ["Ann", "Bo"])
    state = ok(post(client, play, "keep_captain", {
        "player": "Ann", "captain": client.get(
            f"/api/v1/plays/{play['id']}", headers={"Authorization": f"Bearer "
                                                                  f"{play['view_token']}"}
        ).get_json()["state"]["setup"]["captains"]["Ann"][0]}))
    while not state["table"]["game_over"]:
        state = ok(post(client, play, "turn"))
    score = state["score"]
    assert score["game_over"] and not state["finished"] and score["provisional"]
    rows = {e["player"]: e["rows"] for e in score["to_enter"]}
    base = ["livestock", "outposts", "enemy_ships", "settlements", "viking_deaths"]
    archer = ["archer_tiles"] if state["sheets"]["Ann"]["captain"] == "Archer" else []
    assert rows["Ann"] == base + archer                   # her captain is kept
    assert rows["Bo"][:len(base) + 1] == base + ["captain"]
    assert "Still to enter before the result is final" in text(page(client, play))


# --------------------------------------------------------------------------- Seafarers' race
def test_seafarers_ends_on_the_change_that_brings_the_player_on_turn_to_the_target(client):
    play = create(client, "seafarers", ["Ann", "Bo", "Cy"], scenario="four_islands",
                  layout="variable")
    state = ok(post(client, play, "advance"))
    on_turn = state["table"]["current_player"]
    state = ok(post(client, play, "sheet", {"player": on_turn, "fields": {
        "settlements": 4, "cities": 4}}))
    assert state["finished"], "no extra Next round/turn tap"
    score = state["score"]
    assert score["winners"] == [on_turn] and score["turn"] == on_turn
    assert score["provisional"] is False and score["game_over"] is True
    refused = post(client, play, "advance")
    assert (refused.status_code, refused.get_json()["error"]["code"]) == (422, "play_finished")
    html = text(page(client, play))
    assert f"{on_turn} wins!" in html and "Game over · Final ranking" in html


def test_seafarers_undo_of_the_winning_change_lets_the_game_go_on(client):
    """The phone that typed the winning change takes it back with its own Undo: the play
    is open again on the same turn, the next turn can be played, and the history list no
    longer counts it finished."""
    play = create(client, "seafarers", ["Ann", "Bo", "Cy"], scenario="four_islands",
                  layout="variable")
    on_turn = ok(post(client, play, "advance"))["table"]["current_player"]
    phone = {"HX-Request": "true", "X-Device-Id": "phone-a"}
    base = f"/plays/{play['id']}/{play['edit_token']}"
    response = client.post(base + "/events", headers=phone, data={
        "type": "sheet", "player": on_turn, "f:settlements": "4", "f:cities": "4"})
    assert response.status_code == 200 and f"{on_turn} wins!" in text(response)
    response = client.post(base + "/undo", headers=phone, data={"mine": "1"})
    assert response.status_code == 200
    state = client.get(f"/api/v1/plays/{play['id']}", headers={
        "Authorization": f"Bearer {play['view_token']}"}).get_json()["state"]
    assert state["finished"] is False and state["table"]["current_player"] == on_turn
    assert state["score"]["provisional"] is True and state["clock"]["running"] is True
    assert f"{on_turn} wins!" not in text(page(client, play))
    state = ok(post(client, play, "advance"))
    assert state["table"]["current_player"] != on_turn


def test_seafarers_two_players_at_the_target_only_the_one_on_turn_wins(client):
    play = create(client, "seafarers", ["Ann", "Bo", "Cy"], scenario="four_islands",
                  layout="variable")
    state = ok(post(client, play, "advance"))
    on_turn = state["table"]["current_player"]
    other = next(n for n in ("Ann", "Bo", "Cy") if n != on_turn
                 and n != state["setup"]["start_player"])
    state = ok(post(client, play, "sheet", {"player": other, "fields": {
        "settlements": 5, "cities": 4}}))                # 13, not on their turn
    assert not state["finished"]
    state = ok(post(client, play, "sheet", {"player": on_turn, "fields": {
        "settlements": 4, "cities": 4}}))                # 12 on their own turn
    score = state["score"]
    assert state["finished"] and score["winners"] == [on_turn]
    assert [p["rank"] for p in score["players"] if p["name"] == other] == [2]
    assert "only the player whose turn it is wins" in score["tiebreak"]
    stateless = client.post("/api/v1/games/seafarers/score", json={
        "players": [{"name": n, "sheet": state["sheets"][n]} for n in ("Ann", "Bo", "Cy")],
        "options": {"scenario": "four_islands"}, "turn": on_turn}).get_json()
    assert stateless["winners"] == [on_turn]
    bad = client.post("/api/v1/games/seafarers/score", json={
        "players": [{"name": n, "sheet": {}} for n in ("Ann", "Bo", "Cy")],
        "options": {"scenario": "four_islands"}, "turn": "Zed"})
    assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "turn"


# --------------------------------------------------------------------------- issue 22's rules
def test_explorers_sheet_naming_another_players_captain_is_a_422(client):
    play = create(client, "explorers", ["Ann", "Bo", "Cy"])
    setup = client.get(f"/api/v1/plays/{play['id']}", headers={
        "Authorization": f"Bearer {play['view_token']}"}).get_json()["state"]["setup"]
    bo = setup["captains"]["Bo"][1]
    for kind, data, field in (
            ("sheet", {"player": "Ann", "fields": {"captain": bo}}, "data.fields.captain"),
            ("keep_captain", {"player": "Ann", "captain": bo}, "data.captain")):
        response = post(client, play, kind, data)
        error = response.get_json()["error"]
        assert (response.status_code, error["code"], error["field"]) == (422, "not_dealt",
                                                                         field)
        assert "dealt to Bo" in error["message"]
    state = client.get(f"/api/v1/plays/{play['id']}", headers={
        "Authorization": f"Bearer {play['view_token']}"}).get_json()["state"]
    assert state["version"] == 0                          # nothing recorded
    ok(post(client, play, "sheet", {"player": "Ann", "fields": {
        "captain": setup["captains"]["Ann"][0]}}))


def test_explorers_sheet_form_shows_the_refusal_next_to_the_captain_box(client):
    play = create(client, "explorers", ["Ann", "Bo"])
    setup = client.get(f"/api/v1/plays/{play['id']}", headers={
        "Authorization": f"Bearer {play['view_token']}"}).get_json()["state"]["setup"]
    response = client.post(f"/plays/{play['id']}/{play['edit_token']}/events", data={
        "type": "sheet", "player": "Ann", "f:captain": setup["captains"]["Bo"][0]},
        headers={"HX-Request": "true"})
    html = text(response)
    assert 'data-field="data.fields.captain"' in html and "dealt to Bo" in html


def test_shipwrights_heroes_with_three_players_refuse_neutral_markers(client):
    icons = {"military": 9, "trade": 9, "renown": 9}
    tracks = {n: {"military": 1, "trade": 2, "renown": 3} for n in ("Ann", "Bo", "Cy")}
    response = client.post("/api/v1/games/shipwrights/heroes",
                           json={"tracks": tracks, "neutral": icons})
    error = response.get_json()["error"]
    assert (response.status_code, error["code"], error["field"]) == (422, "no_neutral_player",
                                                                     "neutral")
    response = client.post("/api/v1/games/shipwrights/heroes",
                           json={"tracks": tracks, "neutral": None})
    assert response.status_code == 200 and "neutral" not in response.get_json()[
        "heroes"].values()
    two = {n: tracks[n] for n in ("Ann", "Bo")}
    response = client.post("/api/v1/games/shipwrights/heroes",
                           json={"tracks": two, "neutral": icons})
    assert response.get_json()["heroes"] == {"svend": "neutral", "thyra": "neutral",
                                             "frode": "neutral"}


def test_knarr_marker_past_the_track_stops_on_the_last_space(owner_client):
    response = owner_client.put("/api/v1/catalogue/knarr", json={"reputation_track": [0, 1, 2]},
                                headers=owner_headers(owner_client.application))
    assert response.status_code == 200, response.get_json()
    play = create(owner_client, "knarr", ["Ann", "Bo"])
    state = ok(post(owner_client, play, "turn", {"reputation": 7}))
    first = state["table"]["order"][0]
    assert state["table"]["reputation"][first] == 2
    assert any("ends at space 2" in n for n in state["table"]["notices"])
    state = ok(post(owner_client, play, "turn"))
    state = ok(post(owner_client, play, "turn"))
    assert state["sheets"][first]["vp"] == 2              # the last space's VP, not 0
    html = text(page(owner_client, play))
    assert re.search(r'id="knarr-rep"[^>]*max="2"', html)


def owner_headers(app) -> dict:
    from tests.conftest import owner_headers as headers
    return headers(app)
