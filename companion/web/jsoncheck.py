"""Every string and key of a request is text without NUL (every string schema says so) and
without lone surrogate escapes such as "\\udaa9" (no pattern a validator reads alike can say
so; no page could show one): either is a 400 invalid_text, and JSON nested absurdly deep (past
what Python's parser and copies can take) a 400 too_deep, each naming the field."""
from __future__ import annotations

import json
import re
from typing import Any

from ..games.errors import RuleError
from ..games.messages import say
from ..games.refusals import join_field

MAX_DEPTH = 32
BAD_TEXT = re.compile("[\x00\ud800-\udfff]")     # NUL, or a surrogate on its own


def check_json(value: Any) -> Any:
    """``value`` itself when every level and every string is sane; else a RuleError (400)."""
    stack = [(value, "", 0)]
    while stack:
        item, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise too_deep(path or None)
        if isinstance(item, str) and BAD_TEXT.search(item):
            raise RuleError("Text must be valid Unicode without NUL characters.",
                            path or None, "invalid_text")
        if isinstance(item, dict):
            for key, child in item.items():
                where = join_field(path, [key])
                if BAD_TEXT.search(key):
                    raise RuleError("A key must be valid Unicode without NUL characters.",
                                    where.encode("utf-8", "replace").decode(), "invalid_text")
                stack.append((child, where, depth + 1))
        elif isinstance(item, list):
            stack.extend((child, join_field(path, [i]), depth + 1) for i, child in enumerate(item))
    return value


def too_deep(field: str | None) -> RuleError:
    return RuleError(say("The JSON is nested too deeply (%(count)s levels at most).",
                         count=MAX_DEPTH), field, "too_deep")


def uploaded_text() -> str:
    """A form's uploaded file, else its ``json`` text box, as text for loads_checked."""
    from flask import request

    upload = request.files.get("file")
    text = upload.read().decode("utf-8", "replace") if upload and upload.filename else \
        request.form.get("json", "")
    return text or "{}"


def loads_checked(text: str, field: str | None) -> Any:
    """json.loads for a form's text: invalid, too deep or not Unicode is a RuleError."""
    try:
        return check_json(json.loads(text))
    except RecursionError as err:
        raise too_deep(field) from err
    except ValueError as err:
        raise RuleError(say("That is not valid JSON: %(problem)s", problem=str(err)), field,
                        "invalid_json") from err
