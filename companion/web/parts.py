"""Only what changed goes over the wire: the play block is cut into parts.

A template marks each part of the play block with ``<!--part-->`` before it and ``<!--/part-->``
after it; a part is one element with a stable ``id`` (the header, the controls, the setup card,
each section of a game's panel, each score sheet ...). Every page and fragment leaves here with
the markers gone and each part's first tag stamped ``data-h="<hash of the part's HTML>"``.

A phone sends the hashes of the parts it holds in the ``X-Parts`` header (with its poll and with
each change it sends). A part whose hash it holds comes back as an empty placeholder with the
same tag, id and hash and ``data-keep``; the phone's morph keeps its own copy there. So a change
costs the parts it changed (a score sheet, the score, the header) and never the folded setup.
The block is rendered exactly as before, once: cutting and hashing add a regular-expression pass
and a hash of each part.
"""
from __future__ import annotations

import hashlib
import re

from flask import request

PARTS_HEADER = "X-Parts"
MAX_HELD = 400               # more parts than any play block has
OPEN, CLOSE = "<!--part-->", "<!--/part-->"
FIRST_TAG = re.compile(r"\s*<([a-zA-Z][a-zA-Z0-9-]*)\b([^>]*)>")
ID = re.compile(r"""\sid="([^"]+)\"""")
HASH = re.compile(r"[A-Za-z0-9_-]{1,16}")
# a form's CSRF token is signed anew at every render but stays valid (WTF_CSRF_TIME_LIMIT is
# None): it does not make a part new
CSRF = re.compile(r'(name="csrf_token" value=")[^"]*')


def digest(html: str) -> str:
    """A short hash of a part's HTML (48 bits: a collision between two versions of one part
    is out of reach at a table), its CSRF tokens left out."""
    if "csrf_token" in html:
        html = CSRF.sub(r"\1", html)
    return hashlib.blake2b(html.encode(), digest_size=6).hexdigest()


def held_parts() -> frozenset[str]:
    """The part hashes the asking phone holds (``X-Parts``: hashes separated by spaces);
    anything else in the header is ignored, so a bad header only costs bytes."""
    words = (request.headers.get(PARTS_HEADER) or "").split()[:MAX_HELD]
    return frozenset(w for w in words if HASH.fullmatch(w))


def cut(html: str, held: frozenset[str] = frozenset()) -> str:
    """The HTML with its part markers gone, every part stamped with its hash, and the parts
    whose hash is in ``held`` left as placeholders."""
    return "".join(_part(piece, held) if i % 2 else piece
                   for i, piece in enumerate(between(html, OPEN, CLOSE)))


def between(html: str, start: str, end: str) -> list[str]:
    """``html`` split at the markers: outside, inside, outside, ... (parts never nest); a
    plain search for the markers, much quicker than a lazy regular expression over the
    block."""
    pieces, at = [], 0
    while (begin := html.find(start, at)) >= 0:
        finish = html.find(end, begin)
        if finish < 0:
            raise ValueError(f"a {start} without its {end}")
        pieces += [html[at:begin], html[begin + len(start):finish]]
        at = finish + len(end)
    return pieces + [html[at:]]


def _part(html: str, held: frozenset[str]) -> str:
    first = FIRST_TAG.match(html)
    found = ID.search(first.group(2)) if first else None
    if found is None:
        raise ValueError(f"a part must be one element with an id: {html[:80]!r}")
    tag, part_id, h = first.group(1), found.group(1), digest(html)
    if h in held:
        return f'<{tag} id="{part_id}" data-h="{h}" data-keep></{tag}>'
    at = first.end() - 1                       # the first tag's ">"
    return f'{html[:at]} data-h="{h}"{html[at:]}'


def versioned():
    """The hidden ``expected_version`` of a change that must not cross another phone's (a
    turn, a phase). Left empty: the phone's script writes the version its person saw as it
    sends the change (table.js), so a form is the same HTML at every version and its part is
    not sent again after every change."""
    from markupsafe import Markup

    return Markup('<input type="hidden" name="expected_version" value="">')


SETUP_COOKIE = "nsc_setup"


def setup_done() -> bool:
    """Whether the person holding this phone put this play's setup card away ("Setup done":
    a cookie scoped to the play's address, set by static/js/setup.js)."""
    return request.cookies.get(SETUP_COOKIE) == "done"
