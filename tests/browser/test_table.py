"""Two phones at one table: join by the QR code, live updates, conflicts, typing, keep-awake."""
from __future__ import annotations

import io
import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .every_page import api

pytestmark = pytest.mark.browser

LAN = "192.168.50.5"   # what the server believes its LAN address is; no packet goes there


@pytest.fixture
def table(live_server, monkeypatch):
    """A Reavers play for Ann and Bo on the live server, which sees itself on a LAN."""
    from companion import netinfo

    monkeypatch.setattr(netinfo, "interface_addresses", lambda: [LAN])
    play = api(live_server.url, "POST", "/api/v1/plays",
               {"game": "reavers", "players": ["Ann", "Bo"], "seed": 11})
    play["edit_path"] = urlsplit(play["edit_url"]).path
    return play


def no_sideways_scroll(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"page is {width}px wide on a 390px phone"


def total(page, name):
    return page.locator(f"tfoot td[data-player='{name}']")


def glory(page, name):
    sheet = page.locator("details.sheet", has_text=name)
    if sheet.get_attribute("open") is None:
        sheet.locator("summary").click()
    return sheet.get_by_label("Glory during play", exact=True)


def decode_qr(locator) -> str:
    import zxingcpp
    from PIL import Image

    # the link that opens this page does not wait for its image: a screenshot taken before the
    # SVG has arrived and been drawn is blank (CI saw that once), so wait for the browser to
    # decode it, and give a slow machine a few frames more before saying there is no QR code
    locator.evaluate("img => img.decode()")
    found = []
    for _ in range(10):
        image = Image.open(io.BytesIO(locator.screenshot()))
        found = zxingcpp.read_barcodes(image)
        if found:
            break
        locator.page.wait_for_timeout(200)
    assert found, "no QR code found in the screenshot"
    return found[0].text


def test_a_second_phone_joins_by_the_qr_and_sees_changes_live(live_server, phone, table,
                                                              tmp_path):
    host = phone()
    host.goto(live_server.url + table["edit_path"])
    host.get_by_role("link", name="Show QR to join").click()
    qr = host.get_by_role("img", name="QR code of the view-only link to this play")
    expect(qr).to_be_visible()
    link = decode_qr(qr)
    assert link == table["view_url"] == host.locator("#join-link").inner_text()
    assert urlsplit(link).hostname == LAN
    assert urlsplit(link).port == urlsplit(live_server.url).port
    host.screenshot(path=str(tmp_path / "join.png"), full_page=True)
    no_sideways_scroll(host)

    guest = phone(color_scheme="dark")
    guest.goto(live_server.url + urlsplit(link).path)   # the LAN address is this server
    expect(guest.get_by_text("view only", exact=True)).to_be_visible()
    expect(guest.get_by_role("button", name="Undo my last change")).to_have_count(0)
    guest.evaluate("window.notReloaded = true")

    host.get_by_role("link", name="Back to the play").click()
    field = glory(host, "Bo")
    field.fill("9")
    field.dispatch_event("change")
    expect(total(host, "Bo")).to_have_text("9")
    expect(total(guest, "Bo")).to_have_text("9", timeout=5_000)
    assert guest.evaluate("window.notReloaded") is True
    guest.screenshot(path=str(tmp_path / "guest.png"), full_page=True)
    no_sideways_scroll(guest)


def test_the_edit_qr_lets_a_second_phone_edit(live_server, phone, table):
    host = phone()
    host.goto(live_server.url + table["edit_path"] + "/join")
    host.get_by_role("link", name="Let another phone edit too").click()
    link = decode_qr(host.get_by_role("img", name="QR code of the edit link to this play"))
    assert link == table["edit_url"]
    helper = phone()
    helper.goto(live_server.url + urlsplit(link).path)
    expect(helper.get_by_role("button", name="Undo my last change")).to_be_visible()


def test_two_phones_editing_at_once_both_keep_their_entries(live_server, phone, table):
    """A typed number is a change to one field, not to a version: a phone that has not yet
    seen the other phone's entry still records its own, and neither overwrites the other."""
    first, second = phone(), phone()
    first.goto(live_server.url + table["edit_path"])
    second.goto(live_server.url + table["edit_path"])
    # the second phone has not caught up yet when it sends its change
    second.route("**/poll?*", lambda route: route.fulfill(status=204))
    second.route("**/live", lambda route: route.abort())
    field = glory(first, "Ann")
    field.fill("6")
    field.dispatch_event("change")
    expect(total(first, "Ann")).to_have_text("6")

    field = glory(second, "Bo")
    field.fill("4")
    field.dispatch_event("change")
    expect(total(second, "Bo")).to_have_text("4")
    expect(total(second, "Ann")).to_have_text("6")        # the answer brought Ann's entry
    expect(second.get_by_role("alert")).to_have_count(0)
    expect(total(first, "Bo")).to_have_text("4", timeout=5_000)
    expect(total(first, "Ann")).to_have_text("6")


def test_catching_up_keeps_what_the_phone_is_typing(live_server, phone, table):
    typist, other = phone(), phone()
    typist.goto(live_server.url + table["edit_path"])
    other.goto(live_server.url + table["edit_path"])
    mine = glory(typist, "Ann")
    mine.click()
    mine.press("Control+a")
    mine.type("17")                         # typed, not yet left: no change event yet

    field = glory(other, "Bo")
    field.fill("5")
    field.dispatch_event("change")
    expect(total(typist, "Bo")).to_have_text("5", timeout=5_000)   # caught up ...
    mine = glory(typist, "Ann")
    expect(mine).to_have_value("17")                              # ... without wiping
    expect(mine).to_be_focused()
    mine.press("Tab")                                             # leaving the field saves
    expect(total(typist, "Ann")).to_have_text("17")
    expect(total(other, "Ann")).to_have_text("17", timeout=5_000)
    expect(total(other, "Bo")).to_have_text("5")


def test_the_screen_is_kept_awake_during_a_play_and_released_at_the_end(live_server, phone,
                                                                       table):
    page = phone()
    page.goto(live_server.url + table["edit_path"])
    wake = page.locator("#wake-state")
    expect(wake).to_have_text("Screen stays on")
    awake = re.compile("^(held|fallback)$")
    expect(page.locator("html")).to_have_attribute("data-wake-lock", awake)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="End game").click()
    expect(page.get_by_role("heading", name=re.compile("^Game over"))).to_be_visible()
    expect(page.locator("html")).to_have_attribute("data-wake-lock", "off")
    expect(wake).to_be_hidden()
    assert page.locator("video.keepawake").count() == 0


