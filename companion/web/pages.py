"""htmx pages and fragments for people at the table. One URL serves a page or its block."""
from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    has_request_context,
    redirect,
    render_template,
    request,
    url_for,
)
from htmx_flask import request as hx_request

from ..games import GAMES, get_game
from ..games.bodies import Int64
from ..games.bodies import check as check_body
from ..games.errors import RuleError
from ..games.messages import say
from ..games.requests import RedoRequest, UndoRequest
from ..owner import is_owner
from ..plays import COLOURS
from ..qr import qr_svg
from ..store import Conflict, PlayRow
from ..tokens import token_role, token_seat
from . import box_pages, service
from .block_cache import unmarked
from .changes import (
    DEVICE_HEADER,
    REPLAYED_HEADER,
    device_header,
    idempotency_key,
)
from .documents import forget_documents
from .forms import coerce, event_body, new_play_body
from .links import share_link
from .parts import cut, versioned
from .play_block import play_block, play_context
from .privacy import forget_play, remember_play, visible_ids
from .sheets import scoresheet_pdf

bp = Blueprint("pages", __name__)


@bp.app_context_processor
def owner_flag() -> dict:
    """``owner`` in every template: does this phone hold the owner key?"""
    return {"owner": has_request_context() and is_owner(request)}


bp.add_app_template_global(versioned)


@bp.get("/")
def index():
    ids = visible_ids(request)
    plays = service().store.recent_plays(limit=12, ids=ids)
    return render_template("index.html", games=GAMES.values(), plays=plays, everything=ids is None,
                           names={g.id: g.name for g in GAMES.values()})


@bp.get("/healthz")
def healthz():
    return {"ok": True}


@bp.route("/new", methods=["GET", "POST"])
def new_play():
    game = get_game(request.values.get("game") or "explorers")
    error, form = None, request.form
    if request.method == "POST":
        try:
            row, tokens, _ = service().create(new_play_body(request.form, game))
        except RuleError as err:
            error = err
        else:
            return redirect(url_for("pages.play", play_id=row.id, token=tokens["edit"]))
    seats = sum(1 for i in range(game.max_players) if (form.get(f"name{i}") or "").strip())
    needs = game.box_needs(service().catalogue(game.id), seats)
    return render_template("plays/new.html", game=game, games=GAMES.values(), form=form,
                           error=error, colours=COLOURS, needs=needs), \
        (error.status if error else 200)


def open_play(play_id: str, token: str) -> tuple[PlayRow, str]:
    row = service().store.load_play(play_id) if len(play_id) <= 32 else None
    role = token_role(row, token) if row else None
    if role is None:
        abort(404)
    return row, role


@bp.get("/plays/<play_id>/<token>")
def play(play_id, token):
    row, role = open_play(play_id, token)
    remember_play(row.id)
    if hx_request.htmx and not hx_request.htmx.boosted:
        return play_block(row, role, token)
    return cut(unmarked(render_template("plays/play.html", **play_context(row, role, token))))


@bp.get("/plays/<play_id>/<token>/poll")
def poll(play_id, token):
    """What every phone asks every two seconds: 204 when nothing changed (one tiny read)."""
    if unchanged_since(play_id, token, request.args.get("version", type=int)):
        return Response(status=204)
    row, role = open_play(play_id, token)
    return play_block(row, role, token)


def unchanged_since(play_id: str, token: str, seen: int | None) -> bool:
    """Whether the play is still at the version the page shows (one tiny read; a wrong link is
    a 404). The phones' poll and the table display ask it."""
    access = service().store.play_access(play_id) if len(play_id) <= 32 else None
    if access is None or token_role(access, token) is None:
        abort(404)
    return seen is not None and seen == access.version


@bp.post("/plays/<play_id>/<token>/events")
def post_event(play_id, token):
    row, role = open_play(play_id, token)
    if role != "edit":
        abort(403)
    game = get_game(row.game)
    try:
        key, device = idempotency_key(), device_header()
        body = event_body(request.form, game, service().state(row))
        if device is not None:
            body["device"] = device
        done = service().change(play_id, body, key=key, seat=token_seat(row, token))
    except RuleError as err:
        return _play_block(play_id, token, err.status, error=err.message, error_field=err.field)
    except Conflict:
        return _play_block(play_id, token, 409, error=say(
            "Someone else changed the play a moment ago. Here is the fresh state: "
            "check it and enter your change again."))
    return _answer(play_id, token, done, role)


