"""Seafarers score sheets checked as a whole: across a player's fields and across players.

Each rule rests on words of the 1997 book (``shared/rulebooks/catan-seafarers-1997.txt``) or
on the base box it needs:

- One Largest Army card and one Longest Trade Route card: a single holder each.
- Pieces: the base box gives each colour 5 settlements and 4 cities; Greater Catan hands out
  more ("Each player takes 5 villages, 8 cities, 15 roads and 15 ships").
- Victory point cards: the base game's development deck holds 5, so at most 5 for one player
  and at most 5 for all players together.
- Special victory points are "always placed beneath the village/city via which the point was
  won": none without a settlement or city, and what the scenario can award (``SPECIAL_VP``).

Where the book leaves a value open, the sheet is accepted and the answer carries a note that
says so (``notes``), never a silent guess.
"""
from __future__ import annotations

from ..errors import impossible
from ..messages import Message, join_names, say, say_n

SETTLEMENTS = 5
BASE_CITIES = 4
VP_CARDS = 5
VP_CHIPS_IN_BOX = 8      # "8 x victory point chips" in the 1997 box's contents


def field(i: int, name: str) -> str:
    return f"players[{i}].sheet.{name}"


def check_sheets(scenario, players: list[dict]) -> list[str]:
    """Raise ``impossible`` for a set of sheets that cannot happen; return the notes."""
    single_holder(players, "largest_army", say("Largest Army"))
    single_holder(players, "longest_route", say("Longest Trade Route"))
    pieces(scenario, players)
    vp_cards(players)
    notes: list[str] = []
    for i, player in enumerate(players):
        notes += special_vp(scenario, i, player)
    total = sum(p["sheet"]["special_vp"] for p in players)
    if total > VP_CHIPS_IN_BOX:
        notes.append(say("The sheets hold %(total)s special victory points and the 1997 box "
                         "has %(count)s victory point chips; the book does not say what happens "
                         "when they run out, so the sheets were accepted.", total=total,
                         count=VP_CHIPS_IN_BOX))
    return notes


def single_holder(players: list[dict], name: str, label: Message) -> None:
    holders = [i for i, p in enumerate(players) if p["sheet"][name]]
    if len(holders) > 1:
        who = join_names([players[i]["name"] for i in holders])
        shape = (say("%(names)s both hold %(card)s, but there is only one %(card)s card: tick it "
                     "for one player.") if len(holders) == 2 else
                 say("%(names)s all hold %(card)s, but there is only one %(card)s card: tick it "
                     "for one player."))
        raise impossible(say(shape, names=who, card=label), [field(i, name) for i in holders])


def pieces(scenario, players: list[dict]) -> None:
    cities = scenario.cities_per_player
    for i, player in enumerate(players):
        sheet, name = player["sheet"], player["name"]
        if sheet["settlements"] > SETTLEMENTS:
            raise impossible(say("%(name)s has %(count)s settlements, but each player has only "
                                 "%(most)s.", name=name, count=sheet["settlements"],
                                 most=SETTLEMENTS), [field(i, "settlements")])
        if sheet["cities"] > cities:
            shape = (say("%(name)s has %(count)s cities, but each player has only %(most)s in "
                         "Greater Catan.") if cities != BASE_CITIES else
                     say("%(name)s has %(count)s cities, but each player has only %(most)s (the "
                         "base box's pieces; only Greater Catan hands out 8)."))
            raise impossible(say(shape, name=name, count=sheet["cities"], most=cities),
                             [field(i, "cities")])


def vp_cards(players: list[dict]) -> None:
    total = 0
    for i, player in enumerate(players):
        count = player["sheet"]["vp_cards"]
        if count > VP_CARDS:
            raise impossible(say("%(name)s has %(count)s victory point cards, but the "
                                 "development deck holds only %(most)s.", name=player["name"],
                                 count=count, most=VP_CARDS), [field(i, "vp_cards")])
        total += count
    if total > VP_CARDS:
        held = [i for i, p in enumerate(players) if p["sheet"]["vp_cards"]]
        raise impossible(say("The players hold %(total)s victory point cards together, but the "
                             "development deck holds only %(most)s.", total=total,
                             most=VP_CARDS), [field(i, "vp_cards") for i in held])


def buildings(sheet: dict) -> int:
    return sheet["settlements"] + sheet["cities"]


def special_vp(scenario, i: int, player: dict) -> list[Message]:
    """Check one player's special VP against the scenario; return any notes."""
    sheet, name = player["sheet"], player["name"]
    value = sheet["special_vp"]
    if not value:
        return []
    rule = SPECIAL_VP[scenario.special_vp_rule]
    fields = [field(i, "special_vp")]
    if rule.allowed is not None and value not in rule.allowed:
        raise impossible(say_n("%(name)s has %(count)s special victory point, but %(rule)s",
                               "%(name)s has %(count)s special victory points, but %(rule)s",
                               value, name=name, rule=rule.text(scenario)), fields)
    if not buildings(sheet):
        raise impossible(say_n("%(name)s has %(count)s special victory point and no settlement "
                               "or city: special victory points always lie beneath the "
                               "settlement or city that won them.", "%(name)s has %(count)s "
                               "special victory points and no settlement or city: special "
                               "victory points always lie beneath the settlement or city that "
                               "won them.", value, name=name),
                         fields + [field(i, "settlements"), field(i, "cities")])
    needed = rule.buildings_needed(value)
    if needed is not None and buildings(sheet) < needed:
        raise impossible(say("%(name)s has %(value)s special victory points, which lie beneath "
                             "%(needed)s different settlements or cities, but the sheet has "
                             "%(count)s.", name=name, value=value, needed=needed,
                             count=buildings(sheet)),
                         fields + [field(i, "settlements"), field(i, "cities")])
    if rule.note and buildings(sheet) < value:
        return [say(rule.note, name=name, value=value, buildings=say_n(
            "%(count)s settlement or city", "%(count)s settlements or cities", buildings(sheet)))]
    return []


class SpecialVpRule:
    """What a scenario's special VP can add up to, and how many buildings carry them."""

    def __init__(self, allowed, per_building: str | None, explain: Message, note: str = ""):
        self.allowed = allowed            # the possible totals, or None when open
        self.per_building = per_building  # "one" chip per building, "four_islands", None
        self.explain = explain
        self.note = note

    def text(self, scenario) -> Message:
        return say(self.explain, scenario=scenario.name)

    def buildings_needed(self, value: int) -> int | None:
        if self.per_building == "one":
            return value
        if self.per_building == "four_islands":     # 1, 3, 5 lie under 1, 2, 3 villages
            return (value + 1) // 2
        return None


SPECIAL_VP = {
    "none": SpecialVpRule(
        (0,), None, say("%(scenario)s awards no special victory points.")),
    "first_small_island": SpecialVpRule(
        (0, 1), "one", say("%(scenario)s gives 1 special victory point, for a player's first "
                           "settlement on a small island.")),
    "four_islands": SpecialVpRule(
        (0, 1, 3, 5), "four_islands",
        say("%(scenario)s gives 1 special victory point for the first foreign island and 2 for "
            "each further one: 0, 1, 3 or 5 in all.")),
    "each_foreign_island": SpecialVpRule(
        None, "one", say("%(scenario)s gives 1 special victory point for the first settlement "
                         "on each foreign island.")),
    "trade_lines": SpecialVpRule(
        None, None, Message(""), note=say(
            "%(name)s has %(value)s special victory points and %(buildings)s: the book puts each "
            "trade line's chip under its exit settlement and does not say whether one "
            "settlement can carry several, so the sheet was accepted.")),
}
