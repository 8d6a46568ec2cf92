"""Reavers final glory, row by row: the rows a score pad holds and how each one scores."""
from __future__ import annotations

from ..base import Unknowns, impossible, join_names
from .box import WALL_KEYS, find_schedule, schedule_question, wall_question

FAVOR_GLORY = 2
TAPESTRY_KINDS = 3
TAPESTRY_SET_GLORY = 15
TAPESTRY_SINGLE_GLORY = 2
WALL_TIE_RULES = {
    "share": "tied players each take the full value of the place they tie for, and the places "
             "they fill are used up (a tie for most leaves no second place)",
    "split": "tied players share the values of the places they fill, rounded down",
}
PLACE_NAMES = ("most", "second most")


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


def spoils_sets(count: int, schedule: list[int]) -> tuple[int, list[int]]:
    """Glory for ``count`` cards of one type and the set sizes: full sets of the longest step,
    then one set of what is left (cards past the longest step start a new set)."""
    full, rest = divmod(count, len(schedule))
    sizes = [len(schedule)] * full + ([rest] if rest else [])
    return sum(schedule[size - 1] for size in sizes), sizes


def keep_spoils_glory(counts: dict, schedules: tuple,
                      unknowns: Unknowns) -> tuple[int, str, bool]:
    """Glory, a sentence and whether a type's schedule is unknown (its cards then count 0
    and the score asks for the schedule) for keep spoils {type: count}."""
    total, parts, unknown = 0, [], False
    for kind, count in counts.items():
        if not count:
            continue
        steps = find_schedule(kind, *schedules)
        if steps is None:
            unknowns.ask(f"keep_spoils_schedule.{kind.strip()}", schedule_question(kind.strip()),
                         "numbers")
            parts.append(f"{kind} {count}: the set values are not known yet, counted as 0")
            unknown = True
            continue
        glory, sizes = spoils_sets(count, steps)
        total += glory
        parts.append(f"{kind} {count} as sets of {'+'.join(map(str, sizes))} = {glory}")
    return total, ("; ".join(parts) + ".") if parts else "No keep spoils.", unknown


def tapestry_glory(counts: dict, where: str) -> tuple[int, str]:
    """15 per set of the 3 different tapestries, 2 for each tapestry outside a set."""
    held = {name: n for name, n in counts.items() if n}
    if len(held) > TAPESTRY_KINDS:
        raise impossible(f"There are only {TAPESTRY_KINDS} different tapestries; "
                         f"{len(held)} kinds were entered.", [where])
    sets = min(held.values()) if len(held) == TAPESTRY_KINDS else 0
    others = sum(held.values()) - TAPESTRY_KINDS * sets
    glory = TAPESTRY_SET_GLORY * sets + TAPESTRY_SINGLE_GLORY * others
    rest = plural(others, "other tapestry", "other tapestries")
    return glory, (f"{plural(sets, 'set')} of {TAPESTRY_KINDS} different at "
                   f"{TAPESTRY_SET_GLORY} and {rest} at {TAPESTRY_SINGLE_GLORY}.")


def wall_places(walls: list[int], majority: list, rule: str,
                unknowns: Unknowns | None = None) -> list[dict]:
    """Per player: {"glory", "place" (0 = most; None without walls), "tied" (indexes),
    "unknown" (a value it needs is not known: counted 0 and asked for)}.
    Only players with at least 1 wall token compete."""
    unknowns = unknowns if unknowns is not None else Unknowns()
    out: list[dict] = [{"glory": 0, "place": None, "tied": [], "unknown": False} for _ in walls]
    place = 0
    for count in sorted({w for w in walls if w > 0}, reverse=True):
        group = [i for i, w in enumerate(walls) if w == count]
        width = len(group) if rule == "split" else 1
        used = list(range(place, min(place + width, len(majority))))
        missing = [p for p in used if majority[p] is None]
        for p in missing:
            unknowns.ask(WALL_KEYS[p], wall_question(p))
        values = [majority[p] or 0 for p in used]
        glory = (sum(values) // len(group)) if rule == "split" else (values[0] if values else 0)
        for i in group:
            out[i] = {"glory": glory, "place": place, "tied": [j for j in group if j != i],
                      "unknown": bool(missing)}
        place += len(group)
    return out


def wall_awards(walls: list[int], majority: list | None, rule: str,
                unknowns: Unknowns) -> list[dict]:
    return wall_places(walls, majority or [None, None], rule, unknowns)


def wall_sentence(walls: int, award: dict, names: list[str], rule: str) -> str:
    if not walls:
        return "No wall tokens."
    place = award["place"]
    where = PLACE_NAMES[place] if place < len(PLACE_NAMES) else "below second place"
    tied = f", tied with {join_names([names[j] for j in award['tied']])}" if award["tied"] else ""
    rule_text = f" Tie rule '{rule}': {WALL_TIE_RULES[rule]}." if award["tied"] else ""
    glory = (f"{award['glory']} glory (a value is not known yet, counted as 0)"
             if award.get("unknown") else f"{award['glory']} glory")
    return f"{plural(walls, 'wall token')}: {where}{tied}, {glory}.{rule_text}"


ARTIFACT_SPACES = 4


def artifact_note(name: str, count: int) -> list[str]:
    """The rulebook gives each board 4 artifact spaces ("one of the 4 available Artifact
    spaces") but says nothing of a fifth artifact: accepted, and said."""
    if count <= ARTIFACT_SPACES:
        return []
    return [f"{name} has {count} artifacts; a player board has {ARTIFACT_SPACES} artifact "
            "spaces and the rulebook does not say whether more can be kept, so all were "
            "scored."]


def player_rows(index: int, sheet: dict, schedules: tuple,
                unknowns: Unknowns) -> tuple[dict, dict, list[str]]:
    """Every row but walls (which compares players): {row: glory}, {row: sentence} and the
    rows counted 0 for a missing box value."""
    spoils, spoils_text, spoils_unknown = keep_spoils_glory(sheet["keep_spoils"], schedules,
                                                            unknowns)
    tapestries, tapestry_text = tapestry_glory(sheet["tapestries"],
                                               f"players[{index}].sheet.tapestries")
    categories = {"glory": sheet["glory"], "artifacts": sum(sheet["artifacts"]),
                  "favor": FAVOR_GLORY * sheet["favor"], "keep_spoils": spoils,
                  "tapestries": tapestries, "prophecies": sum(sheet["prophecies"])}
    explanations = {
        "glory": f"{sheet['glory']} glory gained during play.",
        "artifacts": f"{plural(len(sheet['artifacts']), 'artifact')}.",
        "favor": f"{plural(sheet['favor'], 'favor token')} at {FAVOR_GLORY} glory each.",
        "keep_spoils": spoils_text,
        "tapestries": tapestry_text,
        "prophecies": f"{plural(len(sheet['prophecies']), 'prophecy', 'prophecies')}.",
    }
    return categories, explanations, ["keep_spoils"] if spoils_unknown else []
