"""The table: join links and QR, exports and import, history and charts, PDFs, the poll."""
from __future__ import annotations

import csv
import io
import json
from urllib.parse import unquote, urlsplit

import pytest

PUBLIC = "http://192.168.1.20:5000"


def create(client, game="reavers", players=("Ann", "Bo"), seed=7):
    response = client.post("/api/v1/plays", json={"game": game, "players": list(players),
                                                  "seed": seed})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def event(client, play, kind, data=None, token=None):
    response = client.post(f"/api/v1/plays/{play['id']}/events",
                           json={"type": kind, "data": data or {}},
                           headers={"Authorization": f"Bearer {token or play['edit_token']}"})
    return response


# A Reavers round's 4 pawns (2 players x 2); Trade with Villages would move the marker.
PAWN_LOCATIONS = ("recruit_reavers", "raid_villages", "raid_keeps", "battle_at_sea")


def play_rounds(client, play, glories=((5, 3), (9, 8), (12, 14)), finish=True,
                names=("Ann", "Bo")):
    """Each round: both players' glory so far, then the two phases of a Reavers round."""
    for first, second in glories:
        for name, glory in zip(names, (first, second), strict=True):
            assert event(client, play, "sheet", {"player": name,
                                                 "fields": {"glory": glory}}).status_code == 200
        for location in PAWN_LOCATIONS:      # cleanup waits for every pawn
            assert event(client, play, "place", {"location": location}).status_code == 200
        for _ in range(2):
            assert event(client, play, "advance").status_code == 200
    if finish:      # the table has entered everything: nothing more on any sheet
        for name in [p["name"] for p in play["state"]["players"]]:
            assert event(client, play, "sheet", {"player": name, "done": True}
                         ).status_code == 200
        assert event(client, play, "finish").status_code == 200


def page(client, play, suffix="", role="edit"):
    token = play[f"{role}_token"]
    return client.get(f"/plays/{play['id']}/{token}{suffix}")


# --------------------------------------------------------------------------- join
def test_play_page_offers_a_big_join_button_and_the_join_page_shows_the_view_qr(client):
    play = create(client)
    html = page(client, play).get_data(as_text=True)
    assert "Show QR to join" in html
    join = page(client, play, "/join").get_data(as_text=True)
    assert play["view_url"] in join
    assert play["edit_url"] not in join
    assert "Let another phone edit too" in join
    assert "join.svg" in join and "edit=1" not in join.split("join.svg")[1].split('"')[0]


def test_join_page_for_editors_can_show_the_edit_link(client):
    play = create(client)
    join = page(client, play, "/join?edit=1").get_data(as_text=True)
    assert play["edit_url"] in join and "can change scores" in join


def test_a_view_token_never_gets_the_edit_link_or_its_qr(client):
    play = create(client)
    join = page(client, play, "/join?edit=1", role="view").get_data(as_text=True)
    assert play["edit_token"] not in join
    assert play["view_url"] in join
    assert "Let another phone edit too" not in join


def test_links_use_public_url_never_localhost(client):
    play = create(client)
    assert play["view_url"].startswith(PUBLIC + "/plays/")
    assert "localhost" not in play["view_url"] and "127.0.0.1" not in play["view_url"]


def test_links_without_public_url_use_the_lan_address(tmp_path, monkeypatch):
    from companion import netinfo
    from tests.conftest import make_app

    monkeypatch.setattr(netinfo, "interface_addresses", lambda: ["10.0.0.7", "192.168.4.2"])
    app = make_app(tmp_path, PUBLIC_URL=None)
    client = app.test_client()
    play = create(client)
    assert urlsplit(play["view_url"]).hostname == "10.0.0.7"
    # the port is the server's own (its socket's), never the one in the Host header (F10)
    join = client.get(f"/plays/{play['id']}/{play['edit_token']}/join",
                      headers={"Host": "localhost:5123"},
                      base_url="http://localhost:5077").get_data(as_text=True)
    assert "http://10.0.0.7:5077/plays/" in join and ":5123" not in join
    assert "only knows a local address" not in join


def test_join_page_warns_when_only_a_local_address_is_known(tmp_path, monkeypatch):
    from companion import netinfo
    from tests.conftest import make_app

    monkeypatch.setattr(netinfo, "interface_addresses", lambda: [])
    client = make_app(tmp_path, PUBLIC_URL=None).test_client()
    play = create(client)
    join = client.get(f"/plays/{play['id']}/{play['edit_token']}/join").get_data(as_text=True)
    assert "only knows a local address" in join


