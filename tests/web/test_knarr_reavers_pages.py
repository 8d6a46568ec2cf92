"""Knarr and Reavers play pages through the Flask client: the panels for the edit and view
roles, the turn and placement forms, inline errors that change nothing, setup and box data."""
from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

import pytest

HX = {"HX-Request": "true"}
TEST_TRACK = [0, 1, 2, 3, 4, 5]          # MADE-UP TEST values, not the board's


class Forms(HTMLParser):
    """The page's forms: their attributes and the named controls inside each."""

    def __init__(self, html: str):
        super().__init__()
        self.forms: list[dict] = []
        self.current: dict | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.current = {"attrs": attrs, "controls": []}
            self.forms.append(self.current)
        elif tag in ("input", "button", "select", "textarea") and self.current is not None:
            self.current["controls"].append({"tag": tag, **attrs})

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None

    def posting(self) -> list[dict]:
        return [f for f in self.forms
                if "hx-post" in f["attrs"] or f["attrs"].get("method", "").lower() == "post"]

    def of_type(self, kind: str) -> list[dict]:
        return [f for f in self.forms
                if any(c.get("name") == "type" and c.get("value") == kind for c in f["controls"])]


def create(client, game, players, **options):
    response = client.post("/api/v1/plays", json={"game": game, "players": players,
                                                   "options": options, "seed": 3})
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return body["id"], body["edit_token"], body["view_token"]


