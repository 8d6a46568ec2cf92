"""Turn HTML form posts into the same JSON bodies the API takes (one path into the core)."""
from __future__ import annotations

from typing import Any

from ..games.errors import RuleError, say
from ..games.inputs import active_fields, is_whole_number_text
from ..games.protocol import Game
from ..sheet_changes import SETTABLE, kinds_of
from .jsoncheck import loads_checked

MAX_PLAYERS_ON_FORM = 8


def coerce(value: str) -> Any:
    """A form string as JSON would carry it: whole numbers and booleans typed."""
    text = value.strip()
    if is_whole_number_text(text) and len(text) < 12:
        return int(text)
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def new_play_body(form, game: Game) -> dict:
    """The POST /api/v1/plays body from the new-play form."""
    players = []
    for i in range(MAX_PLAYERS_ON_FORM):
        name = (form.get(f"name{i}") or "").strip()
        if name:
            players.append({"name": name, "colour": form.get(f"colour{i}") or None})
    options = {}
    for option in game.options:
        if option.kind == "bool":
            options[option.name] = form.get(f"opt:{option.name}") == "on"
        elif form.get(f"opt:{option.name}") not in (None, ""):
            options[option.name] = coerce(form.get(f"opt:{option.name}"))
    body = {"game": game.id, "players": players, "options": options}
    if (form.get("seed") or "").strip():
        body["seed"] = coerce(form["seed"])
    if form.get("seat_edits"):
        body["seat_edits"] = form["seat_edits"]
    if (form.get("turn_limit_s") or "").strip() not in ("", "0"):
        body["turn_limit_s"] = coerce(form["turn_limit_s"])
    if (form.get("utc_offset_min") or "").strip():     # the phone's, set by newplay.js
        body["utc_offset_min"] = coerce(form["utc_offset_min"])
    return body


def event_body(form, game: Game, state: dict) -> dict:
    """The POST .../events body from a play-page form: a sheet edit or a game event."""
    expected = form.get("expected_version")
    body = {"type": form.get("type") or "", "data": {},
            "expected_version": coerce(expected) if expected else None}
    if body["type"] == "sheet":
        add = adds_from_form(form)
        bump_to_add(form.get("bump"), add)
        fields = sheet_fields_from_form(form, game, state)
        kinds = kinds_from_form(form, game, state)
        for name in add:
            fields.pop(name, None)    # a tap adds to what is stored, not to what the form held
            kinds.pop(name, None)
        drop_unchanged(fields, game, state, form.get("player"))
        drop_unchanged_kinds(kinds, game, state, form.get("player"))
        body["data"] = {"player": form.get("player"), "fields": fields}
        if kinds:
            body["data"]["set"] = kinds
        if add:
            body["data"]["add"] = add
        if form.get("done") is not None:      # "Nothing more to enter" (games.ending)
            body["data"]["done"] = coerce(form["done"])
        return body
    if form.get("data"):
        body["data"] = loads_checked(form["data"], "data")
        if not isinstance(body["data"], dict):
            raise RuleError("The form's data must be a JSON object.", "data")
    for key in form:
        if key.startswith("d:"):
            values = form.getlist(key)
            body["data"][key[2:]] = coerce(values[-1])
        elif key.startswith("s:"):
            # free text kept as typed (an island called "3" stays a name, not a number)
            body["data"][key[2:]] = form.getlist(key)[-1].strip()
    if body["type"] == "box_value" and isinstance(body["data"].get("value"), str):
        body["data"]["value"] = coerce(body["data"]["value"])   # a number typed in a text box
    add = adds_from_form(form)
    if add:
        body["data"]["add"] = add
    return body


def adds_from_form(form) -> dict:
    """``add:<field>=<n>`` and ``add:<field>.<key>=<n>`` form keys as the event's ``add``
    object; ``d:add=<n>`` (a game counter's own delta) is left to the ``d:`` keys."""
    add: dict[str, Any] = {}
    for key in form:
        if not key.startswith("add:") or len(key) > 120:
            continue
        name, _, sub = key[4:].partition(".")
        value = coerce(form.getlist(key)[-1])
        if sub:
            entry = add.setdefault(name, {})
            if not isinstance(entry, dict):
                raise RuleError(say("'%(key)s' is added to twice in one form.", key=name),
                                f"data.add.{name}")
            entry[sub] = value
        elif name in add:
            raise RuleError(say("'%(key)s' is added to twice in one form.", key=name),
                            f"data.add.{name}")
        else:
            add[name] = value
    return add


def bump_to_add(bump: str | None, add: dict) -> None:
    """The older +/- button ("field:+1" or "field.key:-1") is an ``add`` too."""
    if not bump or ":" not in bump:
        return
    target, _, delta = bump.rpartition(":")
    step = coerce(delta.lstrip("+"))
    if not isinstance(step, int) or isinstance(step, bool) or not step:
        return
    name, _, key = target.partition(".")
    if key:
        add.setdefault(name, {})
        if isinstance(add[name], dict):
            add[name][key] = add[name].get(key, 0) + step
    elif name not in add:
        add[name] = step


def kinds_from_form(form, game: Game, state: dict) -> dict:
    """The boxes of single kinds (``f:<row>.<kind>``: pig of livestock, one longship bonus)
    as the event's ``set``: each kind is its own change, never its row's (the other kinds
    of the row, typed or tapped on other phones, stay as they are)."""
    kinds: dict[str, dict] = {}
    for spec in active_fields(game.sheet_fields, state["options"]):
        if spec.kind not in SETTABLE:
            continue
        prefix = f"f:{spec.name}."
        present = {k[len(prefix):]: form.getlist(k)[-1] for k in form if k.startswith(prefix)}
        if present:
            kinds[spec.name] = {k: coerce(v) if v.strip() else 0 for k, v in present.items()}
    return kinds


