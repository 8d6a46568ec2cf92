"""Box values: what a score needs from the box (printed values no rulebook publishes) and the
questions a game asks about them.

Pure: standard library only.
"""
from __future__ import annotations

from typing import Any

from .bodies import Body, box_data
from .errors import RuleError, say


class Unknowns:
    """Box values a score lacks (printed in the box, not yet entered). Scoring never stops for
    one: the row counts it as 0, is marked, and the answer asks for it in plain words."""

    def __init__(self) -> None:
        self._asked: dict[str, str] = {}

    def ask(self, key: str, question: str, answer: str = "number") -> None:
        """Ask once per key (keys that differ only in case are one question). ``answer``:
        "number" (one whole number) or "numbers" (several, in order)."""
        if not any(k.casefold() == key.casefold() for k in self._asked):
            self._asked[key] = (question, answer)

    def __bool__(self) -> bool:
        return bool(self._asked)

    def as_fields(self) -> dict:
        return {"complete": not self._asked,
                "missing": [{"key": k, "question": q, "answer": a}
                            for k, (q, a) in self._asked.items()]}


def complete_answer(response: dict) -> dict:
    """Every score answer says whether it is complete (a game without box values always is)."""
    if "error" not in response:
        response.setdefault("complete", True)
        response.setdefault("missing", [])
    return response


BOX_NUMBER = say("Type the number printed in the box.")


class NoBoxData(Body):
    """This game keeps no box data."""


class BoxQuestions:
    """The box-data part of the Game protocol: a game's catalogue, the values its score may
    ask for, and the answers a play gives (defaults: a game that keeps no box data)."""
    name: str = ""
    # the data of a ``box_value`` event (an answer to one of the score's questions), declared
    # by a game that asks any; None: the game asks none and takes no such event
    box_value_type: Any = None
    # the box data (PUT /api/v1/catalogue/<game>), declared once: it checks the shape and is
    # the document's Catalogue<Game>; what compares one entry with another is catalogue_rules
    catalogue_type: type = NoBoxData

    def empty_catalogue(self) -> dict:
        return self.validate_catalogue({})

    def validate_catalogue(self, data: Any) -> dict:
        """The box data as kept (every key filled), or a RuleError naming the entry: a 400
        for its shape, a 422 for a rule across its entries."""
        return box_data(self.catalogue_type, data, self.catalogue_rules)

    def catalogue_rules(self, clean: dict) -> None:
        """The rules across the entries of box data of the declared shape (a 422 each)."""

    def parse_box_value(self, key: Any, value: Any) -> Any:
        """A value a play's score asked for (``box_value`` event), checked; RuleError if the
        key is not one this game asks about."""
        raise RuleError(say("%(game)s asks for no values from the box.", game=self.name),
                        "data.key",
                        "unknown_box_value")

    def box_question(self, key: str) -> str:
        """The question a box value answers, in plain words (for "answered in this play")."""
        return say("A value from the box")

    def with_box_values(self, catalogue: dict, answers: dict) -> dict:
        """The catalogue with a play's answered box values filled in (answers win)."""
        return catalogue

    def box_value_answered(self, state: dict, key: str) -> dict:
        """The play's state once the table answered ``key``: a game drops here what it told
        the table about that value still missing (nothing by default)."""
        return state

    def box_value_of(self, catalogue: dict, key: str) -> Any:
        """What the box data holds for a question's key, or None (offered as the answer when
        the box data learnt it after a play began)."""
        return None

    def box_questions_ahead(self, catalogue: dict) -> list[dict]:
        """Questions a play may answer before the score needs them (same shape as a score's
        ``missing``): the values the box data lacks that this game may ask for."""
        return []

    def box_needs(self, catalogue: dict, player_count: int) -> list[dict]:
        """What this game may need from the box, for the warning before a game:
        [{"what": plain words, "known": bool, "detail": plain words}]."""
        return []
