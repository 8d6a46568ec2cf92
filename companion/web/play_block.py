"""The play block a phone gets: what the page shows of a play (its context) and the block
rendered from it, shared between phones by version (block_cache) and cut into parts (parts)."""
from __future__ import annotations

from flask import render_template
from jinja2_fragments.flask import render_block

from ..games import get_game
from ..plays import score_of, scoring_catalogue
from ..store import PlayRow
from . import block_cache, service
from .block_cache import unmarked
from .changes import quiet_device
from .links import role_links
from .parts import cut, held_parts, setup_done
from .seating import seat_context


def device_context(row: PlayRow, role: str, token: str) -> dict:
    """What the parts of the block that are this phone's own need (block_cache.SLOTS)."""
    device = quiet_device() if role == "edit" else None
    undo = service().undo_info(row, device) if role == "edit" else None
    state = service().state(row)
    return {"row": row, "state": state, "game": get_game(row.game), "role": role,
            "token": token, "undo": dict(undo or {}, device=device),
            "clock": service().clock_of(state),
            # this phone's seat (issue 24): its controls are the seat's own
            **seat_context(row, role, token, state)}


def play_context(row: PlayRow, role: str, token: str, **extra) -> dict:
    context = device_context(row, role, token)
    state, game = context["state"], context["game"]
    score = score_of(state)
    box = scoring_catalogue(state)
    fields = game.sheet_fields_for(state["options"])
    return {**context, "score": score,
            "box_now": box_data_answers(game, score),
            "needs": game.box_needs(box, len(state["players"])),
            "ahead": game.box_questions_ahead(box),
            "fields": fields, "kinds": {f.name: game.sheet_kinds(f, state["options"], box)
                                        for f in fields if f.kind == "counts"},
            "setup_done": setup_done(),
            "links": role_links(row.id, role, token), **extra}


def box_data_answers(game, score: dict) -> dict:
    """{question key: value} the installation's box data now holds for the score's open
    questions (the owner entered it after this play began): offered as the answer."""
    if not score.get("missing"):
        return {}
    box = service().catalogue(game.id)
    found = {m["key"]: game.box_value_of(box, m["key"]) for m in score["missing"]}
    return {key: value for key, value in found.items() if value is not None}


def play_block(row: PlayRow, role: str, token: str, **extra) -> str:
    """The play block, each part the phone already holds left as a placeholder; a version's
    first render is shared with the next phones (web/block_cache.py)."""
    raw = None if extra else block_cache.kept(row, token)
    if raw is None:
        raw = render_block("plays/play.html", "play", **play_context(row, role, token, **extra))
        if not extra:
            block_cache.keep(row, token, raw)
    else:
        mine = device_context(row, role, token)
        raw = block_cache.personal(raw, lambda slot: render_template(block_cache.SLOTS[slot],
                                                                     **mine))
    return cut(unmarked(raw), held_parts())
