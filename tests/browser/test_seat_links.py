"""Seat links in headless Chromium (issue 24): the host's phone opens the table display with a
QR code per seat (a tablet at 1280x800: the codes in a strip under the board, folded away with
a tap, the board's live updates leaving them in place); a phone on Bo's seat link changes seat
in one tap, and comes back. Screenshots go to $SHOTS when it is set (to look at them)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
TABLET = {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1}


def expect():
    from playwright.sync_api import expect as playwright_expect
    return playwright_expect


def shot(page, name: str) -> None:
    folder = os.environ.get("SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def start_play(page, base: str, seat_edits: str = "own", players=("Ann", "Bo", "Cy")) -> dict:
    reply = page.request.post(f"{base}/api/v1/plays", data=json.dumps({
        "game": "knarr", "players": list(players), "seed": 3, "seat_edits": seat_edits}),
        headers={"Content-Type": "application/json"})
    assert reply.status == 201, reply.text()
    return reply.json()


def test_the_hosts_phone_opens_the_display_with_a_code_per_seat(browser, phone, live_server):
    """The host's device here is the tablet that becomes the display (its new tab)."""
    base = live_server.url
    tablet = browser.new_context(**TABLET)
    try:
        seat_codes_on_the_display(tablet.new_page(), phone, base)
    finally:
        tablet.close()


def seat_codes_on_the_display(host, phone, base: str) -> None:
    play = start_play(host, base, players=("Ann", "Bo", "Cy", "Dagmar Sturmfels"))
    host.goto(f"{base}/plays/{play['id']}/{play['edit_token']}")
    host.locator("#share-details summary").first.click()
    with host.expect_popup() as opened:
        host.locator("#display-seats").click()
    display = opened.value
    codes = display.locator("#display-seat-codes")
    expect()(codes.locator("img")).to_have_count(4)
    # the display's address is the view link: no edit or seat token in it
    assert display.url.endswith(f"/plays/{play['id']}/{play['view_token']}/display")
    html = display.content()
    assert play["edit_token"] not in html
    assert not any(seat["token"] in html for seat in play["seats"])
    shot(display, "display-seat-codes-1280")
    # every code and every name on the screen, none under another, the page not scrolling
    boxes = [codes.bounding_box(), *(display.locator(f".d-board li >> nth={i}").bounding_box()
                                     for i in range(4))]
    for box in boxes:
        assert box["y"] >= 0 and box["y"] + box["height"] <= 800
        assert box["x"] >= 0 and box["x"] + box["width"] <= 1280
    assert all(box["x"] + box["width"] <= boxes[0]["x"] for box in boxes[1:])
    for i in range(4):          # each name whole beside its total, never under it
        row = display.locator(f".d-board li >> nth={i}")
        name, total = (row.locator(css).bounding_box() for css in (".d-name", ".d-total"))
        assert name["x"] + name["width"] <= total["x"] + 1
        assert row.locator(".d-name").evaluate("e => e.scrollWidth <= e.clientWidth")
    for i in range(4):
        img = codes.locator(f"img >> nth={i}").bounding_box()
        assert img["y"] + img["height"] <= 800 and img["width"] >= 125
        caption = codes.locator(f"figcaption >> nth={i}")        # no name broken mid-word
        assert caption.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert display.evaluate("[document.documentElement.scrollWidth, "
                            "document.documentElement.scrollHeight]") == [1280, 800]
    # a change on another phone updates the board and leaves the codes
    bo = phone()
    bo.goto(f"{base}/plays/{play['id']}/{play['seats'][1]['token']}")
    bo.locator("#sheets details.sheet").first.get_by_role(
        "button", name="Score track VP plus one").click()
    expect()(display.locator('[data-player="Bo"] [data-total]')).to_have_text("1")
    expect()(codes.locator("img")).to_have_count(4)
    # a tap on its heading folds the codes away
    codes.locator("summary").click()
    expect()(codes.locator("img").first).to_be_hidden()
    board = display.locator(".d-board li").last.bounding_box()
    assert board["y"] + board["height"] <= codes.bounding_box()["y"]
    shot(display, "display-seat-codes-folded-1280")
    # the view link's display: the table's code alone
    host.goto(f"{base}/plays/{play['id']}/{play['view_token']}/display")
    expect()(host.locator(".d-join img")).to_be_visible()
    assert host.locator("#display-seat-codes").count() == 0


