"""htmx pages and fragments for people at the table. One URL serves a page or its block."""
from __future__ import annotations

import json

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
from ..games.bodies import check as check_body
from ..games.errors import RuleError
from ..games.messages import say
from ..games.requests import RedoRequest, UndoRequest, Version
from ..owner import is_owner, matches, presented_key, set_owner_cookie
from ..plays import COLOURS
from ..qr import qr_svg
from ..store import Conflict, PlayRow
from ..tokens import token_role, token_seat
from . import service
from .block_cache import unmarked
from .changes import (
    DEVICE_HEADER,
    REPLAYED_HEADER,
    device_header,
    idempotency_key,
)
from .documents import forget_documents
from .forms import coerce, event_body, new_play_body
from .jsoncheck import uploaded_json
from .links import share_link
from .parts import cut, versioned
from .play_block import play_block, play_context
from .privacy import forget_play, remember_play, visible_ids
from .security import behind_https
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
    try:
        key = idempotency_key()
        other = (request.form.get("other") or "").strip()
        if move == "undo" and other:
            position = check_body(Version, coerce(other), "other")
            done = service().undo_other(play_id, device_header(), position, key=key,
                                        seat=seat)
        elif request.form.get("mine") == "1":
            device = device_header()
            if device is None:
                raise RuleError("This phone did not say who it is, so its own last change "
                                "is unknown; reload the page.", DEVICE_HEADER)
            take_back = service().undo_mine if move == "undo" else service().redo_mine
            done = take_back(play_id, device, key=key, seat=seat)
        else:
            expected = (request.form.get("expected_version") or "").strip()
            # the API's body ("abc" is a 400 like on the event form, not an undo without a check)
            body = check_body(UndoRequest if move == "undo" else RedoRequest,
                              {"expected_version": coerce(expected)} if expected else {})
            done = service().move_head(play_id, -1 if move == "undo" else 1,
                                       body.expected_version, key=key,
                                       seat=seat)
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
    link = share_link(row.id, role, token, request.args.get("edit") == "1")
    return Response(qr_svg(link), mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=300"})


@bp.get("/plays/<play_id>/<token>/scoresheet.pdf")
def scoresheet(play_id, token):
    row, _ = open_play(play_id, token)
    return Response(scoresheet_pdf(row, service().state(row)), mimetype="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="play-{row.id}.pdf"'})


@bp.get("/owner/<key>")
def owner_link(key):
    """The owner link printed at start: this phone becomes the owner's (an HttpOnly cookie)."""
    if not matches(key):
        abort(403)
    response = redirect(url_for("pages.catalogues", owner="welcome"))
    set_owner_cookie(response, secure=behind_https())
    return response


def owner_or_refuse():
    """None for the owner; else the read-only page's status (401 no key, 403 a wrong one)."""
    if is_owner(request):
        return None
    return 403 if presented_key(request) else 401


@bp.route("/catalogue", methods=["GET"])
def catalogues():
    return render_template("catalogue/index.html", games=GAMES.values(),
                           welcome=request.args.get("owner") == "welcome" and is_owner(request))


@bp.route("/catalogue/<game_id>", methods=["GET", "POST"])
def catalogue(game_id):
    game = get_game(game_id)
    error, saved, text = None, False, None
    refused = owner_or_refuse() if request.method == "POST" else None
    if request.method == "POST" and not refused:
        text = request.form.get("json", "")
        try:
            imported = bool(request.files.get("file") and request.files["file"].filename)
            service().put_catalogue(game.id, uploaded_json("json"),
                                    "imported from a file" if imported else "saved as text")
            saved = True
        except RuleError as err:
            error = err
    current = service().catalogue(game.id)
    if text is None or saved:
        text = json.dumps(current, indent=2, ensure_ascii=False)
    return render_template("catalogue/edit.html", game=game, text=text, error=error,
                           saved=saved, catalogue=current, **versions_context(game.id)), \
        (refused or (error.status if error else 200))


def versions_context(game_id: str, rows: list | None = None) -> dict:
    """The kept versions, and the rows a box-data form shows (by default: the saved data's)."""
    from . import box_forms

    out = {"versions": service().catalogue_versions(game_id)[:10]}
    if game_id in box_forms.FORMS:
        out["rows"] = rows if rows is not None else box_forms.rows(game_id,
                                                                   service().catalogue(game_id))
    return out


@bp.post("/catalogue/<game_id>/undo")
def catalogue_undo(game_id):
    return _restore(game_id, None)


@bp.post("/catalogue/<game_id>/versions/<int:version_id>/restore")
def catalogue_restore(game_id, version_id):
    return _restore(game_id, version_id)


def _restore(game_id: str, version_id: int | None):
    game = get_game(game_id)
    refused = owner_or_refuse()
    error = None
    if not refused:
        try:
            if version_id is None:
                service().undo_catalogue_save(game.id)
            else:
                service().restore_catalogue(game.id, version_id)
        except RuleError as err:
            error = err
    current = service().catalogue(game.id)
    return render_template(
        "catalogue/edit.html", game=game, catalogue=current, error=error, saved=False,
        restored=not refused and error is None,
        text=json.dumps(current, indent=2, ensure_ascii=False), **versions_context(game.id)), \
        (refused or (error.status if error else 200))


@bp.post("/catalogue/shipwrights/form")
def shipwrights_catalogue_form():
    """The friendly Shipwrights box-data form: plain fields, converted to the catalogue JSON
    and saved like it; an error names the entry and the form keeps what was typed."""
    from . import shipwrights_form as sw

    game = get_game("shipwrights")
    typed = sw.catalogue_from_form(request.form)
    refused = owner_or_refuse()
    if refused:
        current = service().catalogue(game.id)
        return render_template(
            "catalogue/edit.html", game=game, catalogue=current, error=None, saved=False,
            text=json.dumps(current, indent=2, ensure_ascii=False),
            **versions_context(game.id)), refused
    error, extra_rows = None, 3 if "add_rows" in request.form else 0
    if not extra_rows:
        try:
            sw.check_complete(typed)
            service().put_catalogue(game.id, typed, "saved in the form")
        except RuleError as err:
            error = err if err.code == "missing_value" and sw.gaps(typed) else \
                sw.name_the_entry(err, typed)
    current = service().catalogue(game.id)
    return render_template(
        "catalogue/edit.html", game=game, text=json.dumps(current, indent=2, ensure_ascii=False),
        catalogue=current if error is None and not extra_rows else typed, stored=current,
        form_error=error, form_saved=error is None and not extra_rows, extra_rows=extra_rows,
        bad_inputs=(sw.missing_inputs(typed) or [sw.input_at_fault(error.field)]) if error else [],
        error=None, saved=False, **versions_context(game.id)), (error.status if error else 200)


@bp.post("/catalogue/<game_id>/form")
def catalogue_form(game_id):
    """The box-data form of Knarr, Reavers or Explorers (Shipwrights: its own route above):
    saved like an import; a refused save names the row and keeps everything typed."""
    from . import box_forms

    game = get_game(game_id)
    if game.id not in box_forms.FORMS:
        abort(404)
    refused = owner_or_refuse()
    extra = 3 if "add_rows" in request.form else 0
    error = None
    if not refused and not extra:
        try:
            service().put_catalogue(game.id, box_forms.from_form(game.id, request.form),
                                    "saved in the form")
        except RuleError as err:
            error = err
    current = service().catalogue(game.id)
    posted = request.form if (error or extra) else None
    bad = [box_forms.input_at_fault(game.id, error.field, request.form)] if error else []
    return render_template(
        "catalogue/edit.html", game=game, catalogue=current, error=None, saved=False,
        text=json.dumps(current, indent=2, ensure_ascii=False), posted=posted, form_error=error,
        form_saved=not refused and error is None and not extra, extra_rows=extra,
        bad_inputs=bad, **versions_context(game.id, box_forms.rows(game.id, current, posted, extra))
    ), (refused or (error.status if error else 200))


@bp.get("/catalogue/<game_id>/export.json")
def catalogue_export(game_id):
    game = get_game(game_id)
    body = json.dumps(service().catalogue(game.id), indent=2, ensure_ascii=False)
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="{game.id}-catalogue.json"'})


@bp.get("/manifest.webmanifest")
def manifest():
    return current_app.send_static_file("manifest.webmanifest")
