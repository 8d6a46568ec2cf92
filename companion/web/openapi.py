"""The OpenAPI 3.1 document of /api/v1 (the contract in shared/design/api.md): the paths and
the answers written here, every request body the declaration that checks it (companion.games
.bodies, .requests, each game's events and box data, companion.exports' import), named by the
route that takes it and made a component from it."""
from __future__ import annotations

import copy
import re
from typing import Any

from ..exports import import_body
from ..games import GAMES
from ..games.bodies import REF, TEXT_PATTERN, schema_of
from ..games.requests import RedoRequest, UndoRequest, score_request, setup_request
from ..games.shipwrights.heroes import HeroesRequest
from ..plays import event_body, play_body
from . import jsoncheck
from .changes import KEY_HEADER, MAX_KEY

KEY = {"name": KEY_HEADER, "in": "header", "required": False, "schema": {
    "type": "string", "minLength": 1, "maxLength": MAX_KEY, "pattern": "^[ -~]+$"},
    "description": "One key per change (e.g. a UUID made when the person tapped). A repeat "
    "with the same key on the same play within 24 hours records nothing and answers the first "
    "answer's status and body (the state right after the first request, not today's) with the "
    "header Idempotent-Replayed: true. A request that failed recorded nothing, so its repeat is "
    "tried afresh. The key is stored in the transaction of the change, so two identical "
    "requests at once record once. The same key sent with another request (another body, or "
    "undo instead of an event) is a 422 idempotency_key_reused and records nothing. A "
    "malformed key is a 400 naming the header."}
SSE = {"type": "object", "required": ["event", "data"],
       "description": "One server-sent event: the play's version as text",
       "properties": {"event": {"enum": ["version"]},
                      "data": {"type": "string", "pattern": "^[0-9]+$"},
                      "retry": {"type": "integer", "minimum": 0}, "id": {"type": "string"}}}
OBJECT, TEXT = {"type": "object"}, {"type": "string"}


def ref(name: str) -> dict:
    return {"$ref": REF.format(model=name)}


PARAMS = {"play_id": {"type": "string", "maxLength": 64, "pattern": TEXT_PATTERN},
          "game_id": {"enum": list(GAMES)},
          "version_id": {"type": "integer"}}
BODY, TOKEN = (400, 413, 415, 422), (401, 403)    # a route that reads a body, takes a token
CHANGE = (*TOKEN, 409)                            # a change to a play
# (what its options mean, their declarations say: OptionsSeafarers)
SETUP_WORDS = (". A book layout the owner has not entered yet has terrain null and layout_entered "
               "false; target_vp is null until set; every hex has a short label; pirate and "
               "robber come with pirate_note and robber_note")


def catalogue(game, read: bool = False) -> dict:
    """The box data of ``game`` as PUT answers it (``read``: as GET does, with its help)."""
    said = {"game": {"const": game.id}, "catalogue": game.catalogue_type}
    if read:
        said["help"] = TEXT
    return {"type": "object", "required": list(said), "properties": said}


