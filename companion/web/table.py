"""The table experience: join by QR, history and charts, exports and import, blank score pads."""
from __future__ import annotations

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from flask_babel import gettext

from .. import importing
from ..charts import duration_stats, line_chart_svg, player_stats, round_series
from ..exports import bgstats_link, export_csv, export_document, export_json
from ..games import GAMES, get_game
from ..games.errors import RuleError
from ..plays import score_of
from ..qr import qr_svg
from ..store import PlayRow
from ..tokens import token_seat
from . import service
from .i18n import game_name
from .jsoncheck import uploaded_text
from .links import play_links, seat_link, share_link
from .pages import open_play
from .privacy import visible_ids
from .seating import COOKIE_AGE, NO_SEAT, SEAT_COOKIE, cookie_path, seat_tokens
from .security import behind_https
from .sheets import PAPERS, pad_pdf, paper_of

bp = Blueprint("table", __name__)
HISTORY_LIMIT = 200


@bp.record_once
def _exempt_api(state) -> None:
    """The JSON import authenticates nothing (it creates a new play), like POST /api/v1/plays."""
    state.app.extensions["csrf_protect"].exempt(api_import)


# --------------------------------------------------------------------------- join
@bp.get("/plays/<play_id>/<token>/join")
def join(play_id, token):
    """A full-screen QR code to hold up to the table; editors may switch to the edit link."""
    row, role = open_play(play_id, token)
    if token_seat(row, token) is not None:
        # a seat's link shares nothing: its seat is its own, and no view link derives from it
        return redirect(url_for("pages.play", play_id=row.id, token=token))
    want_edit = request.args.get("edit") == "1" and role == "edit"
    link = share_link(row, role, token, want_edit)
    # beside the table's code, one per seat ("Ben") on the host's phone (issue 24)
    seats = [{"name": p["name"], "colour": p["colour"], "url": seat_link(row.id, t),
              "qr": url_for("table.seat_svg", play_id=row.id, token=token, seat=i)}
             for i, (p, t) in enumerate(zip(row.initial["players"],
                                            seat_tokens(row, role, token), strict=False))]
    return render_template("table/join.html", row=row, role=role, token=token,
                           game=get_game(row.game), link=link, want_edit=want_edit,
                           local_only=_is_local_link(link), seats=seats)


@bp.get("/plays/<play_id>/<token>/seat/<int:seat>.svg")
def seat_svg(play_id, token, seat):
    """The QR code of one seat's link (only the host's phone holds the seats' tokens)."""
    row, role = open_play(play_id, token)
    tokens = seat_tokens(row, role, token)
    if not 0 <= seat < len(tokens):
        abort(404)
    return Response(qr_svg(seat_link(row.id, tokens[seat])), mimetype="image/svg+xml")


@bp.get("/plays/<play_id>/<token>/seat/<int:seat>")
@bp.get("/plays/<play_id>/<token>/seat/none", defaults={"seat": None})
def take_seat(play_id, token, seat):
    """"I am Ben" or "Change seat" (no seat): remembered on this phone for this link, a
    cookie scoped to the link's address (web/seating.py says what each link may choose)."""
    row, role = open_play(play_id, token)
    response = redirect(url_for("pages.play", play_id=row.id, token=token))
    path = cookie_path(row.id, token)
    if role != "edit":
        response.delete_cookie(SEAT_COOKIE, path=path)
        return response
    chosen = str(seat) if seat is not None and 0 <= seat < len(row.initial["players"]) \
        else NO_SEAT
    response.set_cookie(SEAT_COOKIE, chosen, max_age=COOKIE_AGE, path=path, samesite="Lax",
                        httponly=True, secure=behind_https())
    return response


def _is_local_link(link: str) -> bool:
    from urllib.parse import urlsplit

    from ..netinfo import _is_local

    return _is_local(urlsplit(link).hostname or "")


# --------------------------------------------------------------------------- one play
def _export_doc(row: PlayRow) -> dict:
    events = service().store.active_events(row.id, upto=row.head)
    state = service().state(row)
    meta = {"id": row.id, "game": row.game, "created_at": row.created_at,
            "updated_at": row.updated_at, "finished": state["finished"]}
    return export_document(meta, row.initial, events, score_of(state),
                           service().clock_of(state))


@bp.get("/plays/<play_id>/<token>/history")
def play_history(play_id, token):
    row, role = open_play(play_id, token)
    state = service().state(row)
    series = _series(row)
    game = get_game(row.game)
    chart = line_chart_svg(series, state["players"], chart_title(game)) \
        if len(series) > 1 else None
    doc = _export_doc(row)
    return render_template("table/play.html", row=row, role=role, token=token, game=game,
                           state=state, series=series, chart=chart, doc=doc,
                           bgstats=bgstats_link(doc), papers=PAPERS,
                           clock=service().clock_of(state))


