"""A change to a player's score sheet (the "sheet" event): rows set whole (``fields``), single
kinds of rows of kinds set alone (``set``: the pig of livestock, typed in its own box), and
numbers added (``add``: a tap on a stepper, commuting with other phones' taps). Pure: no Flask,
no SQL."""
from __future__ import annotations

import copy
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import Field, create_model, model_validator

from .games import ending
from .games.bodies import Body, Player, add_type, given, model_of, one_of, refuse, row_type, whole
from .games.errors import RuleError
from .games.inputs import MAX_NAME, player_of, refuse_idle_rows
from .games.messages import Message, say
from .games.protocol import Game


def apply_sheet(game: Game, state: dict, data: Any) -> dict:
    """Merge ``fields`` into a player's sheet, set single kinds of rows of kinds (``set``)
    and/or add ``add``'s numbers to it (``data`` a checked SheetChange: what is left are the
    rules of this play)."""
    player = player_of(data.player, state["sheets"], "data.player",
                       say("Pick a player of this play."))
    fields, kinds, add = parts_of(game, data)
    for how, rows in (("fields", fields), ("set", kinds), ("add", add)):
        refuse_idle_rows(game.sheet_fields, state["options"], rows, f"data.{how}")
    specs = {f.name: f for f in game.sheet_fields}
    state["sheets"] = dict(state["sheets"])         # only this player's sheet is new
    sheet = state["sheets"][player] = copy.deepcopy(state["sheets"][player])
    sheet.update(fields)
    for name, values in kinds.items():
        sheet[name] = with_kinds(specs[name], sheet.get(name), values, player)
    for name, delta in add.items():
        sheet[name] = added(specs[name], sheet.get(name), delta, player)
    ending.mark_entered(state, player, [*fields, *kinds, *add])
    if data.reopen:                        # an undo: these rows were not entered before
        ending.mark_not_entered(state, player, data.reopen)
    if data.done is not None:              # "nothing more to enter" (or open again)
        ending.mark_done(state, player, data.done)
    return state


def parts_of(game: Game, data: Any) -> tuple[dict, dict, dict]:
    """A checked change's rows to set (as the sheet keeps them), kinds to set, numbers to add."""
    specs = {f.name: f for f in game.sheet_fields}
    fields = {name: specs[name].settle(value, f"data.fields.{name}")
              for name, value in (given(data.fields) if data.fields else {}).items()}
    return (fields, given(data.set) if data.set else {}, given(data.add) if data.add else {})


# a sheet change's ways: rows set whole, kinds of rows of kinds set alone, numbers added
WAYS = ("fields", "set", "add")
ADDABLE = ("int", "counts", "choices")

# rows of kinds (livestock by type, longship bonuses by kind): a box typed for one kind is
# that kind's change alone, never its row's
SETTABLE = ("counts", "choices")


class SheetChange(Body):
    """Set rows whole (fields), set single kinds of rows of kinds (set) and/or add to rows
    (add); a row one way only in one change. ``done``: the player has nothing more to enter
    (their end-game rows left blank count 0 and no longer keep the result provisional;
    false opens the sheet again). ``reopen``: rows this change leaves as not entered (the
    undo of a change that entered them puts them back on the list of what is still to
    enter)."""
    player: Player
    done: bool | None = None
    reopen: Any = None                     # declared per game from its rows (sheet_change)

    @model_validator(mode="after")
    def one_way_per_row(self):
        ways = {how: getattr(self, how, None) for how in WAYS}
        if all(v is None for v in ways.values()) and self.done is None:
            raise refuse(say("A sheet change needs fields to set or numbers to add."), "fields")
        for one, other in (("fields", "add"), ("set", "add"), ("fields", "set")):
            if ways[one] is not None and ways[other] is not None:
                both = sorted(ways[one].model_fields_set & ways[other].model_fields_set)
                if both and other == "add":
                    raise refuse(say("'%(key)s' is either set or added to in one change, not "
                                     "both.", key=both[0]), f"add.{both[0]}")
                if both:
                    raise refuse(say("'%(key)s' is set either whole (fields) or kind by kind "
                                     "(set) in one change, not both.", key=both[0]),
                                 f"set.{both[0]}")
        return self


