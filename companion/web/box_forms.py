"""The box-data forms of Knarr, Reavers and Explorers: plain form fields become the game's box
data, checked by the game's own validation; an error names the row and its input, and the
form is shown again with everything as typed. (Shipwrights has its own: shipwrights_form.py.)

No Flask here: the view passes ``request.form`` (anything with ``get`` and keys).
"""
from __future__ import annotations

import re
from typing import Any

from ..games.errors import RuleError, say
from ..games.reavers.box import spoils_word

MAX_ROWS = 60
SPOILS_STEPS = 8                        # columns "a set of 1 … 8 cards" on the form
PRINTED_SPOILS = ("Treasure", "Art", "Armor")
WALL_INPUTS = ("wall-most", "wall-second")


def blank(value: Any) -> str | None:
    text = str(value).strip() if value is not None else ""
    return text or None


def number(text: str | None) -> Any:
    """A whole number as typed, else the text (the game's validation says what is wrong)."""
    if text is None:
        return None
    return int(text) if text.isascii() and text.isdigit() and len(text) < 7 else text


def row_indices(form, prefix: str) -> list[int]:
    pattern = re.compile(rf"^{re.escape(prefix)}-(\d{{1,3}})(?:-|$)")
    return sorted({int(m.group(1)) for key in form if (m := pattern.match(key))})


def numbers_in_order(values: list[str | None], where: str, label: str) -> list:
    """Values up to the last one typed; a gap before it is an error naming the place."""
    last = max((i for i, v in enumerate(values) if v is not None), default=-1)
    for i in range(last + 1):
        if values[i] is None:
            raise RuleError(say("%(row)s is empty: fill it in, or clear the ones after it.",
                                row=label(i)),
                            f"{where}[{i}]", "missing_value")
    return [number(v) for v in values[:last + 1]]


# --------------------------------------------------------------------------- Knarr
def knarr_from_form(form) -> dict:
    values = [blank(form.get(f"rep-{i}")) for i in row_indices(form, "rep")]
    return {"reputation_track": numbers_in_order(
        values, "reputation_track",
        lambda i: say("The starting space") if i == 0 else say("Space %(space)s", space=i))}


def knarr_rows(data: dict, extra: int) -> list:
    track = list(data.get("reputation_track") or [])
    return track + [None] * max(extra, 10 - len(track), 3)


def knarr_input(field: str | None) -> str | None:
    match = re.match(r"^reputation_track\[(\d+)\]", field or "")
    return f"rep-{match.group(1)}" if match else None


# --------------------------------------------------------------------------- Reavers
def reavers_from_form(form) -> dict:
    schedule = {}
    for i in row_indices(form, "spoils"):
        name = blank(form.get(f"spoils-{i}-name"))
        steps = [blank(form.get(f"spoils-{i}-{k}")) for k in range(1, SPOILS_STEPS + 1)]
        if all(s is None for s in steps):
            continue                     # a type whose values are not known yet: left out
        if name is None:
            raise RuleError("This row has glory values but no card type: type the name printed "
                            "on the cards.", f"keep_spoils_schedule.row{i}", "missing_value")
        schedule[name] = numbers_in_order(
            steps, f"keep_spoils_schedule.{name}",
            lambda k, n=spoils_word(name): say("The glory for a set of %(count)s %(kind)s card",
                                               count=1, kind=n) if k == 0 else
            say("The glory for a set of %(count)s %(kind)s cards", count=k + 1, kind=n))
    most, second = (number(blank(form.get(name))) for name in WALL_INPUTS)
    return {"keep_spoils_schedule": schedule,
            "wall_majority": None if most is None and second is None else [most, second]}


def reavers_rows(data: dict, extra: int) -> list[dict]:
    """Rows of the keep spoils table: the printed types first (even if not yet known)."""
    schedule = dict(data.get("keep_spoils_schedule") or {})
    rows = []
    for kind in PRINTED_SPOILS:
        found = next((k for k in schedule if k.casefold() == kind.casefold()), None)
        rows.append({"name": found or kind, "steps": schedule.pop(found, []) if found else [],
                     "printed": True, "word": kind})   # (the name as the box data keeps it)
    rows += [{"name": name, "steps": steps, "printed": False} for name, steps in schedule.items()]
    return rows + [{"name": "", "steps": [], "printed": False}] * max(extra, 1)


def reavers_input(field: str | None, form) -> str | None:
    field = field or ""
    match = re.match(r"^wall_majority\[(\d)\]", field)
    if match:
        return WALL_INPUTS[int(match.group(1))]
    if field.startswith("wall_majority"):
        return WALL_INPUTS[0]
    match = re.match(r"^keep_spoils_schedule\.row(\d+)$", field)
    if match:
        return f"spoils-{match.group(1)}-name"
    match = re.match(r"^keep_spoils_schedule\.(.+?)(?:\[(\d+)\])?$", field)
    if match:
        wanted = match.group(1).strip().casefold()
        index = next((i for i in row_indices(form, "spoils")
                      if (blank(form.get(f"spoils-{i}-name")) or "").casefold() == wanted), None)
        if index is not None:
            step = int(match.group(2)) + 1 if match.group(2) else 1
            return f"spoils-{index}-{step}"
    return None


# --------------------------------------------------------------------------- Explorers
def explorers_from_form(form) -> dict:
    captains = []
    for i in row_indices(form, "captain"):
        name, bonus = blank(form.get(f"captain-{i}-name")), blank(form.get(f"captain-{i}-bonus"))
        if form.get(f"captain-{i}-remove") or (name is None and bonus is None):
            continue
        captains.append({"name": name, "bonus": bonus})
    return {"captains": captains}


def explorers_rows(data: dict, extra: int) -> list[dict]:
    captains = list(data.get("captains") or [])
    return captains + [{"name": None, "bonus": None}] * max(extra, 2)


def explorers_input(field: str | None) -> str | None:
    match = re.match(r"^captains\[(\d+)\]\.(name|bonus)", field or "")
    return f"captain-{match.group(1)}-{match.group(2)}" if match else None


# --------------------------------------------------------------------------- dispatch
FORMS = {"knarr": (knarr_from_form, "rep"), "reavers": (reavers_from_form, "spoils"),
         "explorers": (explorers_from_form, "captain")}
SHOWN_ROWS = {"knarr": knarr_rows, "reavers": reavers_rows, "explorers": explorers_rows}


def from_form(game_id: str, form) -> dict:
    """The box data the form describes (raises RuleError naming the row at fault)."""
    return FORMS[game_id][0](form)


def input_at_fault(game_id: str, field: str | None, form) -> str | None:
    if game_id == "knarr":
        return knarr_input(field)
    if game_id == "reavers":
        return reavers_input(field, form)
    return explorers_input(field)


def rows(game_id: str, data: dict, posted=None, extra: int = 0) -> list:
    """The rows the form shows: the saved data's (plus blank ones), or after a refused save
    as many as were posted (their values are read back from the posted form)."""
    shown = SHOWN_ROWS[game_id](data, extra)
    if posted:
        count = len(row_indices(posted, FORMS[game_id][1])) + extra
        if game_id == "reavers":
            return [{"name": "", "steps": [], "printed": False}] * count
        return [None] * count
    return shown
