"""The box data belongs to the owner: the owner key, its link and cookie, the API's bearer
check, read-only pages for everyone else, and every save kept so it can be undone."""
from __future__ import annotations

import os
import stat

from companion.owner import OWNER_COOKIE, is_owner, owner_key, owner_key_path
from tests.conftest import as_owner, owner_headers

TRACK = {"reputation_track": [0, 1, 2, 3]}


def test_the_key_is_made_once_in_a_private_file_and_the_cli_prints_it(app, runner):
    key = owner_key(app)
    path = owner_key_path(app)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert len(key) >= 40 and path.read_text().strip() == key
    result = runner.invoke(args=["owner-key"])
    assert result.exit_code == 0 and result.output.strip() == key
    app.extensions.pop("owner_key")               # a restart reads the same key back
    assert owner_key(app) == key
    path.chmod(0o644)                             # an older install left it readable
    app.extensions.pop("owner_key")
    assert owner_key(app) == key and stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_put_needs_the_owner_key(app, client):
    url = "/api/v1/catalogue/knarr"
    missing = client.put(url, json=TRACK)
    assert missing.status_code == 401 and missing.json["error"]["code"] == "owner_key_required"
    wrong = client.put(url, json=TRACK, headers={"Authorization": "Bearer not-the-key"})
    assert wrong.status_code == 403
    assert client.get(url).json["catalogue"] == {"reputation_track": []}
    ok = client.put(url, json=TRACK, headers=owner_headers(app))
    assert ok.status_code == 200
    assert client.get(url).json["catalogue"] == TRACK


def test_the_owner_link_sets_an_http_only_cookie(app, client):
    assert client.get("/owner/wrong-key").status_code == 403
    assert client.get_cookie(OWNER_COOKIE) is None
    response = client.get(f"/owner/{owner_key(app)}")
    assert response.status_code == 302 and response.location.startswith("/catalogue")
    header = response.headers["Set-Cookie"]
    assert "HttpOnly" in header and "SameSite=Lax" in header
    assert "This phone is now the owner" in client.get(response.location).get_data(as_text=True)
    saved = client.post("/catalogue/knarr", data={"json": '{"reputation_track": [0, 2]}'})
    assert saved.status_code == 200


def test_is_owner_reads_the_header_or_the_cookie(app):
    key = owner_key(app)
    with app.test_request_context(headers={"Authorization": f"Bearer {key}"}):
        from flask import request
        assert is_owner(request)
    with app.test_request_context(headers={"Cookie": f"{OWNER_COOKIE}={key}"}):
        assert is_owner(request)
    with app.test_request_context(headers={"Cookie": f"{OWNER_COOKIE}=guess"}):
        assert not is_owner(request)


def test_without_the_key_the_page_is_read_only_and_refuses_a_save(client):
    page = client.get("/catalogue/shipwrights").get_data(as_text=True)
    assert 'id="read-only"' in page and "<fieldset class=\"plain\" disabled>" in page
    assert 'name="json"' not in page
    refused = client.post("/catalogue/knarr", data={"json": '{"reputation_track": [0, 2]}'})
    assert refused.status_code == 401 and 'id="read-only"' in refused.get_data(as_text=True)
    form = client.post("/catalogue/shipwrights/form", data={"vp-15": "3"})
    assert form.status_code == 401
    assert client.get("/api/v1/catalogue/knarr").json["catalogue"] == {"reputation_track": []}
    assert client.post("/catalogue/knarr/undo").status_code == 401


def test_every_save_is_kept_and_the_owner_can_undo_or_restore(app, client):
    url, owner = "/api/v1/catalogue/knarr", owner_headers(app)
    client.put(url, json={"reputation_track": [0, 1]}, headers=owner)
    client.put(url, json={"reputation_track": [0, 5]}, headers=owner)
    versions = client.get(url + "/versions").json["versions"]
    assert [v["source"] for v in versions] == ["saved through the API"] * 2 + [
        "before the first save"]
    assert client.post(url + "/undo").status_code == 401
    undone = client.post(url + "/undo", headers=owner)
    assert undone.status_code == 200 and undone.json["catalogue"] == {"reputation_track": [0, 1]}
    first = versions[-1]["id"]
    restored = client.post(f"{url}/versions/{first}/restore", headers=owner)
    assert restored.json["catalogue"] == {"reputation_track": []}
    assert client.get(url).json["catalogue"] == {"reputation_track": []}
    assert client.post(f"{url}/versions/99999/restore", headers=owner).status_code == 404
    assert client.post(f"{url}/versions/{first}/restore",
                       headers={"Authorization": "Bearer x"}).status_code == 403


def test_an_import_can_be_undone_on_the_page(client):
    owner = as_owner(client)
    owner.post("/catalogue/knarr", data={"json": '{"reputation_track": [0, 1]}'})
    imported = owner.post("/catalogue/knarr", data={
        "json": "", "file": (__import__("io").BytesIO(b'{"reputation_track": [0, 9]}'),
                             "backup.json")}, content_type="multipart/form-data")
    assert imported.status_code == 200
    page = owner.get("/catalogue/knarr").get_data(as_text=True)
    assert "imported from a file" in page and "Undo the last save" in page
    undone = owner.post("/catalogue/knarr/undo")
    assert undone.status_code == 200 and "The earlier version is back" in undone.get_data(
        as_text=True)
    assert owner.get("/api/v1/catalogue/knarr").json["catalogue"] == {"reputation_track": [0, 1]}


def test_openapi_documents_the_owner_endpoints(client):
    paths = client.get("/api/v1/openapi.json").json["paths"]
    for game in ("shipwrights", "explorers", "knarr", "reavers", "seafarers"):
        assert "401" in paths[f"/api/v1/catalogue/{game}"]["put"]["responses"]
    assert "post" in paths["/api/v1/catalogue/{game_id}/versions/{version_id}/restore"]
    assert "post" in paths["/api/v1/catalogue/{game_id}/undo"]
