"""The friendly Shipwrights box-data form: plain form fields become the catalogue JSON.

No Flask here: the view in pages.py passes ``request.form`` (anything with ``get`` and keys).
Nothing is filled in: a value left blank stays out of the JSON, so the catalogue's own
validation names it (e.g. "round_cards[1].icons.trade is missing: enter how many ...").
Blank rows are dropped before validation, so row n of the re-shown form is entry n-1.
"""
from __future__ import annotations

import re
from typing import Any

from ..games.errors import RuleError
from ..games.messages import Message, join_names, say, series
from ..games.shipwrights.rules import HUT_NUMBERS, SCORING_SPACES, TRACKS

ROW_KEY = re.compile(r"^(card|nemesis)-(\d{1,3})-[a-z_]+$")
CARD_INPUTS = ("id", "name", *TRACKS, "solo_vp", "draft", "trades")
NEMESIS_INPUTS = ("id", "name", *TRACKS)
ENTRY = re.compile(r"^(round_cards|nemesis)\[(\d+)\](?:\.([a-z_]+))?(?:\.([a-z_]+))?")
LIST_NAMES = {"round_cards": ("card", say("Round Card %(n)s")),
              "nemesis": ("nemesis", say("Nemesis card %(n)s"))}


def catalogue_from_form(form) -> dict:
    """The catalogue the form describes (values as typed; the validator judges them)."""
    return {"round_cards": [card_from_row(row) for row in filled_rows(form, "card",
                                                                      CARD_INPUTS)],
            "huts": {n: form.get(f"hut-{n}") for n in HUT_NUMBERS if form.get(f"hut-{n}")},
            "track_vp": {s: number(form.get(f"vp-{s}")) for s in SCORING_SPACES
                         if blank_to_none(form.get(f"vp-{s}")) is not None},
            "nemesis": [nemesis_from_row(row) for row in filled_rows(form, "nemesis",
                                                                     NEMESIS_INPUTS)]}


def filled_rows(form, prefix: str, inputs: tuple[str, ...]) -> list[dict]:
    """The rows of one list in page order, without blank rows and rows marked for removal."""
    indices = sorted({int(m.group(2)) for key in form
                      if (m := ROW_KEY.match(key)) and m.group(1) == prefix})
    rows = []
    for i in indices:
        row = {name: blank_to_none(form.get(f"{prefix}-{i}-{name}")) for name in inputs}
        if form.get(f"{prefix}-{i}-remove") or all(v is None for v in row.values()):
            continue
        rows.append(row)
    return rows


def card_from_row(row: dict) -> dict:
    card = entry_from_row(row)
    if row["solo_vp"] is not None:
        card["solo_vp"] = number(row["solo_vp"])
    if row["draft"] is not None:
        card["draft"] = row["draft"]
    if row["trades"] is not None:
        card["trades"] = [t.strip() for t in re.split(r"[\n;]", row["trades"]) if t.strip()]
    return card


def nemesis_from_row(row: dict) -> dict:
    return entry_from_row(row)


def entry_from_row(row: dict) -> dict:
    """id, name and the icons given (a track left blank stays out, to be asked for)."""
    entry = {key: row[key] for key in ("id", "name") if row[key] is not None}
    icons = {t: number(row[t]) for t in TRACKS if row[t] is not None}
    if icons:
        entry["icons"] = icons
    return entry


def blank_to_none(value: Any) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def number(text: Any) -> Any:
    """A whole number as typed, or the text itself (the validator says what is wrong)."""
    value = str(text).strip()
    return int(value) if value.isascii() and value.isdigit() and len(value) < 7 else value


# --------------------------------------------------------------------------- errors
CARD_NEEDS = (("id", say("its id or title")), ("military", say("its Military icons")),
              ("trade", say("its Trade icons")), ("renown", say("its Renown icons")),
              ("draft", say("the draft arrows")))
NEMESIS_NEEDS = CARD_NEEDS[:4]


def gaps(data: dict) -> list[tuple[str, str, int, list[str]]]:
    """Rows the form left incomplete: (list, label, index, [keys still missing])."""
    out = []
    for where, needs in (("round_cards", CARD_NEEDS), ("nemesis", NEMESIS_NEEDS)):
        for i, entry in enumerate(data.get(where) or []):
            icons = entry.get("icons") or {}
            missing = [key for key, _ in needs
                       if (icons.get(key) if key in TRACKS else entry.get(key)) is None]
            if missing:
                out.append((where, entry_label(f"{where}[{i}]", data), i, missing))
    return out


def check_complete(data: dict) -> None:
    """One error listing every value the filled rows still lack (not just the first)."""
    found = gaps(data)
    if not found:
        return
    labels = {"round_cards": dict(CARD_NEEDS), "nemesis": dict(NEMESIS_NEEDS)}
    sentences = [say("%(entry)s still needs %(needs)s.", entry=label,
                     needs=join_names([labels[where][k] for k in missing]))
                 for where, label, _, missing in found]
    where, _, index, missing = found[0]
    key = f"icons.{missing[0]}" if missing[0] in TRACKS else missing[0]
    raise RuleError(series([*sentences, say("Leave a row empty to skip it.")], " "),
                    f"{where}[{index}].{key}", "missing_value")


def missing_inputs(data: dict) -> list[str]:
    return [f"{LIST_NAMES[where][0]}-{index}-{key}"
            for where, _, index, missing in gaps(data) for key in missing]


def name_the_entry(err: RuleError, data: dict) -> RuleError:
    """The same error, its message starting with the entry a person sees on the form."""
    label = entry_label(err.field or "", data)
    message = say("%(entry)s: %(message)s", entry=label, message=err.message) if label \
        else err.message
    return RuleError(message, err.field, err.code, err.status)


def entry_label(field: str, data: dict) -> Message | None:
    match = ENTRY.match(field)
    if match:
        where, index = match.group(1), int(match.group(2))
        entries = data.get(where) or []
        entry = entries[index] if index < len(entries) else {}
        name = entry.get("id") if isinstance(entry, dict) else None
        label = say(LIST_NAMES[where][1], n=index + 1)
        return say("%(entry)s ('%(name)s')", entry=label, name=name) if isinstance(
            name, str) else label
    if field.startswith("huts."):
        return say("Hut %(hut)s", hut=field.split(".", 1)[1])
    if field.startswith("track_vp."):
        return say("Track VP for space %(space)s", space=field.split(".", 1)[1])
    return None


def input_at_fault(field: str | None) -> str | None:
    """The form input's name for an error field, e.g. round_cards[1].icons.trade -> card-1-trade."""
    if not field:
        return None
    match = ENTRY.match(field)
    if match:
        prefix, index = LIST_NAMES[match.group(1)][0], match.group(2)
        key, sub = match.group(3) or "id", match.group(4)
        if key == "icons":
            key = sub if sub in TRACKS else TRACKS[0]
        return f"{prefix}-{index}-{key}"
    for top, prefix in (("huts.", "hut-"), ("track_vp.", "vp-")):
        if field.startswith(top):
            return prefix + field[len(top):]
    return None
