"""How far a phone (390x844) must scroll to reach the controls of each step of one ordinary
round, per game. Plays with 4 players in headless Chromium on a throwaway database.

    .venv/bin/python scripts/measure-scroll.py [--shots DIR] [game ...]

Round 1 is played without measuring (at version 0 the setup checklist is open at the top on
purpose); round 2 is measured. For every step the page is loaded fresh (scrolled to the top)
and the lowest control that step needs is located: scrolling needed = its bottom edge - 844 px
(0 when it is already on the first screen). Printed: each step; "round needs", the deepest of
them (the step forward sits in the sticky bar at the top); and the page height.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion import create_app  # noqa: E402

VIEW_H = 844
PLAYERS = ["Ann", "Bo", "Cecilie", "Dag"]
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def serve(db: Path):
    import logging

    from werkzeug.serving import make_server
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{db}", "SECRET_KEY": "x",
                      "WTF_CSRF_ENABLED": False, "PUBLIC_URL": None})
    app.extensions["companion"].store.init_db()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def new_play(page, base, game, seed="7"):
    page.goto(f"{base}/new?game={game}")
    for i, name in enumerate(PLAYERS):
        page.locator(f"#name{i}").fill(name)
    page.locator("#seed").fill(seed)
    page.get_by_role("button", name="Set up the game").click()
    page.wait_for_selector("#play[data-version='0']")
    return page.url


def version(page) -> int:
    return int(page.locator("#play").get_attribute("data-version"))


def bumped(page, before):
    """Wait for the play's version to pass `before` (the CSP forbids wait_for_function)."""
    for _ in range(200):
        try:
            if version(page) > before:
                return
        except Exception:   # the block is being swapped
            pass
        page.wait_for_timeout(50)
    raise AssertionError(f"the play stayed at version {before}")


def need(page, url, locator_fn) -> int:
    """Scrolling needed, from the top of a freshly loaded page, to see the whole control."""
    page.goto(url)
    page.wait_for_selector("#play")
    loc = locator_fn(page)
    box = page.evaluate("(el) => { const r = el.getBoundingClientRect();"
                        " return r.bottom + window.scrollY; }", loc.element_handle())
    return max(0, round(box - VIEW_H))


def height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def step(page, url, label, locator_fn, act, rows):
    """Measure (rows is a list) or just play (rows is None) one step."""
    if rows is not None:
        rows.append((label, need(page, url, locator_fn)))
    before = version(page)
    act(page, locator_fn(page))
    bumped(page, before)


def click(_page, loc):
    loc.click()


def knarr(page, base, rows):
    url = new_play(page, base, "knarr")
    for n in range(2 * len(PLAYERS)):
        rows_now = rows if n >= len(PLAYERS) else None
        name = page.locator("[data-current-player]").inner_text()

        def end_turn(p, n=name):
            return p.get_by_role("button", name=f"End {n}'s turn")

        def take(p, loc):
            p.locator("#knarr-vp").fill("2")
            rep = p.locator("#knarr-repvp")
            if rep.count() and not rep.input_value():
                rep.fill("1")
            loc.click()
        step(page, url, f"{name}'s turn", end_turn, take, rows_now)
    return url


def explorers(page, base, rows):
    url = new_play(page, base, "explorers")
    for card in page.locator(".g-explorers-cap").all():
        before = version(page)
        card.locator(".g-explorers-capchoice button").first.click()
        bumped(page, before)
    for n in range(2 * len(PLAYERS)):
        name = page.locator("[data-current-player]").inner_text()
        step(page, url, f"{name}'s turn",
             lambda p, n=name: p.get_by_role("button", name=f"End {n}'s turn"), click,
             rows if n >= len(PLAYERS) else None)
    return url


def reavers(page, base, rows):
    url = new_play(page, base, "reavers")
    reavers_round(page, url, None)
    reavers_round(page, url, rows)
    return url


