"""The table display on a 1280x800 landscape screen beside a phone: live, no scrolling."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .every_page import api

pytestmark = pytest.mark.browser

SCREEN = {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1}


def create(live_server, game, players, options=None):
    return api(live_server.url, "POST", "/api/v1/plays", {
        "game": game, "players": players, "options": options or {}, "seed": 4})


def fits(page):
    size = page.evaluate("[document.documentElement.scrollWidth, "
                         "document.documentElement.scrollHeight]")
    assert size[0] <= 1280 and size[1] <= 800, f"the display scrolls: {size}"


def test_the_display_follows_a_phone_live(live_server, browser, phone):
    play = create(live_server, "reavers", ["Ann", "Bo", "Cy", "Dag"])
    tv = browser.new_context(**SCREEN).new_page()
    streams = []
    tv.on("request", lambda r: streams.append(r.url) if r.url.endswith("/live") else None)
    tv.goto(f"{live_server.url}/plays/{play['id']}/{play['view_token']}/display")
    fits(tv)
    bo = tv.locator("li[data-player='Bo'] [data-total]")
    expect(bo).to_have_text("0")
    mobile = phone()
    mobile.goto(live_server.url + urlsplit(play["edit_url"]).path)
    sheet = mobile.locator("details.sheet", has_text="Bo")
    if sheet.get_attribute("open") is None:
        sheet.locator("summary").click()
    field = sheet.get_by_label("Glory during play", exact=True)
    field.fill("23")
    field.press("Tab")
    # the display catches up by itself: pushed through the stream (its own poll is every 30 s)
    expect(bo).to_have_text("23", timeout=10000)
    assert streams, "the display did not open the push stream"
    expect(tv.locator("li[data-player='Bo']")).to_have_class(re.compile(r"\blead\b"))
    fits(tv)
    tv.screenshot(path="/tmp/beyond-display-reavers.png")
    tv.context.close()


@pytest.mark.parametrize("game, players, options", [
    ("seafarers", ["Ann", "Bo", "Cy", "Dag"], {"scenario": "four_islands"}),
    ("shipwrights", ["Ann", "Bo", "Cy", "Dag", "Eli"], {}),
])
def test_the_big_boards_fit_without_scrolling(live_server, browser, game, players, options):
    play = create(live_server, game, players, options)
    tv = browser.new_context(**SCREEN, locale="de-DE").new_page()
    tv.goto(f"{live_server.url}/plays/{play['id']}/{play['view_token']}/display")
    expect(tv.locator("html")).to_have_attribute("lang", "de")   # longer German words fit too
    expect(tv.locator(".d-board li")).to_have_count(len(players))
    fits(tv)
    tv.screenshot(path=f"/tmp/beyond-display-{game}.png")
    tv.context.close()


# Every piece of text on the display and its size: the smallest must be readable from two
# metres (24 px on a 1280x800 tablet). The drawn Seafarers board is a picture (an SVG image
# with its own name), not text; so are the colour dots.
TEXT_SIZES = """() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const el = walker.currentNode.parentElement;
        if (!walker.currentNode.data.trim() || el.closest("svg, .sr-only, script")) continue;
        if (!el.getClientRects().length) continue;
        out.push([parseFloat(getComputedStyle(el).fontSize), walker.currentNode.data.trim()]);
    }
    return out; }"""
# Text cut short: wider or taller than its box where the box hides what overflows (words for
# screen readers only are out of sight by design)
# Text cut anywhere but in the rows still to enter at a provisional end: those are cut with "…"
# where the room ends (five players' whole lists do not fit beside the board; each phone lists
# them whole), the players' names in that list stay whole.
CUT = """() => [...document.querySelectorAll("body *")].filter((el) => {
    const style = getComputedStyle(el);
    return el.textContent.trim() && !el.closest("svg, .sr-only, .d-to-enter small")
        && ((el.scrollWidth > el.clientWidth + 1 && style.overflowX !== "visible")
            || (el.scrollHeight > el.clientHeight + 1 && style.overflowY !== "visible")); })
    .map((el) => el.outerHTML.slice(0, 120))"""


@pytest.mark.parametrize("locale", ["de-DE", "fr-FR", "en-GB"])
def test_the_display_is_readable_from_two_metres_with_whole_names(live_server, browser, locale):
    from tests.browser.every_page import NAMES, STAGES, make_plays, play_path

    plays = make_plays(live_server.url)
    tv = browser.new_context(**SCREEN, locale=locale).new_page()
    for (game, stage), play in sorted(plays.items()):
        if stage == "setup":
            continue
        tv.goto(live_server.url + play_path(play, "view_token", "/display"))
        tv.screenshot(path=f"/tmp/words-display-{game}-{stage}-{locale[:2]}.png")
        fits(tv)
        sizes = tv.evaluate(TEXT_SIZES)
        small = [(size, text) for size, text in sizes if size < 24]
        assert small == [], (game, stage, small)
        assert tv.evaluate(CUT) == [], (game, stage)
        names = tv.locator(".d-board .d-name")
        expect(names).to_have_text(NAMES[:names.count()])
        for i in range(names.count()):      # each whole, on one line
            assert names.nth(i).evaluate("el => el.getClientRects().length === 1 && "
                                         "el.scrollWidth <= el.clientWidth"), (game, NAMES[i])
    assert STAGES[0] == "setup"
    tv.context.close()
