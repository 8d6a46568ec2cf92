"""What a request body's first fault says to a person: a pydantic ValidationError turned into
the API's error (companion.games.bodies.check), with the field by the body's own keys and
indexes ("players[1].sheet.outposts"), the row's label from its declaration (its title), and
the sentences the hand-written checks said before (the same shapes, so the same German and
French).
"""
from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from .errors import RuleError
from .messages import Message, say

MESSAGES = {
    "int": say("%(row)s must be a whole number."),
    "greater_than_equal": say("%(row)s must be at least %(low)s."),
    "less_than_equal": say("%(row)s must be at most %(high)s."),
    "bool": say("%(row)s must be true or false."),
    "literal_error": say("%(row)s must be one of: %(choices)s."),
    "missing": say("%(row)s is needed."),
    "string": say("%(row)s must be a text of at most %(count)s characters, not blank."),
    "too_long": say("%(row)s can hold at most %(count)s entries."),
    "too_short": say("%(row)s needs at least %(count)s entries."),
    "list_type": say("%(row)s must be a list."),
    "dict": say("%(row)s must be an object."),
    "model": say("%(row)s must be an object."),
    "predicate_failed": say("%(row)s: add a whole number other than 0 (at most %(count)s "
                            "either way)."),
    "union_tag_invalid": say("There is no %(row)s '%(tag)s' here; use one of: %(choices)s."),
    "union_tag_not_found": say("%(row)s is needed."),
}


def refusal(err: ValidationError, value: Any, schema: dict, where: str = "") -> RuleError:
    """The first fault of a ValidationError as the API's error: the field by the body's own
    keys and indexes, a sentence with the row's label, the code where one exists."""
    # of a union's branches, the one the value went deepest into (a seat object's colour,
    # not "not a name")
    fault = max(err.errors(include_url=False), key=lambda e: len(e["loc"]))
    kind, ctx = fault["type"], fault.get("ctx") or {}
    tag = (ctx["discriminator"].strip("'"),) if kind.startswith("union_tag") else ()
    path, nodes, key_fault = _follow(schema, value, (*fault["loc"], *tag))
    if kind == "extra_forbidden" or key_fault:
        return RuleError(say("Unknown field '%(key)s'.", key=path[-1]), join_field(where, path),
                         "unknown_field")
    if kind == "rule":              # the message bodies.refuse carried, at the key it names
        at = ctx["at"]
        path += [at] if isinstance(at, int) else at.split(".") if at else []
        said = ctx["said"]
        return RuleError(said, join_field(where, path))
    defs = schema.get("$defs", {})      # a union's tags as pydantic lists them ('a', 'b')
    choices = ctx.get("expected_tags") or ", ".join(f"'{c}'" for c in _choices(nodes[-1], defs))
    row = _label(nodes[1:], defs) or (str(path[-1]) if path else say("The request"))
    family = next((k for k in MESSAGES if kind.startswith(k)), "")    # string_too_long: string
    shape = MESSAGES.get(family)
    if shape is None or "%(choices)s" in shape.id and not choices:
        shape = say("%(row)s is not valid here.")
    code = "unknown_event" if family == "union_tag_invalid" and path[-1:] == ["type"] \
        else "missing_value" if family == "missing" else "invalid_input"
    bound = "maximum" if family == "predicate_failed" else "maxLength"
    declared = [p[bound] for p in _parts(nodes[-1]) if bound in p] if len(nodes) > 1 else []
    count = ctx.get("max_length") or ctx.get("min_length") or next(iter(declared), None)
    params = {"row": row, "low": ctx.get("ge"), "high": ctx.get("le"), "count": count,
              "tag": ctx.get("tag"), "choices": choices}
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


def _follow(schema: dict, value: Any, loc: tuple) -> tuple[list, list[dict], bool]:
    """Along a fault's ``loc``: its steps that are the body's own keys and indexes (a union's
    branch names are not); the schema's nodes along them, the schema itself first (references
    followed, the branch that fits the value chosen), fewer where the schema says no more; and
    whether the fault is in a key itself."""
    defs, path, nodes = schema.get("$defs", {}), [], [schema]
    for step in loc:
        if step == "[key]":
            return path, nodes, True
        if isinstance(value, dict) and (step in value or isinstance(step, str)
                                        and step == loc[-1]):
            inner = value.get(step)     # None: a key that is missing or not allowed
        elif isinstance(value, list) and isinstance(step, int) and step < len(value):
            inner = value[step]
        else:
            continue
        if len(nodes) > len(path):      # the schema said each step so far
            node = _pick(_deref(nodes[-1], defs), value, defs)
            said = node.get("properties") or {}
            nxt = node.get("items") if isinstance(step, int) else said[step] if step in said \
                else node.get("additionalProperties")
            if isinstance(nxt, dict):
                nodes.append(nxt)
        path.append(step)
        value = inner
    return path, nodes, False


def _deref(node: dict, defs: dict) -> dict:
    while isinstance(node, dict) and "$ref" in node:
        node = defs.get(node["$ref"].rsplit("/", 1)[-1], {})
    return node


def _parts(node: dict) -> tuple:
    """A node and the branches of its anyOf (a value or null, a list or counts)."""
    return (node, *node.get("anyOf", ()))


def _pick(node: dict, value: Any, defs: dict) -> dict:
    """The branch of an anyOf/oneOf that ``value`` belongs to (by its constants, else by its
    JSON type)."""
    branches = [_deref(b, defs) for b in node.get("anyOf", node.get("oneOf", ()))]
    for branch in branches:
        consts = {k: p["const"] for k, p in branch.get("properties", {}).items() if "const" in p}
        if isinstance(value, dict) and consts and all(value.get(k) == c
                                                      for k, c in consts.items()):
            return branch
    kind = {dict: "object", list: "array", str: "string", bool: "boolean"}.get(
        type(value), "integer")
    return next((b for b in branches if b.get("type") == kind), node)


def _choices(node: dict, defs: dict) -> list:
    """The values ``node`` allows (an enum, constants), from the declaration itself: pydantic's
    own "'a', 'b' or 'c'" is English."""
    out: list = []
    for part in _parts(_deref(node, defs)):
        part = _deref(part, defs)
        out += [c for c in part.get("enum", ()) if c not in (None, "")]
        if "const" in part:
            out.append(part["const"])
    return out


def _label(nodes: list[dict], defs: dict) -> str | None:
    """The row's label: the nearest title along the path, within the model it is in."""
    for node in reversed(nodes):
        title = next((p["title"] for p in _parts(node) if p.get("title")), None)
        if title or _deref(node, defs) is not node:
            return title
    return None
