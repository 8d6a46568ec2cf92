"""No box data entered, as a first-time owner plays: a Shipwrights marker on space 15 and a
Reavers wall token still give a full ranking with totals and the open questions at once;
answering them in the play completes the score. 390 px phone, light."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TRACK_QUESTION = "How many VP does Progress Track space 15 give? (printed on the board)"


def tap_and_wait(page, locator) -> None:
    play = page.locator("#play")
    version = int(play.get_attribute("data-version"))
    locator.click()
    expect(play).to_have_attribute("data-version", str(version + 1))


def new_play(page, base, game, names):
    page.goto(f"{base}/new?game={game}")
    for i, name in enumerate(names):
        page.locator(f"#name{i}").fill(name)
    page.locator("#seed").fill("5")
    page.get_by_role("button", name="Set up the game").click()
    expect(page.locator("#play")).to_have_attribute("data-version", "0")


def set_sheet(page, player, label, value):
    sheet = page.locator("details.sheet").filter(
        has=page.get_by_role("heading", name=player, exact=True))
    if sheet.get_attribute("open") is None:
        sheet.locator("summary").click()
    version = int(page.locator("#play").get_attribute("data-version"))
    field = sheet.get_by_label(label, exact=True)
    field.fill(str(value))
    field.dispatch_event("change")
    expect(page.locator("#play")).to_have_attribute("data-version", str(version + 1))


def end_game(page):
    """End the game and say every player has nothing more to enter (the box values are then
    all the result still waits for)."""
    page.once("dialog", lambda dialog: dialog.accept())
    tap_and_wait(page, page.get_by_role("button", name="End game"))
    done = page.get_by_role("button", name=re.compile("has nothing more to enter$"))
    while done.count():
        tap_and_wait(page, done.first)
    expect(page.get_by_role("heading", name=re.compile("^Game over"))).to_be_visible()


def total(page, name):
    return page.locator(f"section:has(#score-h) tr.total td[data-player='{name}']")


def answer(page, question, value):
    form = page.locator("#box-questions form.box-question").filter(has_text=question)
    form.get_by_label(question).fill(str(value))
    tap_and_wait(page, form.get_by_role("button", name="Use it"))


def test_shipwrights_marker_on_15_without_box_data(live_server, phone):
    page = phone()
    new_play(page, live_server.url, "shipwrights", ["Ann", "Bo"])
    for track in ("Military", "Trade", "Renown"):
        page.get_by_label(track, exact=True).fill("0")
    tap_and_wait(page, page.get_by_role("button", name="Reveal this card"))
    tap_and_wait(page, page.get_by_role("button", name="Next phase →", exact=True))
    tap_and_wait(page, page.get_by_role("button", name="Next phase →", exact=True))
    # most of the way by the API (the panel's + button takes the last step below)
    play_id, token = re.search(r"/plays/([^/]+)/([^/?#]+)", page.url).groups()
    api = f"{live_server.url}/api/v1/plays/{play_id}"
    state = page.request.get(api, headers={"Authorization": f"Bearer {token}"}).json()["state"]
    start = state["table"]["tracks"]["Ann"]["military"]
    moved = page.request.post(api + "/events", headers={"Authorization": f"Bearer {token}"},
                              data={"type": "track", "data": {"player": "Ann",
                                                              "track": "military",
                                                              "steps": 14 - start}})
    assert moved.ok, moved.text()
    page.reload()
    tap_and_wait(page, page.get_by_role(
        "button", name="Move Ann's Military marker forward one space"))
    set_sheet(page, "Ann", "Gold (1 VP each)", 4)
    set_sheet(page, "Bo", "Gold (1 VP each)", 6)
    end_game(page)

    expect(total(page, "Ann")).to_have_text("4")              # space 15 counted 0
    expect(total(page, "Bo")).to_have_text("6")
    expect(page.locator("section:has(#score-h) .winner")).to_contain_text("Provisional")
    expect(page.locator("section:has(#score-h) .winner")).to_contain_text("Leading: Bo")
    expect(page.get_by_role("heading", name="Game over · Provisional ranking")).to_be_visible()
    expect(page.locator("td.unknown")).to_have_count(1)
    expect(page.locator("#box-questions")).to_contain_text(TRACK_QUESTION)
    page.screenshot(path="/tmp/box-sw-provisional.png", full_page=True)
    assert "track_vp" not in page.locator("main").inner_text()

    answer(page, TRACK_QUESTION, 5)
    expect(total(page, "Ann")).to_have_text("9")
    expect(page.locator("section:has(#score-h) .winner")).to_have_text("Ann wins")
    expect(page.locator("#box-questions")).to_have_count(0)
    expect(page.locator("#box-answered")).to_contain_text("space 15")
    page.screenshot(path="/tmp/box-sw-complete.png", full_page=True)


def test_reavers_wall_token_without_box_data(live_server, phone):
    page = phone()
    new_play(page, live_server.url, "reavers", ["Ann", "Bo", "Cy"])
    set_sheet(page, "Ann", "Wall tokens", 2)
    set_sheet(page, "Ann", "Glory during play", 10)
    set_sheet(page, "Bo", "Wall tokens", 1)
    set_sheet(page, "Bo", "Glory during play", 12)
    end_game(page)

    for name, points in (("Ann", "10"), ("Bo", "12"), ("Cy", "0")):
        expect(total(page, name)).to_have_text(points)
    questions = page.locator("#box-questions form.box-question")
    expect(questions).to_have_count(2)
    expect(questions.nth(0)).to_contain_text("the most wall tokens")
    expect(questions.nth(1)).to_contain_text("the second most wall tokens")
    page.screenshot(path="/tmp/box-reavers-provisional.png", full_page=True)

    answer(page, "the most wall tokens", 6)
    expect(total(page, "Ann")).to_have_text("16")
    answer(page, "the second most wall tokens", 3)
    expect(total(page, "Bo")).to_have_text("15")
    expect(page.locator("#box-questions")).to_have_count(0)
    expect(page.locator("section:has(#score-h) .winner")).to_have_text("Ann wins")
