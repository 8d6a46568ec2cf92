"""What ``core()`` cannot match by shape alone: the "; "-joined list of changes inside an Undo
label ("Ann: Gold +3; Silver -1 and 2 more", the parameter ``changes`` of the core's shapes
"%(player)s: %(changes)s" and "%(player)s's sheet: %(changes)s", companion.plays). Each change
is a sheet row's label and its value; the row's label, yes/no/blank/none and the count of more
changes are translated, the numbers stay. The rest of a label (the shapes themselves, the
player's name as typed) is core()'s business. Pages only: the API keeps its English labels."""
from __future__ import annotations

import re

from flask_babel import get_translations, gettext
from flask_babel import lazy_gettext as _l

from .core_words import core

# the words a change's value can be (companion.plays.shown), listed for `make i18n`
VALUE_WORDS = (_l("yes"), _l("no"), _l("blank"), _l("none"), _l("%(shown)s and %(count)s more"))
PART = re.compile(r"^(?P<label>.+?) (?P<value>[+-]?\d+(?:, [+-]?\d+)*|yes|no|blank|none)$")
MORE = re.compile(r"^(?P<shown>.+) and (?P<count>\d+) more$")


def changes_words(text: str) -> str:
    """"Gold +3; Silver -1 and 2 more" in the page's language."""
    more = MORE.match(text)
    if more:
        return gettext("%(shown)s and %(count)s more", shown=changes_words(more["shown"]),
                       count=more["count"])
    return "; ".join(_part(p) for p in text.split("; "))


def _part(text: str) -> str:
    """"Gold +3", "Raided settlements 2, 3", or a row of kinds: "Delivered livestock pig 3,
    goat 1" (the longest start that is a row's label, then each kind translated)."""
    if core(text) != text:
        return core(text)
    found = PART.match(text)
    if found and _known(found["label"]):
        value = found["value"]
        return f"{core(found['label'])} {core(value) if value.isalpha() else value}"
    cuts = [i for i, ch in enumerate(text) if ch == " "]
    for cut in reversed(cuts):
        label, rest = text[:cut], text[cut + 1:]
        if _known(label) and all(KIND.match(item) for item in rest.split(", ")):
            return f"{core(label)} {', '.join(_kind(item) for item in rest.split(', '))}"
    return core(text)


def _known(text: str) -> bool:
    """Whether the catalogue has ``text`` (a row's label), even where its translation is
    the same word ("Gold")."""
    return core(text) != text or text in getattr(get_translations(), "_catalog", {})


KIND = re.compile(r"^(?P<kind>.+?) (?P<count>[+-]?\d+)$")


def _kind(item: str) -> str:
    found = KIND.match(item)
    return f"{core(found['kind'])} {found['count']}" if found else core(item)
