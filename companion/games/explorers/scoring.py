"""End-of-game scoring: the score-pad rows, the islands, the captains, the tie-breaks."""
from __future__ import annotations

from ..errors import impossible, say
from ..messages import Message, say_n, series
from ..ranking import Tiebreak, score_response
from .captains import CaptainContext, canonical_captain, captain_bonus, captain_word
from .islands import clean_islands, island_control, player_islands
from .table_setup import check_player_count

LIVESTOCK = {"pig": 6, "chicken": 5, "goat": 5, "sheep": 4, "cattle": 3, "horse": 3}
LIVESTOCK_LABELS = {"pig": say("Pigs"), "chicken": say("Chickens"), "goat": say("Goats"),
                    "sheep": say("Sheep"), "cattle": say("Cattle"), "horse": say("Horses")}
BOX_TOKENS = {  # what the box holds of each, said with its number: "12 Enemy Ships"
    "enemy_ships": (lambda n: say_n("%(count)s Enemy Ship", "%(count)s Enemy Ships", n), 12),
    "settlements": (lambda n: say_n("%(count)s Settlement token", "%(count)s Settlement tokens",
                                    n), 14),
    "fortresses": (lambda n: say_n("%(count)s Fortress token", "%(count)s Fortress tokens", n),
                   5),
    "shipwreck_tokens": (lambda n: say_n("%(count)s Shipwreck token", "%(count)s Shipwreck "
                                         "tokens", n), 24)}
BOX_TOKENS["gold"] = BOX_TOKENS["shipwreck_tokens"]
# A count of a kind delivered, for a change's label ("+1 horse delivered"): said whole for each
# kind, so that French agrees the participle with the animal ("1 vache livrée, 2 chevaux livrés").
# TRANSLATORS: Explorers' livestock (our own translations, no German or French rulebook at hand)
LIVESTOCK_DELIVERED = {
    "pig": lambda n, sign: say_n("%(sign)s%(count)s pig delivered",
                                 "%(sign)s%(count)s pigs delivered", n, sign=sign),
    "chicken": lambda n, sign: say_n("%(sign)s%(count)s chicken delivered",
                                     "%(sign)s%(count)s chickens delivered", n, sign=sign),
    "goat": lambda n, sign: say_n("%(sign)s%(count)s goat delivered",
                                  "%(sign)s%(count)s goats delivered", n, sign=sign),
    "sheep": lambda n, sign: say_n("%(sign)s%(count)s sheep delivered",
                                   "%(sign)s%(count)s sheep delivered", n, sign=sign),
    "cattle": lambda n, sign: say_n("%(sign)s%(count)s head of cattle delivered",
                                    "%(sign)s%(count)s cattle delivered", n, sign=sign),
    "horse": lambda n, sign: say_n("%(sign)s%(count)s horse delivered",
                                   "%(sign)s%(count)s horses delivered", n, sign=sign)}


def delivered(kind: str, n: int, sign: str = "") -> Message:
    return LIVESTOCK_DELIVERED[kind](n, sign)


LIVESTOCK_COUNTS = {  # and with their number, for the box's limits: "6 pigs"
    "pig": lambda n: say_n("%(count)s pig", "%(count)s pigs", n),
    "chicken": lambda n: say_n("%(count)s chicken", "%(count)s chickens", n),
    "goat": lambda n: say_n("%(count)s goat", "%(count)s goats", n),
    "sheep": lambda n: say_n("%(count)s sheep", "%(count)s sheep", n),
    "cattle": lambda n: say_n("%(count)s cattle", "%(count)s cattle", n),
    "horse": lambda n: say_n("%(count)s horse", "%(count)s horses", n)}
VIKINGS = 7
GOLD_VP = 3
TIEBREAKS = (Tiebreak(say("viking deaths"), lambda r: r["viking_deaths"],
                      # TRANSLATORS: follows "with" in a tie-break sentence (German: "mit ...").
                      most=say("the most viking deaths")),
             Tiebreak(say("settlements raided"), lambda r: r["settlements_raided"],
                      # TRANSLATORS: follows "with" in a tie-break sentence (German: "mit ...").
                      most=say("the most settlements raided")))


# --------------------------------------------------------------------------- the rows
def livestock_sets(counts: dict) -> list[int]:
    """Sizes of the sets of distinct types: the k-th set holds every type delivered >= k
    times (this layering gives the largest sets, which the triangular score favours)."""
    most = max(counts.values(), default=0)
    return [sum(1 for n in counts.values() if n >= k) for k in range(1, most + 1)]


def triangular(n: int) -> int:
    return n * (n + 1) // 2


def livestock_row(counts: dict) -> tuple[int, str]:
    sets = livestock_sets(counts)
    if not sets:
        return 0, say("No livestock delivered.")
    parts = " + ".join(str(triangular(s)) for s in sets)     # (digits: the same everywhere)
    vp = sum(triangular(s) for s in sets)
    sizes = series(sets, ", ")
    return vp, say("Sets of %(sizes)s different types: %(sums)s = %(vp)s VP.", sizes=sizes,
                   sums=parts, vp=vp)