def test_join_svg_is_an_svg_for_both_roles_and_unknown_tokens_are_404(client):
    play = create(client)
    svg = page(client, play, "/join.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert svg.get_data(as_text=True).lstrip().startswith(("<?xml", "<svg"))
    assert page(client, play, "/join.svg", role="view").status_code == 200
    assert client.get(f"/plays/{play['id']}/nonsense/join.svg").status_code == 404
    assert client.get(f"/plays/{play['id']}/nonsense/join").status_code == 404


def test_spectators_never_write(client):
    play = create(client)
    view = play["view_token"]
    assert event(client, play, "advance", token=view).status_code == 403
    form = {"type": "advance", "expected_version": "0"}
    assert client.post(f"/plays/{play['id']}/{view}/events", data=form).status_code == 403
    assert client.post(f"/plays/{play['id']}/{view}/undo", data={}).status_code == 403
    state = client.get(f"/api/v1/plays/{play['id']}",
                       headers={"Authorization": f"Bearer {view}"}).get_json()["state"]
    assert state["version"] == 0


# --------------------------------------------------------------------------- live and conflicts
def test_poll_is_a_bodyless_204_until_the_play_changes(client):
    play = create(client)
    unchanged = page(client, play, "/poll?version=0", role="view")
    assert unchanged.status_code == 204 and unchanged.data == b""
    event(client, play, "sheet", {"player": "Ann", "fields": {"glory": 4}})
    changed = page(client, play, "/poll?version=0", role="view")
    assert changed.status_code == 200 and 'data-version="1"' in changed.get_data(as_text=True)


def test_a_stale_form_edit_gets_a_message_and_the_fresh_state(client):
    play = create(client)
    event(client, play, "sheet", {"player": "Ann", "fields": {"glory": 4}})
    stale = {"type": "sheet", "player": "Bo", "f:glory": "6", "expected_version": "0"}
    response = client.post(f"/plays/{play['id']}/{play['edit_token']}/events", data=stale,
                           headers={"HX-Request": "true"})
    html = response.get_data(as_text=True)
    assert response.status_code == 409
    assert "Someone else changed the play" in html and 'data-version="1"' in html


# --------------------------------------------------------------------------- export / import
def test_json_export_holds_everything_a_replay_needs(client):
    play = create(client)
    play_rounds(client, play)
    response = page(client, play, "/export.json", role="view")
    assert response.status_code == 200 and "attachment" in response.headers["Content-Disposition"]
    doc = json.loads(response.data)
    assert doc["format"] == "north-sea-companion/play" and doc["seed"] == 7
    assert [p["name"] for p in doc["players"]] == ["Ann", "Bo"]
    assert len(doc["events"]) == 27 and doc["events"][-1]["type"] == "finish"
    assert doc["result"]["winners"] == ["Bo"]
    assert {p["name"]: p["total"] for p in doc["result"]["players"]} == {"Ann": 12, "Bo": 14}


def test_undone_events_are_not_exported(client):
    play = create(client)
    event(client, play, "sheet", {"player": "Ann", "fields": {"glory": 4}})
    client.post(f"/api/v1/plays/{play['id']}/undo",
                headers={"Authorization": f"Bearer {play['edit_token']}"})
    doc = json.loads(page(client, play, "/export.json").data)
    assert doc["events"] == []


def test_csv_export_has_a_row_per_player_with_totals(client):
    play = create(client)
    play_rounds(client, play)
    response = page(client, play, "/export.csv")
    assert response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert [(r["player"], r["total"], r["winner"]) for r in rows] == [
        ("Ann", "12", "no"), ("Bo", "14", "yes")]
    assert rows[0]["glory"] == "12" and rows[0]["seed"] == "7"


def test_bgstats_link_carries_the_documented_play_format(client):
    play = create(client)
    play_rounds(client, play)
    html = page(client, play, "/history").get_data(as_text=True)
    start = html.index('href="bgstats://')
    link = html[start + 6:html.index('"', start + 6)].replace("&amp;", "&")
    assert link.startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
    data = json.loads(unquote(link.split("data=", 1)[1]))
    assert data["sourceName"] == "North Sea Companion" and data["sourcePlayId"] == play["id"]
    assert data["game"]["name"] == "Reavers of Midgard" and data["game"]["highestWins"] is True
    assert [(p["name"], p["score"], p["winner"], p["rank"]) for p in data["players"]] == [
        ("Ann", 12, False, 2), ("Bo", 14, True, 1)]


def test_import_replays_an_export_into_a_new_play_with_new_tokens(client):
    play = create(client)
    play_rounds(client, play)
    doc = json.loads(page(client, play, "/export.json").data)
    response = client.post("/api/v1/plays/import", json=doc)
    assert response.status_code == 201, response.get_json()
    new = response.get_json()
    assert new["id"] != play["id"] and new["edit_token"] != play["edit_token"]
    assert new["state"]["finished"] is True and new["state"]["version"] == 27
    assert new["state"]["score"]["winners"] == ["Bo"]
    again = json.loads(page(client, new, "/export.json").data)
    assert again["events"] == [{**e, "at": again["events"][i]["at"]}
                               for i, e in enumerate(doc["events"])]


def test_import_rejects_a_bad_event_naming_it_and_stores_nothing(client, app):
    play = create(client)
    play_rounds(client, play, finish=False)
    doc = json.loads(page(client, play, "/export.json").data)
    doc["events"][1]["data"] = {"player": "Zed", "fields": {}}
    before = len(app.extensions["companion"].store.recent_plays(limit=50))
    response = client.post("/api/v1/plays/import", json=doc)
    # a name nobody at this table has: a rule of the play (422), not a malformed event
    assert response.status_code == 422
    assert response.get_json()["error"]["field"] == "events[1].data.player"
    doc["events"][1]["data"] = {"player": 7, "fields": {}}
    response = client.post("/api/v1/plays/import", json=doc)
    assert response.status_code == 400
    assert response.get_json()["error"]["field"] == "events[1].data.player"
    assert len(app.extensions["companion"].store.recent_plays(limit=50)) == before


def test_an_import_that_pauses_a_paused_clock_is_a_422_naming_the_event(client, app):
    """Live, a second pause is a 409 (the phone was behind); in a file it is a rule the file
    breaks: the API document lists 422 for an import, never 409 (schemathesis found it)."""
    play = create(client)
    doc = json.loads(page(client, play, "/export.json").data)
    doc["events"] = [{"type": "pause", "data": {}}, {"type": "pause", "data": {}}]
    before = len(app.extensions["companion"].store.recent_plays(limit=50))
    response = client.post("/api/v1/plays/import", json=doc)
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["error"]["code"] == "clock_paused"
    assert response.get_json()["error"]["field"].startswith("events[1]")
    assert len(app.extensions["companion"].store.recent_plays(limit=50)) == before


def test_an_import_whose_sheets_a_later_check_refuses_is_kept_whole(client, app):
    """An export recorded before a whole-sheet check existed is imported in full (its score
    then names the problem), never cut off half way with a play and some of its events kept:
    the replay and the recording of an import make the same checks."""
    play = create(client)
    play_rounds(client, play, finish=False)
    doc = json.loads(page(client, play, "/export.json").data)
    # five kinds of tapestry where the box has three: refused live as impossible_sheet
    doc["events"].insert(2, {"type": "sheet", "data": {"player": "Ann", "fields": {
        "tapestries": {"a": 1, "b": 1, "c": 1, "d": 1, "e": 1}}}})
    assert event(client, play, "sheet", doc["events"][2]["data"]).get_json()["error"][
        "code"] == "impossible_sheet"
    before = len(app.extensions["companion"].store.recent_plays(limit=50))
    response = client.post("/api/v1/plays/import", json=doc)
    assert response.status_code == 201, response.get_json()
    new = response.get_json()
    assert new["state"]["version"] == len(doc["events"])
    assert new["state"]["sheets"]["Ann"]["tapestries"] == {"a": 1, "b": 1, "c": 1, "d": 1, "e": 1}
    assert new["state"]["score"]["error"]["code"] == "impossible_sheet"
    assert len(app.extensions["companion"].store.recent_plays(limit=50)) == before + 1


def test_an_import_that_fails_part_way_leaves_no_play_behind(client, app, monkeypatch):
    """All or nothing: the database failing at the events, after the play's own row went
    in, takes the new play away (one transaction)."""
    import sqlalchemy as sa

    from companion import store as store_module

    play = create(client)
    play_rounds(client, play, finish=False)
    doc = json.loads(page(client, play, "/export.json").data)
    store = app.extensions["companion"].store
    before = len(store.recent_plays(limit=50))
    gone = sa.table("events_gone", *(sa.column(c.name) for c in store_module.events.columns))
    monkeypatch.setattr(store_module, "INSERT_EVENT", gone.insert())
    response = client.post("/api/v1/plays/import", json=doc)
    assert response.status_code == 503
    assert len(store.recent_plays(limit=50)) == before


@pytest.mark.parametrize("doc, field", [
    ({"format": "something-else"}, "format"),
    ({"format": "north-sea-companion/play", "format_version": 9}, "format_version"),
    ({"format": "north-sea-companion/play", "format_version": 1, "game": "reavers",
      "players": ["Ann", "Bo"], "seed": 1, "events": "no"}, "events"),
])
def test_import_names_what_is_wrong_with_the_document(client, doc, field):
    response = client.post("/api/v1/plays/import", json=doc)
    assert response.status_code == 400 and response.get_json()["error"]["field"] == field


def test_import_page_takes_an_uploaded_file_and_opens_the_new_play(client):
    play = create(client)
    play_rounds(client, play)
    data = page(client, play, "/export.json").data
    assert "Import" in client.get("/import").get_data(as_text=True)
    response = client.post("/import", data={"file": (io.BytesIO(data), "play.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 302 and "/plays/" in response.headers["Location"]
    html = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Final ranking" in html and "Bo" in html
    bad = client.post("/import", data={"json": "{nope"})
    assert bad.status_code == 400 and "not valid JSON" in bad.get_data(as_text=True)


def test_import_api_needs_no_csrf_but_the_page_does(csrf_app):
    client = csrf_app.test_client()
    assert client.post("/import", data={"json": "{}"}).status_code == 400
    response = client.post("/api/v1/plays/import", json={"format": "x"})
    assert response.get_json()["error"]["field"] == "format"


def test_api_export_needs_a_token(client):
    play = create(client)
    assert client.get(f"/api/v1/plays/{play['id']}/export").status_code == 401
    doc = client.get(f"/api/v1/plays/{play['id']}/export",
                     headers={"Authorization": f"Bearer {play['view_token']}"}).get_json()
    assert doc["play_id"] == play["id"]


# --------------------------------------------------------------------------- history
def test_history_lists_finished_plays_with_winners_and_player_stats(client):
    first = create(client)
    play_rounds(client, first)
    second = create(client, players=("Bo", "Cy"))
    play_rounds(client, second, glories=((20, 2),), names=("Bo", "Cy"))
    running = create(client, players=("Dee", "Eve"))
    event(client, running, "sheet", {"player": "Dee", "fields": {"glory": 50}})
    for play in (first, second, running):   # History lists the plays this device opened
        page(client, play)
    html = client.get("/history").get_data(as_text=True)
    assert html.count('class="card"') >= 2 and "Dee" not in html
    stats = html[html.index('id="player-stats"'):html.index("</table>",
                                                             html.index('id="player-stats"'))]
    bo_row = stats[stats.index(">Bo<"):stats.index("</tr>", stats.index(">Bo<"))]
    # Bo won both: 14 against Ann's 12, then 20 against Cy's 2
    assert [c.split(">")[-1] for c in bo_row.split("</td>")[:4]] == ["2", "2", "17.0", "20"]
    assert client.get("/history?game=knarr").get_data(as_text=True).count(">Bo<") == 0
    assert client.get("/history?game=nope").status_code == 404


def test_play_history_page_draws_the_rounds_chart_and_table(client):
    play = create(client)
    play_rounds(client, play)
    html = page(client, play, "/history", role="view").get_data(as_text=True)
    assert "<svg" in html and "<polyline" in html and 'role="img"' in html
    table = html[html.index('id="rounds-table"'):]
    for label in ("Start", "Round 1", "Round 2", "Final"):
        assert f">{label}<" in table
    svg = page(client, play, "/chart.svg")
    assert svg.mimetype == "image/svg+xml" and svg.data.count(b"<polyline") == 2


# --------------------------------------------------------------------------- PDFs
def pdf_text(data: bytes) -> str:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return "\n".join(p.extract_text() for p in reader.pages), reader.pages[0].mediabox


def test_scoresheet_pdf_holds_every_name_total_winner_and_seed_on_either_paper(client):
    play = create(client, players=("Ann", "Bo", "Cy"), seed="harbour-17")
    play_rounds(client, play, glories=((5, 3), (9, 8)))
    text, box = pdf_text(page(client, play, "/scoresheet.pdf").data)
    for name in ("Ann", "Bo", "Cy", "Winner: Ann", "harbour-17", "Total", "Glory"):
        assert name in text
    assert round(float(box.width)) == 595 and round(float(box.height)) == 842
    letter = page(client, play, "/scoresheet.pdf?paper=letter")
    _, box = pdf_text(letter.data)
    assert round(float(box.width)) == 612 and round(float(box.height)) == 792
    assert page(client, play, "/scoresheet.pdf?paper=a0").status_code == 400


def test_pads_page_links_a_pdf_for_every_game(client):
    html = client.get("/pads").get_data(as_text=True)
    for game in ("shipwrights", "explorers", "knarr", "reavers", "seafarers"):
        assert f"/pads/{game}.pdf" in html


@pytest.mark.parametrize("game, rows", [("reavers", ["Glory", "Artifacts", "Walls"]),
                                        ("shipwrights", ["Longships", "Gold"]),
                                        ("knarr", ["Score track VP", "Silver bracelets"]),
                                        ("seafarers", ["Settlements", "Cities"])])
def test_blank_pad_has_the_game_rows_and_player_columns(client, game, rows):
    response = client.get(f"/pads/{game}.pdf?players=3&paper=letter")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text, box = pdf_text(response.data)
    assert round(float(box.width)) == 612
    for row in rows + ["Total", "Rank"]:
        assert row in text


@pytest.mark.parametrize("lang, words, english", [
    ("de", ["Entdecker der Nordsee", "Wertungsblock", "Datum", "Spieler", "Gleichstand",
            "Summe", "1–5 Personen"], ["score pad", "Tie-break", "players"]),
    ("fr", ["Explorateurs de la Mer du Nord", "bloc de score", "Lieu", "Départage",
            "1–5 joueurs"], ["score pad", "Tie-break", "players"]),
])
def test_a_blank_pad_speaks_the_phones_language(client, lang, words, english):
    """The printed pad, not only the pages: its head, rows, foot and game name (it was all
    English on a German phone)."""
    response = client.get("/pads/explorers.pdf?players=3", headers={"Accept-Language": lang})
    text = " ".join(pdf_text(response.data)[0].split())
    for word in words:
        assert word in text, (word, text[:400])
    for word in english:
        assert word not in text, (word, text[:400])


def test_pad_rows_fall_back_to_the_sheet_or_a_single_row():
    from companion.games.inputs import SheetField
    from companion.games.messages import say
    from companion.games.protocol import Game
    from companion.web.sheets import pad_rows

    class Unscored(Game):
        sheet_fields = (SheetField("ships", say("Ships built")),
                        SheetField("note", say("Note"), "text"))

    class Bare(Game):
        pass

    assert pad_rows(Unscored()) == ["Ships built"]
    assert pad_rows(Bare()) == ["Victory points"]


def test_pad_rejects_silly_player_counts_and_papers(client):
    assert client.get("/pads/knarr.pdf?players=40").status_code == 400
    assert client.get("/pads/knarr.pdf?paper=tabloid").status_code == 400
    assert client.get("/pads/nope.pdf").status_code == 404


# --------------------------------------------------------------------------- installable
def test_manifest_and_icons_make_an_installable_app(client):
    manifest = client.get("/manifest.webmanifest")
    assert manifest.status_code == 200
    body = json.loads(manifest.data)
    assert body["display"] == "standalone" and body["start_url"] == "/"
    sizes = {i["sizes"] for i in body["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in body["icons"]:
        assert client.get(icon["src"]).status_code == 200


def test_keep_awake_fallback_media_exist(client):
    for name in ("keepawake.mp4", "keepawake.webm"):
        response = client.get(f"/static/media/{name}")
        assert response.status_code == 200 and 200 < len(response.data) < 20_000


def test_import_of_absurdly_deep_json_is_a_clear_error(client):
    response = client.post("/import", data={"json": "[" * 5000 + "]" * 5000})
    assert response.status_code == 400
    assert "nested too deeply" in response.get_data(as_text=True)
