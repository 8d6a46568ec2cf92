"""The app's JSON answers written by orjson, through Flask's own JSON provider hook.

An event's answer is the play's whole state (about 4 KB); the standard library's encoder took
about 0.09 ms of the 1.1 ms an event costs in process (docs/benchmarks.md), orjson a tenth of
that. Every ``jsonify`` and ``current_app.json.dumps`` goes through here; what the standard
library would write differently:
- no spaces after separators, and text other than ASCII as UTF-8 rather than ``\\uXXXX``
  escapes (the same JSON value; the answer is ``application/json``, UTF-8);
- a float not a number (NaN, Infinity) as ``null`` (the standard library writes ``NaN``,
  which is not JSON and no client parses).
What orjson cannot write (an integer past 64 bits, a lone surrogate, nesting past 254 levels,
a type the default below refuses) is handed to the standard library as before, so it answers
as it did. Dates, decimals, UUIDs, dataclasses and Markup go through Flask's own ``default``,
so they read as before (a date as an HTTP date). Reading JSON stays the standard library's:
its errors (too deep, not JSON) are what the API's 400s are told apart by
(companion/web/api.py ``body_json``).
"""
from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider

OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME \
    | orjson.OPT_PASSTHROUGH_DATACLASS
COMPACT = {"separators": (",", ":")}     # what Flask's response() asks for out of debug mode


class OrjsonProvider(DefaultJSONProvider):
    sort_keys = False     # the order the app builds its answers in

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs and kwargs != COMPACT:      # indent (debug) and the like: as before
            return super().dumps(obj, **kwargs)
        option = OPTIONS | orjson.OPT_SORT_KEYS if self.sort_keys else OPTIONS
        try:
            return orjson.dumps(obj, default=self.default, option=option).decode()
        except orjson.JSONEncodeError:
            return super().dumps(obj, **kwargs)
