"""Reavers box data no rulebook publishes: keep spoils set schedules and wall majority glory.

Both come from the installation's box catalogue, or from a request's options (which win).
Where a value is missing the scoring says which one and how to enter it; nothing is guessed.
"""
from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import Field

from ..bodies import NOT_BLANK, SPACE, Body, box_data, one_of, said, text, whole, worded
from ..box_questions import BOX_NUMBER
from ..errors import DUPLICATE, RuleError, say
from ..inputs import MAX_NUMBER
from ..messages import Message, known_word, series

CATALOGUE_KEYS = ("keep_spoils_schedule", "wall_majority")
MAX_SCHEDULE_LENGTH = 20
MAX_SPOILS_TYPES = 20
MAX_TYPE_NAME = 40
MAX_GLORY = MAX_NUMBER          # a set step or a wall majority's glory
SECOND_ABOVE_MOST = "second_above_most"

def catalogue_rules(clean: dict, where: str = "") -> None:
    """A spoils type listed once (ignoring case and surrounding spaces), kept stripped; the
    second most walls worth at most the most, [null, null] kept as null (a 422 each)."""
    at = f"{where}." if where else ""
    clean["keep_spoils_schedule"] = spoils_schedule(clean.get("keep_spoils_schedule") or {},
                                                    f"{at}keep_spoils_schedule")
    clean["wall_majority"] = wall_majority(clean.get("wall_majority"), f"{at}wall_majority")


def spoils_schedule(value: dict, where: str) -> dict:
    out: dict[str, list[int]] = {}
    for key, steps in value.items():
        if find_schedule(key, out) is not None:
            raise RuleError(say("The keep spoils type '%(kind)s' is listed twice.", kind=key),
                            f"{where}.{key}", DUPLICATE, 422)
        out[key.strip()] = steps
    return out


def wall_majority(value: list | None, where: str) -> list | None:
    if value is None or value == [None, None]:
        return None
    most, second = value
    if None not in (most, second) and second > most:
        raise RuleError("Second place cannot be worth more than most walls.", f"{where}[1]",
                        SECOND_ABOVE_MOST, 422)
    return list(value)


def find_schedule(kind: str, *schedules: dict) -> list[int] | None:
    """The first schedule (options before catalogue) that lists ``kind``, ignoring case."""
    wanted = kind.strip().casefold()
    for schedule in schedules:
        for name, steps in schedule.items():
            if name.casefold() == wanted:
                return steps
    return None


def box_rules(options: dict, catalogue: Any) -> dict:
    """The box values a score needs: the options' over the catalogue's, each held to the box
    data's rules."""
    box = validate_catalogue(catalogue or {})
    given = {key: options.get(key) for key in CATALOGUE_KEYS}
    catalogue_rules(given, "options")
    return {"schedules": (given["keep_spoils_schedule"], box["keep_spoils_schedule"]),
            "wall_majority": merge_majority(given["wall_majority"], box["wall_majority"]),
            "wall_ties": options.get("wall_ties", "share")}


def merge_majority(first: list | None, second: list | None) -> list | None:
    """Place by place, the first list's value where it has one, else the second's."""
    if first is None or second is None:
        return first or second
    return [a if a is not None else b for a, b in zip(first, second, strict=True)]


# --------------------------------------------------------------------------- asked in a play
WALL_KEYS = ("wall_majority.most", "wall_majority.second")
PLACE_WORDS = ("the most", "the second most")
SCHEDULE_KEY = "keep_spoils_schedule."


def schedule_question(kind: str) -> Message:
    return say("How much glory is a set of 1, 2, 3 … %(kind)s cards worth? (printed at the "
               "bottom of each %(kind)s card; type the numbers in order, separated by spaces)",
               kind=spoils_word(kind))


def wall_question(place: int) -> str:
    if place == 0:
        return say("How much glory do the most wall tokens give at the end of the game? (see "
                   "the final scoring in your rulebook)")
    return say("How much glory do the second most wall tokens give at the end of the game? "
               "(see the final scoring in your rulebook)")


def value_of(catalogue: dict, key: str) -> Any:
    clean = validate_catalogue(catalogue or {})
    if key in WALL_KEYS:
        return (clean["wall_majority"] or [None, None])[WALL_KEYS.index(key)]
    return find_schedule(key.removeprefix(SCHEDULE_KEY), clean["keep_spoils_schedule"])


