"""Explorers' play page: the turn counter, captains and islands posted as the page's forms do."""
from __future__ import annotations

import re

import pytest

HX = {"HX-Request": "true"}
SEED = "1"   # Ann starts and is dealt Tyrant/Barbarian; Bo Huntsman/Berserker; Cy Shieldmaiden/..


@pytest.fixture
def play(client):
    response = client.post("/new", data={"game": "explorers", "name0": "Ann", "name1": "Bo",
                                         "name2": "Cy", "opt:rocks_of_ruin": "on",
                                         "seed": SEED})
    assert response.status_code == 302
    path = response.headers["Location"]
    play_id, token = path.rstrip("/").split("/")[-2:]
    return {"path": path, "id": play_id, "token": token}


def state(client, play):
    response = client.get(f"/api/v1/plays/{play['id']}",
                          headers={"Authorization": f"Bearer {play['token']}"})
    return response.json["state"]


def post(client, play, **form):
    form.setdefault("expected_version", str(state(client, play)["version"]))
    return client.post(play["path"] + "/events", headers=HX, data=form)


def add_island(client, play, tiles="5", complete=True, name=""):
    return post(client, play, type="add_island", **{
        "d:tiles": tiles, "d:complete": ["false", "true"] if complete else "false",
        "d:unraided_fortress": "false", "s:name": name})


def test_the_turn_counter_and_its_end_turn_button(client, play):
    html = client.get(play["path"]).get_data(as_text=True)
    assert re.search(r"Turn <strong data-turn>1</strong> <span>of 72</span>", html)
    assert "End Ann's turn" in html and "Winter Token" in html
    html = post(client, play, type="turn").get_data(as_text=True)
    assert "<span data-current-player>Bo</span>" in html
    assert state(client, play)["table"]["turn"] == 2


def test_after_the_last_turn_the_page_asks_to_count_up(client, play):
    for _ in range(72):
        assert post(client, play, type="turn").status_code == 200
    html = client.get(play["path"]).get_data(as_text=True)
    assert "Winter has come: count up" in html and "End game" in html
    assert 'value="turn"' not in html
    again = post(client, play, type="turn")
    assert again.status_code == 422 and 'id="ex-turn-error"' not in again.get_data(as_text=True)
    assert "every turn has been played" in again.get_data(as_text=True)


def test_add_island_keeps_a_number_like_name_as_text(client, play):
    response = add_island(client, play, tiles="4", complete=False, name="3")
    assert response.status_code == 200
    island = state(client, play)["table"]["islands"][0]
    assert island["tiles"] == 4 and island["complete"] is False and island["name"] == "3"
    html = response.get_data(as_text=True)
    assert 'id="ex-island-0"' in html and "incomplete" in html


def test_set_influence_steps_and_the_page_names_the_controllers(client, play):
    add_island(client, play, tiles="5")
    post(client, play, type="set_influence", **{"d:island": "0", "s:player": "Ann",
                                                "d:outposts": "1"})
    html = post(client, play, type="set_influence", **{"d:island": "0", "s:player": "Ann",
                                                       "d:vikings": "1"}).get_data(as_text=True)
    assert "→ Ann</span>" in html and "Ann controls it with 3 influence: 5 VP." in html
    post(client, play, type="set_influence", **{"d:island": "0", "s:player": "Bo",
                                                "d:vikings": "1"})
    response = post(client, play, type="set_influence", **{"d:island": "0", "s:player": "Bo",
                                                           "d:barracks": "1"})
    html = response.get_data(as_text=True)
    pieces = state(client, play)["table"]["islands"][0]["influence"]
    assert pieces["Ann"]["outposts"] == pieces["Ann"]["vikings"] == 1 and pieces["Bo"] == {
        "vikings": 1, "outposts": 0, "mill": 0, "workshop": 0, "barracks": 1}
    assert "→ Ann and Bo" in html and "tie on 3 influence" in html
    # the + button adds one to what is stored (taps commute), the toggle turns the barracks off
    assert re.search(r'name="add:vikings" value="1" aria-label="Bo: one viking more', html)
    assert re.search(r'name="d:barracks" value="0" aria-pressed="true" '
                     r'aria-label="Bo\'s barracks', html)


def test_update_and_remove_island(client, play):
    add_island(client, play, tiles="5")
    post(client, play, type="update_island", **{"d:island": "0", "d:tiles": "6",
                                                "d:complete": ["false"], "s:name": "North"})
    island = state(client, play)["table"]["islands"][0]
    assert (island["tiles"], island["complete"], island["name"]) == (6, False, "North")
    response = post(client, play, type="remove_island", **{"d:island": "0"})
    assert response.status_code == 200 and state(client, play)["table"]["islands"] == []


