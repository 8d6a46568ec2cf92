"""The box-data pages (the owner's): the owner link, each game's box data as JSON or as a form,
its kept versions, and its export. Their routes are the pages blueprint's (companion.web.pages
adds them), so their endpoints keep their names ("pages.catalogue", ...)."""
from __future__ import annotations

import json

from flask import Response, abort, redirect, render_template, request, url_for

from ..games import GAMES, get_game
from ..games.errors import RuleError
from ..owner import is_owner, matches, presented_key, set_owner_cookie
from . import service
from .jsoncheck import loads_checked, uploaded_text
from .security import behind_https

# (rule, view, methods) of every box-data page, in order
ROUTES: list[tuple] = []


def route(rule: str, methods=("GET",)):
    def keep(view):
        ROUTES.append((rule, view, list(methods)))
        return view
    return keep


@route("/owner/<key>")
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


@route("/catalogue", methods=["GET"])
def catalogues():
    return render_template("catalogue/index.html", games=GAMES.values(),
                           welcome=request.args.get("owner") == "welcome" and is_owner(request))


@route("/catalogue/<game_id>", methods=["GET", "POST"])
def catalogue(game_id):
    game = get_game(game_id)
    error, saved, text = None, False, None
    refused = owner_or_refuse() if request.method == "POST" else None
    if request.method == "POST" and not refused:
        text = request.form.get("json", "")
        try:
            imported = bool(request.files.get("file") and request.files["file"].filename)
            service().put_catalogue(game.id, loads_checked(uploaded_text(), "json"),
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


@route("/catalogue/<game_id>/undo", methods=["POST"])
def catalogue_undo(game_id):
    return _restore(game_id, None)


@route("/catalogue/<game_id>/versions/<int:version_id>/restore", methods=["POST"])
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


@route("/catalogue/shipwrights/form", methods=["POST"])
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


@route("/catalogue/<game_id>/form", methods=["POST"])
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


@route("/catalogue/<game_id>/export.json")
def catalogue_export(game_id):
    game = get_game(game_id)
    body = json.dumps(service().catalogue(game.id), indent=2, ensure_ascii=False)
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="{game.id}-catalogue.json"'})