def reavers_round(page, url, rows):
    for i in range(len(PLAYERS)):
        step(page, url, f"pawn {i + 1}",
             lambda p: p.locator("button.g-reavers-loc:not([disabled])").last, click, rows)
    for name in PLAYERS:
        step(page, url, f"{name} +1 territory",
             lambda p, n=name: p.get_by_role("button", name=f"{n}: one territory more"),
             click, rows)
    step(page, url, "cleanup", lambda p: p.get_by_role("button", name="Cleanup →"), click, rows)
    step(page, url, "next round",
         lambda p: p.get_by_role("button", name=re.compile("^Start round")), click, rows)


def seafarers(page, base, rows):
    url = new_play(page, base, "seafarers")
    seafarers_round(page, url, None)
    seafarers_round(page, url, rows)
    return url


def seafarers_round(page, url, rows):
    for i, name in enumerate(PLAYERS):
        def plus(p, i=i):
            sheet = p.locator(f"#sheet-{i + 1}")
            if not sheet.evaluate("d => d.open"):
                sheet.evaluate("d => d.open = true")
            return sheet.locator(".stepper button[aria-label$='plus one']").first
        step(page, url, f"{name}'s sheet +1", plus, click, rows)
    spots = page.locator(".g-seafarers-spot button")
    if spots.count():
        step(page, url, "discover a tile", lambda p: p.locator(".g-seafarers-spot button").last,
             click, rows)
    step(page, url, "next round", lambda p: p.get_by_role("button", name=re.compile("^Next")),
         click, rows)


def shipwrights(page, base, rows):
    url = new_play(page, base, "shipwrights")
    shipwrights_round(page, url, None)
    shipwrights_round(page, url, rows)
    return url


def shipwrights_round(page, url, rows):
    reveal = page.get_by_role("button", name="Reveal this card")
    if reveal.count():
        def fill_reveal(p, loc):
            chips = p.locator("input[name='d:draft']")
            if chips.count():
                p.locator(".g-sw-chips label").first.click()
            loc.click()
        step(page, url, "reveal the Round Card",
             lambda p: p.get_by_role("button", name="Reveal this card"), fill_reveal, rows)
    def nxt(p):
        return p.get_by_role("button", name=re.compile("^Next"))
    while page.locator(".phase").inner_text() != "actions":
        step(page, url, f"{page.locator('.phase').inner_text()} -> next", nxt, click, rows)
    for name in PLAYERS:
        step(page, url, f"{name} +1 Military",
             lambda p, n=name: p.get_by_role(
                 "button", name=f"Move {n}'s Military marker forward one space"), click, rows)
    while page.locator(".phase").inner_text() != "reveal":
        step(page, url, f"{page.locator('.phase').inner_text()} -> next", nxt, click, rows)


GAMES = {"knarr": knarr, "seafarers": seafarers, "shipwrights": shipwrights,
         "reavers": reavers, "explorers": explorers}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shots", help="folder for full-page screenshots after the round")
    ap.add_argument("games", nargs="*", default=list(GAMES))
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        server, base = serve(Path(tmp) / "m.db")
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-gpu"])
        for game in args.games:
            ctx = browser.new_context(viewport={"width": 390, "height": VIEW_H},
                                      device_scale_factor=1, is_mobile=True, has_touch=True)
            ctx.set_default_timeout(10_000)
            page = ctx.new_page()
            rows = []
            url = GAMES[game](page, base, rows)
            page.goto(url)
            h = height(page)
            if args.shots:
                page.screenshot(path=str(Path(args.shots) / f"{game}.png"), full_page=True)
            worst = max(px for _, px in rows)
            print(f"{game:12s} round needs {worst:5d} px of scrolling  page {h:5d} px")
            for label, px in rows:
                print(f"    {label:28s} {px:5d}")
            ctx.close()
        browser.close()
        server.shutdown()


if __name__ == "__main__":
    main()
