"""Pages for people: home, new play, the play page and its htmx fragments, box data."""
from __future__ import annotations

import re


def new_play(client, game="knarr", **form):
    data = {"game": game, "name0": "Ann", "name1": "Bo", "seed": "5", **form}
    return client.post("/new", data=data)


def play_path(response):
    return response.headers["Location"]


def test_home_lists_the_five_games(client):
    html = client.get("/").get_data(as_text=True)
    for name in ("Shipwrights", "Explorers", "Knarr", "Reavers", "Seafarers"):
        assert name in html


def test_new_play_form_creates_a_play_and_opens_its_page(client):
    response = new_play(client)
    assert response.status_code == 302
    page = client.get(play_path(response))
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "Ann" in html and "Bo" in html and 'id="play"' in html
    assert "Undo" in html


def test_new_play_form_keeps_input_and_names_the_problem(client):
    response = client.post("/new", data={"game": "knarr", "name0": "Ann", "seed": "5"})
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "2 to 4 players" in html
    assert 'value="Ann"' in html


def test_sheet_form_records_and_bump_buttons_step(client):
    path = play_path(new_play(client))
    hx = {"HX-Request": "true"}
    response = client.post(path + "/events", headers=hx, data={
        "type": "sheet", "player": "Bo", "f:vp": "7", "expected_version": "0"})
    assert response.status_code == 200
    response = client.post(path + "/events", headers=hx, data={
        "type": "sheet", "player": "Bo", "f:vp": "7", "bump": "vp:+1", "expected_version": "1"})
    html = response.get_data(as_text=True)
    assert re.search(r'name="f:vp"[^>]*value="8"', html)
    assert 'data-version="2"' in html


def test_stale_form_shows_the_conflict_message_and_fresh_state(client):
    path = play_path(new_play(client))
    hx = {"HX-Request": "true"}
    client.post(path + "/events", headers=hx, data={"type": "sheet", "player": "Ann",
                                                    "f:vp": "3", "expected_version": "0"})
    response = client.post(path + "/events", headers=hx, data={
        "type": "sheet", "player": "Bo", "f:vp": "9", "expected_version": "0"})
    html = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "Someone else changed the play" in html
    assert 'data-version="1"' in html


def test_bad_value_is_an_inline_error_not_a_500(client):
    path = play_path(new_play(client))
    response = client.post(path + "/events", headers={"HX-Request": "true"}, data={
        "type": "sheet", "player": "Ann", "f:recruits": "12", "expected_version": "0"})
    assert response.status_code == 400
    assert 'role="alert"' in response.get_data(as_text=True)


def test_poll_is_204_when_unchanged_and_the_block_when_changed(client):
    path = play_path(new_play(client))
    assert client.get(path + "/poll?version=0").status_code == 204
    client.post(path + "/events", data={"type": "sheet", "player": "Ann", "f:vp": "3"})
    changed = client.get(path + "/poll?version=0")
    assert changed.status_code == 200 and 'data-version="1"' in changed.get_data(as_text=True)


def test_undo_redo_buttons(client):
    path = play_path(new_play(client))
    client.post(path + "/events", data={"type": "sheet", "player": "Ann", "f:vp": "3"})
    html = client.post(path + "/undo", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert re.search(r'name="f:vp"[^>]*value="0"', html)
    html = client.post(path + "/redo", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert re.search(r'name="f:vp"[^>]*value="3"', html)


def test_view_link_shows_no_controls_and_cannot_post(client):
    play = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo"]}).json
    view_path = play["view_url"].split(":5000", 1)[1]
    html = client.get(view_path).get_data(as_text=True)
    assert "view only" in html and "Undo" not in html
    assert client.post(view_path + "/events", data={"type": "advance"}).status_code == 403
    assert client.get(view_path + "/join.svg?edit=1").status_code == 200


def test_wrong_token_is_404(client):
    path = play_path(new_play(client))
    assert client.get(path[:-3] + "xyz").status_code == 404


def test_catalogue_page_saves_validates_and_exports(owner_client):
    client = owner_client
    assert client.get("/catalogue").status_code == 200
    response = client.post("/catalogue/knarr", data={"json": '{"reputation_track": [0, 1, 2]}'})
    assert response.status_code == 200 and "Saved" in response.get_data(as_text=True)
    bad = client.post("/catalogue/knarr", data={"json": '{"reputation_track": [0, -1]}'})
    assert bad.status_code == 400
    assert "The VP of a reputation space must be at least 0" in bad.get_data(as_text=True)
    broken = client.post("/catalogue/knarr", data={"json": "{oops"})
    assert broken.status_code == 400 and "not valid JSON" in broken.get_data(as_text=True)
    export = client.get("/catalogue/knarr/export.json")
    assert export.json == {"reputation_track": [0, 1, 2]}


def test_security_headers_and_escaping(client):
    response = client.post("/new", data={"game": "knarr", "name0": "<script>x</script>",
                                         "name1": "Bo"})
    page = client.get(play_path(response))
    assert "<script>x</script>" not in page.get_data(as_text=True)
    assert "&lt;script&gt;" in page.get_data(as_text=True)
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Content-Type-Options"] == "nosniff"


def test_csrf_is_enforced_on_forms(csrf_app):
    client = csrf_app.test_client()
    response = client.post("/new", data={"game": "knarr", "name0": "Ann", "name1": "Bo"})
    assert response.status_code == 400
    assert "form expired" in response.get_data(as_text=True)


def test_poll_with_a_wrong_token_reveals_nothing(client):
    path = play_path(new_play(client))
    play_id = path.split("/")[2]
    assert client.get(f"/plays/{play_id}/not-the-token/poll?version=0").status_code == 404
    assert client.get(f"/plays/{play_id}/not-the-token/poll?version=5").status_code == 404


def test_score_explanations_are_listed_under_the_table(client):
    path = play_path(new_play(client))
    client.post(path + "/events", data={"type": "sheet", "player": "Bo", "f:vp": "12"})
    html = client.get(path).get_data(as_text=True)
    how = html[html.index('id="score-how"'):]
    assert "How each row was counted" in how
    assert "12" in how[:how.index("</details>")]


def test_doubled_minus_in_a_number_box_is_a_clear_error(client):
    path = play_path(new_play(client))
    response = client.post(path + "/events", headers={"HX-Request": "true"}, data={
        "type": "sheet", "player": "Ann", "f:vp": "--5", "expected_version": "0"})
    assert response.status_code == 400
    assert 'role="alert"' in response.get_data(as_text=True)