def drop_unchanged_kinds(kinds: dict, game: Game, state: dict, player: Any) -> None:
    """Kinds posted as they are stored (a whole form saved without a script) change
    nothing: left out, and a row with none left goes too."""
    stored = state["sheets"].get(player) if isinstance(player, str) else None
    if stored is None:
        return
    specs = {f.name: f for f in active_fields(game.sheet_fields, state["options"])}
    for name in list(kinds):
        have = kinds_of(specs[name], stored.get(name))
        kinds[name] = {k: v for k, v in kinds[name].items() if have.get(k, 0) != v}
        if not kinds[name]:
            del kinds[name]


def sheet_fields_from_form(form, game: Game, state: dict) -> dict:
    fields: dict[str, Any] = {}
    for spec in active_fields(game.sheet_fields, state["options"]):
        key = f"f:{spec.name}"
        if spec.kind == "counts":
            counts = parse_counts(form, spec)
            if counts is not None:
                fields[spec.name] = counts
        elif spec.kind == "bool":
            if key in form:
                fields[spec.name] = "on" in form.getlist(key) or "true" in form.getlist(key)
        elif spec.kind == "list":
            if key in form:
                fields[spec.name] = parse_list(form[key], spec.name)
        elif spec.kind == "choices" and spec.choices:
            counts = parse_choice_counts(form, spec)
            if counts is not None:
                fields[spec.name] = counts
        elif key in form:
            fields[spec.name] = coerce(form[key]) if spec.kind == "int" else form[key]
    lists = {f.name for f in active_fields(game.sheet_fields, state["options"]) if f.kind == "list"}
    apply_list_edit(form, fields, state, form.get("player"), lists)
    return fields


def drop_unchanged(fields: dict, game: Game, state: dict, player: Any) -> None:
    """A whole sheet form posted (a tap or one typed box, on a phone that sends the form as it
    is) carries every field: keep only those that differ from what is stored, so the change
    says what it changes and does not write back values nobody touched."""
    stored = state["sheets"].get(player) if isinstance(player, str) else None
    if stored is None:
        return
    specs = {f.name: f for f in active_fields(game.sheet_fields, state["options"])}
    for name in list(fields):
        spec = specs.get(name)
        if spec is not None and same_value(spec, fields[name], stored.get(name)):
            del fields[name]


def same_value(spec, posted: Any, stored: Any) -> bool:
    """Whether a posted form value means what is stored (missing counts are 0)."""
    def nonzero(counts: Any) -> dict | None:
        if isinstance(counts, list):
            counts = {item: counts.count(item) for item in counts}
        if not isinstance(counts, dict):
            return None
        return {k: v for k, v in counts.items() if v != 0}

    if spec.kind in ("counts", "choices"):
        posted_counts = nonzero(posted)
        return posted_counts is not None and posted_counts == nonzero(stored or {})
    if stored is None:
        stored = spec.empty()
    if spec.kind == "choice":
        return (posted or None) == (stored or None)
    return type(posted) is type(stored) and posted == stored


def parse_list(text: str, name: str) -> list:
    items = [t for t in text.replace(";", ",").replace(" ", ",").split(",") if t.strip()]
    out = []
    for item in items:
        value = coerce(item)
        if not isinstance(value, int):
            raise RuleError(say("'%(item)s' is not a whole number; list numbers separated by "
                                "commas.", item=item),
                            f"data.fields.{name}")
        out.append(value)
    return out


def parse_counts(form, spec) -> dict | None:
    text = form.get(f"f:{spec.name}")     # (a box per kind, f:<row>.<kind>, is a set)
    if text is None:
        return None
    counts = {}
    for part in [p for p in text.replace(";", ",").split(",") if p.strip()]:
        name, sep, count = part.partition("=")
        if not sep:
            name, sep, count = part.partition(":")
        counts[name.strip()] = coerce(count) if sep else 1
    return counts


def parse_choice_counts(form, spec) -> dict | None:
    """A "choices" field's plain text box f:<name> (its boxes per choice, f:<name>.<choice>,
    are a set: kinds_from_form) as counts per kind: "raid_cards, upgrades=2" (brackets and
    quotes ignored); the declaration then checks the kinds and counts."""
    text = form.get(f"f:{spec.name}")
    if text is None:
        return None
    for junk in "[]'\"":
        text = text.replace(junk, " ")
    counts: dict[str, Any] = {}
    for item in [i for i in text.replace(";", ",").replace(" ", ",").split(",") if i.strip()]:
        kind, sep, count = item.strip().partition("=")
        value = coerce(count) if sep else 1
        previous = counts.get(kind, 0)
        counts[kind] = previous + value if isinstance(value, int) and isinstance(
            previous, int) else value
    return counts


def apply_list_edit(form, fields: dict, state: dict, player: str | None, lists: set) -> None:
    """Tap-to-add and tap-to-remove buttons of a list field: "push" = "field:value" appends
    a value, "pop" = "field:index" removes one entry (from the posted or current list)."""
    for op in ("push", "pop"):
        name, _, arg = (form.get(op) or "").rpartition(":")
        value = coerce(arg)
        if name not in lists or not isinstance(value, int) or isinstance(value, bool):
            continue
        current = (state["sheets"].get(player) or {}).get(name) or []
        items = list(fields.get(name, current))
        if op == "push":
            items.append(value)
        elif 0 <= value < len(items):
            del items[value]
        fields[name] = items

