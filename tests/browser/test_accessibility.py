"""axe-core over every kind of page, light and dark: no violation of any impact.

axe-core comes with axe-playwright-python (a kept package that ships axe.min.js and injects it
into the page); the rules are axe's own defaults (WCAG 2 A and AA plus best practices), none
turned off; the dark pass runs the ones that read colours (COLOUR_RULES). Every <details> on a
page is opened first, so what is folded away (sheets, setup, explanations) is checked too.
The pages are every_kind_of_page (tests/browser/every_page.py): each game's own pages, and
the pages one template draws alike for every game (join, rounds, the finished display, the
delete pages) from one game each, and a seated phone's pages. Besides them: a new-play form
sent back with an error beside its field, a play page with a refusal beside the control, the
table display with a code per seat (opened from the host's phone), and the page after a play
is deleted."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .every_page import api, every_kind_of_page, play_path, served_with_every_play

pytestmark = pytest.mark.browser

OPEN_EVERYTHING = "document.querySelectorAll('details').forEach((d) => { d.open = true; })"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """One server with a play of every game at every stage (changed by nothing here)."""
    yield from served_with_every_play(tmp_path_factory.mktemp("axe"))


def report(violations: list[dict]) -> list[str]:
    return [f"{v['id']} ({v['impact']}): {v['help']} at "
            + "; ".join(n["html"][:140] for n in v["nodes"][:3]) for v in violations]


# What a colour scheme changes is colours: the dark pass runs axe's rules that read them (text
# contrast, a link told from its text by colour alone); every other rule reads the same markup
# in both schemes and runs in the light pass.
COLOUR_RULES = {"resultTypes": ["violations"],
                "runOnly": {"type": "rule", "values": ["color-contrast", "link-in-text-block"]}}


def scan(page, axe) -> dict[str, list[str]]:
    """{scheme: violations} of the page as it is: axe's rules in light, then the same
    rendering switched to dark (page.emulate_media: the scheme is CSS alone, app.css's
    prefers-color-scheme, so no second load is needed) and its colour rules, then back."""
    page.evaluate(OPEN_EVERYTHING)
    found = {"light": report(axe.run(page, options={"resultTypes": ["violations"]})
                             .response["violations"])}
    page.emulate_media(color_scheme="dark")
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    found["dark"] = report(axe.run(page, options=COLOUR_RULES).response["violations"])
    page.emulate_media(color_scheme="light")
    return found


def test_no_page_has_an_axe_violation(site, browser):
    """Each page loaded once and checked light and dark (before, a test per scheme loaded
    every page again, and built its own server and plays under xdist)."""
    from axe_playwright_python.sync_playwright import Axe

    from companion.owner import owner_key

    axe = Axe()
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="light")
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.goto(f"{site.url}/owner/{owner_key(site.app)}")    # the owner's pages as the owner
    assert not page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    found = {}
    pages = every_kind_of_page(site.plays)
    for name, path in pages.items():
        page.goto(site.url + path)
        found[name] = scan(page, axe)
    # a form sent back with its error beside the field
    page.goto(f"{site.url}/new?game=knarr")
    page.locator("#name0").fill("Ann")
    page.locator("form button[type=submit]").last.click()
    expect(page.locator("form .error").first).to_be_visible()
    found["new play refused"] = scan(page, axe)
    # a refusal beside the control on a play page (Shipwrights: a Round Card sent without
    # its draft arrows)
    shipwrights = site.plays["shipwrights", "setup"]
    page.goto(site.url + play_path(shipwrights))
    page.get_by_role("button", name="Reveal this card").click()
    expect(page.locator(".tap-note[role=alert]")).to_be_visible()
    found["shipwrights refused"] = scan(page, axe)
    # the seats (issue 24): the table display opened from the host's phone, a code per seat
    seated = site.plays["knarr", "mid"]
    page.goto(site.url + play_path(seated))
    page.locator("#share-details > summary").click()
    with page.expect_popup() as opened:
        page.locator("#display-seats").click()
    display = opened.value
    expect(display.locator("#display-seat-codes img")).to_have_count(4)
    found["display with seat codes"] = scan(display, axe)
    display.close()
    # the owner deletes a play: the page after it
    doomed = api(site.url, "POST", "/api/v1/plays", {"game": "knarr", "players": ["Ann", "Bo"]})
    page.goto(f"{site.url}/owner/plays/{doomed['id']}/delete")
    page.locator("#confirm-delete").click()
    expect(page.locator("[role=status]").first).to_be_visible()
    found["deleted"] = scan(page, axe)
    context.close()
    assert len(found) >= len(pages) + 4
    assert {(name, scheme): v for name, schemes in found.items()
            for scheme, v in schemes.items() if v} == {}
