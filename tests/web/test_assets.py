"""Compression and caching: pages, fragments, CSS, JS, JSON and SVG go out gzip or brotli
compressed when the phone accepts it; static files carry their content hash in the name and
are cached for a year, plain names briefly; the hashed name changes with the file."""
from __future__ import annotations

import gzip
import re
import shutil

import brotli
import pytest

from companion import ROOT
from tests.conftest import make_app

ACCEPT = {"gzip": "gzip", "br": "gzip, deflate, br"}


def decode(reply) -> bytes:
    encoding = reply.headers.get("Content-Encoding")
    if encoding == "gzip":
        return gzip.decompress(reply.data)
    if encoding == "br":
        return brotli.decompress(reply.data)
    assert encoding is None, encoding
    return reply.data


def new_play(client, game="shipwrights"):
    reply = client.post("/api/v1/plays", json={"game": game, "players": ["Ann", "Bo", "Cy"],
                                               "seed": 3})
    assert reply.status_code == 201
    return reply.get_json()


def static_links(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


@pytest.mark.parametrize("encoding", ["gzip", "br"])
def test_pages_fragments_json_and_svg_are_compressed(client, encoding):
    play = new_play(client)
    pid, token = play["id"], play["edit_token"]
    plain = client.get(f"/plays/{pid}/{token}", headers={"HX-Request": "true"})
    assert "Content-Encoding" not in plain.headers   # a client that did not ask gets it plain
    checks = [(f"/plays/{pid}/{token}", {}, "text/html"),
              (f"/plays/{pid}/{token}", {"HX-Request": "true"}, "text/html"),
              (f"/plays/{pid}/{token}/poll?version=-1", {"HX-Request": "true"}, "text/html"),
              ("/api/v1/openapi.json", {}, "application/json"),
              (f"/plays/{pid}/{token}/join.svg", {}, "image/svg+xml")]
    for path, headers, mimetype in checks:
        reply = client.get(path, headers={**headers, "Accept-Encoding": ACCEPT[encoding]})
        assert reply.status_code == 200, path
        assert reply.mimetype == mimetype
        assert reply.headers["Content-Encoding"] == encoding, path
        assert "Accept-Encoding" in reply.headers["Vary"]
        body = decode(reply)
        assert len(reply.data) < len(body) / 2, path
        if path.endswith(token) and headers:   # the same block, only smaller on the wire
            assert body.startswith(plain.data[:100]) and b'id="play"' in body


@pytest.mark.parametrize("encoding", ["gzip", "br"])
def test_every_static_link_is_hashed_compressed_and_cached_for_a_year(client, encoding):
    play = new_play(client)
    page = client.get(f"/plays/{play['id']}/{play['edit_token']}").get_data(as_text=True)
    links = static_links(page) + static_links(client.get("/").get_data(as_text=True))
    assert any(link.startswith("/static/css/app.") for link in links)
    assert any(link.startswith("/static/js/htmx.min.") for link in links)
    for link in set(links):
        name = link.rsplit("/", 1)[1]
        assert re.fullmatch(r".+\.[0-9a-f]{12}\.[a-z0-9]+", name), link
        reply = client.get(link, headers={"Accept-Encoding": ACCEPT[encoding]})
        assert reply.status_code == 200, link
        assert reply.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        original = link.replace("/static/", "", 1)
        original = re.sub(r"\.[0-9a-f]{12}(\.[a-z0-9]+)$", r"\1", original)
        assert decode(reply) == (ROOT / "static" / original).read_bytes(), link
        if reply.mimetype in ("text/css", "text/javascript", "application/javascript"):
            assert reply.headers["Content-Encoding"] == encoding, link


def test_plain_and_outdated_static_names_still_work_with_a_short_cache(client):
    for path in ("/static/css/app.css", "/static/css/app.0123456789ab.css"):
        reply = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert reply.status_code == 200, path
        assert "immutable" not in reply.headers["Cache-Control"]
        assert "max-age=300" in reply.headers["Cache-Control"]
        assert decode(reply) == (ROOT / "static/css/app.css").read_bytes()
    assert client.get("/static/css/none.0123456789ab.css").status_code == 404
    assert client.get("/static/../companion/__init__.py").status_code == 404


def test_the_hashed_name_changes_when_the_file_changes(tmp_path):
    static = tmp_path / "static"
    shutil.copytree(ROOT / "static", static)
    app = make_app(tmp_path)
    app.static_folder = str(static)
    client = app.test_client()
    first = [x for x in static_links(client.get("/").get_data(as_text=True))
             if "/css/app." in x][0]
    css = static / "css" / "app.css"
    css.write_text(css.read_text() + "\n.added-by-a-test { color: red; }\n")
    second = [x for x in static_links(client.get("/").get_data(as_text=True))
              if "/css/app." in x][0]
    assert first != second
    assert b"added-by-a-test" in decode(client.get(second))
    outdated = client.get(first)   # a phone still holding the old page gets the new file
    assert b"added-by-a-test" in outdated.data
    assert "immutable" not in outdated.headers["Cache-Control"]


def test_conditional_requests_still_answer_not_modified(client):
    link = [x for x in static_links(client.get("/").get_data(as_text=True))
            if "/js/htmx.min." in x][0]
    first = client.get(link, headers={"Accept-Encoding": "br"})
    again = client.get(link, headers={"Accept-Encoding": "br",
                                      "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""


def test_vendored_scripts_match_their_pinned_digests():
    import hashlib

    for line in (ROOT / "static/js/VENDORED.txt").read_text().splitlines():
        digest = re.search(r"sha256 ([0-9a-f]{64})", line)
        name = re.search(r"as (js/[^\s,]+)", line)
        path = ROOT / "static" / (name[1] if name else "js/htmx.min.js")
        assert digest, line
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest[1], line
