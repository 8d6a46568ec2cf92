"""Reavers box data no rulebook publishes: keep spoils set schedules and wall majority glory.

Both come from the installation's box catalogue, or from a request's options (which win).
Where a value is missing the scoring says which one and how to enter it; nothing is guessed.
"""
from __future__ import annotations

from typing import Any

from ..base import RuleError, check_int

CATALOGUE_KEYS = ("keep_spoils_schedule", "wall_majority")
MAX_SCHEDULE_LENGTH = 20
MAX_SPOILS_TYPES = 20
MAX_TYPE_NAME = 40
HOW_TO_ENTER = ("Enter it once in the box catalogue (Catalogue page, Reavers of Midgard) or "
                "send it in the request's options")


def empty_catalogue() -> dict:
    return {"keep_spoils_schedule": {}, "wall_majority": None}


def validate_catalogue(data: Any) -> dict:
    """The cleaned catalogue, or a RuleError naming the bad entry."""
    if not isinstance(data, dict):
        raise RuleError("The catalogue must be a JSON object.", None)
    for key in data:
        if key not in CATALOGUE_KEYS:
            raise RuleError(f"Unknown catalogue entry '{key}'; Reavers keeps "
                            f"{' and '.join(CATALOGUE_KEYS)}.", str(key), "unknown_field")
    return {"keep_spoils_schedule": clean_schedule(data.get("keep_spoils_schedule", {}),
                                                   "keep_spoils_schedule"),
            "wall_majority": clean_wall_majority(data.get("wall_majority"), "wall_majority")}


def clean_schedule(value: Any, where: str) -> dict:
    """{spoils type: [glory for 1, 2, ... cards]}; type names are matched ignoring case."""
    if not isinstance(value, dict):
        raise RuleError("The keep spoils schedule must be an object of {type: [glory, ...]}.",
                        where)
    if len(value) > MAX_SPOILS_TYPES:
        raise RuleError(f"At most {MAX_SPOILS_TYPES} keep spoils types.", where)
    out: dict[str, list[int]] = {}
    for key, steps in value.items():
        at = f"{where}.{key}"
        if not isinstance(key, str) or not key.strip() or len(key) > MAX_TYPE_NAME:
            raise RuleError("Each keep spoils type needs a short name.", where)
        if find_schedule(key, out) is not None:
            raise RuleError(f"The keep spoils type '{key}' is listed twice.", at)
        if not isinstance(steps, list) or not 1 <= len(steps) <= MAX_SCHEDULE_LENGTH:
            raise RuleError(f"{key}: give the glory for 1, 2, ... cards as a list of 1 to "
                            f"{MAX_SCHEDULE_LENGTH} numbers.", at)
        out[key.strip()] = [check_int(v, f"{at}[{i}]", f"{key} glory")
                            for i, v in enumerate(steps)]
    return out


def clean_wall_majority(value: Any, where: str) -> list[int] | None:
    """[glory for most wall tokens, glory for second most], or None when unknown."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2:
        raise RuleError("The wall majority must be [glory for most, glory for second most].",
                        where)
    most, second = (check_int(v, f"{where}[{i}]", "Wall majority glory")
                    for i, v in enumerate(value))
    if second > most:
        raise RuleError("Second place cannot be worth more than most walls.", f"{where}[1]")
    return [most, second]


def find_schedule(kind: str, *schedules: dict) -> list[int] | None:
    """The first schedule (options before catalogue) that lists ``kind``, ignoring case."""
    wanted = kind.strip().casefold()
    for schedule in schedules:
        for name, steps in schedule.items():
            if name.casefold() == wanted:
                return steps
    return None


def box_rules(options: dict, catalogue: Any) -> dict:
    """The box values a score needs: the options' over the catalogue's, each validated."""
    box = validate_catalogue(catalogue or {})
    schedule = clean_schedule(options.get("keep_spoils_schedule", {}),
                              "options.keep_spoils_schedule")
    majority = clean_wall_majority(options.get("wall_majority"), "options.wall_majority")
    return {"schedules": (schedule, box["keep_spoils_schedule"]),
            "wall_majority": majority or box["wall_majority"],
            "wall_ties": options.get("wall_ties", "share")}


def missing_schedule(kind: str) -> RuleError:
    return RuleError(
        f"The set values for the keep spoils type '{kind}' are missing. {HOW_TO_ENTER} as "
        f"keep_spoils_schedule: {{\"{kind}\": [glory for 1, 2, ... cards]}}, as printed at "
        "the bottom of the card.",
        f"options.keep_spoils_schedule.{kind}", "missing_catalogue_value", 422)


def missing_wall_majority() -> RuleError:
    return RuleError(
        f"The glory for the wall majorities is missing. {HOW_TO_ENTER} as wall_majority: "
        "[glory for most, glory for second most].",
        "options.wall_majority", "missing_catalogue_value", 422)