def kinds_type(field) -> Any:
    """What a box typed for single kinds of a row of kinds sets: {kind: n}."""
    count = (whole(field.minimum, field.maximum, field.label) if field.kind == "counts"
             else whole(0, field.max_items, field.label))
    known = field.keys or field.choices
    key = Literal[known] if known else Annotated[str, Field(min_length=1, max_length=MAX_NAME)]
    return Annotated[dict[key, count], Field(min_length=1, title=field.label)]


@cache
def sheet_change(game: Game) -> type:
    """The data of a "sheet" event of this game, declared from its rows."""
    key = game.id.capitalize()
    ways = {"fields": {f.name: row_type(f) for f in game.sheet_fields},
            "set": {f.name: kinds_type(f) for f in game.sheet_fields if f.kind in SETTABLE},
            "add": {f.name: t for f in game.sheet_fields if (t := add_type(f)) is not None}}
    words = {"fields": f"{game.name}: score-sheet rows to set; a row from an option this play "
                       "does not use is a 422 field_not_in_play",
             "set": "Single kinds of rows of kinds to set, {row: {kind: n}}: the row's other "
                    "kinds stay as they are",
             "add": "Numbers to add to number rows ({row: {kind: n}} for a row of kinds): a "
                    "result outside the row's bounds is a 422 out_of_range; adds commute"}
    models = {how: model_of(f"Sheet{how.title()}{key}", rows, words[how])
              for how, rows in ways.items()}
    rule = {"anyOf": [{"required": [how], "properties": {how: {"type": "object"}}}
                      for how in WAYS]
            + [{"required": ["done"], "properties": {"done": {"type": "boolean"}}}],
            "not": {"anyOf": [{"required": [one, other], "properties": {
                one: {"type": "object", "required": [k]},
                other: {"type": "object", "required": [k]}}}
                for one, other in (("fields", "add"), ("set", "add"), ("fields", "set"))
                for k in ways[one] if k in ways[other]]}}
    rows = tuple(f.name for f in game.sheet_fields)
    reopen = Annotated[list[one_of(rows)], Field(
        max_length=len(rows), description="Rows this change leaves as not entered (an undo "
        "of the change that entered them): the result lists them as still to enter again")]
    return create_model(f"SheetChange{key}", __base__=SheetChange, __doc__=SheetChange.__doc__,
                        __cls_kwargs__={"json_schema_extra": rule},
                        reopen=(reopen | None, None),
                        **{how: (models[how] | None, None) for how in WAYS})


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
            counts[key] = within(spec, counts.get(key, 0) + n, player, kind_row(spec, key),
                                 f".{key}")
        return counts
    items = list(current or [])
    for key, n in delta.items():
        have = items.count(key) + n
        within(spec, have, player, kind_row(spec, key), f".{key}",
               minimum=0, maximum=spec.max_items)
        items = [i for i in items if i != key] + [key] * have
    if len(items) > spec.max_items:
        raise RuleError(say("%(player)s's %(row)s can hold at most %(count)s entries.",
                            player=player, row=spec.label, count=spec.max_items),
                        f"data.add.{spec.name}", "out_of_range", 422)
    order = {c: i for i, c in enumerate(spec.choices)}
    return sorted(items, key=lambda i: order.get(i, len(order)))


def kind_row(spec, key: str) -> Message:
    """A kind of a row as a refusal names it: "Delivered livestock (Pigs)"."""
    return say("%(row)s (%(kind)s)", row=spec.label, kind=kind_word(spec, key))


def kind_word(spec, key: Any) -> Message:
    """A kind of a row in a sentence ("Pigs", "Military"): the word the row declares for its
    box (a message, said in the reader's language), the key in words only as a last resort."""
    label = spec.key_label(key) if spec is not None and isinstance(key, str) else key
    return label if isinstance(label, Message) else Message(str(key).replace("_", " "))


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
