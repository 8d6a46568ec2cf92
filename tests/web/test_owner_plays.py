"""The owner sees and deletes every play; a plain device only its own; a view link deletes
nothing.

The owner is recognised by the owner cookie (the phone that opened the owner link) or by
``Authorization: Bearer <owner key>`` (a machine). `/` and `/history` then list every play of
the server, each with a way to delete it; the API's DELETE takes the owner key for any play.
"""
from __future__ import annotations

import re

import pytest

from companion.owner import OWNER_COOKIE
from tests.conftest import as_owner, owner_headers


def finished_play(client, names, game="knarr"):
    """A play made on this device through the new-play form, opened and finished."""
    form = client.get(f"/new?game={game}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', form)
    reply = client.post("/new", data={"game": game, "name0": names[0], "name1": names[1],
                                      "csrf_token": token.group(1) if token else ""})
    assert reply.status_code == 302
    link = reply.headers["Location"]
    assert client.get(link).status_code == 200
    _, _, play_id, token = link.rstrip("/").rsplit("/", 3)
    finish = client.post(f"/api/v1/plays/{play_id}/events",
                         headers={"Authorization": f"Bearer {token}"}, json={"type": "finish"})
    assert finish.status_code == 200
    return play_id


def api_play(app, names, finish=True):
    """A play made through the API by a client no list ever saw."""
    client = app.test_client()
    reply = client.post("/api/v1/plays", json={"game": "knarr", "players": list(names)})
    assert reply.status_code == 201
    play = reply.get_json()
    if finish:
        client.post(f"/api/v1/plays/{play['id']}/events", json={"type": "finish"},
                    headers={"Authorization": f"Bearer {play['edit_token']}"})
    return play


def owner_get(app, path, how):
    """GET as the owner: the owner link's cookie, or the bearer key."""
    if how == "cookie":
        return as_owner(app.test_client()).get(path)
    return app.test_client().get(path, headers=owner_headers(app))


NAMES = ("Annabel", "Bosco", "Cyrano", "Dido", "Zebedee", "Xanthe")


@pytest.mark.parametrize("how", ["cookie", "bearer"])
@pytest.mark.parametrize("page", ["/", "/history"])
def test_the_owner_sees_every_play_a_device_only_its_own(app, page, how):
    ann, cy = app.test_client(), app.test_client()
    ann_id = finished_play(ann, ["Annabel", "Bosco"])
    cy_id = finished_play(cy, ["Cyrano", "Dido"])
    nobody = api_play(app, ["Zebedee", "Xanthe"])

    owner = owner_get(app, page, how)
    assert owner.status_code == 200
    seen = owner.get_data(as_text=True)
    for name in NAMES:
        assert name in seen
    assert "you hold the owner key" in seen
    for play_id in (ann_id, cy_id, nobody["id"]):       # each with its way to delete it
        assert f'href="/owner/plays/{play_id}/delete"' in seen

    mine = ann.get(page).get_data(as_text=True)
    assert "Annabel" in mine and "Bosco" in mine
    for name in ("Cyrano", "Dido", "Zebedee", "Xanthe"):
        assert name not in mine
    assert "/owner/plays/" not in mine and "you hold the owner key" not in mine
    # a wrong key is a plain device: nothing of anyone else's
    for wrong in (app.test_client().get(page, headers={"Authorization": "Bearer guess"}),
                  _with_cookie(app.test_client(), "guess").get(page)):
        text = wrong.get_data(as_text=True)
        assert wrong.status_code == 200
        assert not any(name in text for name in NAMES)


def _with_cookie(client, value):
    client.set_cookie(OWNER_COOKIE, value)
    return client


def test_the_owner_sees_plays_in_progress_on_the_start_page(app):
    running = api_play(app, ["Zebedee", "Xanthe"], finish=False)
    start = owner_get(app, "/", "cookie").get_data(as_text=True)
    assert "Zebedee" in start and "in progress" in start
    assert f"/owner/plays/{running['id']}/delete" in start
    # the history lists finished plays only, for the owner too
    assert "Zebedee" not in owner_get(app, "/history", "cookie").get_data(as_text=True)


@pytest.mark.parametrize("how", ["bearer", "cookie"])
def test_the_owner_key_deletes_any_play_through_the_api(app, how):
    play = api_play(app, ["Zebedee", "Xanthe"])
    other = api_play(app, ["Cyrano", "Dido"])
    store = app.extensions["companion"].store
    assert store.active_events(play["id"])
    path = f"/api/v1/plays/{play['id']}"
    client = as_owner(app.test_client()) if how == "cookie" else app.test_client()
    headers = owner_headers(app) if how == "bearer" else {}
    assert client.delete(path, headers=headers).status_code == 204
    assert store.load_play(play["id"]) is None and store.active_events(play["id"]) == []
    assert store.load_play(other["id"]) is not None           # only that one
    assert client.delete(path, headers=headers).status_code == 404
    gone = app.test_client().get(path, headers={"Authorization": f"Bearer {play['edit_token']}"})
    assert gone.status_code in (403, 404)


def test_a_view_token_or_a_wrong_key_deletes_nothing(app):
    play = api_play(app, ["Zebedee", "Xanthe"])
    path = f"/api/v1/plays/{play['id']}"
    client = app.test_client()
    for headers in ({"Authorization": f"Bearer {play['view_token']}"},
                    {"Authorization": "Bearer not-the-owner-key"}):
        assert client.delete(path, headers=headers).status_code == 403
    assert _with_cookie(app.test_client(), "guess").delete(path).status_code == 401
    page = app.test_client()
    base = f"/plays/{play['id']}/{play['view_token']}/delete"
    assert page.get(base).status_code == 403
    assert page.post(base).status_code == 403
    assert page.get(f"/owner/plays/{play['id']}/delete").status_code == 403
    assert page.post(f"/owner/plays/{play['id']}/delete").status_code == 403
    assert app.extensions["companion"].store.load_play(play["id"]) is not None


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def test_the_owner_deletes_from_the_history_with_a_confirmation(csrf_app):
    app = csrf_app
    table = app.test_client()
    play_id = finished_play(table, ["Cyrano", "Dido"])
    kept = finished_play(table, ["Annabel", "Bosco"])
    owner = as_owner(app.test_client())
    history = owner.get("/history").get_data(as_text=True)
    link = f"/owner/plays/{play_id}/delete"
    assert f'href="{link}"' in history
    ask = owner.get(link)
    text = ask.get_data(as_text=True)
    assert ask.status_code == 200 and "Delete this play?" in text and "Cyrano" in text
    assert 'href="/history"' in text                          # "No, keep it" goes back
    assert app.extensions["companion"].store.load_play(play_id) is not None
    assert owner.post(link).status_code == 400                # no CSRF token: nothing happens
    assert app.extensions["companion"].store.load_play(play_id) is not None
    done = owner.post(link, data={"csrf_token": csrf_of(text)})
    assert done.status_code == 200 and "Play deleted" in done.get_data(as_text=True)
    assert app.extensions["companion"].store.load_play(play_id) is None
    after = owner.get("/history").get_data(as_text=True)
    assert "Cyrano" not in after and "Annabel" in after
    assert app.extensions["companion"].store.load_play(kept) is not None
    assert owner.get(link).status_code == 404
    # the table's own device no longer lists it either
    assert "Cyrano" not in table.get("/history").get_data(as_text=True)


def test_the_owners_phone_deletes_with_a_view_link_too(csrf_app):
    app = csrf_app
    play = api_play(app, ["Zebedee", "Xanthe"])
    base = f"/plays/{play['id']}/{play['view_token']}/delete"
    assert app.test_client().get(base).status_code == 403
    rounds = f"/plays/{play['id']}/{play['view_token']}/history"
    assert 'id="delete-play"' not in app.test_client().get(rounds).get_data(as_text=True)
    owner = as_owner(app.test_client())
    assert f'href="{base}" id="delete-play"' in owner.get(rounds).get_data(as_text=True)
    ask = owner.get(base)
    assert ask.status_code == 200
    done = owner.post(base, data={"csrf_token": csrf_of(ask.get_data(as_text=True))})
    assert done.status_code == 200
    assert app.extensions["companion"].store.load_play(play["id"]) is None
