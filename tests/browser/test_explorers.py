"""Explorers on a phone: a 3-player Rocks of Ruin game counted up from empty sheets to the winner,
the way a table does it: captains kept with one tap, sheets and islands entered by tapping."""
from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from babel.lists import format_list
from playwright.sync_api import expect

from companion.games.explorers.scoring import LIVESTOCK_LABELS

pytestmark = pytest.mark.browser

SEED = "1"   # deals Ann Tyrant/Barbarian, Bo Huntsman/Berserker, Cy Shieldmaiden/Trader
KEPT = {"Ann": "Tyrant", "Bo": "Berserker", "Cy": "Shieldmaiden"}
SHEETS = {
    "Ann": {"livestock": {"pig": 2, "chicken": 1, "goat": 1}, "outposts": 2, "enemy_ships": 2,
            "settlements": [3, 4], "viking_deaths": 1, "gold": 1},
    "Bo": {"livestock": {"sheep": 2}, "outposts": 1, "enemy_ships": 2, "settlements": [5],
           "viking_deaths": 3, "fortresses": [4]},
    "Cy": {"livestock": {"cattle": 1, "horse": 1}, "outposts": 3},
}
PIECES = {"vikings": 0, "outposts": 0, "mill": 0, "workshop": 0, "barracks": 0}
ISLANDS = [  # (tiles, complete, name, {player: pieces})
    (5, True, "", {"Ann": {"vikings": 1, "outposts": 1}, "Bo": {"vikings": 1, "barracks": 1}}),
    (4, True, "Skull Rock", {"Cy": {"outposts": 1, "mill": 1}, "Ann": {"vikings": 1}}),
    (3, False, "", {"Bo": {"vikings": 2}}),
]
# By hand from the rules (Rocks of Ruin on, 3 players):
# Ann: livestock sets 3+1 types 6+1=7, outposts 2+3=5, ships 2, settlements 3+4=7, deaths 1^2=1,
#      islands 5 (tie on island 1), Tyrant 2 settlements = 2, gold 3, fortresses 0   -> 32
# Bo:  livestock sets 1+1 = 2, outposts 2, ships 2, settlements 5, deaths 3^2=9, islands 5,
#      Berserker 3 deaths = 3, gold 0, fortresses 4                                 -> 32
# Cy:  livestock 3, outposts 2+3+4=9, islands 4 (Skull Rock), Shieldmaiden 1 island = 1 -> 17
TOTALS = {"Ann": 32, "Bo": 32, "Cy": 17}


