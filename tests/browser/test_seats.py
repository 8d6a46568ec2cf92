"""Each phone is a seat (issue 24), in headless Chromium on phone viewports: one browser, three
phones bound to three seats by their seat links and the host's phone, a whole game of Knarr
(the 40 VP end played out): "Your turn" moves from phone to phone at each End turn through
the live push; with "own seat only" Bo's phone is offered no control of Ann's sheet and the
API answers 403, while the host's phone changes it; the players' times add up to the game
clock; a reload keeps the seat; the host's phone takes a seat with "I am Cy" and keeps it
over a reload; the BG Stats link carries the local date and each player's time."""
from __future__ import annotations

import json
from urllib.parse import unquote

import pytest

pytestmark = pytest.mark.browser


def expect():
    from playwright.sync_api import expect as playwright_expect
    return playwright_expect


def start_play(page, base: str) -> dict:
    reply = page.request.post(f"{base}/api/v1/plays", data=json.dumps({
        "game": "knarr", "players": ["Ann", "Bo", "Cy"], "seed": 3, "seat_edits": "own",
        "utc_offset_min": 60}), headers={"Content-Type": "application/json"})
    assert reply.status == 201, reply.text()
    return reply.json()


def state_of(page, base: str, play: dict) -> dict:
    reply = page.request.get(f"{base}/api/v1/plays/{play['id']}",
                             headers={"Authorization": f"Bearer {play['edit_token']}"})
    return reply.json()["state"]


def end_turn(page, name: str, vp: int) -> None:
    """The Knarr turn form of the phone whose turn it is: the VP gained, then End turn."""
    page.locator("#knarr-vp").fill(str(vp))
    page.get_by_role("button", name=f"End {name}'s turn").click()