def test_the_fallback_video_keeps_playing_without_wake_lock(live_server, phone, table):
    page = phone()
    page.add_init_script("Object.defineProperty(window, 'isSecureContext', {value: false})")
    page.goto(live_server.url + table["edit_path"])
    expect(page.locator("html")).to_have_attribute("data-wake-lock", "fallback")
    video = page.locator("video.keepawake")
    expect(video).to_have_count(1)
    page.wait_for_function("!document.querySelector('video.keepawake').paused")
    assert page.evaluate("document.querySelector('video.keepawake').currentSrc").endswith(
        ("keepawake.mp4", "keepawake.webm"))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_table_pages_look_right_on_a_phone(live_server, phone, table, tmp_path, scheme):
    page = phone(color_scheme=scheme)
    page.goto(live_server.url + table["edit_path"])
    field = glory(page, "Ann")
    field.fill("8")
    field.dispatch_event("change")
    expect(total(page, "Ann")).to_have_text("8")
    for location in ("Raid Keeps", "Raid Villages", "Battle at Sea", "Recruit Reavers"):
        version = page.locator("#play").get_attribute("data-version")
        page.locator("button.g-reavers-loc", has_text=location).click()   # cleanup waits
        expect(page.locator("#play")).not_to_have_attribute("data-version", version)
    page.get_by_role("button", name="Next phase →").click()
    expect(page.locator(".phase")).to_have_text("cleanup")
    page.get_by_role("button", name="Next phase →").click()
    expect(page.locator(".phase")).to_have_text("actions")
    page.screenshot(path=str(tmp_path / f"play-{scheme}.png"), full_page=True)
    page.get_by_role("link", name="Rounds & export").click()
    expect(page.get_by_role("img", name="Reavers of Midgard: scores by round")).to_be_visible()
    expect(page.get_by_role("link", name="Play as JSON")).to_be_visible()
    page.screenshot(path=str(tmp_path / f"rounds-{scheme}.png"), full_page=True)
    no_sideways_scroll(page)
    for path in ("/history", "/pads", "/import"):
        page.goto(live_server.url + path)
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        page.screenshot(path=str(tmp_path / f"{path[1:]}-{scheme}.png"), full_page=True)
        no_sideways_scroll(page)