# Each /api/v1 route by its endpoint: (its success answer: a component by name, a JSON schema,
# or a media type and schema; its error codes besides 429 (every route has a per-client
# limit: companion/web/limits.py) and BODY (a route with a body); its body; words added to
# its summary), or a function of the game where the body or the answer is the game's own: one
# path a game (a schema cannot depend on a path parameter). Its summary is the view's own
# docstring. A declaration in it (a model; a union: its name, the function declaring it, its
# arguments) is a component.
ROUTES = {
    "api.games": ({"type": "object", "required": ["games"]}, ()),
    "api.setup": lambda g: (OBJECT, (), setup_request(g),
                            SETUP_WORDS if g.id == "seafarers" else ""),
    "api.score": lambda g: ("ScoreResponse", (), score_request(g)),
    "api.get_catalogue": lambda g: (catalogue(g, read=True), ()),
    "api.put_catalogue": lambda g: (catalogue(g), TOKEN, {"anyOf": [
        g.catalogue_type, {"type": "object", "required": ["catalogue"], "properties": {
            "catalogue": g.catalogue_type}, "additionalProperties": ref("JsonValue"),
            "propertyNames": {"pattern": TEXT_PATTERN}}]}, " " + g.catalogue_type.__doc__),
    "api.shipwrights_heroes": (OBJECT, (), HeroesRequest),
    "api.create_play": (OBJECT, (404,), ("PlayRequest", play_body)),
    "api.get_play": ("StateResponse", TOKEN),
    "api.delete_play": (None, (*TOKEN, 404)),
    "api.post_event": ("StateResponse", CHANGE, {
        "anyOf": [(f"Event{g.capitalize()}", event_body, g) for g in GAMES],
        "description": "An event for the play's game: the Event schema of that game "
                       "(EventKnarr, EventExplorers, ...)."}),
    "api.undo": ("StateResponse", CHANGE, UndoRequest),
    "api.redo": ("StateResponse", CHANGE, RedoRequest),
    "api.scoresheet": (("application/pdf", TEXT), (*TOKEN, 503)),
    "api.join_svg": (("image/svg+xml", TEXT), TOKEN),
    "stream.api_live": (("text/event-stream", SSE), (*TOKEN, 404, 503)),
    "table.api_export": (OBJECT, TOKEN),
    "table.api_import": (OBJECT, (404, 503), ("ImportRequest", import_body)),
    "api.catalogue_versions": ("CatalogueVersions", (404,)),
    "api.restore_catalogue": (OBJECT, (*TOKEN, 404)),
    "api.undo_catalogue": (OBJECT, (*TOKEN, 404, 409)),
    "api.openapi": (OBJECT, ()),
}
CREATED = ("api.create_play", "table.api_import")         # 201; no answer at all: 204
OPTIONAL = ("api.undo", "api.redo")                       # a body that may be left out


def op(endpoint: str, method: str, path: str, summary: str, ok, errors, body=None,
       words: str = "") -> dict:
    """One operation: its answers, its body; a change that answers the play's state takes an
    Idempotency-Key (and says when its answer is a replay), a route that may answer 401 the
    bearer token; its parameters come from the path itself."""
    kind, ok = ok if isinstance(ok, tuple) else ("application/json", ok)
    answer = {"description": "success"}
    if ok is not None:
        answer["content"] = {kind: {"schema": ref(ok) if isinstance(ok, str) else ok}}
    if ok == "StateResponse":
        answer["headers"] = {"Idempotent-Replayed": {
            "description": "true when this is the stored answer to a repeated Idempotency-Key",
            "schema": {"enum": ["true"]}}}
    status = "204" if ok is None else "201" if endpoint in CREATED else "200"
    out = {"summary": summary + words, "responses": {status: answer, **{str(c): {
        "description": "error", "content": {"application/json": {"schema": ref("Error")}}}
        for c in dict.fromkeys((*(BODY if body is not None else ()), *errors, 429))}}}
    if body is not None:
        out["requestBody"] = {"required": endpoint not in OPTIONAL, "content": {
            "application/json": {"schema": body}}}
    parameters = [{"name": name, "in": "path", "required": True, "schema": PARAMS[name]}
                  for name in re.findall(r"{(\w+)}", path)]
    if ok == "StateResponse" and method == "post":
        parameters.append(KEY)
    if parameters:
        out["parameters"] = parameters
    if 401 in errors:
        out["security"] = [{"bearer": []}]
    return out


def paths(app) -> dict:
    """Every /api/v1 route of ``app``, as ROUTES says."""
    out: dict = {}
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1/"):
            continue
        route, summary = ROUTES[rule.endpoint], app.view_functions[rule.endpoint].__doc__
        summary = " ".join(summary.split())
        for method in sorted(m.lower() for m in rule.methods - {"HEAD", "OPTIONS"}):
            for game in GAMES.values() if callable(route) else [None]:
                path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
                if game is None:
                    said, spec = summary, route
                else:
                    path = path.replace("{game_id}", game.id)
                    said, spec = f"{game.name}: {summary[:1].lower()}{summary[1:]}", route(game)
                out.setdefault(path, {})[method] = op(rule.endpoint, method, path, said, *spec)
    return out


