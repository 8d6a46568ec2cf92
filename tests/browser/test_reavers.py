"""Reavers of Midgard on a phone: a 3-player play from the New play form, pawns tapped onto the
action locations for all 6 rounds, territories stepped, the cleanup glory checked in the scores
after every cleanup, the Honor Ship passing on, and the final ranking; light and dark at 390 px."""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Bo", "Cy"]
# Each round: (the locations tapped in order, territory taps {player: +n}). Territories are
# stepped first; cleanup waits for every pawn (the rulebook: placing goes on "until no player
# has Longship Pawns remaining. Then, all players proceed to the Clean Up phase").
ROUNDS = [
    (["Raid Keeps", "Trade with Villages", "Battle at Sea", "Recruit Reavers"],
     {"Ann": 1, "Bo": 2}),
    (["Conquer Territories", "Raid Villages", "Trade with Villages", "Raid Keeps"], {"Cy": 1}),
    (["Battle at Sea", "Recruit Reavers", "Raid Keeps", "Raid Villages"], {"Ann": 1}),
    (["Raid Villages", "Conquer Territories", "Recruit Reavers", "Battle at Sea"], {}),
    (["Recruit Reavers", "Conquer Territories", "Raid Villages", "Trade with Villages"],
     {"Bo": 1}),
    (["Raid Keeps", "Raid Villages", "Battle at Sea", "Conquer Territories"], {"Cy": 2}),
]


def expect():
    from playwright.sync_api import expect as playwright_expect
    return playwright_expect


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def tap_and_wait(page, locator) -> None:
    play = page.locator("#play")
    version = int(play.get_attribute("data-version"))
    locator.tap()
    expect()(play).to_have_attribute("data-version", str(version + 1))


def new_play(page, base: str) -> None:
    page.goto(f"{base}/new?game=reavers")
    for i, name in enumerate(PLAYERS):
        page.locator(f"#name{i}").fill(name)
    page.locator("#seed").fill("11")
    page.get_by_role("button", name="Set up the game").click()
    expect()(page.locator("#play")).to_have_attribute("data-version", "0")


def place_pawns(page, locations: list[str]) -> None:
    panel = page.locator(".g-reavers-panel")
    for i, location in enumerate(locations):
        who = panel.locator("[data-next-player]").inner_text()
        button = panel.locator("button.g-reavers-loc", has_text=location)
        tap_and_wait(page, button)
        button = panel.locator(".g-reavers-loc", has_text=location)
        expect()(button).to_contain_text(who)
        if i == 3:   # with 3 players the 4th pawn is the Honor Ship
            expect()(button).to_contain_text("(Honor Ship)")
    expect()(panel.locator("#reavers-now")).to_have_text("All 4 pawns placed")
    expect()(panel.locator("button.g-reavers-loc")).to_have_count(0)


def step_territories(page, taps: dict) -> None:
    for name, count in taps.items():
        for _ in range(count):
            tap_and_wait(page, page.get_by_role("button", name=f"{name}: one territory more"))


def total(page, name: str):
    return page.locator(f"section:has(#score-h) tr.total td[data-player='{name}']")


def test_six_rounds_of_reavers_on_a_phone(live_server, phone):
    page = phone()
    new_play(page, live_server.url)
    panel = page.locator(".g-reavers-panel")
    honor = panel.locator("[data-honor-ship]").inner_text()
    held = dict.fromkeys(PLAYERS, 0)
    glory = dict.fromkeys(PLAYERS, 0)
    for number, (locations, taps) in enumerate(ROUNDS, start=1):
        expect()(panel.locator(".g-reavers-meta")).to_contain_text(f"Round {number} of 6")
        step_territories(page, taps)
        for name, count in taps.items():
            held[name] += count
        if number == 3:      # the toolbar cannot skip the pawns: the round stays in actions
            page.get_by_role("button", name="Next phase →").tap()
            expect()(page.get_by_text("still to be placed this round")).to_be_visible()
            expect()(page.locator(".phase")).to_have_text("actions")
        place_pawns(page, locations)
        if number == 1:
            page.screenshot(path="/tmp/reavers-light.png", full_page=True)
            assert no_sideways_scroll(page)
        tap_and_wait(page, panel.get_by_role("button", name="Cleanup →"))
        for name in PLAYERS:
            glory[name] += held[name]
            expect()(total(page, name)).to_have_text(str(glory[name]))
        expect()(panel.locator(".g-reavers-cleanups tbody tr")).to_have_count(number)
        honor = PLAYERS[(PLAYERS.index(honor) + 1) % 3]
        expect()(panel.locator("[data-honor-ship]")).to_have_text(honor)
        if number == 2:
            dark = phone(color_scheme="dark")
            dark.goto(page.url)
            expect()(dark.locator(".g-reavers-cleanups")).to_be_visible()
            dark.screenshot(path="/tmp/reavers-dark.png", full_page=True)
            assert no_sideways_scroll(dark)
        label = f"Start round {number + 1} →" if number < 6 else "Final scoring →"
        tap_and_wait(page, panel.get_by_role("button", name=label))

    expect()(page.locator("#play")).to_have_attribute("data-finished", "true")
    assert glory == {"Ann": 10, "Bo": 14, "Cy": 7}
    # the end-game rows are still to enter: no winner until each player has said so
    expect()(page.get_by_role("heading", name="Provisional ranking")).to_be_visible()
    for name in PLAYERS:
        tap_and_wait(page, page.get_by_role("button", name=f"{name} has nothing more to enter"))
    expect()(page.get_by_role("heading", name="Final ranking")).to_be_visible()
    expect()(page.locator("section:has(#score-h) .winner")).to_have_text("Bo wins")
    expect()(panel.locator("form")).to_have_count(0)
    page.screenshot(path="/tmp/reavers-final.png", full_page=True)
    assert no_sideways_scroll(page)
