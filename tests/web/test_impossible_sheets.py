"""`companion score` and the scoring endpoint refuse each impossible sheet of issue 14 with
exit code 2 (or 422: well-formed sheets that break a rule across fields) and a message naming
the rule; a live play refuses the event (422)."""
from __future__ import annotations

import json

import pytest

NAMES = ["Ann", "Bo", "Cy", "Di"]
HOME = {"settlements": 2}


def seafarers(scenario, *sheets):
    return {"players": [{"name": NAMES[i], "sheet": s} for i, s in enumerate(sheets)],
            "options": {"scenario": scenario}}


# (game, body, words the message must hold): one per impossible sheet the issue lists.
IMPOSSIBLE = {
    "two_largest_army": ("seafarers", seafarers("new_shores", {"largest_army": True},
                                                {"largest_army": True}, {}),
                         "only one Largest Army card"),
    "two_longest_route": ("seafarers", seafarers("new_shores", {}, {"longest_route": True},
                                                 {"longest_route": True}),
                          "only one Longest Trade Route card"),
    "five_cities": ("seafarers", seafarers("four_islands", {"cities": 5}, {}, {}),
                    "each player has only 4"),
    "special_vp_in_oceans": ("seafarers", seafarers("oceans", {**HOME, "special_vp": 1}, {},
                                                    {}), "awards no special victory points"),
    "special_vp_in_greater_catan": ("seafarers", seafarers(
        "greater_catan", {**HOME, "special_vp": 1}, {}, {}, {}),
        "awards no special victory points"),
    "four_islands_2": ("seafarers", seafarers("four_islands", {"settlements": 4,
                                                               "special_vp": 2}, {}, {}),
                       "0, 1, 3 or 5"),
    "new_shores_2": ("seafarers", seafarers("new_shores", {**HOME, "special_vp": 2}, {}, {}),
                     "first settlement on a small island"),
    "wasteland_2": ("seafarers", seafarers("wasteland", {**HOME, "special_vp": 2}, {}, {}),
                    "first settlement on a small island"),
    "special_vp_without_village": ("seafarers", seafarers("new_world", {"special_vp": 1}, {},
                                                          {}),
                                   "beneath the settlement or city"),
    "six_vp_cards_one_player": ("seafarers", seafarers("new_shores", {"vp_cards": 6}, {}, {}),
                                "holds only 5"),
    "six_vp_cards_in_all": ("seafarers", seafarers("new_shores", {"vp_cards": 4}, {},
                                                   {"vp_cards": 2}),
                            "6 victory point cards together"),
    "explorers_same_captain": ("explorers", {"players": [
        {"name": "Ann", "sheet": {"captain": "Hero"}},
        {"name": "Bo", "sheet": {"captain": "Hero"}}]}, "dealt only once"),
    "shipwrights_raid_cards": ("shipwrights", {"players": [
        {"name": "Ann", "sheet": {"raid_cards": 9}},
        {"name": "Bo", "sheet": {"raid_cards": 9}}]}, "15 Raid Cards"),
    "reavers_four_tapestries": ("reavers", {"players": [
        {"name": "Ann", "sheet": {"tapestries": {"a": 1, "b": 1, "c": 1, "d": 1}}},
        {"name": "Bo", "sheet": {}}]}, "only 3 different tapestries"),
}


@pytest.mark.parametrize("case", sorted(IMPOSSIBLE))
def test_cli_score_refuses_each_impossible_sheet(runner, tmp_path, case):
    game, body, words = IMPOSSIBLE[case]
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    result = runner.invoke(args=["score", game, str(path)])
    assert result.exit_code == 2, result.output
    assert words in result.stderr and "players[" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("case", ["two_largest_army", "four_islands_2",
                                  "explorers_same_captain"])
def test_score_endpoint_answers_422_naming_the_fields(client, case):
    game, body, words = IMPOSSIBLE[case]
    response = client.post(f"/api/v1/games/{game}/score", json=body)
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert error["code"] == "impossible_sheet" and words in error["message"]
    assert error["field"] == error["fields"][0] and error["fields"]


def test_a_possible_sheet_scores_with_its_notes(client):
    body = seafarers("great_crossing", {"settlements": 1, "special_vp": 2}, {}, {}, {})
    response = client.post("/api/v1/games/seafarers/score", json=body)
    assert response.status_code == 200
    assert response.get_json()["players"][0]["total"] == 3
    assert "does not say" in response.get_json()["notes"][0]


def test_a_live_play_refuses_the_event_and_keeps_its_state(client):
    made = client.post("/api/v1/plays", json={"game": "seafarers", "players": NAMES[:3],
                                              "options": {"scenario": "oceans"}, "seed": 4})
    play, token = made.get_json()["id"], made.get_json()["edit_token"]
    auth = {"Authorization": f"Bearer {token}"}
    url = f"/api/v1/plays/{play}/events"
    ok = client.post(url, headers=auth, json={"type": "sheet", "data": {
        "player": "Ann", "fields": {"largest_army": True}}})
    assert ok.status_code == 200
    version = ok.get_json()["state"]["version"]
    refused = client.post(url, headers=auth, json={"type": "sheet", "data": {
        "player": "Bo", "fields": {"largest_army": True}}})
    assert refused.status_code == 422
    assert "Ann and Bo" in refused.get_json()["error"]["message"]
    state = client.get(f"/api/v1/plays/{play}", headers=auth).get_json()["state"]
    assert state["version"] == version and state["sheets"]["Bo"] == {}
