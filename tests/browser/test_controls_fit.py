"""The sticky controls on a 390 px phone, in every language: the step-forward button shows its
whole label (German "Zug beenden →" once spilled out of both sides of it) and the row never
runs past the screen."""
from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .every_page import api

pytestmark = pytest.mark.browser

GAMES = {"knarr": ["Ann", "Bo"], "shipwrights": ["Ann", "Bo", "Cy", "Dag"],
         "reavers": ["Ann", "Bo", "Cy"]}
FITS = """() => {
    const row = document.querySelector(".controls");
    const step = row.querySelector("button.primary");
    return {row: row.getBoundingClientRect().right, screen: document.documentElement.clientWidth,
            stepScroll: step.scrollWidth, stepWidth: step.clientWidth,
            stepText: step.innerText};
}"""


def create(server, game):
    play = api(server.url, "POST", "/api/v1/plays",
               {"game": game, "players": GAMES[game], "seed": 4})
    return urlsplit(play["edit_url"]).path


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_the_step_forward_button_shows_its_whole_label(live_server, phone, language):
    page = phone(locale=language, extra_http_headers={"Accept-Language": language})
    for game in GAMES:
        page.goto(live_server.url + create(live_server, game))
        expect(page.locator(".controls button.primary")).to_be_visible()
        fit = page.evaluate(FITS)
        assert fit["stepScroll"] <= fit["stepWidth"], (game, fit)
        assert fit["row"] <= fit["screen"], (game, fit)
        assert page.locator("html").get_attribute("lang") == language
    # Redo with nothing to redo is its arrow alone on a phone; its name stays for screen
    # readers
    label = page.locator(".controls [data-redo]").get_attribute("aria-label")
    assert label and (language != "en" or label == "Redo my last undo")
