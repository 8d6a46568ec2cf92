"""The OpenAPI 3.1 document of /api/v1 (the contract in shared/design/api.md)."""
from __future__ import annotations

from ..games import GAMES

GAME_IDS = list(GAMES)
ERROR = {"$ref": "#/components/schemas/Error"}
JSON_OBJECT = {"type": "object"}


def _errors(*codes: int) -> dict:
    return {str(c): {"description": "error", "content": {"application/json": {"schema": ERROR}}}
            for c in codes}


def _ok(schema: dict, status: str = "200", kind: str = "application/json") -> dict:
    return {status: {"description": "success", "content": {kind: {"schema": schema}}}}


def _body(schema: dict, required: bool = True) -> dict:
    return {"required": required, "content": {"application/json": {"schema": schema}}}


def _path_param(name: str, enum: list | None = None) -> dict:
    schema = {"type": "string", "maxLength": 64}
    if enum:
        schema = {"type": "string", "enum": enum}
    return {"name": name, "in": "path", "required": True, "schema": schema}


def _op(summary, responses, body=None, params=(), secure=False) -> dict:
    op = {"summary": summary, "responses": responses}
    if body:
        op["requestBody"] = body
    if params:
        op["parameters"] = list(params)
    if secure:
        op["security"] = [{"bearer": []}]
    return op


def _schemas() -> dict:
    state = {"type": "object", "required": ["version", "round", "phase", "players", "setup",
                                            "sheets", "score", "finished", "clock"],
             "properties": {"clock": _ref("Clock")}}
    return {
        "Error": {"type": "object", "required": ["error"], "properties": {"error": {
            "type": "object", "required": ["code", "message"],
            "properties": {"code": {"type": "string"}, "message": {"type": "string"},
                           "field": {"type": "string"}}}}},
        "SetupRequest": {"type": "object", "properties": {
            "players": {"type": "array", "items": {"type": "string"}},
            "seed": {"type": ["string", "integer"]}, "options": JSON_OBJECT}},
        "ScoreRequest": {"type": "object", "properties": {
            "players": {"type": "array", "items": {"type": "object", "properties": {
                "name": {"type": "string"}, "sheet": JSON_OBJECT}}},
            "options": JSON_OBJECT}},
        "ScoreResponse": {"type": "object", "required": ["players", "winners", "tiebreak"]},
        "PlayRequest": {"type": "object", "required": ["game", "players"], "properties": {
            "game": {"type": "string", "enum": GAME_IDS},
            "players": {"type": "array", "items": {"type": "object", "properties": {
                "name": {"type": "string"}, "colour": {"type": "string"}}}},
            "options": JSON_OBJECT, "seed": {"type": ["string", "integer"]}}},
        "State": state,
        "StateResponse": {"type": "object", "required": ["state"],
                          "properties": {"state": {"$ref": "#/components/schemas/State"}}},
        "Event": {"type": "object", "required": ["type"], "properties": {
            "type": {"type": "string", "description": (
                "Every game: sheet, advance, finish, box_value, and the game clock's pause "
                "(stop counting play time) and resume (count on); each game adds its own.")},
            "data": JSON_OBJECT,
            "expected_version": {"type": ["integer", "null"]}},
            "examples": [{"type": "sheet", "data": {"player": "Ann", "fields": {"vp": 4}}},
                         {"type": "pause"}, {"type": "resume"}]},
        "Clock": {
            "type": "object", "required": ["started_at", "finished_at", "running", "elapsed_s"],
            "description": "The game clock: paused time is not counted; elapsed_s of a running "
                           "play counts up to the moment of the answer.",
            "properties": {
                "started_at": {"type": ["string", "null"], "format": "date-time"},
                "finished_at": {"type": ["string", "null"], "format": "date-time"},
                "running": {"type": "boolean"},
                "elapsed_s": {"type": "integer", "minimum": 0}}},
    }


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _paths() -> dict:
    game = _path_param("game_id", GAME_IDS)
    play = _path_param("play_id")
    return {
        "/api/v1/games": {"get": _op("The games and their options", _ok({
            "type": "object", "required": ["games"]}))},
        "/api/v1/games/{game_id}/setup": {"post": _op(
            "A seeded setup", {**_ok(JSON_OBJECT), **_errors(400, 404, 413, 415, 422)},
            _body(_ref("SetupRequest")), [game])},
        "/api/v1/games/{game_id}/score": {"post": _op(
            "Final scores", {**_ok(_ref("ScoreResponse")), **_errors(400, 404, 413, 415, 422)},
            _body(_ref("ScoreRequest")), [game])},
        "/api/v1/games/shipwrights/heroes": {"post": _op(
            "Who holds each Hero", {**_ok(JSON_OBJECT), **_errors(400, 415, 422)},
            _body(JSON_OBJECT))},
        "/api/v1/plays": {"post": _op(
            "Start a play", {**_ok(JSON_OBJECT, "201"), **_errors(400, 404, 413, 415, 422)},
            _body(_ref("PlayRequest")))},
        "/api/v1/plays/{play_id}": {"get": _op(
            "A play's state", {**_ok(_ref("StateResponse")), **_errors(401, 403)},
            params=[play], secure=True)},
        "/api/v1/plays/{play_id}/events": {"post": _op(
            "Record an event", {**_ok(_ref("StateResponse")),
                                **_errors(400, 401, 403, 409, 413, 415, 422)},
            _body(_ref("Event")), [play], True)},
        "/api/v1/plays/{play_id}/undo": {"post": _op(
            "Undo the last event", {**_ok(_ref("StateResponse")), **_errors(401, 403, 409)},
            _body(JSON_OBJECT, False), [play], True)},
        "/api/v1/plays/{play_id}/redo": {"post": _op(
            "Redo an undone event", {**_ok(_ref("StateResponse")), **_errors(401, 403, 409)},
            _body(JSON_OBJECT, False), [play], True)},
        "/api/v1/plays/{play_id}/scoresheet.pdf": {"get": _op(
            "The score sheet as PDF", {**_ok({"type": "string"}, kind="application/pdf"),
                                       **_errors(401, 403)}, params=[play], secure=True)},
        "/api/v1/plays/{play_id}/join.svg": {"get": _op(
            "A QR code of the play's view link",
            {**_ok({"type": "string"}, kind="image/svg+xml"), **_errors(401, 403)},
            params=[play], secure=True)},
        "/api/v1/plays/{play_id}/export": {"get": _op(
            "The play as JSON: players, options, seed, box data, every event, the result",
            {**_ok(JSON_OBJECT), **_errors(401, 403)}, params=[play], secure=True)},
        "/api/v1/plays/import": {"post": _op(
            "A new play (new tokens) from an export, its events replayed through every check",
            {**_ok(JSON_OBJECT, "201"), **_errors(400, 404, 413, 415, 422)},
            _body(JSON_OBJECT))},
        "/api/v1/catalogue/{game_id}": {
            "get": _op("The box catalogue", {**_ok(JSON_OBJECT), **_errors(404)},
                       params=[game]),
            "put": _op("Replace the box catalogue", {**_ok(JSON_OBJECT),
                                                     **_errors(400, 404, 413, 415)},
                       _body(JSON_OBJECT), [game])},
        "/api/v1/openapi.json": {"get": _op("This document", _ok(JSON_OBJECT))},
    }


def openapi_document(app=None) -> dict:
    return {
        "openapi": "3.1.0",
        "info": {"title": "North Sea Companion API", "version": "1",
                 "description": "Setup, scoring and plays for five seafaring board games."},
        "paths": _paths(),
        "components": {"schemas": _schemas(),
                       "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
    }
