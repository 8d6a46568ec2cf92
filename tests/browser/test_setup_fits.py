"""The setup of a play in German and French on a 390 px phone and a 1280x800 tablet: no text of
the setup card runs out of its box or past the screen, and the board's terrain words stay inside
their hexes (German "Hügelland", "Weideland" and "Getreide" are longer than "hills", "pasture"
and "grain"). Screenshots go to $SHOTS when it is set, for a person to look at."""
from __future__ import annotations

import os
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .every_page import api

pytestmark = pytest.mark.browser

PLAYS = {"seafarers": {"game": "seafarers", "players": ["Ann", "Bo", "Cy", "Dagmar"],
                       "options": {"scenario": "greater_catan"}, "seed": 4},
         "explorers": {"game": "explorers", "players": ["Ann", "Bo", "Cy", "Dagmar"],
                       "options": {"rocks_of_ruin": True}, "seed": 4}}
SPILLS = """() => {
    const card = document.querySelector("#setup-details");
    const screen = document.documentElement.clientWidth;
    const out = [];
    for (const el of card.querySelectorAll("li, dd, dt, p, strong, small, td, th, h2, h3, label")) {
        const box = el.getBoundingClientRect();
        if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === "visible")
            out.push(["spills its box", el.tagName, el.innerText.slice(0, 60)]);
        if (box.right > screen + 1 && !el.closest(".g-seafarers-board"))
            out.push(["past the screen", el.tagName, el.innerText.slice(0, 60)]);
    }
    for (const text of card.querySelectorAll(".g-seafarers-board g.hex text")) {
        if (text.getBBox().width > 64) out.push(["out of its hex", "text", text.textContent]);
    }
    for (const badge of card.querySelectorAll(".g-seafarers-board g.harbour")) {
        const inside = 2 * badge.querySelector("circle").r.baseVal.value - 2;
        for (const text of badge.querySelectorAll("text"))
            if (text.getBBox().width > inside)
                out.push(["out of its harbour", "text", text.textContent]);
    }
    return out;
}"""
SIZES = {"phone": None, "tablet": {"width": 1280, "height": 800}}


def create(server, game):
    return urlsplit(api(server.url, "POST", "/api/v1/plays", PLAYS[game])["edit_url"]).path


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_setup_fits_in_german_and_french(live_server, phone, browser, language, size):
    words = {"locale": language, "extra_http_headers": {"Accept-Language": language}}
    if SIZES[size]:
        context = browser.new_context(viewport=SIZES[size], **words)
        context.set_default_timeout(10_000)
        page = context.new_page()
    else:
        page = phone(**words)
    for game in PLAYS:
        page.goto(live_server.url + create(live_server, game))
        page.locator("#setup-details > summary").click()     # the compact card, opened
        expect(page.locator("#setup-details ol.checklist li").first).to_be_visible()
        assert page.locator("html").get_attribute("lang") == language
        shots = os.environ.get("SHOTS")
        if shots:
            page.screenshot(path=f"{shots}/{game}-{language}-{size}.png", full_page=True)
        assert page.evaluate(SPILLS) == [], (game, language, size)
    if SIZES[size]:
        context.close()
