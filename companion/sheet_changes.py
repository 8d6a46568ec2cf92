"""A change to a player's score sheet (the "sheet" event): rows set whole (``fields``), single
kinds of rows of kinds set alone (``set``: the pig of livestock, typed in its own box), and
numbers added (``add``: a tap on a stepper, commuting with other phones' taps). Pure: no Flask,
no SQL."""
from __future__ import annotations

from typing import Any

from .games.errors import RuleError, say
from .games.inputs import (
    MAX_NAME,
    check_delta,
    check_int,
    check_object,
    parse_sheet,
    player_of,
    refuse_idle_rows,
)
from .games.protocol import Game


def apply_sheet(game: Game, state: dict, data: dict) -> dict:
    """Merge ``fields`` into a player's sheet, set single kinds of rows of kinds (``set``)
    and/or add ``add``'s numbers to it."""
    check_object(data, CHANGES, "data")
    player = player_of(data.get("player"), state["sheets"], "data.player",
                       "Pick a player of this play.")
    if all(data.get(how) is None for how in CHANGES[1:]):
        raise RuleError("A sheet change needs fields to set or numbers to add.", "data.fields")
    # (parse_sheet refuses the fields' idle rows the same way; a row set kind by kind must
    # be a row of kinds first, whatever the options: parse_set's 400)
    refuse_idle_rows(game.sheet_fields, state["options"], data.get("add"), "data.add")
    kinds = {f.name for f in game.sheet_fields if f.kind in SETTABLE}
    refuse_idle_rows(game.sheet_fields, state["options"],
                     {k: v for k, v in (data.get("set") or {}).items() if k in kinds}
                     if isinstance(data.get("set"), dict) else None, "data.set")
    fields = parse_sheet(game.sheet_fields, data.get("fields"), state["options"],
                         "data.fields", fill=False)
    specs = {f.name: f for f in game.sheet_fields_for(state["options"])}
    add = parse_add(specs.values(), data.get("add"))
    kinds = parse_set(specs.values(), data.get("set"))
    refuse_twice(fields, add, kinds)
    sheet = state["sheets"][player]
    sheet.update(fields)
    for name, values in kinds.items():
        sheet[name] = with_kinds(specs[name], sheet.get(name), values, player)
    for name, delta in add.items():
        sheet[name] = added(specs[name], sheet.get(name), delta, player)
    return state


# a sheet change's parts: the rows it sets whole, the rows it adds to, the kinds it sets
CHANGES = ("player", "fields", "add", "set")


def refuse_twice(fields: dict, add: dict, kinds: dict) -> None:
    """A row is set whole, set kind by kind, or added to in one change: one of them."""
    for one, other, how in ((fields, add, "add"), (kinds, add, "add"),
                            (fields, kinds, "set")):
        both = sorted(set(one) & set(other))
        if both:
            raise RuleError(f"'{both[0]}' is either set or added to in one change, not both."
                            if how == "add" else f"'{both[0]}' is set either whole (fields) "
                            "or kind by kind (set) in one change, not both.",
                            f"data.{how}.{both[0]}")


ADDABLE = ("int", "counts", "choices")


def parse_add(specs, add: Any) -> dict:
    """``{field: n}`` for a number field, ``{field: {key: n}}`` for a counts or choices
    field: whole numbers, none of them 0."""
    if add is None:
        return {}
    if not isinstance(add, dict):
        raise RuleError("add must be an object of numbers to add, e.g. {\"outposts\": 1}.",
                        "data.add")
    by_name = {f.name: f for f in specs}
    out: dict[str, Any] = {}
    for name, delta in add.items():
        where = f"data.add.{name}"
        spec = by_name.get(name)
        if spec is None:
            raise RuleError(f"Unknown score-sheet field '{name}'.", where, "unknown_field")
        if spec.kind not in ADDABLE:
            raise RuleError(say("%(row)s is not a number to add to; set it instead.",
                                row=spec.label), where)
        if spec.kind == "int":
            out[name] = check_delta(delta, where, spec.label)
            continue
        if not isinstance(delta, dict) or not delta:
            raise RuleError(f"{spec.label}: add an object of kinds and numbers, e.g. "
                            "{\"pig\": 1}.", where)
        check_kinds(spec, delta, where)
        out[name] = {key: check_delta(n, f"{where}.{key}", spec.label)
                     for key, n in delta.items()}
    return out


# rows of kinds (livestock by type, longship bonuses by kind): a box typed for one kind is
# that kind's change alone, never its row's
SETTABLE = ("counts", "choices")


