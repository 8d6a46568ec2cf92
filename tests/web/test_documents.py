"""PDFs are made in a pool of other processes and kept by what they show (issue 22, F2).

- a score sheet is made by a PDF process, not by the server process that asked;
- asking again for the same sheet (play, version, language, paper) reads the kept file: the
  pool makes nothing; another version, language or paper is made anew;
- a deleted play's sheets are deleted with it; the kept files are the server user's only;
- a full pool answers 503 with Retry-After and a sentence (in the page's language), the API
  in English; a PDF process that died is replaced on the next document.
"""
from __future__ import annotations

import os
import stat

from companion.pdf_cache import DocumentCache
from tests.conftest import make_app
from tests.web.pools import every_process_busy, kill_every_process


def new_play(client, game="knarr", players=("Ann", "Bo")):
    reply = client.post("/api/v1/plays", json={"game": game, "players": list(players),
                                               "seed": 3})
    assert reply.status_code == 201, reply.data
    return reply.get_json()


def sheet(client, play, query="", **headers):
    return client.get(f"/plays/{play['id']}/{play['view_token']}/scoresheet.pdf{query}",
                      headers=headers)


def tap(client, play, vp):
    reply = client.post(f"/api/v1/plays/{play['id']}/events",
                        headers={"Authorization": f"Bearer {play['edit_token']}"},
                        json={"type": "sheet", "data": {"player": "Ann", "fields": {"vp": vp}}})
    assert reply.status_code == 200, reply.data


def the_pool(app):
    from companion.web.documents import pool

    with app.app_context():
        return pool()


def kept(tmp_path, play_id=None):
    folder = tmp_path / "pdf-cache"
    return sorted((folder / play_id if play_id else folder).rglob("*.pdf"))


def test_a_sheet_is_made_by_another_process_and_kept(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    play = new_play(client)
    pool = the_pool(app)
    before = pool.renders
    first = sheet(client, play)
    assert first.status_code == 200 and first.data.startswith(b"%PDF")
    assert pool.renders == before + 1
    workers = pool.processes()
    assert workers and os.getpid() not in workers
    files = kept(tmp_path, play["id"])
    assert len(files) == 1
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600
    assert stat.S_IMODE(files[0].parent.stat().st_mode) == 0o700

    again = sheet(client, play)          # the same version, language and paper: a file read
    assert again.data == first.data and pool.renders == before + 1
    assert client.get(f"/api/v1/plays/{play['id']}/scoresheet.pdf", headers={
        "Authorization": f"Bearer {play['view_token']}"}).data == first.data
    assert pool.renders == before + 1

    for query, headers in (("?paper=letter", {}), ("", {"Accept-Language": "de"})):
        other = sheet(client, play, query, **headers)
        assert other.status_code == 200 and other.data != first.data
    assert pool.renders == before + 3
    tap(client, play, 7)                  # a new version is a new sheet
    newer = sheet(client, play)
    assert newer.data != first.data and pool.renders == before + 4
    assert len(kept(tmp_path, play["id"])) == 4


def test_a_deleted_play_takes_its_sheets_with_it(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    gone, stays = new_play(client), new_play(client)
    for play in (gone, stays):
        assert sheet(client, play).status_code == 200
    assert client.get("/pads/knarr.pdf").status_code == 200
    assert kept(tmp_path, gone["id"]) and kept(tmp_path, stays["id"])
    assert client.delete(f"/api/v1/plays/{gone['id']}", headers={
        "Authorization": f"Bearer {gone['edit_token']}"}).status_code == 204
    assert not (tmp_path / "pdf-cache" / gone["id"]).exists()
    assert kept(tmp_path, stays["id"]) and kept(tmp_path, "_pads")
    # and through the page's confirmation
    assert client.post(f"/plays/{stays['id']}/{stays['edit_token']}/delete").status_code == 200
    assert not (tmp_path / "pdf-cache" / stays["id"]).exists()


def test_a_full_pool_answers_503_with_a_sentence_and_the_taps_go_on(tmp_path):
    app = make_app(tmp_path, HEAVY_WAIT=0)
    client = app.test_client()
    play = new_play(client)
    with every_process_busy(the_pool(app)):
        api = client.get(f"/api/v1/plays/{play['id']}/scoresheet.pdf", headers={
            "Authorization": f"Bearer {play['view_token']}", "Accept-Language": "de"})
        assert api.status_code == 503
        assert int(api.headers["Retry-After"]) > 0
        assert api.get_json()["error"] == {
            "code": "busy", "message": "The server is busy making other documents right "
                                       "now; try again in a moment."}
        page = sheet(client, play, **{"Accept-Language": "de"})
        assert page.status_code == 503 and "Retry-After" in page.headers
        assert "Der Server erstellt gerade andere Dokumente" in page.get_data(as_text=True)
        for path in ("/pads/knarr.pdf", "/boards/seafarers.pdf?scenario=four_islands&seed=1"):
            assert client.get(path).status_code == 503
        tap(client, play, 3)               # the table's taps go on
    assert sheet(client, play).status_code == 200
    assert not kept(tmp_path, "_pads")     # a refusal keeps nothing


def test_a_pdf_process_that_died_is_replaced(tmp_path):
    app = make_app(tmp_path)
    client = app.test_client()
    play = new_play(client)
    assert sheet(client, play).status_code == 200
    pool = the_pool(app)
    kill_every_process(pool)
    tap(client, play, 9)
    reply = sheet(client, play)
    assert reply.status_code == 200 and reply.data.startswith(b"%PDF")
    assert pool.processes()


def test_the_least_recently_used_documents_go_past_the_limit(tmp_path):
    static = make_app(tmp_path).static_folder
    cache = DocumentCache(tmp_path / "kept", static, max_files=3)
    paths = [cache.path(f"<p>{n}</p>", "_pads") for n in range(4)]
    for n, path in enumerate(paths[:3]):
        cache.put(path, b"%PDF " + bytes([n]))
        os.utime(path, (n, n))
    assert cache.get(paths[0]) == b"%PDF \x00"     # used again: kept longest
    cache.put(paths[3], b"%PDF 3")
    assert [p.exists() for p in paths] == [True, False, True, True]
    assert cache.path("<p>0</p>", "_pads") == paths[0]
    assert cache.path("<p>0</p>", "_boards") != paths[0]
