"""/api/v1: JSON for machines, exactly as shared/design/api.md names it."""
from __future__ import annotations

import json
import zlib

from flask import Blueprint, Response, current_app, jsonify, request, url_for
from werkzeug.routing import BaseConverter

from ..games import GAMES, get_game
from ..games.bodies import check as check_body
from ..games.errors import RuleError
from ..games.requests import RedoRequest, UndoRequest
from ..owner import require_owner
from ..plays import run_score, run_setup, score_of
from ..qr import qr_svg
from ..seats import seat_name
from ..service import Done
from ..store import PlayRow
from ..tokens import bearer_token, token_role, token_seat
from . import service
from .changes import REPLAYED_HEADER, idempotency_key
from .documents import forget_documents
from .jsoncheck import check_json
from .links import play_links, seat_link, share_link
from .openapi import openapi_document
from .sheets import scoresheet_pdf

bp = Blueprint("api", __name__, url_prefix="/api/v1")


class PlayId(BaseConverter):
    """A play id, never the word 'import' (/api/v1/plays/import is its own address: a GET
    there is a 405 that allows POST, not a look-up of a play called 'import')."""
    regex = r"(?!import$)[^/]+"


bp.record_once(lambda state: state.app.url_map.converters.setdefault("play_id", PlayId))


def json_body(optional: bool = False):
    """The request's JSON body; 415 when it is not JSON, 400 when it does not parse."""
    if optional and not request.get_data(cache=True):
        return {}
    json_bytes()
    return body_json(None)


def json_bytes() -> bytes:
    """The request's body when it says it is JSON (else 415), not read as JSON yet."""
    if not request.is_json:
        return _abort(415, "unsupported_media_type",
                      "Send the body as JSON (Content-Type: application/json).")
    return request.get_data(cache=True)


def body_json(data: bytes | None):
    """A JSON body read as Flask's get_json reads it: the request's (``data`` None; kept for
    a second read), or ``data`` with no request (an import's, read in its own process:
    companion/import_worker.py). 400 when it does not parse, is null or breaks the text rule
    (companion/web/jsoncheck.py)."""
    try:
        body = request.get_json(silent=True) if data is None else json.loads(data)
    except RecursionError as err:
        raise RuleError("The JSON is nested too deeply.", None, "too_deep") from err
    except ValueError:            # what get_json(silent=True) answers with None
        body = None
    if body is None:
        raise RuleError("The body is not valid JSON.", None, "invalid_json")
    return check_json(body)


def _abort(status, code, message):
    raise RuleError(message, None, code, status)


def authorised(play_id: str, need: str) -> PlayRow:
    """The play, when the bearer token opens it for ``need`` ("view" or "edit")."""
    token = _token()
    row = service().store.load_play(play_id) if len(play_id) <= 32 else None
    _opens(row, token, need)
    return row


def edit_check(play_id: str):
    """authorised(play_id, "edit") as the check a change runs on its own locked read of the
    play (service.Check): an event reads the play once, not twice. It answers the seat a
    seat token is bound to (None for the edit token), for the play's edit policy."""
    token = _token()

    def check(row: PlayRow | None) -> int | None:
        _opens(row, token, "edit")
        return token_seat(row, token)

    return check


def _token() -> str:
    token = bearer_token(request.headers)
    if token is None:
        raise RuleError("Send the play's token as 'Authorization: Bearer <token>'.", None,
                        "unauthorized", 401)
    return token


def _opens(row: PlayRow | None, token: str, need: str) -> None:
    role = token_role(row, token) if row else None
    if role is None:
        raise RuleError("That token does not open this play.", None, "forbidden", 403)
    if need == "edit" and role != "edit":
        raise RuleError("A view token cannot change a play.", None, "forbidden", 403)


def state_json(row: PlayRow, state: dict) -> dict:
    out = {k: v for k, v in state.items() if k != "catalogue"}
    out["score"] = score_of(state)
    out["clock"] = service().clock_of(state)   # a running stretch counted up to now
    out["can_undo"] = row.can_undo if state["version"] == row.version else None
    out["can_redo"] = row.can_redo if state["version"] == row.version else None
    return out


@bp.get("/games")
def games():
    """The games and their options"""
    return jsonify({"games": [g.describe() for g in GAMES.values()]})


@bp.post("/games/<game_id>/setup")
def setup(game_id):
    """A seeded setup"""
    game = get_game(game_id)
    return jsonify(run_setup(game.id, json_body(), service().catalogue(game.id)))


@bp.post("/games/<game_id>/score")
def score(game_id):
    """Final scores"""
    game = get_game(game_id)
    return jsonify(run_score(game.id, json_body(), service().catalogue(game.id)))


@bp.post("/games/shipwrights/heroes")
def shipwrights_heroes():
    """Who holds each Hero"""
    from ..games.shipwrights import adjudicate_heroes

    return jsonify(adjudicate_heroes(json_body()))


@bp.post("/plays")
def create_play():
    """Start a play"""
    row, tokens, state = service().create(json_body())
    links = play_links(row.id, {"edit": tokens["edit"], "view": tokens["view"]})
    body = {"id": row.id, "edit_token": tokens["edit"], "view_token": tokens["view"],
            "edit_url": links["edit"], "view_url": links["view"],
            "seats": seats_json(row.id, state, tokens["seats"]),
            "state": state_json(row, state)}
    return jsonify(body), 201, {"Location": url_for("api.get_play", play_id=row.id)}