def parse_set(specs, kinds: Any) -> dict:
    """``{field: {kind: n}}``: how many of each named kind a counts or choices row holds now
    (a box typed for one kind on a phone); the row's other kinds stay as they are."""
    if kinds is None:
        return {}
    if not isinstance(kinds, dict):
        raise RuleError("set must be an object of rows and kinds, e.g. "
                        "{\"livestock\": {\"pig\": 2}}.", "data.set")
    by_name = {f.name: f for f in specs}
    out: dict[str, dict] = {}
    for name, values in kinds.items():
        where = f"data.set.{name}"
        spec = by_name.get(name)
        if spec is None:
            raise RuleError(f"Unknown score-sheet field '{name}'.", where, "unknown_field")
        if spec.kind not in SETTABLE:
            raise RuleError(say("%(row)s has no kinds to set one by one; set the row itself.",
                                row=spec.label), where)
        if not isinstance(values, dict) or not values:
            raise RuleError(f"{spec.label}: set an object of kinds and numbers, e.g. "
                            "{\"pig\": 2}.", where)
        check_kinds(spec, values, where)
        high = spec.maximum if spec.kind == "counts" else spec.max_items
        low = spec.minimum if spec.kind == "counts" else 0
        out[name] = {key: check_int(n, f"{where}.{key}", spec.label, low, high)
                     for key, n in values.items()}
    return out


def check_kinds(spec, values: dict, where: str) -> None:
    """The kinds a row of kinds knows (any short name for a row without a fixed list)."""
    known = spec.keys or spec.choices
    for key in values:
        if (known and key not in known) or not isinstance(key, str) or not key \
                or len(key) > MAX_NAME:
            raise RuleError(f"{spec.label}: unknown kind '{key}'.", f"{where}.{key}",
                            "unknown_field")


def kinds_of(spec, value: Any) -> dict:
    """A row of kinds as {kind: n} (a choices row is a list with one entry per piece)."""
    if spec.kind == "choices":
        items = list(value or [])
        return {key: items.count(key) for key in dict.fromkeys(items)}
    return dict(value or {})


def with_kinds(spec, current: Any, values: dict, player: str) -> Any:
    """The row with the given kinds set and its other kinds kept."""
    if spec.kind == "counts":
        return {**(current or {}), **values}
    items = [i for i in (current or []) if i not in values]
    for key, n in values.items():
        items += [key] * n
    if len(items) > spec.max_items:
        raise RuleError(say("%(player)s's %(row)s can hold at most %(count)s entries.",
                            player=player, row=spec.label, count=spec.max_items),
                        f"data.set.{spec.name}", "out_of_range", 422)
    order = {c: i for i, c in enumerate(spec.choices)}
    return sorted(items, key=lambda i: order.get(i, len(order)))


def added(spec, current: Any, delta: Any, player: str) -> Any:
    """The field's value after adding; leaving the field's bounds is refused (a tap below 0
    is a mistake to show, not to hide: clamping would also make the tap impossible to undo
    exactly)."""
    if spec.kind == "int":
        return within(spec, (current or 0) + delta, player, spec.label, "")
    if spec.kind == "counts":
        counts = dict(current or {})
        for key, n in delta.items():
            counts[key] = within(spec, counts.get(key, 0) + n, player,
                                 f"{spec.label} ({key.replace('_', ' ')})", f".{key}")
        return counts
    items = list(current or [])
    for key, n in delta.items():
        have = items.count(key) + n
        within(spec, have, player, f"{spec.label} ({key.replace('_', ' ')})", f".{key}",
               minimum=0, maximum=spec.max_items)
        items = [i for i in items if i != key] + [key] * have
    if len(items) > spec.max_items:
        raise RuleError(say("%(player)s's %(row)s can hold at most %(count)s entries.",
                            player=player, row=spec.label, count=spec.max_items),
                        f"data.add.{spec.name}", "out_of_range", 422)
    order = {c: i for i, c in enumerate(spec.choices)}
    return sorted(items, key=lambda i: order.get(i, len(order)))


def within(spec, value: int, player: str, label: str, suffix: str, minimum: int | None = None,
           maximum: int | None = None) -> int:
    low = spec.minimum if minimum is None else minimum
    high = spec.maximum if maximum is None else maximum
    if value < low:
        raise RuleError(say("%(player)s's %(row)s cannot go below %(low)s.", player=player,
                            row=label, low=low),
                        f"data.add.{spec.name}{suffix}", "out_of_range", 422)
    if value > high:
        raise RuleError(say("%(player)s's %(row)s cannot go above %(high)s.", player=player,
                            row=label, high=high),
                        f"data.add.{spec.name}{suffix}", "out_of_range", 422)
    return value
