"""The game clock on a phone: pause and resume from the play page; a paused clock does not run."""
from __future__ import annotations

import datetime as dt
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .every_page import api

pytestmark = pytest.mark.browser


class WallClock:
    """The server's clock, turned by the test (no sleeping, no timing asserted)."""

    def __init__(self):
        self.now = dt.datetime(2025, 5, 1, 18, 0, tzinfo=dt.UTC)

    def __call__(self):
        return self.now

    def advance(self, minutes):
        self.now += dt.timedelta(minutes=minutes)


def test_a_paused_clock_does_not_run(live_server, phone):
    wall = WallClock()
    live_server.app.extensions["companion"].now = wall
    play = api(live_server.url, "POST", "/api/v1/plays",
               {"game": "knarr", "players": ["Ann", "Bo"], "seed": 2})
    page = phone()
    wall.advance(12)
    page.goto(live_server.url + urlsplit(play["edit_url"]).path)
    clock = page.locator("#play-clock")
    expect(clock).to_contain_text("12 min")
    page.get_by_role("button", name="Pause clock").click()
    expect(page.get_by_role("button", name="Resume clock")).to_be_visible()
    expect(clock).to_contain_text("paused")
    wall.advance(45)   # time passes at the table while the clock is paused
    page.reload()
    expect(clock).to_contain_text("12 min")
    page.screenshot(path="/tmp/beyond-clock-paused.png")
    page.get_by_role("button", name="Resume clock").click()
    expect(page.get_by_role("button", name="Pause clock")).to_be_visible()
    wall.advance(3)
    page.reload()
    expect(clock).to_contain_text("15 min")
    expect(clock).not_to_contain_text("paused")