def seats_json(play_id: str, state: dict, tokens: list[str]) -> list[dict]:
    """One {"name", "token", "url"} per player, in seat order (api.md, "Seats")."""
    links = [seat_link(play_id, token) for token in tokens]
    return [{"name": player["name"], "token": token, "url": link}
            for player, token, link in zip(state["players"], tokens, links, strict=True)]


@bp.get("/plays/<play_id:play_id>")
def get_play(play_id):
    """A play's state"""
    row = authorised(play_id, "view")
    state = service().state(row)
    body = {"state": state_json(row, state)}
    seat = token_seat(row, bearer_token(request.headers))
    if seat is not None:
        body["seat"] = seat_name(state, seat)
    return jsonify(body)


@bp.post("/plays/<play_id>/events")
def post_event(play_id):
    """Record an event"""
    check = edit_check(play_id)
    key = idempotency_key()
    return change_response(service().change(play_id, json_body(), key=key,
                                            answer=answer_bytes, check=check))


@bp.delete("/plays/<play_id:play_id>")
def delete_play(play_id):
    """Delete the play and all its events (edit token, or the owner key for any play)"""
    from .privacy import holds_owner_key

    if holds_owner_key(request):
        row = service().load(play_id)
    else:
        row = authorised(play_id, "edit")
    service().store.delete_play(row.id)
    forget_documents(row.id)
    return Response(status=204)


@bp.post("/plays/<play_id>/undo")
def undo(play_id):
    """Undo the last event (or, with device, that device's last change)"""
    return _move(play_id, -1)


@bp.post("/plays/<play_id>/redo")
def redo(play_id):
    """Redo an undone event (or, with device, that device's last undo)"""
    return _move(play_id, +1)


def _move(play_id: str, step: int):
    check = edit_check(play_id)
    key = idempotency_key()
    body = check_body(UndoRequest if step < 0 else RedoRequest, json_body(optional=True))
    if body.device is not None:
        return change_response(service().move_mine(play_id, step, body.device, key=key,
                                                   answer=answer_bytes, check=check))
    return change_response(service().move_head(play_id, step, body.expected_version,
                                               key=key, answer=answer_bytes, check=check))


def answer_bytes(row: PlayRow, state: dict) -> bytes:
    """The JSON a change answers, stored with its Idempotency-Key for a repeat."""
    return current_app.json.dumps({"state": state_json(row, state)}).encode()


def change_response(done: Done) -> Response:
    """A change's answer; a repeated Idempotency-Key gets the first answer's status and body
    (the first answer's state, not today's) with Idempotent-Replayed: true."""
    if done.replayed is None:
        return Response(done.answer or answer_bytes(done.row, done.state),
                        mimetype="application/json")
    record = done.replayed
    body = (zlib.decompress(record.response) if record.response is not None
            else answer_bytes(done.row, done.state))
    return Response(body, status=record.status, mimetype="application/json",
                    headers={REPLAYED_HEADER: "true"})


@bp.get("/plays/<play_id>/scoresheet.pdf")
def scoresheet(play_id):
    """The score sheet as PDF"""
    row = authorised(play_id, "view")
    pdf = scoresheet_pdf(row, service().state(row))
    return Response(pdf, mimetype="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="play-{row.id}.pdf"'})


@bp.get("/plays/<play_id>/join.svg")
def join_svg(play_id):
    """A QR code of the play's view link"""
    row = authorised(play_id, "view")
    token = bearer_token(request.headers)
    link = share_link(row, token_role(row, token), token, want_edit=False)
    return Response(qr_svg(link), mimetype="image/svg+xml")


@bp.get("/catalogue/<game_id>")
def get_catalogue(game_id):
    """The box data (empty until saved)"""
    game = get_game(game_id)
    return jsonify({"game": game.id, "catalogue": service().catalogue(game.id),
                    "help": game.catalogue_help})


@bp.put("/catalogue/<game_id>")
def put_catalogue(game_id):
    """Replace the box data (owner key as the bearer token; the previous version is kept).
    The body is the box data, or an object holding it as "catalogue" (what GET answers). A
    body of this shape may still break a rule across its entries, a 422:"""
    game = get_game(game_id)
    require_owner(request)
    body = json_body()
    data = body.get("catalogue", body) if isinstance(body, dict) else body
    clean = service().put_catalogue(game.id, data, "saved through the API")
    return jsonify({"game": game.id, "catalogue": clean})


def version_json(version: dict) -> dict:
    return {"id": version["id"], "saved_at": version["saved_at"].isoformat(),
            "source": version["source"]}


@bp.get("/catalogue/<game_id>/versions")
def catalogue_versions(game_id):
    """The kept versions of the box data, newest first"""
    game = get_game(game_id)
    return jsonify({"game": game.id,
                    "versions": [version_json(v) for v in service().catalogue_versions(game.id)]})


@bp.post("/catalogue/<game_id>/versions/<int:version_id>/restore")
def restore_catalogue(game_id, version_id):
    """Make a kept version the box data again (owner key; kept as a new version)"""
    game = get_game(game_id)
    require_owner(request)
    clean = service().restore_catalogue(game.id, version_id)
    return jsonify({"game": game.id, "catalogue": clean, "restored": version_id})


@bp.post("/catalogue/<game_id>/undo")
def undo_catalogue(game_id):
    """Undo the latest save or import of the box data (owner key)"""
    game = get_game(game_id)
    require_owner(request)
    clean = service().undo_catalogue_save(game.id)
    return jsonify({"game": game.id, "catalogue": clean})


@bp.get("/openapi.json")
def openapi():
    """This document"""
    return jsonify(openapi_document(current_app))
