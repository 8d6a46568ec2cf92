"""Seafarers on a phone: the board page in light and dark (no CSP violation, no sideways
scroll, the zoom toggle), an Oceans play where tapping a ? turns a tile up, and a race to the
target that declares the winner."""
from __future__ import annotations

import re
import shutil
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .every_page import api

pytestmark = pytest.mark.browser
SHOTS = "/tmp/seafarers-shots"     # kept after the run, to look at


# play.html's poll says hx-indicator="none" (meaning: no spinner), which htmx warns about on
# every poll; not a Seafarers problem, so it is the one warning let through.
KNOWN = ('The selector "none" on hx-indicator returned no matches!',)
EMPTY_STYLE_HASH = "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="


def watch_console(page) -> list[str]:
    """Console errors and warnings (a CSP violation is one) and uncaught page errors."""
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning")
            and m.text not in KNOWN else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    return problems


def no_sideways_scroll(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"page is {width}px wide on a 390px phone"


def keep(tmp_path, name: str) -> str:
    import os

    os.makedirs(SHOTS, exist_ok=True)
    return str(tmp_path / name)


def shot(page, tmp_path, name, problems: list[str]):
    """A full-page screenshot. Playwright injects an empty <style> to hide the caret, which the
    CSP blocks; those reports are the screenshot's own, so they are dropped here."""
    seen = len(problems)
    path = keep(tmp_path, name)
    page.screenshot(path=path, full_page=True)
    shutil.copy(path, f"{SHOTS}/{name}")
    problems[seen:] = [p for p in problems[seen:] if EMPTY_STYLE_HASH not in p]


def create(live_server, scenario, players, seed=3, layout="variable") -> str:
    """A play; "as shown" scenarios take the app's variable layout unless told otherwise (the
    book's layout needs the owner to enter it first)."""
    play = api(live_server.url, "POST", "/api/v1/plays", {
        "game": "seafarers", "players": players, "seed": seed,
        "options": {"scenario": scenario, "layout": layout}})
    return urlsplit(play["edit_url"]).path


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_board_page_on_a_phone(live_server, phone, tmp_path, scheme):
    page = phone(color_scheme=scheme)
    problems = watch_console(page)
    page.goto(live_server.url + "/boards/seafarers?scenario=oceans&players=4&seed=abc"
              "&layout=variable")
    board = page.get_by_role("img", name="Oceans board")
    expect(board).to_be_visible()
    expect(page.get_by_role("img", name="QR code of this board's link")).to_be_visible()
    expect(page.locator("[data-busiest]")).to_contain_text("pips")
    width = board.bounding_box()["width"]
    assert 320 <= width <= 390, width         # the whole phone width, less the margins
    no_sideways_scroll(page)
    shot(page, tmp_path, f"board-{scheme}.png", problems)
    page.get_by_text("Bigger board").click()
    expect(board).to_have_attribute("width", "100%")
    page.wait_for_function("document.querySelector('.g-seafarers-board svg')"
                           ".getBoundingClientRect().width > 700")
    no_sideways_scroll(page)       # the board's own box scrolls, not the page
    assert problems == [], problems


def test_new_random_board_and_the_form(live_server, phone):
    page = phone()
    problems = watch_console(page)
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Seafarers board generator").click()
    expect(page.get_by_role("heading", name="Seafarers board generator")).to_be_visible()
    seed = page.locator("[data-seed]").inner_text()
    page.get_by_role("link", name="New random board").click()
    expect(page.locator("[data-seed]")).not_to_have_text(seed)
    page.get_by_label("Scenario", exact=True).select_option("great_crossing")
    page.get_by_label("Players", exact=True).select_option("3")
    page.get_by_role("button", name="Draw this board").click()
    expect(page.get_by_role("alert")).to_contain_text("players: The Great Crossing is for 4")
    page.get_by_label("Players", exact=True).select_option("4")
    page.get_by_role("button", name="Draw this board").click()
    expect(page.get_by_role("img", name="The Great Crossing board")).to_be_visible()
    # the one expected complaint: the wrong player count's page came back as a 422
    assert [p for p in problems if "status of 422" not in p] == [], problems


def test_oceans_tap_a_question_mark_to_discover(live_server, phone, tmp_path):
    path = create(live_server, "oceans", ["Ann", "Bo", "Cy", "Di"])
    page = phone()
    problems = watch_console(page)
    page.goto(live_server.url + path)
    tiles = page.locator("[data-stack='tiles']")
    before = int(tiles.inner_text())
    spot = page.get_by_role("button", name="Discover the face-down position at").first
    q, r = spot.get_attribute("data-q"), spot.get_attribute("data-r")
    hexagon = page.locator(f"#play .g-seafarers-reference g.hex[data-q='{q}'][data-r='{r}']")
    expect(hexagon).to_have_class("hex hidden")
    spot.tap()
    expect(tiles).to_have_text(str(before - 1))
    expect(hexagon).not_to_have_class("hex hidden")
    expect(page.locator(".notices")).to_contain_text("Discovered")
    expect(page.locator(f"button[data-q='{q}'][data-r='{r}']")).to_have_count(0)
    no_sideways_scroll(page)
    shot(page, tmp_path, "oceans-play.png", problems)
    assert problems == [], problems


def set_sheet(page, name: str, label: str, value: int):
    # the sheet whose heading is the name ("Bo" is also in "on the board")
    sheet = page.locator("details.sheet").filter(
        has=page.locator("summary h3", has_text=re.compile(f"^{name}$")))
    if sheet.get_attribute("open") is None:
        sheet.locator("summary").click()
    field = sheet.get_by_label(label, exact=True)
    field.fill(str(value))
    field.dispatch_event("change")


def test_race_to_the_target_declares_the_winner(live_server, phone, tmp_path):
    path = create(live_server, "four_islands", ["Ann", "Bo", "Cy"])
    page = phone(color_scheme="dark")
    problems = watch_console(page)
    page.goto(live_server.url + path)
    name = page.locator("[data-turn]").get_attribute("data-turn")    # whose turn it is
    vp = page.locator(f".g-seafarers-race li[data-player='{name}'] [data-vp]")
    expect(vp).to_have_text("0 / 12")
    set_sheet(page, name, "Settlements on the board", 4)
    expect(vp).to_have_text("4 / 12")
    expect(page.get_by_role("img", name=f"{name}: 4 of 12 victory points")).to_be_visible()
    set_sheet(page, name, "Cities on the board", 4)
    expect(vp).to_have_text("12 / 12")
    # reached on their own turn: over at once, no tap to end it
    expect(page.locator("#play")).to_have_attribute("data-finished", "true")
    expect(page.locator(".g-seafarers-winner")).to_contain_text(f"{name} wins!")
    expect(page.get_by_role("heading", name="Final ranking")).to_be_visible()
    no_sideways_scroll(page)
    assert problems == [], problems
    shot(page, tmp_path, "race-won.png", problems)


def test_an_entered_four_islands_layout_is_what_every_later_setup_lays(live_server, phone,
                                                                       tmp_path):
    """The owner copies the book's diagram once (test data here: the app's own shuffle); the
    plays started afterwards, and the board page, lay exactly that layout."""
    from companion.games.protocol import make_rng
    from companion.games.seafarers import GAME
    from companion.owner import owner_key

    board = GAME.setup(["A", "B", "C"], GAME.parse_options(
        {"scenario": "four_islands", "layout": "variable"}), make_rng(11), {})
    page = phone()
    problems = watch_console(page)
    page.goto(f"{live_server.url}/owner/{owner_key(live_server.app)}")   # the owner's phone
    page.goto(live_server.url + "/catalogue/seafarers")                 # its box data
    page.get_by_role("link", name="Enter the book's layouts").click()
    page.get_by_text("The Four Islands, 3 players").click()
    first = board["hexes"][0]
    page.locator(f'a[href="#hex-{first["label"]}"]').first.click()   # tap a hex: its row
    for h in board["hexes"]:
        where = f"{h['q']}:{h['r']}"
        page.locator(f'select[name="t:{where}"]').select_option(h["terrain"])
        if h["number"]:
            page.locator(f'select[name="n:{where}"]').select_option(str(h["number"]))
    for h in board["harbours"]:
        page.locator(f'select[name="h:{h["q"]}:{h["r"]}"]').select_option(str(h["facing"]))
    page.get_by_role("button", name="Save the book's layout").click()
    expect(page.locator("#layout-saved")).to_be_visible()
    shot(page, tmp_path, "layout-entered.png", problems)
    wanted = {f"{h['q']},{h['r']}": h["terrain"] for h in board["hexes"]}
    read = """() => Object.fromEntries([...document.querySelectorAll('#setup g.hex, main g.hex')]
        .map(g => [g.dataset.q + ',' + g.dataset.r, g.classList[1]]))"""
    for seed in (5, 6):
        page.goto(live_server.url + create(live_server, "four_islands", ["Ann", "Bo", "Cy"],
                                           seed=seed, layout="book"))
        page.locator("#setup-details").evaluate("d => d.open = true")
        laid = page.evaluate(read)
        assert {k: v for k, v in laid.items() if k in wanted} == wanted
        expect(page.get_by_text("The book's layout (as the owner entered it")).to_be_visible()
    page.goto(live_server.url + "/boards/seafarers?scenario=four_islands&players=3&seed=z")
    assert {k: v for k, v in page.evaluate(read).items() if k in wanted} == wanted
    assert problems == []