def page(client, play_id, token) -> str:
    response = client.get(f"/plays/{play_id}/{token}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def api_event(client, play_id, token, kind, **data):
    response = client.post(f"/api/v1/plays/{play_id}/events", json={"type": kind, "data": data},
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["state"]


def api_state(client, play_id, token) -> dict:
    return client.get(f"/api/v1/plays/{play_id}",
                      headers={"Authorization": f"Bearer {token}"}).get_json()["state"]


def form_event(client, play_id, token, version, kind, **data):
    form = {"type": kind, "expected_version": str(version),
            **{f"d:{k}": str(v) for k, v in data.items()}}
    return client.post(f"/plays/{play_id}/{token}/events", data=form, headers=HX)


def current_player(html: str) -> str:
    return re.search(r"<span data-current-player>([^<]+)</span>", html).group(1)


# --------------------------------------------------------------------------- Knarr
@pytest.fixture
def knarr(client):
    return create(client, "knarr", ["Ann", "Bo", "Cy"], artifacts=True)


def test_knarr_edit_panel_has_the_turn_form_and_asks_for_reputation_without_box_data(client,
                                                                                     knarr):
    play_id, edit, _ = knarr
    state = api_state(client, play_id, edit)
    html = page(client, play_id, edit)
    first = state["table"]["current_player"]
    assert current_player(html) == first
    assert f"End {first}'s turn" in unescape(html)
    assert "Pass turn →" in html and "Next round →" not in html    # advance = a bare turn
    (turn,) = Forms(html).of_type("turn")
    names = {c.get("name") for c in turn["controls"]}
    assert {"d:vp_gained", "d:reputation", "d:recruits", "d:bracelets",
            "d:reputation_vp", "d:player", "expected_version"} <= names
    assert turn["attrs"]["hx-post"].endswith(f"/plays/{play_id}/{edit}/events")
    checked = [c for c in turn["controls"] if c.get("name") == "d:recruits" and "checked" in c]
    assert [c["value"] for c in checked] == ["1"]          # 1 recruit at setup
    for artifact in state["table"]["artifacts"]:
        assert artifact["name"] in html and artifact["text"] in unescape(html)


def test_knarr_with_a_track_in_the_box_data_adds_the_step_and_does_not_ask(owner_client):
    client = owner_client
    saved = client.put("/api/v1/catalogue/knarr", json={"reputation_track": TEST_TRACK})
    assert saved.status_code == 200
    play_id, edit, _ = create(client, "knarr", ["Ann", "Bo"])
    html = page(client, play_id, edit)
    (turn,) = Forms(html).of_type("turn")
    assert "d:reputation_vp" not in {c.get("name") for c in turn["controls"]}
    assert "Reputation step: <strong>+0 VP</strong>" in html
    first = current_player(html)
    response = form_event(client, play_id, edit, 0, "turn", player=first, vp_gained=4,
                          reputation=3, recruits=2, bracelets=1)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert current_player(html) != first
    row = re.search(rf'<tr data-player="{first}">(.*?)</tr>', html, re.S).group(1)
    assert re.findall(r"<td>([^<]*)</td>", row) == ["4", "3", "+3", "2 + 1"]


def test_knarr_view_panel_shows_the_turn_but_nothing_that_posts(client, knarr):
    play_id, edit, view = knarr
    html = page(client, play_id, view)
    assert current_player(html) == api_state(client, play_id, edit)["table"]["current_player"]
    assert "Artifact" in html and "Race to 40 and reputation" in html
    forms = Forms(html)
    assert forms.posting() == []
    assert not forms.of_type("turn")
    assert 'name="d:' not in html


def test_knarr_bad_turn_shows_an_inline_error_and_changes_nothing(client, knarr):
    play_id, edit, _ = knarr
    first = api_state(client, play_id, edit)["table"]["current_player"]
    response = form_event(client, play_id, edit, 0, "turn", player=first, reputation_vp=0,
                          recruits=5)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(r'<p class="error" role="alert" data-field="data.recruits">A ship holds at '
                     r"most 3 recruits", html)
    assert 'class="g-knarr-chips" aria-invalid="true"' in html
    state = api_state(client, play_id, edit)
    assert state["version"] == 0 and state["table"]["current_player"] == first
    assert state["table"]["history"] == []


def test_knarr_blank_reputation_vp_keeps_last_turns_value(client, knarr):
    play_id, edit, _ = knarr
    first = api_state(client, play_id, edit)["table"]["current_player"]
    html = client.get(f"/plays/{play_id}/{edit}").get_data(as_text=True)
    assert 'id="knarr-repvp" name="d:reputation_vp"' in html and 'value="0"' in html
    response = form_event(client, play_id, edit, 0, "turn", player=first, vp_gained=2,
                          reputation_vp="")
    assert response.status_code == 200
    state = api_state(client, play_id, edit)
    assert state["version"] == 1 and state["sheets"][first]["vp"] == 2


def test_knarr_pass_turn_button_passes(client, knarr):
    play_id, edit, _ = knarr
    first = api_state(client, play_id, edit)["table"]["current_player"]
    response = form_event(client, play_id, edit, 0, "advance")
    assert response.status_code == 200
    state = api_state(client, play_id, edit)
    assert state["version"] == 1 and state["table"]["current_player"] != first


def test_knarr_end_notice_then_game_over(client):
    play_id, edit, view = create(client, "knarr", ["Ann", "Bo"])
    state = api_state(client, play_id, edit)
    first, last = state["table"]["order"]
    api_event(client, play_id, edit, "turn", reputation_vp=0, vp_gained=41)
    end = re.search(r'<p class="g-knarr-end"[^>]*>(.*?)</p>',
                    page(client, play_id, edit), re.S).group(1)
    assert "Last round." in end and f"{first} reached 41 VP" in end
    assert f"{last}, to {first}'s right, takes the last turn" in unescape(end)
    api_event(client, play_id, edit, "turn", reputation_vp=0, vp_gained=3)
    for token in (edit, view):
        html = page(client, play_id, token)
        assert html.count("Game over") == 1 and "Last round." not in html
        assert not Forms(html).of_type("turn")
        assert "Final ranking" in html


def test_knarr_setup_and_box_data_pages(client):
    play_id, edit, _ = create(client, "knarr", ["Ann", "Bo"], artifacts=True)
    html = page(client, play_id, edit)
    setup = html[html.index("g-knarr-setup"):]
    assert "Viking cards to remove" in setup
    assert "every card marked 3 or 4 in the bottom-left corner" in setup
    assert "Mead Cup" in setup and "Lay out the table" in setup
    catalogue = client.get("/catalogue/knarr").get_data(as_text=True)
    assert "The Reputation track" in catalogue and 'id="rep-0"' in catalogue
    help_text = client.get("/api/v1/catalogue/knarr").get_json()["help"]
    assert "Reputation track" in help_text and not re.search(r"\d", help_text)  # no made-up VP
    numbers = re.findall(r'<input id="rep-\d+"[^>]*>', catalogue)
    assert numbers and all('value=""' in box for box in numbers)     # nothing invented


# --------------------------------------------------------------------------- Reavers
@pytest.fixture
def reavers(client):
    return create(client, "reavers", ["Ann", "Bo", "Cy"])


def location_buttons(html: str) -> dict:
    (place,) = Forms(html).of_type("place")
    return {c["value"]: c for c in place["controls"] if c.get("name") == "d:location"}


def test_reavers_edit_panel_has_six_location_buttons_and_territory_steppers(client, reavers):
    play_id, edit, _ = reavers
    state = api_state(client, play_id, edit)
    html = page(client, play_id, edit)
    assert "Next phase →" in html
    buttons = location_buttons(html)
    assert list(buttons) == [loc["id"] for loc in state["setup"]["locations"]]
    assert not any("disabled" in b for b in buttons.values())
    assert f"<span data-next-player>{state['table']['next_player']}</span>" in html
    assert f"<strong data-honor-ship>{state['table']['honor_ship']}</strong>" in html
    steppers = Forms(html).of_type("territories")
    assert [next(c["value"] for c in f["controls"] if c.get("name") == "d:player")
            for f in steppers] == ["Ann", "Bo", "Cy"]


def test_reavers_placing_disables_the_location_and_names_who_took_it(client, reavers):
    play_id, edit, _ = reavers
    who = api_state(client, play_id, edit)["table"]["next_player"]
    response = form_event(client, play_id, edit, 0, "place", location="raid_keeps")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    buttons = location_buttons(html)
    assert "disabled" in buttons["raid_keeps"]
    assert sum("disabled" in b for b in buttons.values()) == 1
    taken = re.search(r'value="raid_keeps"[^>]*>(.*?)</button>', html, re.S).group(1)
    assert who in taken and "Raid Keeps" in taken


def test_reavers_view_panel_posts_nothing(client, reavers):
    play_id, edit, view = reavers
    api_event(client, play_id, edit, "place", location="battle_at_sea")
    api_event(client, play_id, edit, "territories", player="Bo", count=2)
    html = page(client, play_id, view)
    forms = Forms(html)
    assert forms.posting() == []
    assert 'name="d:' not in html
    assert len(re.findall(r'<div class="g-reavers-loc(?: taken)?">', html)) == 6
    assert '<strong class="g-reavers-count">2</strong>' in html


@pytest.mark.parametrize("data, status, message", [
    ({"location": "raid_keeps"}, 422, "Raid Keeps was already chosen this round"),
    ({"location": "the_moon"}, 400, "Pick a location"),
])
def test_reavers_bad_placement_shows_an_inline_error_and_changes_nothing(client, reavers, data,
                                                                          status, message):
    play_id, edit, _ = reavers
    api_event(client, play_id, edit, "place", location="raid_keeps")
    before = api_state(client, play_id, edit)
    response = form_event(client, play_id, edit, 1, "place", **data)
    html = response.get_data(as_text=True)
    assert response.status_code == status
    assert re.search(rf'<p class="error" role="alert" data-field="data.location">{message}', html)
    after = api_state(client, play_id, edit)
    assert after["version"] == 1 and after["table"] == before["table"]


def test_reavers_cleanup_summary_and_glory_in_the_scores(client):
    play_id, edit, _ = create(client, "reavers", ["Ann", "Bo", "Cy", "Di"])
    html = page(client, play_id, edit)
    assert "data-honor-ship" not in html                          # only with 3 players
    form_event(client, play_id, edit, 0, "territories", player="Cy", count=3)
    for location in ("raid_keeps", "raid_villages", "battle_at_sea", "recruit_reavers"):
        api_event(client, play_id, edit, "place", location=location)
    html = page(client, play_id, edit)
    assert "All 4 pawns placed" in html and not Forms(html).of_type("place")
    assert "Cleanup →" in html
    version = api_state(client, play_id, edit)["version"]
    html = form_event(client, play_id, edit, version, "advance").get_data(as_text=True)
    summary = html[html.index("g-reavers-cleanups"):]
    assert re.search(r'<th scope="row">1</th><td>\+0</td><td>\+0</td><td>\+3</td><td>\+0</td>',
                     summary)
    score = html[html.index('id="score-h"'):]
    assert re.search(r'<td data-player="Cy">3</td>', score)
    assert "Start round 2 →" in html


def test_reavers_setup_and_box_data_pages(client):
    play_id, edit, _ = create(client, "reavers", ["Ann", "Bo", "Cy"])
    state = api_state(client, play_id, edit)
    html = page(client, play_id, edit)
    setup = html[html.index("g-reavers-setup"):]
    for name, food in state["setup"]["food"].items():
        assert re.search(rf"{name}(?:\s*<small[^>]*>start</small>)?</th><td>{food}</td>", setup)
    assert "+ Honor Ship" in setup and "Lay out the table" in setup
    catalogue = client.get("/catalogue/reavers").get_data(as_text=True)
    assert "Keep spoils: glory for a set" in catalogue and "Most wall tokens" in catalogue
    numbers = re.findall(r'<input id="(?:spoils|wall)-[^"]+"[^>]*type="number"[^>]*>', catalogue)
    assert len(numbers) > 20 and all('value=""' in box for box in numbers)  # none invented