def no_sideways_scroll(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"page is {width}px wide on a 390px phone"


def score_body():
    islands = []
    for tiles, complete, _name, influence in ISLANDS:
        islands.append({"tiles": tiles, "complete": complete, "unraided_fortress": False,
                        "influence": {p: {**PIECES, **pcs} for p, pcs in influence.items()}})
    players = [{"name": n, "sheet": {**sheet, "captain": KEPT[n]}} for n, sheet in SHEETS.items()]
    return {"players": players, "options": {"rocks_of_ruin": True}, "islands": islands}


def tap(locator, times=1):
    for _ in range(times):
        version = locator.page.locator("#play").get_attribute("data-version")
        locator.click()
        expect(locator.page.locator("#play")).not_to_have_attribute("data-version", version)


def enter_sheet(page, seat, name):
    sheet = page.locator(f"#sheet-{seat}")
    if sheet.get_attribute("open") is None:
        sheet.locator("summary").click()
    data = SHEETS[name]
    for animal, n in data.get("livestock", {}).items():
        tap(sheet.get_by_role("button", name=f"{LIVESTOCK_LABELS[animal]} plus one"), n)
    tap(sheet.get_by_role("button", name="Outposts built plus one"), data.get("outposts", 0))
    tap(sheet.get_by_role("button", name="Enemy ships destroyed plus one"),
        data.get("enemy_ships", 0))
    for value in data.get("settlements", []):
        tap(sheet.get_by_role("button", name=f"Add {value} to Raided settlements"))
    for value in data.get("fortresses", []):
        tap(sheet.get_by_role("button", name=f"Add {value} to Raided fortresses"))
    tap(sheet.get_by_role("button", name="Viking deaths plus one"), data.get("viking_deaths", 0))
    tap(sheet.get_by_role("button", name="Salvaged gold plus one"), data.get("gold", 0))


def enter_island(page, index, tiles, complete, name, influence):
    form = page.locator(".g-explorers-add")
    form.get_by_label("Tiles").fill(str(tiles))
    form.get_by_label("Name").fill(name)
    form.get_by_label("Complete").set_checked(complete)
    tap(form.get_by_role("button", name="Add island"))
    island = page.locator(f"#ex-island-{index}")
    expect(island).to_have_attribute("open", "")
    label = name or f"Island {index + 1}"
    for player, pieces in influence.items():
        for key, n in pieces.items():
            if key in ("mill", "workshop", "barracks"):
                tap(island.get_by_role("button", name=f"{player}'s {key} on {label}"))
            else:
                more = f"{player}: one {key[:-1]} more on {label}"
                tap(island.get_by_role("button", name=more), n)


def test_three_players_count_up_rocks_of_ruin_to_the_winner(live_server, phone, tmp_path):
    page = phone()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(live_server.url + "/new?game=explorers")
    for seat, name in enumerate(["Ann", "Bo", "Cy"], start=1):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.get_by_label("Rocks of Ruin expansion").check()
    page.get_by_label("Seed").fill(SEED)
    page.get_by_role("button", name="Set up the game").click()
    expect(page.locator("[data-current-player]")).to_have_text("Ann")
    expect(page.locator(".g-explorers-count")).to_contain_text("Turn 1 of 72")
    play_id, token = page.url.rstrip("/").split("/")[-2:]

    for name, captain in KEPT.items():
        tap(page.locator(f".g-explorers-cap[data-player='{name}']").get_by_role(
            "button", name=re.compile(f"^{captain}")))
    expect(page.locator(".g-explorers-captains summary")).to_contain_text("3 of 3 kept")
    page.screenshot(path=str(tmp_path / "captains.png"), full_page=True)

    tap(page.get_by_role("button", name="End Ann's turn"))
    expect(page.locator("[data-current-player]")).to_have_text("Bo")
    expect(page.locator(".g-explorers-count")).to_contain_text("Turn 2 of 72")
    # the other 70 turns go by on the API (71 end-turn taps prove nothing more)
    api = page.request
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(71):
        assert api.post(f"{live_server.url}/api/v1/plays/{play_id}/events", headers=auth,
                        data={"type": "turn"}).ok
    page.reload()
    expect(page.locator(".g-explorers-over")).to_contain_text("press End game")

    for seat, name in enumerate(["Ann", "Bo", "Cy"], start=1):
        enter_sheet(page, seat, name)
    for index, island in enumerate(ISLANDS):
        enter_island(page, index, *island)
    page.locator("#ex-islands").screenshot(path=str(tmp_path / "islands.png"))

    expected = api.post(f"{live_server.url}/api/v1/games/explorers/score",
                        data=score_body()).json()
    assert {p["name"]: p["total"] for p in expected["players"]} == TOTALS
    assert expected["winners"] == ["Bo"]

    controllers = [island["controllers"] for island in expected["islands"]]
    assert controllers == [["Ann", "Bo"], ["Cy"], []]
    page.get_by_role("button", name="End game").click()
    # what the sheets above left blank is 0: each player says there is nothing more
    done = page.get_by_role("button", name=re.compile("has nothing more to enter$"))
    expect(page.get_by_role("heading", name=re.compile("^Game over"))).to_be_visible()
    while done.count():
        version = int(page.locator("#play").get_attribute("data-version"))
        done.first.click()
        expect(page.locator("#play")).to_have_attribute("data-version", str(version + 1))
    expect(page.get_by_role("heading", name="Game over · Final ranking")).to_be_visible()
    expect(page.locator(".winner")).to_have_text(re.compile("Bo wins"))
    for name, total in TOTALS.items():
        expect(page.locator(f"tfoot td[data-player='{name}']")).to_have_text(str(total))
    expect(page.locator(".tiebreak")).to_have_text(expected["tiebreak"])
    assert "viking deaths" in expected["tiebreak"]
    for index, names in enumerate(controllers):
        shown = page.locator(f"#ex-island-{index} [data-controllers]")
        expect(shown).to_have_text("→ " + (format_list(names, locale="en") if names
                                           else "nobody"))
    page.screenshot(path=str(tmp_path / "end.png"), full_page=True)
    page.locator("section.card", has=page.locator("#score-h")).screenshot(
        path=str(tmp_path / "ranking.png"))
    no_sideways_scroll(page)


def test_count_up_reads_well_in_dark_mode_on_a_view_only_phone(live_server, phone, tmp_path):
    api_url = live_server.url + "/api/v1/plays"
    page = phone(color_scheme="dark")
    play = page.request.post(api_url, data={
        "game": "explorers", "players": ["Ann", "Bo", "Cy"], "seed": SEED,
        "options": {"rocks_of_ruin": True}}).json()
    auth = {"Authorization": f"Bearer {play['edit_token']}"}

    def event(kind, **data):
        response = page.request.post(f"{api_url}/{play['id']}/events", headers=auth,
                                     data={"type": kind, "data": data})
        assert response.ok, response.text()
    for _ in range(72):
        event("turn")
    for index, (tiles, complete, name, influence) in enumerate(ISLANDS):
        event("add_island", tiles=tiles, complete=complete, name=name)
        for player, pieces in influence.items():
            event("set_influence", island=index, player=player, **pieces)

    page.goto(live_server.url + urlsplit(play["view_url"]).path)
    expect(page.locator(".badge.view")).to_have_text("view only")
    expect(page.locator(".g-explorers-over")).to_contain_text("the scores below follow along")
    expect(page.locator("#ex-island-0 [data-controllers]")).to_have_text("→ Ann and Bo")
    expect(page.locator("#ex-island-2 [data-reason]")).to_contain_text("Incomplete")
    expect(page.locator(".g-explorers form")).to_have_count(0)
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(12, 21, 28)"
    page.locator("#play > .g-explorers").screenshot(path=str(tmp_path / "dark-view.png"))
    no_sideways_scroll(page)
