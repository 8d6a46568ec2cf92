"""The Undo labels the core builds in English ("Undo: Ann: Outposts built +1") in the page's
language. The core's shapes (companion.plays.LABEL_SHAPES) are the message ids, their
``%(name)s`` parts are translated in turn (a nested change, sheet row names through ``core()``);
a player's name stays as typed. Text no shape matches stays as the core said it. The API keeps
its English labels: this is for pages only."""
from __future__ import annotations

import re
from functools import cache

from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from ..plays import LABEL_SHAPES
from .core_words import core

# listed for `make i18n` (the same texts as companion.plays.LABEL_SHAPES; a test checks)
SHAPE_WORDS = (
    _l("Undo: %(change)s"),
    _l("the undo of %(change)s"),
    _l("%(player)s's sheet, unchanged"),
    _l("%(player)s's sheet: %(changes)s"),
    _l("%(player)s holds %(count)s territories"),
    _l("%(player)s %(count)s territory"),
    _l("%(player)s %(count)s territories"),
    _l("Pawn to %(place)s"),
    _l("%(player)s: %(changes)s"),
    _l("%(shown)s and %(count)s more"),
)
FIXED_WORDS = (
    _l("End of the phase"), _l("End of the game"), _l("Pause the clock"),
    _l("Restart the clock"), _l("A box value"), _l("End of the round"), _l("End of turn"),
    _l("A new island"), _l("Round card revealed"), _l("Nothing of yours to undo"),
    _l("Undo"), _l("yes"), _l("no"), _l("blank"), _l("none"),
)
PART = re.compile(r"^(?P<label>.+?) (?P<value>[+-]?\d+|yes|no|blank|none)$")
MORE = re.compile(r"^(?P<shown>.+) and (?P<count>\d+) more$")


@cache
def _pattern(shape: str) -> re.Pattern:
    parts = re.split(r"%\((\w+)\)s", shape)
    out = ""
    for i, piece in enumerate(parts):
        out += re.escape(piece) if i % 2 == 0 else f"(?P<{piece}>.+?)"
    return re.compile(f"^{out}$")


def label_words(text) -> str:
    """An Undo label (or any change the core describes) in the page's language."""
    text = str(text or "")
    if not text:
        return ""
    fixed = core(text)
    if fixed != text:
        return fixed
    for shape in LABEL_SHAPES:
        found = _pattern(shape).match(text)
        if found:
            params = {name: _param(name, value) for name, value in found.groupdict().items()}
            return gettext(shape, **params)
    return text


def _param(name: str, value: str) -> str:
    if name == "change":
        return label_words(value)
    if name == "changes":
        return _changes(value)
    if name == "place":
        return core(value)
    return value


def _changes(text: str) -> str:
    more = MORE.match(text)
    if more:
        return gettext("%(shown)s and %(count)s more", shown=_changes(more["shown"]),
                       count=more["count"])
    return "; ".join(_part(p) for p in text.split("; "))


def _part(text: str) -> str:
    found = PART.match(text)
    if not found:
        return core(text)
    value = found["value"]
    return f"{core(found['label'])} {core(value) if value.isalpha() else value}"
