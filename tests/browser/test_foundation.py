"""On a phone-sized page: create a play, record a score, undo it; nothing scrolls sideways."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def no_sideways_scroll(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"page is {width}px wide on a 390px phone"


def test_create_a_play_and_record_a_score_on_a_phone(live_server, phone, tmp_path):
    page = phone()
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Knarr").first.click()
    page.get_by_label("Seat 1", exact=True).fill("Astrid")
    page.get_by_label("Seat 2", exact=True).fill("Bjorn")
    page.get_by_role("button", name="Set up the game").click()
    expect(page.get_by_role("heading", name="Knarr", level=1)).to_be_visible()
    no_sideways_scroll(page)

    sheet = page.locator("details.sheet", has_text="Bjorn")
    sheet.locator("summary").click()
    vp = sheet.get_by_label("Score track VP", exact=True)
    vp.fill("12")
    vp.dispatch_event("change")
    expect(page.locator("tfoot td[data-player='Bjorn']")).to_have_text("12")
    sheet = page.locator("details.sheet", has_text="Bjorn")
    sheet.get_by_role("button", name="plus one").first.click()
    expect(page.locator("tfoot td[data-player='Bjorn']")).to_have_text("13")

    page.get_by_role("button", name="Undo my last change").click()
    expect(page.locator("tfoot td[data-player='Bjorn']")).to_have_text("12")
    page.reload()
    expect(page.locator("tfoot td[data-player='Bjorn']")).to_have_text("12")
    page.screenshot(path=str(tmp_path / "play.png"), full_page=True)
    no_sideways_scroll(page)


def test_new_play_form_shows_a_clear_error(live_server, phone):
    page = phone(color_scheme="dark")
    page.goto(live_server.url + "/new?game=knarr")
    page.get_by_label("Seat 1", exact=True).fill("Solo")
    page.get_by_role("button", name="Set up the game").click()
    expect(page.get_by_role("alert")).to_contain_text("2 to 4 players")
    expect(page.get_by_label("Seat 1", exact=True)).to_have_value("Solo")
    no_sideways_scroll(page)