def test_a_seat_link_changes_seat_in_one_tap(phone, live_server):
    base = live_server.url
    bo = phone()
    play = start_play(bo, base, seat_edits="own")
    bo.goto(f"{base}/plays/{play['id']}/{play['seats'][1]['token']}")
    expect()(bo.locator(".seat-me")).to_have_text("This phone: Bo")
    shot(bo, "seat-link-bo-390")
    bo.get_by_role("link", name="Change seat").click()
    pick = bo.locator("#seat-pick")
    expect()(pick).to_be_visible()
    expect()(pick.get_by_role("link")).to_have_count(1)            # Bo's own seat alone
    expect()(bo.locator("#seat-other")).to_be_visible()
    assert bo.locator(".seat-me").count() == 0
    pick.scroll_into_view_if_needed()
    shot(bo, "seat-link-no-seat-390")
    bo.reload()                                                     # kept over a reload
    assert bo.locator(".seat-me").count() == 0
    bo.get_by_role("link", name="I am Bo").click()
    expect()(bo.locator(".seat-me")).to_have_text("This phone: Bo")


def test_past_the_turn_limit_the_phone_whose_turn_it_is_changes_colour_once(phone, live_server):
    """A limit of three seconds: the banner of the seat whose turn it is turns a warmer colour
    and shows its sentence while the page stands still (no new version, no reload); another
    seat's phone shows nothing of it; the next turn starts plain again."""
    base = live_server.url
    host = phone()
    reply = host.request.post(f"{base}/api/v1/plays", data=json.dumps({
        "game": "knarr", "players": ["Ann", "Bo", "Cy"], "seed": 3, "seat_edits": "own",
        "turn_limit_s": 3}), headers={"Content-Type": "application/json"})
    play = reply.json()
    first = play["state"]["table"]["current_player"]
    tokens = {s["name"]: s["token"] for s in play["seats"]}
    mine, other = phone(), phone()
    mine.goto(f"{base}/plays/{play['id']}/{tokens[first]}")
    other.goto(f"{base}/plays/{play['id']}/{tokens[next(n for n in tokens if n != first)]}")
    banner = mine.locator("#your-turn")
    expect()(banner).to_be_visible()
    expect()(mine.locator("#turn-over")).to_be_hidden()
    assert "over-limit" not in (banner.get_attribute("class") or "")
    colour = banner.evaluate("e => getComputedStyle(e).backgroundColor")
    expect()(banner).to_have_class("your-turn over-limit", timeout=8_000)
    expect()(mine.locator("#turn-over")).to_have_text(
        "This turn has gone past 3 s: no hurry, just so you know.")
    assert banner.evaluate("e => getComputedStyle(e).backgroundColor") != colour
    assert mine.locator("#play").get_attribute("data-version") == "0"    # no reload, no change
    shot(mine, "turn-limit-passed-390")
    assert other.locator("#turn-over").count() == 0
    # the next turn: plain again
    mine.locator("#knarr-vp").fill("1")
    mine.get_by_role("button", name=f"End {first}'s turn").click()
    expect()(mine.locator("#your-turn")).to_have_count(0)


def test_the_seat_pages_speak_german(browser, live_server):
    """The display's seat codes, leaving a seat and the turn limit's sentence in German (the
    axe and word scans open the GET pages; these two come from a form and a wait)."""
    base = live_server.url
    context = browser.new_context(**TABLET, locale="de-DE")
    try:
        page = context.new_page()
        reply = page.request.post(f"{base}/api/v1/plays", data=json.dumps({
            "game": "knarr", "players": ["Ann", "Bo", "Cy"], "seed": 3, "seat_edits": "own",
            "turn_limit_s": 1}), headers={"Content-Type": "application/json"})
        play = reply.json()
        page.goto(f"{base}/plays/{play['id']}/{play['edit_token']}")
        page.locator("#share-details > summary").click()
        with page.expect_popup() as opened:
            page.get_by_role("button", name="Tischanzeige mit einem Code pro Platz").click()
        display = opened.value
        expect()(display.locator("#display-seat-codes summary")).to_have_text(
            "Platz nehmen: Jede Person scannt ihren eigenen Code")
        display.close()
        first = play["state"]["table"]["current_player"]
        token = next(s["token"] for s in play["seats"] if s["name"] == first)
        page.goto(f"{base}/plays/{play['id']}/{token}")
        expect()(page.locator("#turn-over")).to_have_text(
            "Dieser Zug dauert schon länger als 1 s – keine Eile, nur zur Info.")
        page.get_by_role("link", name="Platz wechseln").click()
        expect()(page.locator("#seat-other")).to_contain_text("scanne dessen Code")
    finally:
        context.close()
