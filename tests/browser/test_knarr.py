"""Knarr on a phone: box data, a new play from the form, turns tapped through to the 40 VP end,
the final ranking with its tie-break sentence; light and dark at 390 px without sideways scroll.

The reputation track below is MADE-UP TEST DATA (no rulebook publishes the real values); it only
exists inside this test's temporary database."""
from __future__ import annotations

import re

import pytest

from companion.owner import owner_key

pytestmark = pytest.mark.browser

TEST_TRACK = [0, 1, 2, 3, 4, 5]          # TEST values, not the board's


def expect():
    from playwright.sync_api import expect as playwright_expect
    return playwright_expect


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def save_test_track(page, base: str, key: str) -> None:
    """The owner's phone (the owner link) types the track into the box data form."""
    page.goto(f"{base}/owner/{key}")
    page.goto(f"{base}/catalogue/knarr")
    expect()(page.get_by_role("heading", name="The Reputation track")).to_be_visible()
    for space, vp in enumerate(TEST_TRACK):
        page.locator(f"#rep-{space}").fill(str(vp))
    page.locator(".box-form").get_by_role("button", name="Save box data").click()
    expect()(page.get_by_role("status").filter(has_text="Saved.")).to_be_visible()


def new_play(page, base: str) -> None:
    page.goto(f"{base}/new?game=knarr")
    page.locator("#name0").fill("Ann")
    page.locator("#name1").fill("Bo")
    page.get_by_label("Artifacts variant").check()
    page.locator("#seed").fill("7")
    page.get_by_role("button", name="Set up the game").click()
    expect()(page.locator("#play")).to_have_attribute("data-version", "0")


def take_turn(page, name: str, vp: int, recruits: int, bracelets: int,
              reputation: int | None = None, taps: int = 0) -> None:
    """One turn through the form: fill the VP, move the marker, tap the chips, end the turn."""
    play = page.locator("#play")
    version = int(play.get_attribute("data-version"))
    expect()(page.locator("[data-current-player]")).to_have_text(name)
    page.locator("#knarr-vp").fill(str(vp))
    if reputation is not None:
        page.locator("#knarr-rep").fill(str(reputation))
    for _ in range(taps):
        page.get_by_role("button", name="Reputation space plus one").tap()
    for legend, count in (("Recruits", recruits), ("Silver bracelets", bracelets)):
        chips = page.locator("fieldset.g-knarr-chips").filter(has_text=legend)
        chips.locator("span", has_text=re.compile(f"^{count}$")).tap()
        expect()(chips.locator(f"input[value='{count}']")).to_be_checked()
    page.get_by_role("button", name=f"End {name}'s turn").tap()
    expect()(play).to_have_attribute("data-version", str(version + 1))


def test_a_race_to_40_on_a_phone(live_server, phone):
    base = live_server.url
    page = phone()
    save_test_track(page, base, owner_key(live_server.app))
    new_play(page, base)
    first = page.locator("[data-current-player]").inner_text()
    second = "Bo" if first == "Ann" else "Ann"
    panel = page.locator(".g-knarr-panel")
    expect()(panel.locator(".g-knarr-artifacts")).to_contain_text("Mead Cup")
    expect()(panel).to_contain_text("Reputation step: +0 VP")
    expect()(page.locator("#knarr-repvp")).to_have_count(0)   # the track is known: not asked

    take_turn(page, first, vp=20, recruits=2, bracelets=1, taps=2)        # marker 0 -> 2
    expect()(page.locator(f"tr[data-player='{first}'] td").nth(0)).to_have_text("20")
    expect()(page.locator(f"tr[data-player='{first}'] td").nth(2)).to_have_text("+2")
    take_turn(page, second, vp=20, recruits=1, bracelets=1, reputation=2)
    page.screenshot(path="/tmp/knarr-light.png", full_page=True)
    assert no_sideways_scroll(page)

    # Round 2: the reputation step adds +2 each; the first player reaches 40 exactly.
    expect()(panel).to_contain_text("Reputation step: +2 VP")
    take_turn(page, first, vp=18, recruits=3, bracelets=2)
    end = page.locator(".g-knarr-end")
    expect()(end).to_contain_text(f"{first} reached 40 VP")
    expect()(end).to_contain_text(f"{second}, to {first}'s right, takes the last turn")
    expect()(end).to_contain_text("this turn is the last")

    dark = phone(color_scheme="dark")
    dark.goto(page.url)
    expect()(dark.locator(".g-knarr-end")).to_be_visible()
    dark.screenshot(path="/tmp/knarr-dark.png", full_page=True)
    assert no_sideways_scroll(dark)

    take_turn(page, second, vp=18, recruits=1, bracelets=1)
    expect()(page.locator("#play")).to_have_attribute("data-finished", "true")
    expect()(page.get_by_role("heading", name="Final ranking")).to_be_visible()
    expect()(page.locator(".g-knarr-form")).to_have_count(0)
    score = page.locator("section:has(#score-h)")
    expect()(score.locator(f"tr.total td[data-player='{first}']")).to_have_text("40")
    expect()(score.locator(f"tr.total td[data-player='{second}']")).to_have_text("40")
    expect()(score.locator(".winner")).to_have_text(f"{first} wins")
    expect()(score.locator(".tiebreak")).to_have_text(
        f"{first} and {second} tied on 40; {first} wins with the most recruits and silver "
        "bracelets together (5 against 2).")
    page.screenshot(path="/tmp/knarr-final.png", full_page=True)
    assert no_sideways_scroll(page)