def question_for(key: str) -> str:
    if key in WALL_KEYS:
        return wall_question(WALL_KEYS.index(key))
    return schedule_question(key.removeprefix(SCHEDULE_KEY))


# --------------------------------------------------------------------------- the answers
# A schedule typed as one text: the numbers in range, as a regex (the document's, the check's)
def _same_length(low: str, high: str) -> list[str]:
    """Regex alternatives for the digit strings low..high, both of one length."""
    if low == high:
        return [low]
    if len(low) == 1:
        return [f"[{low}-{high}]"]
    if low[0] == high[0]:
        return [low[0] + p for p in _same_length(low[1:], high[1:])]
    rest = len(low) - 1
    out = []
    low_full, high_full = low[1:] == "0" * rest, high[1:] == "9" * rest
    if not low_full:
        out += [low[0] + p for p in _same_length(low[1:], "9" * rest)]
    first, last = int(low[0]) + (not low_full), int(high[0]) - (not high_full)
    if first <= last:
        out.append(f"[{first}-{last}][0-9]{{{rest}}}")
    if not high_full:
        out += [high[0] + p for p in _same_length("0" * rest, high[1:])]
    return out


def _magnitudes(low: int, high: int) -> str:
    """Digits (leading zeros allowed, 15 digits at most) of the numbers low..high >= 0."""
    out = []
    for length in range(len(str(low)), len(str(high)) + 1):
        a, b = max(low, 10 ** (length - 1) if length > 1 else 0), min(high, 10 ** length - 1)
        if a <= b:
            out.append(f"0{{0,{15 - length}}}(?:{'|'.join(_same_length(str(a), str(b)))})")
    return "|".join(out)


def number_text(minimum: int, maximum: int) -> str:
    """A regex (unanchored) for the texts check_int reads as a number in minimum..maximum:
    ASCII digits (up to 15, leading zeros allowed) after an optional '-'."""
    alternatives = []
    if maximum >= 0:
        alternatives.append(_magnitudes(max(minimum, 0), maximum))
    if minimum < 0:
        alternatives.append(f"-(?:{_magnitudes(max(1, -maximum), -minimum)})")
    if minimum <= 0 <= maximum:
        alternatives.append("-0{1,15}")
    return "(?:" + "|".join(alternatives) + ")"


GLORY = whole(0, MAX_GLORY, say("The glory"))
_KIND = f"[{SPACE}]*{NOT_BLANK}(?:[\\s\\S]{{0,{MAX_TYPE_NAME - 2}}}{NOT_BLANK})?[{SPACE}]*"
_GAP, _NUMBER = f"[,{SPACE}]", number_text(0, MAX_GLORY)
SCHEDULE_TEXT = (f"^{_GAP}*{_NUMBER}(?:{_GAP}+{_NUMBER}){{0,{MAX_SCHEDULE_LENGTH - 1}}}"
                 f"{_GAP}*$")


class ReaversWallAnswer(Body):
    """Reavers: the glory of the most (or second most) wall tokens."""
    key: one_of(WALL_KEYS)
    value: worded(GLORY, BOX_NUMBER)


class ReaversScheduleAnswer(Body):
    """Reavers: the glory for a set of 1, 2, 3 ... cards of one keep spoils type, as one
    number, a list, or the numbers in one text separated by spaces or commas."""
    key: said(Annotated[str, Field(max_length=80, pattern=f"^{re.escape(SCHEDULE_KEY)}{_KIND}$")])
    value: worded(GLORY | Annotated[list[GLORY], Field(
        min_length=1, max_length=MAX_SCHEDULE_LENGTH)] | Annotated[str, Field(
            pattern=SCHEDULE_TEXT)], BOX_NUMBER)


BoxAnswer = ReaversWallAnswer | ReaversScheduleAnswer
Schedule = Annotated[dict[text(MAX_TYPE_NAME), Annotated[list[GLORY], Field(
    min_length=1, max_length=MAX_SCHEDULE_LENGTH)]], Field(
        max_length=MAX_SPOILS_TYPES, description="{spoils type: [glory for 1, 2, ... cards]}; "
        "a type is listed once (ignoring case and surrounding spaces).")]
