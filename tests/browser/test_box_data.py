"""The owner's phone saves every game's box data through its form (steppers and plain
fields); a phone without the owner link sees the same pages read-only. 390 px phone."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion.owner import owner_key

pytestmark = pytest.mark.browser


def save(page, game):
    page.locator(".box-form, .g-sw-catalogue").get_by_role("button",
                                                           name="Save box data").click()
    expect(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()


def box(page, base, game):
    return page.request.get(f"{base}/api/v1/catalogue/{game}").json()["catalogue"]


def test_the_owner_fills_every_form_and_others_only_read(live_server, phone):
    base = live_server.url
    page = phone()
    page.goto(f"{base}/owner/{owner_key(live_server.app)}")
    expect(page.get_by_text("This phone is now the owner's")).to_be_visible()

    page.goto(f"{base}/catalogue/shipwrights")
    page.get_by_label("Space 15").fill("3")
    page.get_by_label("Space 16").fill("5")
    save(page, "shipwrights")
    assert box(page, base, "shipwrights")["track_vp"] == {"15": 3, "16": 5}

    page.goto(f"{base}/catalogue/knarr")
    page.get_by_label("Starting space", exact=True).fill("0")
    for _ in range(2):
        page.get_by_role("button", name="Space 1 plus one").click()
    expect(page.get_by_label("Space 1", exact=True)).to_have_value("2")
    save(page, "knarr")
    assert box(page, base, "knarr") == {"reputation_track": [0, 2]}

    page.goto(f"{base}/catalogue/reavers")
    treasure = page.get_by_role("group", name="Treasure", exact=True)
    treasure.get_by_role("button", name="Set of 1 plus one").click()
    treasure.get_by_label("Set of 2", exact=True).fill("3")
    page.get_by_label("Most wall tokens", exact=True).fill("6")
    page.get_by_label("Second most wall tokens", exact=True).fill("8")     # more than most
    page.get_by_role("button", name="Save box data").first.click()
    expect(page.locator(".row-error")).to_contain_text("Second place cannot be worth more")
    expect(page.locator("#spoils-0-2")).to_have_value("3")                    # kept as typed
    page.get_by_label("Second most wall tokens", exact=True).fill("2")
    save(page, "reavers")
    assert box(page, base, "reavers") == {"keep_spoils_schedule": {"Treasure": [1, 3]},
                                          "wall_majority": [6, 2]}
    page.screenshot(path="/tmp/box-reavers-form.png", full_page=True)

    page.goto(f"{base}/catalogue/explorers")
    page.get_by_label("Name on the card").first.fill("Navigator")
    page.get_by_label("Bonus at the end of the game, as printed").first.fill("+1 VP per ship")
    save(page, "explorers")
    assert box(page, base, "explorers") == {"captains": [{"name": "Navigator",
                                                          "bonus": "+1 VP per ship"}]}

    guest = phone()
    for game in ("shipwrights", "knarr", "reavers", "explorers"):
        guest.goto(f"{base}/catalogue/{game}")
        expect(guest.locator("#read-only")).to_be_visible()
        expect(guest.get_by_role("button", name="Save box data").first).to_be_disabled()
    expect(guest.get_by_label("Name on the card").first).to_have_value("Navigator")
    guest.screenshot(path="/tmp/box-explorers-readonly.png", full_page=True)