@bp.post("/plays/<play_id>/<token>/<any(undo, redo):move>")
def move(play_id, token, move):
    row, role = open_play(play_id, token)
    if role != "edit":
        abort(403)
    seat = token_seat(row, token)
    step = -1 if move == "undo" else 1
    try:
        key = idempotency_key()
        other = (request.form.get("other") or "").strip()
        if step < 0 and other:
            position = check_body(Int64, coerce(other), "other")
            done = service().undo_other(play_id, device_header(), position, key=key,
                                        seat=seat)
        elif request.form.get("mine") == "1":
            device = device_header()
            if device is None:
                raise RuleError("This phone did not say who it is, so its own last change "
                                "is unknown; reload the page.", DEVICE_HEADER)
            done = service().move_mine(play_id, step, device, key=key, seat=seat)
        else:
            expected = (request.form.get("expected_version") or "").strip()
            # the API's body ("abc" is a 400 like on the event form, not an undo without a check)
            body = check_body(UndoRequest if step < 0 else RedoRequest,
                              {"expected_version": coerce(expected)} if expected else {})
            done = service().move_head(play_id, step, body.expected_version, key=key, seat=seat)
    except RuleError as err:
        return _play_block(play_id, token, err.status, error=err.message, error_field=err.field)
    except Conflict:
        return _play_block(play_id, token, 409, error=say(
            "Someone else changed the play a moment ago; nothing was undone. Look again."))
    return _answer(play_id, token, done, role)


def _answer(play_id: str, token: str, done, role: str):
    """The block after a change; a repeated Idempotency-Key answers with the first answer's
    status (and today's block: the phone wants the fresh state) and records nothing."""
    if done.replayed is None:
        return _play_block(play_id, token, 200, opened=(done.row, role))
    response = _play_block(play_id, token, done.replayed.status)
    response = current_app.make_response(response)
    response.headers[REPLAYED_HEADER] = "true"
    return response


def _play_block(play_id: str, token: str, status: int, opened=None, **extra):
    """The play block after a change; ``opened`` is (row, role) when the caller has the row."""
    row, role = opened or open_play(play_id, token)
    if hx_request.htmx:
        return play_block(row, role, token, **extra), status
    if status == 200:
        return redirect(url_for("pages.play", play_id=play_id, token=token))
    return cut(unmarked(render_template("plays/play.html", **play_context(
        row, role, token, **extra)))), status


@bp.route("/plays/<play_id>/<token>/delete", methods=["GET", "POST"])
def delete_play(play_id, token):
    """Ask first (GET), delete on the confirmation (POST); with the edit link, or any link of
    the play on the owner's phone."""
    row, role = open_play(play_id, token)
    if role != "edit" and not is_owner(request):
        abort(403)
    return _delete(row, token)


@bp.route("/owner/plays/<play_id>/delete", methods=["GET", "POST"])
def owner_delete_play(play_id):
    """The owner deletes any play from the lists, without holding its link."""
    if not is_owner(request):
        abort(403)
    row = service().store.load_play(play_id) if len(play_id) <= 32 else None
    if row is None:
        abort(404)
    return _delete(row, None)


def _delete(row: PlayRow, token: str | None):
    game = get_game(row.game)
    if request.method == "POST":
        service().store.delete_play(row.id)
        forget_play(row.id)
        forget_documents(row.id)
        return render_template("plays/deleted.html", game=game, row=row)
    return render_template("plays/delete.html", game=game, row=row, token=token)


@bp.post("/plays/<play_id>/<token>/box-data")
def save_box_values(play_id, token):
    """The owner keeps what a play answered about the box for later games."""
    row, role = open_play(play_id, token)
    if role != "edit" or not is_owner(request):
        abort(403)
    try:
        service().save_box_values(row)
    except RuleError as err:
        return _play_block(play_id, token, err.status, error=err.message)
    return _play_block(play_id, token, 200, opened=(row, role),
                       notice=say("Saved to the box data: later games will know it."))


@bp.get("/plays/<play_id>/<token>/join.svg")
def join_svg(play_id, token):
    """The QR code of the view link (or, for an edit token with ?edit=1, the edit link)."""
    row, role = open_play(play_id, token)
    link = share_link(row, role, token, request.args.get("edit") == "1")
    return Response(qr_svg(link), mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=300"})


@bp.get("/plays/<play_id>/<token>/scoresheet.pdf")
def scoresheet(play_id, token):
    row, _ = open_play(play_id, token)
    return Response(scoresheet_pdf(row, service().state(row)), mimetype="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="play-{row.id}.pdf"'})


# the box-data pages (companion/web/box_pages.py) are this blueprint's too: their endpoints keep
# their names ("pages.catalogue", ...)
for rule, view, methods in box_pages.ROUTES:
    bp.add_url_rule(rule, view_func=view, methods=methods)


@bp.get("/manifest.webmanifest")
def manifest():
    return current_app.send_static_file("manifest.webmanifest")
