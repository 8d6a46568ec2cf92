"""The new-play form on a phone: colour swatches to tap, and the names and colours of the last
play remembered on this device for the next one."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_swatches_and_the_table_remembered_on_the_device(live_server, phone):
    from playwright.sync_api import expect
    page = phone()
    page.goto(live_server.url + "/new?game=knarr")
    page.locator("#name0").fill("Sigrid")
    page.locator("#name1").fill("Thorkel")
    swatch = page.locator(".seat[data-seat='1'] label.swatch-pick", has_text="purple")
    box = swatch.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44            # a thumb-sized target
    swatch.tap()
    expect(page.locator("input[name=colour1][value=purple]")).to_be_checked()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_role("button", name="Set up the game").click()
    expect(page.locator("#play")).to_have_attribute("data-version", "0")
    expect(page.locator("#sheet-2 .dot.purple")).to_have_count(1)

    page.goto(live_server.url + "/new?game=reavers")               # the next play
    expect(page.locator("#name0")).to_have_value("Sigrid")
    expect(page.locator("#name1")).to_have_value("Thorkel")
    expect(page.locator("#name2")).to_have_value("")
    expect(page.locator("input[name=colour1][value=purple]")).to_be_checked()
    expect(page.locator("input[name=colour0][value=red]")).to_be_checked()
