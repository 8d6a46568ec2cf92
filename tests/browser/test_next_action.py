"""The next action is on screen: for every game, one ordinary round on a 390x844 phone, and the
controls of each step stand in the first screen (positions, never timing). At version 0 the
setup checklist is open at the top; a finished play shows its result first; the score table
fits five players on a 360 px phone."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.browser

SCREEN = 844
FOUR = ["Ann", "Bo", "Cecilie", "Dag"]


def expect():
    from playwright.sync_api import expect as playwright_expect
    return playwright_expect


def bottom(locator) -> float:
    """Where the element ends, measured from the top of the page (not of the viewport), with
    the page at its top: a sticky toolbar's place otherwise grows with wherever the last tap
    left the page scrolled (the morphing swap keeps the scroll position)."""
    return locator.evaluate("el => { window.scrollTo(0, 0);"
                            " return el.getBoundingClientRect().bottom + window.scrollY; }")


def on_first_screen(locator, what: str) -> None:
    expect()(locator).to_be_visible()
    end = bottom(locator)
    assert end <= SCREEN, f"{what} ends at {end:.0f} px, below the first screen ({SCREEN} px)"


def within_one_scroll(locator, what: str) -> None:
    """Reached with at most one screen of scrolling (the issue's bound for a round)."""
    end = bottom(locator)
    assert end <= 2 * SCREEN, f"{what} ends at {end:.0f} px, more than one screen of scrolling"


def start(page, base, game, players=FOUR, **options):
    play = page.request.post(f"{base}/api/v1/plays", data={
        "game": game, "players": players, "seed": "7", "options": options}).json()
    page.goto(base + urlsplit(play["edit_url"]).path)
    setup = page.locator("#setup-details")
    expect()(setup).to_have_attribute("open", "")
    # version 0: the setup checklist is the first thing under the controls, open
    first = page.locator("#play > :is(section, details, div.g-knarr, div.g-explorers)").first
    assert first.get_attribute("id") == "setup-details"
    setup.locator("> summary").click()                      # laid out: fold it away
    return play


def tap(page, locator) -> None:
    version = int(page.locator("#play").get_attribute("data-version"))
    locator.click()
    expect()(page.locator("#play")).to_have_attribute("data-version", str(version + 1))


def test_knarr_turns_stay_on_the_first_screen(live_server, phone):
    page = phone()
    start(page, live_server.url, "knarr")
    for _ in range(len(FOUR) + 1):                          # a round, and the next one begins
        name = page.locator("[data-current-player]").inner_text()
        end = page.get_by_role("button", name=f"End {name}'s turn")
        on_first_screen(end, f"End {name}'s turn")
        expect()(page.locator("#knarr-repvp")).to_have_value(re.compile(r"^\d+$"))
        page.get_by_role("button", name="VP gained plus one").click()
        tap(page, end)
    tap(page, page.get_by_role("button", name="Pass turn →"))   # passing works too


def test_explorers_turns_stay_on_the_first_screen(live_server, phone):
    page = phone()
    start(page, live_server.url, "explorers")
    for _ in range(len(FOUR)):
        name = page.locator("[data-current-player]").inner_text()
        end = page.get_by_role("button", name=f"End {name}'s turn")
        on_first_screen(end, f"End {name}'s turn")
        tap(page, end)


def test_reavers_round_stays_on_the_first_screen(live_server, phone):
    page = phone()
    start(page, live_server.url, "reavers")
    for _ in FOUR:
        free = page.locator("button.g-reavers-loc:not([disabled])")
        on_first_screen(free.last, "the last free location")
        tap(page, free.first)
    on_first_screen(page.get_by_role("button", name="Cleanup →"), "Cleanup")
    for name in FOUR:
        plus = page.get_by_role("button", name=f"{name}: one territory more")
        within_one_scroll(plus, f"{name}'s territory +")
        tap(page, plus)
    tap(page, page.get_by_role("button", name="Cleanup →"))
    on_first_screen(page.get_by_role("button", name="Start round 2 →"), "Start round 2")


def test_seafarers_sheets_stay_on_the_first_screen(live_server, phone):
    page = phone()
    start(page, live_server.url, "seafarers")
    for i, name in enumerate(FOUR, start=1):
        sheet = page.locator(f"#sheet-{i}")
        on_first_screen(sheet.locator("summary"), f"{name}'s sheet")
        sheet.locator("summary").click()
        plus = sheet.locator(".stepper button[aria-label$='plus one']").first
        on_first_screen(plus, f"{name}'s first + on the sheet")
        tap(page, plus)
        page.locator(f"#sheet-{i} summary").click()         # done: fold it again
    on_first_screen(page.get_by_role("button", name="Next round →"), "Next round")


def test_shipwrights_round_stays_on_the_first_screen(live_server, phone):
    page = phone()
    start(page, live_server.url, "shipwrights")
    on_first_screen(page.get_by_label("Card id or title"), "the Round Card form")
    page.locator(".g-sw-chips label").first.click()
    tap(page, page.get_by_role("button", name="Reveal this card"))
    nxt = page.get_by_role("button", name="Next phase →")
    while page.locator(".phase").inner_text() != "actions":
        on_first_screen(nxt, "Next phase")
        tap(page, nxt)
    for name in FOUR:
        plus = page.get_by_role("button", name=f"Move {name}'s Trade marker forward one space")
        within_one_scroll(plus, f"{name}'s Trade +")
        tap(page, plus)
    while page.locator(".phase").inner_text() != "reveal":
        tap(page, nxt)
    on_first_screen(page.get_by_label("Card id or title"), "round 2's Round Card form")


def test_the_result_is_on_top_and_five_players_fit_360_px(live_server, browser):
    names = ["Alexandra", "Bartholomew", "Christina", "Dagfinnur", "Eleonora"]
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    play = page.request.post(f"{live_server.url}/api/v1/plays", data={
        "game": "shipwrights", "players": names, "seed": "3"}).json()
    auth = {"Authorization": f"Bearer {play['edit_token']}"}
    events = f"{live_server.url}/api/v1/plays/{play['id']}/events"
    sheets = {"Alexandra": {"gold": 9}, "Bartholomew": {"gold": 6, "resources": 1},
              "Christina": {"gold": 6, "resources": 3}, "Dagfinnur": {"gold": 2},
              "Eleonora": {"gold": 2}}
    for name, fields in sheets.items():
        response = page.request.post(events, headers=auth, data={
            "type": "sheet", "data": {"player": name, "fields": fields}})
        assert response.ok, response.text()
    assert page.request.post(events, headers=auth, data={"type": "finish"}).ok
    page.goto(live_server.url + urlsplit(play["edit_url"]).path)
    result = page.locator("section.result")
    expect()(result.get_by_role("heading", name="Game over · Final ranking")).to_be_visible()
    assert page.get_by_text("Game over").count() == 1
    on_first_screen(result.locator(".winner"), "the winner")
    expect()(result.locator(".winner")).to_have_text("Alexandra wins")
    expect()(result.locator(".ranking li")).to_have_text(
        [re.compile(f"^{rank}.*{name}") for rank, name in
         [(1, "Alexandra"), (2, "Christina"), (3, "Bartholomew"), (4, "Dagfinnur"),
          (4, "Eleonora")]])
    ties = result.locator(".tiebreak")
    expect()(ties).to_have_count(2)
    expect()(ties.nth(0)).to_contain_text("Christina takes 2nd place with the most Oak")
    expect()(ties.nth(1)).to_contain_text("they share 4th place")
    wrap = result.locator(".table-wrap")
    assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth"), "the table scrolls sideways"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()