def outposts_row(n: int) -> tuple[int, str]:
    """The k-th outpost is worth k + 1: 2, 5, 9, 14, 20."""
    vp = sum(k + 1 for k in range(1, n + 1))
    return vp, say_n("%(count)s outpost, the k-th worth k + 1 VP = %(vp)s VP.",
                     "%(count)s outposts, the k-th worth k + 1 VP = %(vp)s VP.", n, vp=vp)


def base_rows(sheet: dict) -> dict:
    """{row: (vp, explanation)} for the rows read straight off the sheet."""
    ships, raids, deaths = sheet["enemy_ships"], sheet["settlements"], sheet["viking_deaths"]
    rows = {"livestock": livestock_row(sheet["livestock"]),
            "outposts": outposts_row(sheet["outposts"]),
            "enemy_ships": (ships, say_n("%(count)s enemy ship destroyed, 1 VP each = %(vp)s VP.",
                                         "%(count)s enemy ships destroyed, 1 VP each = %(vp)s "
                                         "VP.", ships, vp=ships)),
            "settlements": _tokens_row(raids, "settlements"),
            "viking_deaths": (deaths ** 2, say_n("%(count)s Viking death squared = %(vp)s VP.",
                                                 "%(count)s Viking deaths squared = %(vp)s VP.",
                                                 deaths, vp=deaths ** 2))}
    return rows


def rocks_rows(sheet: dict) -> dict:
    gold, forts = sheet["gold"], sheet["fortresses"]
    return {"gold": (GOLD_VP * gold, say("%(count)s gold salvaged, %(each_vp)s VP each = "
                                         "%(vp)s VP.", count=gold, each_vp=GOLD_VP,
                                         vp=GOLD_VP * gold)),
            "fortresses": _tokens_row(forts, "fortresses")}


def _listed(values: list[int]) -> Message:
    return series(values, ", ") if values else say("none")


TOKEN_ROWS = {  # (none, one, several) raided, with their strengths or values
    "settlements": (say("No settlements raided."),
                    say("%(count)s settlement raided, strength %(values)s = %(vp)s VP."),
                    say("%(count)s settlements raided, strengths %(values)s = %(vp)s VP.")),
    "fortresses": (say("No fortresses raided."),
                   say("%(count)s fortress raided, value %(values)s = %(vp)s VP."),
                   say("%(count)s fortresses raided, values %(values)s = %(vp)s VP.")),
}


def _tokens_row(values: list[int], what: str) -> tuple[int, str]:
    """A row of raided tokens (settlements or fortresses)."""
    none, one, several = TOKEN_ROWS[what]
    if not values:
        return 0, none
    return sum(values), say(one if len(values) == 1 else several, count=len(values),
                            values=_listed(values), vp=sum(values))


def islands_row(player: str, controls: list[dict]) -> tuple[int, str]:
    held = [c["tiles"] for c in controls if player in c["controllers"]]
    vp = sum(held)
    if not held:
        return 0, say("Controls no scoring island.")
    return vp, say("Controls islands of %(values)s tiles, 1 VP per tile = %(vp)s VP.",
                   values=_listed(held), vp=vp)


# --------------------------------------------------------------------------- validation
def parse_body(body: dict, catalogue: dict) -> tuple[list[dict], dict, list[dict]]:
    """(players, options, islands) of a checked scoring request, held to the rules across
    players, islands and the box data."""
    players, options = body["players"], body["options"]
    names = [p["name"] for p in players]
    check_player_count(names, options["rocks_of_ruin"])
    islands = clean_islands(body.get("islands") or [], names, options["rocks_of_ruin"])
    for i, player in enumerate(players):
        check_sheet(player["sheet"], i, options, catalogue, solo=len(players) == 1)
    check_box_totals(players)
    check_distinct_captains(players)
    check_vikings_left(players, islands)
    return players, options, islands


def check_sheet(sheet: dict, i: int, options: dict, catalogue: dict, solo: bool) -> None:
    """Rules a single sheet must keep; canonicalises the captains' names in place."""
    where = f"players[{i}].sheet"
    if sheet["viking_deaths"] > VIKINGS:
        raise impossible(say("A player has only %(count)s Vikings to lose, not %(deaths_count)s.",
                             count=VIKINGS, deaths_count=sheet["viking_deaths"]),
                         [f"{where}.viking_deaths"])
    if sheet.get("captain_2") and not solo:
        raise impossible("Only the solo game scores a second captain.", [f"{where}.captain_2"])
    for key in ("captain", "captain_2"):
        if sheet.get(key):
            sheet[key] = canonical_captain(sheet[key], options["rocks_of_ruin"], catalogue,
                                           solo, f"{where}.{key}")
    if solo and sheet["captain"] and sheet["captain"] == sheet.get("captain_2"):
        raise impossible("The solo game deals 2 different captains.",
                         [f"{where}.captain_2", f"{where}.captain"])
    if "Adventurer" in (sheet["captain"], sheet.get("captain_2")) \
            and sheet.get("gold", 0) > sheet.get("shipwreck_tokens", 0):
        raise impossible(say("Gold is among the shipwreck tokens left on the dashboard: enter "
                             "at least %(count)s.", count=sheet["gold"]),
                         [f"{where}.shipwreck_tokens", f"{where}.gold"])


