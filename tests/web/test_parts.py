"""Only what changed goes over the wire (web/parts.py): the play block's parts carry stable ids
and hashes; a phone that says which parts it holds (X-Parts) gets the changed parts and
placeholders for the rest, never the folded setup; and in every game, played as phones play
it with its most players, no change sends a phone more than 5 KB (brotli, as sent). Sizes, not
times: the times are `make bench`'s (benchmarks/bench_wire.py)."""
from __future__ import annotations

import re

import brotli
import pytest

from benchmarks.bench_wire import SCRIPTS, HeldParts, new_play_body, stretch
from companion.web.parts import cut, digest

LIMIT = 5 * 1024
HX = {"HX-Request": "true"}
TAGS = re.compile(r'<([a-z]+)[^>]*?\sid="([^"]+)"[^>]*?\sdata-h="([^"]+)"([^>]*)>')


def new_play(client, game):
    body = client.post("/api/v1/plays", json=new_play_body(game)).get_json()
    return f"/plays/{body['id']}/{body['edit_token']}", body


@pytest.mark.parametrize("game", sorted(SCRIPTS))
def test_a_change_sends_each_phone_at_most_5_kb(client, game):
    """More than a round's changes (turns, pawns, track moves, taps on the sheets, the phase
    and round steps): the phone that made the change and a phone watching each get at most
    5 KB (benchmarks/bench_wire.py sets the whole block beside it)."""
    rows = list(stretch(client, game, 28, whole=False))
    assert len(rows) == 28, f"{game}: the stretch ended after {len(rows)} changes"
    worst = max(rows, key=lambda r: max(r[1], r[2]))
    assert max(worst[1], worst[2]) <= LIMIT, (game, worst)


@pytest.mark.parametrize("game", sorted(SCRIPTS))
def test_every_part_has_an_id_and_a_hash_and_the_setup_never_travels_again(client, game):
    page, body = new_play(client, game)
    html = client.get(page).get_data(as_text=True)
    assert "<!--part-->" not in html and "<!--/part-->" not in html
    parts = TAGS.findall(html)
    ids = [p[1] for p in parts]
    assert len(ids) == len(set(ids)) >= 6, ids
    assert {"play-head", "play-controls", "setup-card", "sheet-1-head", "sheet-1-form",
            "score-card"} <= set(ids)
    phone = HeldParts(html)
    state = client.get(f"/api/v1/plays/{body['id']}",
                       headers={"Authorization": f"Bearer {body['edit_token']}"}).get_json()
    form = SCRIPTS[game](state["state"], 0)
    if form.get("expected_version") == "":
        form["expected_version"] = "0"
    assert client.post(page + "/events", data=form, headers=HX).status_code == 200
    answer = client.get(page + "/poll?version=0", headers={**HX, **phone.header()})
    block = answer.get_data(as_text=True)
    kept = re.findall(r'<(\w+) id="([^"]+)" data-h="([^"]+)" data-keep></\1>', block)
    assert ("section", "setup-card", phone.parts["setup-card"]) in kept
    sent = {p[1] for p in TAGS.findall(block) if "data-keep" not in p[3]}
    assert "play-head" in sent and "setup-card" not in sent and "share-details" not in sent
    whole = client.get(page + "/poll", headers=HX).get_data(as_text=True)
    assert len(block) < len(whole)


def test_a_phone_that_holds_nothing_or_sends_junk_gets_the_whole_block(client):
    page, _ = new_play(client, "knarr")
    ids = [p[1] for p in TAGS.findall(client.get(page + "/poll", headers=HX).get_data(
        as_text=True))]
    for junk in ("", "  ", "<script> ; , '", "x" * 5000, " ".join(["zz"] * 1000)):
        got = client.get(page + "/poll", headers={**HX, "X-Parts": junk})
        assert got.status_code == 200
        assert "data-keep" not in got.get_data(as_text=True)
        assert [p[1] for p in TAGS.findall(got.get_data(as_text=True))] == ids


def test_cut_stamps_keeps_and_refuses_a_part_without_an_id():
    one = '<section class="a" id="one"><p>1</p></section>'
    two = '<ul id="two"><li>2</li></ul>'
    html = f"<div><!--part-->{one}<!--/part--> <!--part-->{two}<!--/part--></div>"
    stamped = cut(html)
    assert stamped == (f'<div><section class="a" id="one" data-h="{digest(one)}"><p>1</p>'
                       f'</section> <ul id="two" data-h="{digest(two)}"><li>2</li></ul></div>')
    kept = cut(html, frozenset({digest(two)}))
    assert kept.endswith(f'<ul id="two" data-h="{digest(two)}" data-keep></ul></div>')
    with pytest.raises(ValueError):
        cut("<!--part--><p>no id</p><!--/part-->")