def answers() -> dict:
    any_text = {"type": "array", "items": TEXT}
    return {
        "Error": {"type": "object", "required": ["error"], "properties": {"error": {
            "type": "object", "required": ["code", "message"], "properties": {
                "code": TEXT, "message": TEXT, "field": TEXT, "fields": {
                    **any_text, "description": "Every field to blame, when a sheet cannot "
                                               "happen as a whole (code impossible_sheet)."}}}}},
        "ScoreResponse": {"type": "object", "required": ["players", "winners", "tiebreak"],
                          "properties": {
            "tiebreaks": {**any_text, "description": "A sentence for every group of tied "
                                                     "players, best place first."},
            "notes": {**any_text, "description": "Where the rules leave a value on the sheets "
                                                 "open: accepted without a check, and said."},
            "game_over": {"type": "boolean", "description": "A play's score: the game is over "
                                                            "and its final scoring due."},
            "provisional": {"type": "boolean", "description": (
                "A play's score: the result may still change (the game is not over, an end-game "
                "row is still to enter, or a box value is missing); false: final.")},
            "to_enter": {"type": "array", "description": (
                "A play's score: per player, the end-game rows of their sheet still to enter "
                "(none entered and the sheet not marked done), in seat order."),
                "items": {"type": "object", "required": ["player", "rows"], "properties": {
                    "player": TEXT, "rows": any_text}}},
            "turn": {"type": ["string", "null"], "description": "Seafarers: whose turn it is; "
                                                                "only they win by standing at "
                                                                "the target."}}},
        "State": {"type": "object", "required": ["version", "round", "phase", "players",
                                                 "setup", "sheets", "score", "finished",
                                                 "clock"],
                  "properties": {"clock": ref("Clock")}},
        "StateResponse": {"type": "object", "required": ["state"],
                          "properties": {"state": ref("State"), "seat": {
                              "type": "string", "description": "Read with a seat token: the "
                                                              "player whose seat it is."}}},
        "CatalogueVersions": {"type": "object", "required": ["game", "versions"], "properties": {
            "game": TEXT, "versions": {"type": "array", "items": {"type": "object", "properties": {
                "id": {"type": "integer"}, "source": TEXT,
                "saved_at": {"type": "string", "description": "When it was saved: ISO 8601, "
                                                              "UTC (no offset written)"}}}}}},
        "Clock": {"type": "object", "required": ["started_at", "finished_at", "running",
                                                 "elapsed_s"],
                  "description": "The game clock: paused time is not counted; elapsed_s of a "
                                 "running play counts up to the moment of the answer.",
                  "properties": {"started_at": {"type": ["string", "null"],
                                                "format": "date-time"},
                                 "finished_at": {"type": ["string", "null"],
                                                 "format": "date-time"},
                                 "running": {"type": "boolean"},
                                 "elapsed_s": {"type": "integer", "minimum": 0},
                                 "players": {"type": "object", "description": (
                                     "Games with turns: {name: {elapsed_s, turns, longest_s}}; "
                                     "the clock runs for the player whose turn it is, ending a "
                                     "turn passes it, pause stops all; with off_turns_s they "
                                     "add up to elapsed_s.")},
                                 "turn": {"type": ["object", "null"], "description": (
                                     "The turn running now: {player, elapsed_s}.")},
                                 "off_turns_s": {"type": "integer", "minimum": 0}}},
    }


def declared(value: Any, schemas: dict) -> Any:
    """``value`` with each declaration in it a $ref to its component, made from it among
    ``schemas`` with the components it is made of."""
    if isinstance(value, dict | list):
        return {k: declared(v, schemas) for k, v in value.items()} if isinstance(value, dict) \
            else [declared(v, schemas) for v in value]
    if not isinstance(value, type | tuple):
        return value
    name, kind = (value[0], value[1](*value[2:])) if isinstance(value, tuple) else \
        (value.__name__, value)
    if name not in schemas:
        schema = copy.deepcopy(schema_of(kind))
        schemas.update(schema.pop("$defs", {}))
        schemas[name] = schema
    return ref(name)


def openapi_document(app=None) -> dict:
    return {
        "openapi": "3.1.0",
        "info": {"title": "North Sea Companion API", "version": "1",
                 "description": "Setup, scoring and plays for five seafaring board games. "
                                + " ".join(jsoncheck.__doc__.split())},
        "paths": declared(paths(app), schemas := {}),
        "components": {"schemas": {**schemas, **answers()},
                       "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}}}

