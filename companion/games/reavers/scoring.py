"""Reavers final glory, row by row: the rows a score pad holds and how each one scores."""
from __future__ import annotations

from ..box_questions import Unknowns
from ..errors import impossible
from ..messages import Message, join_names, say, say_n, series
from .box import WALL_KEYS, find_schedule, schedule_question, spoils_word, wall_question

FAVOR_GLORY = 2
TAPESTRY_KINDS = 3
TAPESTRY_SET_GLORY = 15
TAPESTRY_SINGLE_GLORY = 2
WALL_TIE_RULES = {
    "share": say("tied players each take the full value of the place they tie for, and the "
                 "places they fill are used up (a tie for most leaves no second place)"),
    "split": say("tied players share the values of the places they fill, rounded down"),
}
# TRANSLATORS: "share"/"split" are Reavers' options for tied wall majorities.
WALL_TIE_NAMES = {"share": say("share"), "split": say("split")}
PLACE_NAMES = (say("most"), say("second most"))


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
            parts.append(say("%(kind)s %(count)s: the set values are not known yet, counted "
                             "as 0", kind=spoils_word(kind), count=count))
            unknown = True
            continue
        glory, sizes = spoils_sets(count, steps)
        total += glory
        parts.append(say("%(kind)s %(count)s as sets of %(sizes)s = %(glory)s",
                         kind=spoils_word(kind), count=count, sizes="+".join(map(str, sizes)),
                         glory=glory))
    if not parts:
        return total, say("No keep spoils."), unknown
    return total, say("%(parts)s.", parts=series(parts)), unknown


def tapestry_glory(counts: dict, where: str) -> tuple[int, str]:
    """15 per set of the 3 different tapestries, 2 for each tapestry outside a set."""
    held = {name: n for name, n in counts.items() if n}
    if len(held) > TAPESTRY_KINDS:
        raise impossible(say("There are only %(count)s different tapestries; %(kind_count)s "
                             "kinds were entered.", count=TAPESTRY_KINDS,
                             kind_count=len(held)), [where])
    sets = min(held.values()) if len(held) == TAPESTRY_KINDS else 0
    others = sum(held.values()) - TAPESTRY_KINDS * sets
    glory = TAPESTRY_SET_GLORY * sets + TAPESTRY_SINGLE_GLORY * others
    return glory, say("%(sets)s at %(set_glory)s and %(others)s at %(single_glory)s.",
                      sets=say_n("%(count)s set of %(kind_count)s different",
                                 "%(count)s sets of %(kind_count)s different", sets,
                                 kind_count=TAPESTRY_KINDS),
                      others=say_n("%(count)s other tapestry", "%(count)s other tapestries",
                                   others),
                      set_glory=TAPESTRY_SET_GLORY, single_glory=TAPESTRY_SINGLE_GLORY)


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


def wall_sentence(walls: int, award: dict, names: list[str], rule: str) -> Message:
    if not walls:
        return say("No wall tokens.")
    place = award["place"]
    where = PLACE_NAMES[place] if place < len(PLACE_NAMES) else say("below second place")
    shape = WALL_WORDS[walls == 1, bool(award["tied"]), bool(award.get("unknown"))]
    return say(shape, count=walls, place=where, glory=award["glory"],
               names=join_names([names[j] for j in award["tied"]]),
               rule_name=WALL_TIE_NAMES.get(rule, rule),
               rule=WALL_TIE_RULES.get(rule, ""))


WALL_WORDS = {  # (one token, tied, a value not known)
    (True, False, False): say("%(count)s wall token: %(place)s, %(glory)s glory."),
    (False, False, False): say("%(count)s wall tokens: %(place)s, %(glory)s glory."),
    (True, False, True): say("%(count)s wall token: %(place)s, %(glory)s glory (a value is not "
                             "known yet, counted as 0)."),
    (False, False, True): say("%(count)s wall tokens: %(place)s, %(glory)s glory (a value is "
                              "not known yet, counted as 0)."),
    (True, True, False): say("%(count)s wall token: %(place)s, tied with %(names)s, %(glory)s "
                             "glory. Tie rule '%(rule_name)s': %(rule)s."),
    (False, True, False): say("%(count)s wall tokens: %(place)s, tied with %(names)s, "
                              "%(glory)s glory. Tie rule '%(rule_name)s': %(rule)s."),
    (True, True, True): say("%(count)s wall token: %(place)s, tied with %(names)s, %(glory)s "
                            "glory (a value is not known yet, counted as 0). Tie rule "
                            "'%(rule_name)s': %(rule)s."),
    (False, True, True): say("%(count)s wall tokens: %(place)s, tied with %(names)s, %(glory)s "
                             "glory (a value is not known yet, counted as 0). Tie rule "
                             "'%(rule_name)s': %(rule)s."),
}


ARTIFACT_SPACES = 4


def artifact_note(name: str, count: int) -> list[str]:
    """The rulebook gives each board 4 artifact spaces ("one of the 4 available Artifact
    spaces") but says nothing of a fifth artifact: accepted, and said."""
    if count <= ARTIFACT_SPACES:
        return []
    return [say("%(name)s has %(count)s artifacts; a player board has %(space_count)s artifact "
                "spaces and the rulebook does not say whether more can be kept, so all were "
                "scored.", name=name, count=count, space_count=ARTIFACT_SPACES)]


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
        "glory": say("%(glory)s glory gained during play.", glory=sheet["glory"]),
        "artifacts": say_n("%(count)s artifact.", "%(count)s artifacts.",
                           len(sheet["artifacts"])),
        "favor": say_n("%(count)s favor token at %(each_glory)s glory each.",
                       "%(count)s favor tokens at %(each_glory)s glory each.", sheet["favor"],
                       each_glory=FAVOR_GLORY),
        "keep_spoils": spoils_text,
        "tapestries": tapestry_text,
        "prophecies": say_n("%(count)s prophecy.", "%(count)s prophecies.",
                            len(sheet["prophecies"])),
    }
    return categories, explanations, ["keep_spoils"] if spoils_unknown else []