WallMajority = Annotated[list[GLORY | None], Field(
    min_length=2, max_length=2, description="[glory for the most, for the second most wall "
    "tokens], null where not known; the second is at most the first.")]
# the box values a request may carry over the box data's (the same checks take both)
OPTION_TYPES = {"keep_spoils_schedule": Schedule, "wall_majority": WallMajority | None}


class CatalogueReavers(Body):
    """Reavers: the keep spoils set schedules and the wall majority's glory."""
    keep_spoils_schedule: Schedule = {}
    wall_majority: WallMajority | None = None


def validate_catalogue(data: Any) -> dict:
    """The box data as kept, or a RuleError naming the entry (400 shape, 422 rule)."""
    return box_data(CatalogueReavers, data, catalogue_rules)


def parse_box_value(key: str, value: Any) -> Any:
    """An answer of its declared shape as kept: a schedule typed as one number or as a text
    of numbers is its list."""
    if key in WALL_KEYS:
        return value
    if isinstance(value, str):
        value = [int(part) for part in value.replace(",", " ").split()]
    return value if isinstance(value, list) else [value]


def with_box_values(catalogue: dict, answers: dict) -> dict:
    clean = validate_catalogue(catalogue or {})
    schedule = dict(clean["keep_spoils_schedule"])
    for key, steps in answers.items():
        if key.startswith(SCHEDULE_KEY):
            kind = key[len(SCHEDULE_KEY):]
            for name in [n for n in schedule if n.casefold() == kind.casefold()]:
                del schedule[name]
            schedule[kind] = steps
    answered = [answers.get(key) for key in WALL_KEYS]
    majority = merge_majority(answered if any(v is not None for v in answered) else None,
                              clean["wall_majority"])
    return validate_catalogue({"keep_spoils_schedule": schedule, "wall_majority": majority})


# the types with a printed set schedule (in a sentence, said in the reader's words)
PRINTED_SPOILS = (say("Treasure"), say("Art"), say("Armor"))


def spoils_word(kind: str) -> Message | str:
    """A keep spoils type in a sentence: a printed one in the reader's words, another one (a
    type the owner typed in the box data) as typed."""
    return known_word(kind.strip() if isinstance(kind, str) else kind, PRINTED_SPOILS)


def spoils_kinds(options: dict, catalogue: Any) -> list[tuple[str, str]]:
    """The keep spoils types a sheet offers a stepper each, as (key, label): the printed
    Treasure, Art and Armor, then every other type the play's box data has a schedule for."""
    kinds = [(str(kind), kind) for kind in PRINTED_SPOILS]
    seen = {kind.casefold() for kind in PRINTED_SPOILS}
    for schedule in box_rules(options, catalogue)["schedules"]:
        for kind in schedule:
            if kind.strip().casefold() not in seen:
                seen.add(kind.strip().casefold())
                kinds.append((kind, kind))
    return kinds


def ahead(catalogue: dict) -> list[dict]:
    clean = validate_catalogue(catalogue or {})
    majority = clean["wall_majority"] or [None, None]
    out = [{"key": key, "question": wall_question(i), "answer": "number"}
           for i, key in enumerate(WALL_KEYS) if majority[i] is None]
    known = clean["keep_spoils_schedule"]
    out += [{"key": SCHEDULE_KEY + kind, "question": schedule_question(kind), "answer": "numbers"}
            for kind in PRINTED_SPOILS if find_schedule(kind, known) is None]
    return out


def needs(catalogue: dict) -> list[dict]:
    clean = validate_catalogue(catalogue or {})
    schedule, majority = clean["keep_spoils_schedule"], clean["wall_majority"] or [None, None]
    kinds = series([spoils_word(kind) for kind in schedule], ", ")
    return [{"what": say("Keep spoils set values (Treasure, Art, Armor …)"),
             "known": bool(schedule),
             "detail": (say("Known for: %(kinds)s. Any other type counts 0 until you answer.",
                            kinds=kinds) if schedule else
                        say("None known yet: keep spoils count 0 until you answer."))},
            {"what": say("Glory for the most and second most wall tokens"),
             "known": None not in majority,
             "detail": (say("Both known.") if None not in majority else
                        say("Not known yet: walls count 0 until you answer."))}]
