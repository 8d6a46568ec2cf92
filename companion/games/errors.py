"""What the rules core says when input is bad or a rule is broken.

Pure: standard library only. Every bad input raises :class:`RuleError` with a message a person
understands (``say(...)``: companion.games.messages) and the field at fault; the web turns it
into an inline message or a JSON error, the CLI into exit code 2.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .messages import Message, say  # noqa: F401 (say: where the games have always found it)


class RuleError(Exception):
    """Bad input or a broken rule. ``status`` is 400 for malformed input, 422 for a rule."""

    def __init__(self, message: str, field: str | None = None,
                 code: str = "invalid_input", status: int = 400,
                 fields: Sequence[str] = ()):
        super().__init__(message)
        # a message (companion.games.messages); a plain text is a message without parameters
        self.message = message if isinstance(message, Message) else Message(message)
        self.field = field
        self.code = code
        self.status = status
        self.fields = list(fields)

    def as_dict(self) -> dict:
        error = {"code": self.code, "message": self.message}
        if self.field:
            error["field"] = self.field
        if self.fields:
            error["fields"] = self.fields
        return {"error": error}


IMPOSSIBLE = "impossible_sheet"
# Box data refusals that compare one entry with another (two cards with one id, two hexes on
# one position): no JSON Schema can say them, so the API document lists their codes.
DUPLICATE = "duplicate_entry"


def impossible(message: str, fields: Sequence[str]) -> RuleError:
    """A score sheet that cannot happen as a whole (across its fields or across players):
    well-formed input that breaks a rule across fields, so a 422 whose message names the
    players, the fields and the rule in plain words; ``field`` is the first field to blame
    and ``fields`` lists all of them."""
    fields = list(dict.fromkeys(fields))
    return RuleError(message, fields[0] if fields else None, IMPOSSIBLE, 422, fields)


UNKNOWN_EVENT = "unknown_event"


def unknown_event(game_name: str, kind: Any, types: Sequence[str],
                  taken_by: str | None = None) -> RuleError:
    """An event type this play's game does not take. ``taken_by``: the name of a game that
    does take it (Seafarers' move_chip sent to a Knarr play): the body has an event's
    documented shape and the play's game refuses it, a 422. A type no game takes is not an
    event's shape at all (the API document lists every type), a 400."""
    if taken_by is None and types:
        return RuleError(say("%(game)s has no event '%(type)s'. Events: %(types)s.",
                             game=game_name, type=str(kind), types=", ".join(types)),
                         "type", UNKNOWN_EVENT)
    if taken_by is None:
        return RuleError(say("%(game)s has no event '%(type)s'.", game=game_name,
                             type=str(kind)), "type", UNKNOWN_EVENT)
    return RuleError(say("%(game)s has no event '%(event)s': that is an event of %(other)s.",
                         game=game_name, event=kind, other=taken_by),
                     "type", UNKNOWN_EVENT, 422)
