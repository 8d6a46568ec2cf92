"""Seat links on the pages (issue 24): the table display offers a QR code per seat only when
the host's phone opens it (its edit token in the form's body, never in an address; the
display keeps the view link), a view link's display and every page a view link opens hold no
seat token; a seat link's phone changes seat in one tap, to no seat or, when every phone
edits every seat, to another seat, and its rights stay its own seat's whatever it shows."""
from __future__ import annotations

import base64
import re
from html import unescape

from companion.qr import qr_svg


def start(client, seat_edits="own"):
    reply = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo", "Cy"],
                                               "seed": 5, "seat_edits": seat_edits})
    assert reply.status_code == 201, reply.data
    play = reply.get_json()
    play["seat"] = {s["name"]: s["token"] for s in play["seats"]}
    play["link"] = {s["name"]: s["url"] for s in play["seats"]}
    return play


def page(client, play, token, path=""):
    reply = client.get(f"/plays/{play['id']}/{token}{path}")
    assert reply.status_code == 200, reply.status_code
    return reply.get_data(as_text=True)


def no_seat_token_in(html: str, play: dict) -> None:
    assert not any(token in html for token in play["seat"].values())


def test_the_display_shows_a_code_per_seat_only_from_the_hosts_phone(app, client):
    play = start(client)
    view, edit = play["view_token"], play["edit_token"]
    url = f"/plays/{play['id']}/{view}/display"
    # a view link's display: the table's code alone, no seat's link anywhere
    plain = page(client, play, view, "/display")
    assert 'id="display-seat-codes"' not in plain
    no_seat_token_in(plain, play)
    for path in ("", "/join", "/history", "/join.svg", "/display?version=99"):
        no_seat_token_in(client.get(f"/plays/{play['id']}/{view}{path}").get_data(as_text=True),
                         play)
    # the host's page offers it as a form posting the edit token to the view link's display
    host = page(client, play, edit)
    form = re.search(r'<form method="post" action="([^"]+)"[^>]*class="display-seats">(.*?)'
                     r'</form>', host, re.S)
    assert form and form[1] == url and f'name="host" value="{edit}"' in form[2]
    for token in (view, play["seat"]["Bo"]):
        assert 'id="display-seats"' not in page(client, play, token)
    # opened so: three codes, each the QR code of its seat's link, drawn into the page
    reply = client.post(url, data={"host": edit})
    assert reply.status_code == 200
    assert reply.headers["Cache-Control"] == "no-store"
    html = reply.get_data(as_text=True)
    codes = re.findall(r'<img src="data:image/svg\+xml;base64,([^"]+)" alt="QR code of the '
                       r'seat of (\w+)"', html)
    assert [name for _, name in codes] == ["Ann", "Bo", "Cy"]
    with app.test_request_context():
        for data, name in codes:
            assert base64.b64decode(data).decode() == qr_svg(play["link"][name])
    no_seat_token_in(html, play)
    assert edit not in html                        # the display keeps the view link only
    assert f"/plays/{play['id']}/{view}/live" in html
    # the live update of its board is the view link's, without the codes
    block = client.get(f"{url}?version=99").get_data(as_text=True)
    assert "display-seat-codes" not in block
    # anything but the host's edit token is refused, and shows no code
    for host in (None, view, play["seat"]["Ann"], "not-a-token"):
        refused = client.post(url, data={"host": host} if host else {})
        assert refused.status_code == 403
        assert "data:image/svg" not in refused.get_data(as_text=True)


def test_a_seat_link_changes_seat_in_one_tap_and_keeps_its_own_rights(client):
    play = start(client, "own")
    bo = play["seat"]["Bo"]
    base = f"/plays/{play['id']}/{bo}"
    html = page(client, play, bo)
    assert "This phone: Bo" in html
    leave = re.search(r'<a class="button" id="change-seat" href="([^"]+)">', html)[1]
    assert leave == f"{base}/seat/none"
    # no seat: every seat shown, "I am Bo" to come back, Ann's seat is Ann's code
    reply = client.get(leave)
    assert reply.status_code == 302
    cookie = reply.headers["Set-Cookie"]
    assert "nsc_seat=none" in cookie and f"Path={base}" in cookie and "HttpOnly" in cookie
    html = page(client, play, bo)
    assert "This phone:" not in html and 'id="seat-pick"' in html
    assert "I am Bo" in html and "I am Ann" not in html and 'id="seat-other"' in html
    # ... still Bo's rights: Bo's own steppers, none of Ann's, and the server refuses Ann's
    assert 'id="sheet-2-form" hx-post' in html and 'id="sheet-1-form" hx-post' not in html
    refused = client.post(f"{base}/events", data={"type": "sheet", "player": "Ann",
                                                  "s:vp": "3"})
    assert refused.status_code == 403
    # a Ben link cannot become Ann's: a cookie naming Ann shows Bo
    client.get(f"{base}/seat/0")
    assert "This phone: Bo" in page(client, play, bo)
    # when the table lets every phone edit every seat, the link may sit at any seat
    changed = client.post(f"/api/v1/plays/{play['id']}/events", json={
        "type": "seat_edits", "data": {"edits": "all"}},
        headers={"Authorization": f"Bearer {play['edit_token']}"})
    assert changed.status_code == 200
    assert "This phone: Ann" in page(client, play, bo)
    client.get(f"{base}/seat/none")
    html = page(client, play, bo)
    assert all(f"I am {name}" in html for name in ("Ann", "Bo", "Cy"))
    assert 'id="seat-other"' not in html
    # the host's own seat choice is the host's link's: Bo's link leaves it alone
    host = f"/plays/{play['id']}/{play['edit_token']}"
    client.get(f"{host}/seat/2")
    assert "This phone: Cy" in page(client, play, play["edit_token"])
    assert "This phone:" not in page(client, play, bo)


def test_a_seat_link_shares_nothing(client):
    """No view link derives from a seat's token: its page offers no join code or display."""
    play = start(client)
    bo = play["seat"]["Bo"]
    html = page(client, play, bo)
    for offer in ('id="display-link"', "/join\"", "join.svg"):
        assert offer not in html
    reply = client.get(f"/plays/{play['id']}/{bo}/join")
    assert reply.status_code == 302 and reply.headers["Location"].endswith(
        f"/plays/{play['id']}/{bo}")


def test_a_seat_link_has_no_code_to_share(client):
    """A seat token derives no view link: its QR code (page and API) is a 403 naming who shares
    the table, never a code of a link that opens nothing; the host's and a view link's code is
    the view link, which opens the play."""
    play = start(client)
    seat = play["seat"]["Bo"]
    page_reply = client.get(f"/plays/{play['id']}/{seat}/join.svg")
    assert page_reply.status_code == 403
    assert "host's phone" in unescape(page_reply.get_data(as_text=True))
    api_reply = client.get(f"/api/v1/plays/{play['id']}/join.svg",
                           headers={"Authorization": f"Bearer {seat}"})
    assert api_reply.status_code == 403
    assert api_reply.get_json()["error"]["code"] == "forbidden"
    for token in (play["edit_token"], play["view_token"]):
        svg = client.get(f"/plays/{play['id']}/{token}/join.svg")
        assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert client.get(f"/plays/{play['id']}/{play['view_token']}").status_code == 200