def test_keep_captain_marks_the_choice_and_shows_its_bonus(client, play):
    html = client.get(play["path"]).get_data(as_text=True)
    assert "+1 VP per settlement you raided." in html       # the Tyrant, dealt to Ann
    response = post(client, play, type="keep_captain", **{"s:player": "Ann",
                                                          "s:captain": "Tyrant"})
    html = response.get_data(as_text=True)
    assert state(client, play)["sheets"]["Ann"]["captain"] == "Tyrant"
    assert re.search(r'value="Tyrant" aria-pressed="true"', html)
    assert "Bonus now: <strong>0 VP</strong>" in html and "1 of 3 kept" in html


@pytest.mark.parametrize("form, field, beside_the_form", [
    ({"type": "add_island", "d:tiles": ""}, "data.tiles", True),
    ({"type": "add_island", "d:tiles": "0", "d:complete": "true"}, "data.tiles", True),
    ({"type": "set_influence", "d:island": "0", "s:player": "Ann", "d:vikings": "8"},
     "data.vikings", True),
    ({"type": "set_influence", "d:island": "0", "s:player": "Zed", "d:vikings": "1"},
     "data.player", True),
    ({"type": "update_island", "d:island": "0", "d:tiles": "x"}, "data.tiles", True),
    ({"type": "update_island", "d:island": "4", "d:tiles": "2"}, "data.island", False),
    ({"type": "keep_captain", "s:player": "Ann", "s:captain": "Huntsman"}, "data.captain", True),
])
def test_bad_input_is_an_inline_error_and_changes_nothing(client, play, form, field,
                                                          beside_the_form):
    add_island(client, play, tiles="5")
    before = state(client, play)
    response = post(client, play, **form)
    html = response.get_data(as_text=True)
    assert response.status_code in (400, 422)
    assert f'data-field="{field}"' in html
    assert ('class="error g-explorers-error"' in html) == beside_the_form   # by its form
    after = state(client, play)
    assert after["version"] == before["version"]
    assert after["table"] == before["table"] and after["sheets"] == before["sheets"]


def test_a_bad_add_island_keeps_what_was_typed(client, play):
    html = post(client, play, type="add_island", **{"d:tiles": "-2", "s:name": "Fjord"}
                ).get_data(as_text=True)
    assert re.search(r'id="ex-new-tiles"[^>]*value="-2"[^>]*aria-invalid="true"', html)
    assert re.search(r'id="ex-new-name"[^>]*value="Fjord"', html)


def test_view_link_shows_islands_and_captains_but_no_forms(client, play):
    add_island(client, play, tiles="5", name="Skull Rock")
    post(client, play, type="keep_captain", **{"s:player": "Ann", "s:captain": "Tyrant"})
    view = client.get(play["path"]).get_data(as_text=True)
    view_link = re.search(r'href="(http[^"]*)"', view.split("Scan to follow")[1]).group(1)
    html = client.get(view_link.split(":5000", 1)[1]).get_data(as_text=True)
    assert "view only" in html and "Skull Rock" in html and "Tyrant</strong> (kept)" in html
    for marker in ('value="turn"', 'value="add_island"', 'value="set_influence"',
                   'value="keep_captain"', 'value="update_island"', 'value="remove_island"',
                   'name="d:', 'name="s:'):
        assert marker not in html


def test_sheet_rows_that_cannot_count_are_left_out(client, play):
    html = client.get(play["path"]).get_data(as_text=True)
    assert "Second captain" not in html and "Archer: tiles" not in html
    assert "Captain bonus VP" not in html and "No captain kept yet" in html
    assert "Add 3 to Raided settlements" in html and "Add 6 to Raided fortresses" in html


def test_tap_to_add_and_remove_list_values(client, play):
    def sheet(**extra):
        return post(client, play, type="sheet", player="Bo", **extra)
    sheet(**{"f:settlements": "", "push": "settlements:3"})
    sheet(**{"f:settlements": "3", "push": "settlements:5"})
    assert state(client, play)["sheets"]["Bo"]["settlements"] == [3, 5]
    sheet(**{"f:settlements": "3, 5", "pop": "settlements:0"})
    assert state(client, play)["sheets"]["Bo"]["settlements"] == [5]
    response = sheet(**{"f:settlements": "5", "push": "settlements:9"})
    assert response.status_code == 400
    assert state(client, play)["sheets"]["Bo"]["settlements"] == [5]