def check_box_totals(players: list[dict]) -> None:
    """No player, nor all together, can hold more tokens or livestock than the box has."""
    for key, (label, limit) in BOX_TOKENS.items():
        _check_total(players, key, label, limit, lambda s, k=key: _count(s.get(k, 0)))
    for kind, limit in LIVESTOCK.items():
        _check_total(players, f"livestock.{kind}", LIVESTOCK_COUNTS[kind], limit,
                     lambda s, k=kind: s["livestock"].get(k, 0))


def _count(value) -> int:
    return len(value) if isinstance(value, list) else value


def _check_total(players: list[dict], key: str, label, limit: int, read) -> None:
    """``label(n)``: n of what is counted, "6 pigs"."""
    total, fields = 0, []
    for i, player in enumerate(players):
        count = read(player["sheet"])
        total += count
        if count:
            fields.append(f"players[{i}].sheet.{key}")
        if total > limit:
            raise impossible(say("The box holds only %(label)s, but the sheets add up to "
                                 "%(total)s.", label=label(limit), total=total),
                             fields[::-1])


def check_distinct_captains(players: list[dict]) -> None:
    seen: dict[str, int] = {}
    for i, player in enumerate(players):
        captain = player["sheet"]["captain"]
        if captain and captain in seen:
            first = seen[captain]
            raise impossible(say("The %(captain)s was dealt only once, and %(name)s has it.",
                                 captain=captain_word(captain), name=players[first]["name"]),
                             [f"players[{i}].sheet.captain", f"players[{first}].sheet.captain"])
        if captain:
            seen[captain] = i


def check_vikings_left(players: list[dict], islands: list[dict]) -> None:
    """A dead Viking lies on the Captain card, so it cannot also stand on an island: the
    Vikings on the islands and the deaths together are at most the colour's 7."""
    for i, player in enumerate(players):
        name, deaths = player["name"], player["sheet"]["viking_deaths"]
        standing = sum(island["influence"][name]["vikings"] for island in islands)
        if deaths and standing + deaths > VIKINGS:
            raise impossible(say("%(name)s has %(count)s Vikings: %(standing_count)s on the "
                                 "islands and %(deaths_count)s dead make %(total)s.",
                                 name=name, count=VIKINGS, standing_count=standing,
                                 deaths_count=deaths, total=standing + deaths),
                             [f"players[{i}].sheet.viking_deaths", "islands"])


# --------------------------------------------------------------------------- scoring
def tally(body: dict, catalogue: dict) -> dict:
    players, options, islands = parse_body(body, catalogue)
    names = [p["name"] for p in players]
    controls = [island_control(island, names) for island in islands]
    results = [player_result(p, options, islands, controls, len(players)) for p in players]
    return score_response(results, TIEBREAKS, islands=controls)


def player_result(player: dict, options: dict, islands: list[dict], controls: list[dict],
                  count: int) -> dict:
    sheet, name = player["sheet"], player["name"]
    rows = base_rows(sheet)
    rows["islands"] = islands_row(name, controls)
    ctx = CaptainContext(sheet=sheet, players=count, **player_islands(controls, islands, name))
    rows["captain"] = captain_row(sheet, ctx, solo=count == 1)
    if options["rocks_of_ruin"]:
        rows.update(rocks_rows(sheet))
    return {"name": name, "categories": {row: vp for row, (vp, _) in rows.items()},
            "explanations": {row: why for row, (_, why) in rows.items()},
            "viking_deaths": sheet["viking_deaths"],
            "settlements_raided": len(sheet["settlements"])}


def captain_row(sheet: dict, ctx: CaptainContext, solo: bool) -> tuple[int, str]:
    """The captain's bonus; solo: the lower of the two captains."""
    first = _one_captain(sheet, "captain", "captain_vp", ctx)
    if not solo:
        return first or (0, say("No captain entered."))
    second = _one_captain(sheet, "captain_2", "captain_2_vp", ctx)
    scored = [c for c in (first, second) if c]
    if not scored:
        return 0, say("No captain entered (the solo game scores the lower of 2).")
    if len(scored) == 1:
        vp, why = scored[0]
        return vp, series([why, say("Only one captain entered; the solo game scores the lower "
                                    "of 2.")], " ")
    low = min(scored, key=lambda c: c[0])
    return low[0], series([say("Solo: the lower captain counts."), first[1], second[1]], " ")


def _one_captain(sheet: dict, key: str, vp_key: str, ctx: CaptainContext):
    name = sheet.get(key)
    if not name:
        return None
    return captain_bonus(name, ctx, sheet.get(vp_key, 0))