def chart_title(game) -> str:
    return gettext("%(name)s: scores by round", name=game_name(game))


def _series(row: PlayRow) -> list[dict]:
    events = service().store.active_events(row.id, upto=row.head)
    return round_series(row.initial, events)


@bp.get("/plays/<play_id>/<token>/chart.svg")
def chart_svg(play_id, token):
    row, _ = open_play(play_id, token)
    state = service().state(row)
    svg = line_chart_svg(_series(row), state["players"], chart_title(get_game(row.game)))
    return Response(svg, mimetype="image/svg+xml")


@bp.get("/plays/<play_id>/<token>/export.<any(json, csv):kind>")
def export(play_id, token, kind):
    row, _ = open_play(play_id, token)
    doc = _export_doc(row)
    name = f"{row.game}-{row.created_at.strftime('%Y-%m-%d')}-{row.id}.{kind}"
    body, mime = (export_json(doc), "application/json") if kind == "json" else \
        (export_csv(doc), "text/csv")
    return Response(body, mimetype=mime,
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/api/v1/plays/<play_id>/export")
def api_export(play_id):
    """The play as JSON: players, options, seed, box data, every event, the result"""
    from .api import authorised

    return _export_doc(authorised(play_id, "view"))


# --------------------------------------------------------------------------- import
def import_play(upload) -> tuple[PlayRow, dict]:
    """A new play (new tokens) from an export (a companion.importing.Upload): read, checked
    and replayed in an import process, then stored in one transaction (companion.importing).
    Busy (503) when this server process's import processes are all busy."""
    from .documents import import_pool, in_pool

    return importing.write(service(), in_pool(import_pool(), importing.job(service(), upload)))


@bp.route("/import", methods=["GET", "POST"])
def import_page():
    error = None
    if request.method == "POST":
        try:
            row, tokens = import_play(importing.Upload(uploaded_text(), "file"))
        except RuleError as err:
            error = err
        else:
            return redirect(url_for("pages.play", play_id=row.id, token=tokens["edit"]))
    return render_template("table/import.html", error=error), (error.status if error else 200)


@bp.post("/api/v1/plays/import")
def api_import():
    """A new play (new tokens) from an export, its events replayed through every check (sheet
    checks added after the play was recorded excepted) and stored in one transaction. The body
    may be up to 8 MiB (every other body: 256 KiB), an export of up to 25,000 events"""
    from .api import json_bytes, seats_json, state_json

    row, tokens = import_play(importing.Upload(json_bytes()))
    links = play_links(row.id, {"edit": tokens["edit"], "view": tokens["view"]})
    state = service().state(row)
    return {"id": row.id, "edit_token": tokens["edit"], "view_token": tokens["view"],
            "edit_url": links["edit"], "view_url": links["view"],
            "seats": seats_json(row.id, state, tokens["seats"]),
            "state": state_json(row, state)}, 201, \
        {"Location": url_for("api.get_play", play_id=row.id)}


# --------------------------------------------------------------------------- history
@bp.get("/history")
def history():
    game_id = request.args.get("game") or None
    if game_id:
        get_game(game_id)
    ids = visible_ids(request)
    rows = service().store.recent_plays(limit=HISTORY_LIMIT, finished=True, game=game_id,
                                        ids=ids)
    return render_template("table/history.html", rows=rows, games=GAMES.values(),
                           everything=ids is None,
                           names={g.id: g.name for g in GAMES.values()}, game_id=game_id,
                           stats=player_stats([r.summary for r in rows]),
                           durations=duration_stats([
                               (r.game, len(r.initial["players"]),
                                (r.summary or {}).get("elapsed_s")) for r in rows]))


# --------------------------------------------------------------------------- score pads
@bp.get("/pads")
def pads():
    return render_template("table/pads.html", games=GAMES.values(), papers=PAPERS)


@bp.get("/pads/<game_id>.pdf")
def pad(game_id):
    game = get_game(game_id)
    players = request.args.get("players", type=int) or game.max_players
    if not 1 <= players <= 8:
        raise RuleError("A score pad has 1 to 8 player columns.", "players")
    pdf = pad_pdf(game, players, paper_of(request.args.get("paper")))
    return Response(pdf, mimetype="application/pdf", headers={
        "Content-Disposition": f'inline; filename="{game.id}-score-pad.pdf"'})

