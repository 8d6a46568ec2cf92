"""Bad input: every API operation of GET /api/v1/openapi.json fuzzed with schemathesis (data
that fits the schema and data that breaks it), and every form fuzzed with Hypothesis. Never a
5xx; every error is the documented JSON (or the page's error message) and names the field
where one field is to blame. On SQLite and on PostgreSQL."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.core import NOT_SET

from companion import create_app
from companion.games import GAMES
from companion.plays import COLOURS, COMMON_EVENTS
from tests.conftest import as_owner, make_app
from tests.db.backends import module_db_url  # noqa: F401 (fixture)

EXAMPLES = 25
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                suppress_health_check=list(HealthCheck))
# errors about the request as a whole, where no single field is to blame
WHOLE_REQUEST = {"invalid_json", "too_deep", "unsupported_media_type", "not_implemented",
                 "unauthorized", "forbidden", "not_found", "unknown_play", "too_large",
                 "method_not_allowed", "bad_request", "nothing_to_undo", "nothing_to_redo"}

SCHEMA = schemathesis.openapi.from_wsgi(
    "/api/v1/openapi.json", create_app({"TESTING": True, "SECRET_KEY": "x",
                                        "DATABASE_URL": "sqlite://"}))
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]


@dataclass
class Fuzz:
    app: object
    plays: list   # (game id, API create response)


@pytest.fixture(scope="module")
def fuzz(module_db_url, tmp_path_factory):  # noqa: F811
    app = make_app(tmp_path_factory.mktemp("fuzz"), module_db_url, PROPAGATE_EXCEPTIONS=False,
                   LIVE_MAX_SECONDS=0.05)   # the live stream ends at once, so it can be fuzzed
    client = app.test_client()
    plays = []
    for game in GAMES.values():
        names = ["Ann", "Bo", "Cy", "Di"][:max(game.min_players, min(3, game.max_players))]
        reply = client.post("/api/v1/plays", json={"game": game.id, "players": names,
                                                   "seed": 11})
        if reply.status_code == 201:
            plays.append((game.id, reply.get_json()))
    assert len(plays) == len(GAMES)
    yield Fuzz(app, plays)
    app.extensions["notifier"].stop()
    app.extensions["companion"].store.engine.dispose()


def check_json_error(reply, body) -> None:
    assert reply.status_code < 500, reply.get_data(as_text=True)[:500]
    if reply.status_code < 400:
        return
    error = reply.get_json()["error"]
    assert error["code"] and error["message"]
    if error["code"] == "unknown_field":
        key = re.search(r"'(.*)'", error["message"], re.S).group(1)
        assert error["field"].endswith(key)
    # 400 is malformed input: one field is to blame; a 422 may be the play's state at fault
    if reply.status_code == 400 and isinstance(body, dict) and body:
        assert "field" in error or error["code"] in WHOLE_REQUEST, error


def takes_input(operation) -> bool:
    return "{" in operation.path or operation.method.upper() in ("POST", "PUT")


CASES = [pytest.param(op, mode, id=f"{op.method.upper()} {op.path} {mode.value}")
         for op in OPERATIONS for mode in GenerationMode
         if mode is GenerationMode.POSITIVE or takes_input(op)]


@pytest.mark.parametrize(("operation", "mode"), CASES)
def test_api_operation_never_fails_and_errors_name_the_field(fuzz, operation, mode):
    client = fuzz.app.test_client()

    @FUZZ
    @given(case=operation.as_strategy(mode), play=st.sampled_from(fuzz.plays),
           real=st.booleans(), role=st.sampled_from(["edit_token", "view_token"]))
    def run(case, play, real, role):
        params = dict(case.path_parameters or {})
        headers = {k: str(v) for k, v in (case.headers or {}).items()}
        # a real token on DELETE would delete the plays the other cases use
        if "play_id" in params and real and operation.method.upper() != "DELETE":
            params["play_id"] = play[1]["id"]
            headers["Authorization"] = f"Bearer {play[1][role]}"
        path = operation.path.format(**params) if params else operation.path
        body = None if case.body is NOT_SET else case.body
        kwargs = {}
        media = case.media_type or "application/json"
        if isinstance(body, (bytes, str)):
            kwargs.update(data=body, content_type=media)
        elif body is not None and media.endswith("json"):
            kwargs["json"] = body
        elif body is not None:
            kwargs.update(data=json.dumps(body), content_type=media)
        reply = client.open(path, method=operation.method.upper(), headers=headers,
                            query_string=case.query, **kwargs)
        check_json_error(reply, body)

    run()


# ---- events with the real event types of each game

def event_types(game_id: str) -> list[str]:
    """Every event type the game takes, from the game registry (its own and the common ones):
    a type added to a game is fuzzed from the day it exists."""
    return [*GAMES[game_id].event_types, *COMMON_EVENTS]


def test_every_game_is_fuzzed_with_its_own_event_types(fuzz):
    assert {game_id for game_id, _ in fuzz.plays} == set(GAMES)
    for game_id in GAMES:
        assert GAMES[game_id].event_types, game_id


SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 20), st.integers(),
                    st.text(max_size=12), st.sampled_from(["Ann", "Bo", "Cy", "gold", "1"]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=10), inner, max_size=4)),
    max_leaves=12)
KEYS = st.sampled_from(["player", "fields", "island", "index", "location", "captain", "count",
                        "vp", "tiles", "influence", "name", "card", "track", "steps", "hero"])


def test_game_events_never_fail(fuzz):
    client = fuzz.app.test_client()

    @settings(FUZZ, max_examples=EXAMPLES * 4)
    @given(data=st.data())
    def run(data):
        game_id, play = data.draw(st.sampled_from(fuzz.plays))
        auth = {"Authorization": f"Bearer {play['edit_token']}"}
        state = client.get(f"/api/v1/plays/{play['id']}", headers=auth).get_json()["state"]
        kinds = event_types(game_id)
        fields = {f.name for f in GAMES[game_id].sheet_fields}
        body = {"type": data.draw(st.sampled_from(kinds)),
                "data": data.draw(st.dictionaries(st.one_of(KEYS, st.sampled_from(
                    sorted(fields) or ["x"])), VALUES, max_size=4)),
                "expected_version": data.draw(st.one_of(st.none(), st.just(state["version"]),
                                                        st.integers(-1, 3)))}
        if body["type"] == "sheet":
            body["data"] = {"player": data.draw(st.sampled_from(
                [p["name"] for p in state["players"]] + ["Zed"])),
                "fields": data.draw(st.dictionaries(st.sampled_from(sorted(fields) or ["x"]),
                                                    VALUES, max_size=3))}
        reply = client.post(f"/api/v1/plays/{play['id']}/events", json=body, headers=auth)
        check_json_error(reply, body)

    run()


# ---- every form

FORM_TEXT = st.one_of(st.text(max_size=30), st.sampled_from(
    ["", " ", "0", "-1", "3", "99999999999999", "true", "on", "<script>", "1e5", "a=1, b:2",
     "Ann", "{}", "[]", '{"a": [1]}']))


def error_field(html: str) -> str | None:
    match = re.search(r'class="error" role="alert"[^>]*data-field="([^"]*)"', html)
    return match.group(1) if match else None


def test_the_new_play_form_never_fails(fuzz):
    client = fuzz.app.test_client()

    @FUZZ
    @given(data=st.data())
    def run(data):
        game = data.draw(st.sampled_from(list(GAMES.values())))
        form = {"game": data.draw(st.one_of(st.just(game.id), FORM_TEXT))}
        for i in range(data.draw(st.integers(0, 6))):
            form[f"name{i}"] = data.draw(st.one_of(FORM_TEXT, st.sampled_from(["Ann", "Bo"])))
            form[f"colour{i}"] = data.draw(st.one_of(st.sampled_from(COLOURS), FORM_TEXT))
        for option in game.options:
            if data.draw(st.booleans()):
                form[f"opt:{option.name}"] = data.draw(st.one_of(
                    st.sampled_from([str(c) for c in option.choices or ()] or ["on"]),
                    FORM_TEXT))
        if data.draw(st.booleans()):
            form["seed"] = data.draw(FORM_TEXT)
        reply = client.post("/new", data=form)
        assert reply.status_code < 500, reply.get_data(as_text=True)[:400]
        if reply.status_code == 400:
            html = reply.get_data(as_text=True)
            assert 'role="alert"' in html
            assert error_field(html), html[html.find('role="alert"') - 60:][:300]

    run()


def test_the_play_forms_never_fail(fuzz):
    client = fuzz.app.test_client()

    @settings(FUZZ, max_examples=EXAMPLES * 3)
    @given(data=st.data())
    def run(data):
        game_id, play = data.draw(st.sampled_from(fuzz.plays))
        base = f"/plays/{play['id']}/{play['edit_token']}"
        state = client.get(f"/api/v1/plays/{play['id']}",
                           headers={"Authorization": f"Bearer {play['edit_token']}"}
                           ).get_json()["state"]
        version = data.draw(st.one_of(st.just(str(state["version"])), FORM_TEXT))
        action = data.draw(st.sampled_from(["events", "events", "events", "undo", "redo"]))
        form = {"expected_version": version}
        if action == "events":
            kinds = event_types(game_id)
            form["type"] = data.draw(st.one_of(st.sampled_from(kinds), FORM_TEXT))
            form["player"] = data.draw(st.one_of(st.sampled_from(
                [p["name"] for p in state["players"]]), FORM_TEXT))
            for spec in GAMES[game_id].sheet_fields:
                if data.draw(st.booleans()):
                    key = f"f:{spec.name}"
                    if spec.keys and data.draw(st.booleans()):
                        key += "." + data.draw(st.sampled_from(list(spec.keys)))
                    form[key] = data.draw(FORM_TEXT)
            if data.draw(st.booleans()):
                form["bump"] = data.draw(st.one_of(st.sampled_from(
                    [f"{s.name}:+1" for s in GAMES[game_id].sheet_fields] or ["x:+1"]),
                    FORM_TEXT))
            for key in data.draw(st.lists(KEYS, max_size=3)):
                form[f"d:{key}"] = data.draw(FORM_TEXT)
            if data.draw(st.booleans()):
                form["data"] = data.draw(st.one_of(FORM_TEXT, VALUES.map(json.dumps)))
        headers = {"HX-Request": "true"} if data.draw(st.booleans()) else {}
        reply = client.post(f"{base}/{action}", data=form, headers=headers)
        assert reply.status_code < 500, reply.get_data(as_text=True)[:400]
        if reply.status_code == 400 and action == "events":
            html = reply.get_data(as_text=True)
            assert 'class="error" role="alert"' in html
            assert error_field(html), html[html.find('role="alert"') - 60:][:300]

    run()


def test_the_catalogue_forms_never_fail(fuzz):
    client = as_owner(fuzz.app.test_client())

    @FUZZ
    @given(game=st.sampled_from(sorted(GAMES)),
           text=st.one_of(FORM_TEXT, VALUES.map(json.dumps), st.dictionaries(
               st.text(max_size=12), VALUES, max_size=4).map(json.dumps)))
    def run(game, text):
        reply = client.post(f"/catalogue/{game}", data={"json": text})
        assert reply.status_code < 500, reply.get_data(as_text=True)[:400]
        if reply.status_code >= 400:
            assert 'role="alert"' in reply.get_data(as_text=True)

    run()