def test_the_bytes_are_brotli_as_sent(client):
    """The limit is on what travels: the answer as compressed (the same block decoded)."""
    page, _ = new_play(client, "seafarers")
    sent = client.get(page + "/poll", headers={**HX, "Accept-Encoding": "br"})
    assert sent.headers["Content-Encoding"] == "br"
    plain = brotli.decompress(sent.data)
    assert plain.lstrip().startswith(b'<div id="play"') and len(sent.data) * 4 < len(plain)


def test_a_version_rendered_once_is_each_phones_own_undo_and_csrf(app):
    """The first phone's answer is kept for the next phones at that version (block_cache):
    each still gets its own Undo and its own CSRF token, and a refused change is never kept."""
    from companion.web import block_cache

    block_cache.clear()
    first, second = app.test_client(), app.test_client()
    page, _ = new_play(first, "reavers")
    for client in (first, second):
        client.get(page)                                     # a session each
    done = first.post(page + "/events", headers={**HX, "X-Device-Id": "phone-a"}, data={
        "type": "sheet", "player": "Alexandra", "add:glory": "1"})
    assert done.status_code == 200
    mine = re.search(r"<button[^>]*data-undo-mine[^>]*>", done.get_data(as_text=True))[0]
    assert "disabled" not in mine
    got = second.get(page + "/poll?version=0", headers={**HX, "X-Device-Id": "phone-b"})
    block = got.get_data(as_text=True)
    theirs = re.search(r"<button[^>]*data-undo-mine[^>]*>", block)[0]
    assert "disabled" in theirs                               # nothing of phone B's to undo
    assert "data-undo-other" in block and "data-undo-other" not in done.get_data(as_text=True)
    # each session's token without its signing time and signature (a render a second later
    # signs the same token again, differently: see signed() below)
    tokens = r'name="csrf_token" value="([^".]+)\.'
    own = re.findall(tokens, second.get(page).get_data(as_text=True))
    shared = re.findall(tokens, block)
    assert shared and set(shared) == {own[0]} != set(re.findall(
        tokens, done.get_data(as_text=True)))
    assert "<!--device" not in block
    refused = first.post(page + "/events", headers=HX, data={
        "type": "sheet", "player": "Nobody", "add:glory": "1"})
    assert refused.status_code in (400, 422) and 'role="alert"' in refused.get_data(as_text=True)
    again = second.get(page + "/poll?version=0", headers={**HX, "X-Device-Id": "phone-b"})
    assert 'role="alert"' not in again.get_data(as_text=True)   # one phone's refusal stays its


def signed(response) -> str:
    """The block with each CSRF token's signing time and signature left out (two renders a
    second apart sign this session's token at different times; the token is the same)."""
    return re.sub(r'(name="csrf_token" value="[^".]+)\.[^"]*"', r'\1"',
                  response.get_data(as_text=True))


@pytest.mark.parametrize("game", sorted(SCRIPTS))
def test_a_shared_block_is_what_the_phone_would_have_had_rendered_for_it(app, game):
    """Changes from one phone (its answer is the version's first render, kept); the watching
    phone's block at each version, three seconds later, taken from that render with its own
    Undo, CSRF token and clock, is byte for byte what rendering it for that phone gives
    (BLOCK_CACHE_SECONDS=0)."""
    import datetime as dt

    from companion.web import block_cache

    block_cache.clear()
    service = app.extensions["companion"]
    writer, watcher = app.test_client(), app.test_client()
    page, body = new_play(writer, game)
    auth = {"Authorization": f"Bearer {body['edit_token']}"}
    for client in (writer, watcher):
        client.get(page)
    start = service.now() + dt.timedelta(minutes=1)          # the clock runs from the start
    for i in range(12):
        state = writer.get(f"/api/v1/plays/{body['id']}", headers=auth).get_json()["state"]
        form = SCRIPTS[game](state, i)
        if form.get("expected_version") == "":
            form["expected_version"] = str(state["version"])
        service.now = lambda i=i: start + dt.timedelta(seconds=10 * i)
        assert writer.post(page + "/events", data=form, headers={
            **HX, "X-Device-Id": "writer"}).status_code == 200
        service.now = lambda i=i: start + dt.timedelta(seconds=10 * i + 3)
        app.config["BLOCK_CACHE_SECONDS"] = 5.0
        shared = watcher.get(page + "/poll", headers={**HX, "X-Device-Id": "watcher"})
        app.config["BLOCK_CACHE_SECONDS"] = 0.0
        own = watcher.get(page + "/poll", headers={**HX, "X-Device-Id": "watcher"})
        assert signed(shared) == signed(own), (game, i, form)
    app.config["BLOCK_CACHE_SECONDS"] = 5.0
    assert block_cache._kept, "nothing was shared"