def test_three_seated_phones_play_a_whole_game_of_knarr(phone, live_server):
    base = live_server.url
    host = phone()
    play = start_play(host, base)
    seats = {s["name"]: s["url"] for s in play["seats"]}
    host.goto(f"{base}/plays/{play['id']}/{play['edit_token']}")
    phones = {}
    for name in ("Ann", "Bo", "Cy"):
        page = phone()
        page.goto(f"{base}/plays/{play['id']}/{seats[name].rsplit('/', 1)[-1]}")
        expect()(page.locator(".seat-me")).to_have_text(f"This phone: {name}")
        phones[name] = page
    order = state_of(host, base, play)["table"]["order"]

    # own sheet first and open; the others one-line rows without controls
    bo = phones["Bo"]
    first_sheet = bo.locator("#sheets details.sheet").first
    expect()(first_sheet.locator("h3")).to_have_text("Bo")
    assert first_sheet.get_attribute("open") is not None
    ann_sheet = bo.locator("#sheet-1")
    assert ann_sheet.get_attribute("open") is None
    expect()(ann_sheet.get_by_role("button", name="Score track VP plus one",
                                   include_hidden=True)).to_be_disabled()
    assert ann_sheet.locator("form[hx-post]").count() == 0
    # ... and the API refuses it with 403 and a sentence
    bo_token = seats["Bo"].rsplit("/", 1)[-1]
    refused = bo.request.post(f"{base}/api/v1/plays/{play['id']}/events", data=json.dumps(
        {"type": "sheet", "data": {"player": "Ann", "add": {"vp": 1}}}),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {bo_token}"})
    assert refused.status == 403 and refused.json()["error"]["code"] == "not_your_seat"
    # the host's phone (no seat: as every phone was before) changes Ann's sheet
    host.locator("#sheet-1 summary").click()
    host.locator("#sheet-1").get_by_role("button", name="Score track VP plus one").click()
    expect()(host.locator("#play")).to_have_attribute("data-version", "1")
    expect()(bo.locator("#sheet-1 .sheet-total")).to_have_text("1")

    # a reload keeps the seat
    bo.reload()
    expect()(bo.locator(".seat-me")).to_have_text("This phone: Bo")

    # the whole game: the first player reaches 40 VP, the round is played out
    gains = {order[0]: 45, order[1]: 3, order[2]: 2}
    for turn, name in enumerate(order):
        mine = phones[name]
        expect()(mine.locator("#your-turn")).to_have_text(f"Your turn, {name}")
        for other in order:
            if other != name:
                expect()(phones[other].locator("#whose-turn")).to_have_text(f"{name}'s turn")
                assert phones[other].locator("#knarr-vp").count() == 0   # no turn controls
        end_turn(mine, name, gains[name])
        expect()(mine.locator("#play")).to_have_attribute("data-version", str(turn + 2))
    for page in phones.values():
        expect()(page.locator("#play")).to_have_attribute("data-finished", "true")
        assert page.locator("#your-turn").count() == 0
    state = state_of(host, base, play)
    clock = state["clock"]
    times = sum(p["elapsed_s"] for p in clock["players"].values())
    assert abs(times - clock["elapsed_s"]) <= 1
    assert all(p["turns"] == 1 for p in clock["players"].values())

    # the BG Stats link: the local date (UTC+1 here) and each player's time
    host.goto(f"{base}/plays/{play['id']}/{play['edit_token']}/history")
    link = host.locator('a[href^="bgstats://"]').get_attribute("href")
    data = json.loads(unquote(link.split("data=", 1)[1]))
    started = state["clock"]["started_at"]
    assert data["playDate"][11:13] == f"{(int(started[11:13]) + 1) % 24:02d}"
    assert "Time per player: " in data["comments"] and f"{order[0]} 0:" in data["comments"]


def test_the_host_takes_a_seat_and_a_seatless_phone_works_as_before(phone, live_server):
    base = live_server.url
    host = phone()
    play = start_play(host, base)
    edit = f"{base}/plays/{play['id']}/{play['edit_token']}"
    host.goto(edit)
    expect()(host.locator("#seat-pick")).to_be_visible()
    host.get_by_role("link", name="I am Cy").click()
    expect()(host.locator(".seat-me")).to_have_text("This phone: Cy")
    expect()(host.locator("#sheets details.sheet").first.locator("h3")).to_have_text("Cy")
    host.reload()
    expect()(host.locator(".seat-me")).to_have_text("This phone: Cy")
    # the host's phone still edits every seat, seated or not
    host.locator("#sheet-1 summary").click()
    host.locator("#sheet-1").get_by_role("button", name="Score track VP plus one").click()
    expect()(host.locator("#play")).to_have_attribute("data-version", "1")
    host.get_by_role("link", name="Change seat").click()
    expect()(host.locator("#seat-pick")).to_be_visible()
    # the join page offers a code per seat beside the table's
    host.goto(f"{edit}/join")
    expect()(host.locator("#seat-codes img.qr")).to_have_count(3)
    svg = host.request.get(base + host.locator("#seat-codes img.qr").first.get_attribute("src"))
    assert svg.status == 200 and "<svg" in svg.text()


def test_three_seated_phones_play_the_seafarers_race_to_its_end(phone, live_server):
    """Seafarers keeps turns: "Your turn" passes with each "Next turn", and the race ends the
    moment the player whose turn it is reaches the target on their own phone."""
    base = live_server.url
    host = phone()
    reply = host.request.post(f"{base}/api/v1/plays", data=json.dumps({
        "game": "seafarers", "players": ["Ann", "Bo", "Cy"], "seed": 2, "seat_edits": "own",
        "options": {"scenario": "new_shores"}}), headers={"Content-Type": "application/json"})
    assert reply.status == 201, reply.text()
    play = reply.json()
    phones = {}
    for seat in play["seats"]:
        page = phone()
        page.on("dialog", lambda dialog: dialog.accept())   # "pass with nothing entered?"
        page.goto(f"{base}/plays/{play['id']}/{seat['token']}")
        phones[seat["name"]] = page
    state = state_of(host, base, play)
    order = [state["table"]["current_player"]]
    for _ in range(2):
        order.append(["Ann", "Bo", "Cy"][(["Ann", "Bo", "Cy"].index(order[-1]) + 1) % 3])
    for turn, name in enumerate([*order, order[0]]):
        mine = phones[name]
        expect()(mine.locator("#your-turn")).to_have_text(f"Your turn, {name}")
        for other in order:
            if other != name:
                expect()(phones[other].locator("#whose-turn")).to_have_text(f"{name}'s turn")
                assert phones[other].get_by_role("button", name="Next turn →").count() == 0
        if turn == 3:
            break
        mine.get_by_role("button", name="Next turn →").click()
        expect()(mine.locator("#play")).to_have_attribute("data-version", str(turn + 1))
    # the first player again: their own sheet, on their own phone, reaches the target
    winner = phones[order[0]]
    sheet = winner.locator("#sheets details.sheet").first
    expect()(sheet.locator("h3")).to_have_text(order[0])
    for label in ("Longest trade route (2 VP)", "Largest army (2 VP)"):
        sheet.get_by_role("checkbox", name=label).check()
        winner.wait_for_timeout(300)
    version = int(winner.locator("#play").get_attribute("data-version"))
    sheet.get_by_role("spinbutton", name="Cities on the board").fill("4")
    sheet.get_by_role("spinbutton", name="Settlements on the board").fill("2")
    sheet.get_by_role("spinbutton", name="Settlements on the board").press("Tab")
    for page in phones.values():
        expect()(page.locator("#play")).to_have_attribute("data-finished", "true",
                                                          timeout=15_000)
        assert page.locator("#your-turn").count() == 0
    assert int(winner.locator("#play").get_attribute("data-version")) > version
    final = state_of(host, base, play)
    assert final["finished"] and final["score"]["winners"] == [order[0]]
    clock = final["clock"]
    assert abs(sum(p["elapsed_s"] for p in clock["players"].values())
               + clock["off_turns_s"] - clock["elapsed_s"]) <= 1
    assert clock["off_turns_s"] == 0
