"""What a request body's first fault says to a person: a pydantic ValidationError turned into
the API's error (companion.games.bodies.check), with the field by the body's own keys and
indexes ("players[1].sheet.outposts") and the sentences the hand-written checks said before (the
same shapes, so the same German and French). What a sentence needs besides pydantic's own
context (the row's label, its choices, its largest count) each type carries from its
declaration (companion.games.bodies.said): nothing is looked up in the JSON Schema.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import ValidationError
from pydantic_core import PydanticCustomError

from .errors import RuleError
from .messages import Message, say

MESSAGES = {
    "int": say("%(row)s must be a whole number."),
    "greater_than_equal": say("%(row)s must be at least %(low)s."),
    "less_than_equal": say("%(row)s must be at most %(high)s."),
    "bool": say("%(row)s must be true or false."),
    "literal_error": say("%(row)s must be one of: %(choices)s."),
    ("missing", "union_tag_not_found"): say("%(row)s is needed."),
    "string": say("%(row)s must be a text of at most %(count)s characters, not blank."),
    "too_long": say("%(row)s can hold at most %(count)s entries."),
    "too_short": say("%(row)s needs at least %(count)s entries."),
    "list_type": say("%(row)s must be a list."),
    ("dict", "model"): say("%(row)s must be an object."),
    "predicate_failed": say("%(row)s: add a whole number other than 0 (at most %(count)s "
                            "either way)."),
    "union_tag_invalid": say("There is no %(row)s '%(tag)s' here; use one of: %(choices)s."),
}


def told(err: ValidationError, said: Callable[[dict], dict]) -> ValidationError:
    """``err`` with ``said(fault)`` added to each fault's context, under what the fault's own
    says: the innermost declaration names the row (companion.games.bodies.said)."""
    return ValidationError.from_exception_data(err.title, [{
        "type": PydanticCustomError(e["type"], "refused", {**said(e), **e.get("ctx", {})}),
        "loc": e["loc"], "input": e["input"]} for e in err.errors()])


def refusal(err: ValidationError, value: Any, where: str = "") -> RuleError:
    """The first fault of a ValidationError as the API's error: the field by the body's own
    keys and indexes, a sentence with the row's label, the code where one exists."""
    # of a union's branches, the one the value went deepest into (a seat object's colour,
    # not "not a name")
    fault = max(err.errors(include_url=False), key=lambda e: len(e["loc"]))
    kind, ctx = fault["type"], fault.get("ctx") or {}
    tag = (ctx["discriminator"].strip("'"),) if kind.startswith("union_tag") else ()
    path, key_fault = _follow(value, (*fault["loc"], *tag), kind == "missing" or bool(tag))
    if kind == "extra_forbidden" or key_fault:
        return RuleError(say("Unknown field '%(key)s'.", key=path[-1]), join_field(where, path),
                         "unknown_field")
    if kind == "rule":              # the message bodies.refuse carried, at the key it names
        at = ctx["at"]
        path += [at] if isinstance(at, int) else at.split(".") if at else []
        said = ctx["said"]          # (a name, not RuleError(ctx[...]): make i18n reads its text)
        return RuleError(said, join_field(where, path))
    choices = ctx.get("expected_tags") or ctx.get("choices")    # a union's tags: 'a', 'b'
    family = next((k for k in MESSAGES if kind.startswith(k)), "")    # string_too_long: string
    shape = MESSAGES.get(family)
    if shape is None or "%(choices)s" in shape.id and not choices:
        shape = say("%(row)s is not valid here.")
    code = "unknown_event" if family == "union_tag_invalid" and path[-1:] == ["type"] \
        else "missing_value" if kind.startswith("missing") else "invalid_input"
    params = {"row": ctx.get("row") or (str(path[-1]) if path else say("The request")),
              "low": ctx.get("ge"), "high": ctx.get("le"), "tag": ctx.get("tag"),
              "count": ctx.get("max_length") or ctx.get("min_length") or ctx.get("count"),
              "choices": choices}
    return RuleError(Message(shape.id, {k: v for k, v in params.items()
                                        if f"%({k})s" in shape.id}), join_field(where, path), code)


def join_field(where: str, path: list) -> str | None:
    """A field as the API names it: "players[1].sheet.outposts" (an empty key as [""])."""
    out = where
    for step in path:
        if step == "":
            out += '[""]'
        else:
            out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or None


def _follow(value: Any, loc: tuple, absent: bool) -> tuple[list, bool]:
    """The steps of a fault's ``loc`` that are the body's own keys and indexes (a union's
    branch names are not; ``absent``: the last is a key the value lacks), and whether the
    fault is in a key itself."""
    path = []
    for i, step in enumerate(loc, 1):
        if step == "[key]":
            return path, True
        if isinstance(value, dict) and (step in value or absent and i == len(loc)):
            value = value.get(step)     # None: a key that is missing or not allowed
        elif isinstance(value, list) and isinstance(step, int) and step < len(value):
            value = value[step]
        else:
            continue
        path.append(step)
    return path, False
