"""The values from the box a Shipwrights play may ask the table for (and the warning before a
game). Keys: ``track_vp.15`` .. ``track_vp.18`` (the VP printed beside those spaces)."""
from __future__ import annotations

from ..bodies import Body, one_of, whole, worded
from ..box_questions import BOX_NUMBER
from ..errors import say
from ..messages import join_names
from .catalogue import MAX_VP, track_vp_question, validate_catalogue
from .rules import HUT_NUMBERS, ROUNDS, SCORING_SPACES


class ShipwrightsTrackVp(Body):
    """Shipwrights: the VP printed beside one of the Progress Track spaces 15 to 18."""
    key: one_of(tuple(f"track_vp.{s}" for s in SCORING_SPACES))
    value: worded(whole(0, MAX_VP), BOX_NUMBER)


def parse(key: str, value: int) -> int:
    return value


def merge(catalogue: dict, answers: dict) -> dict:
    clean = validate_catalogue(catalogue or {})
    given = {key.removeprefix("track_vp."): value for key, value in answers.items()
             if key.startswith("track_vp.")}
    return {**clean, "track_vp": dict(sorted({**clean["track_vp"], **given}.items()))}


def ahead(catalogue: dict) -> list[dict]:
    known = validate_catalogue(catalogue or {})["track_vp"]
    return [{"key": f"track_vp.{s}", "question": track_vp_question(s), "answer": "number"}
            for s in SCORING_SPACES if s not in known]


def needs(catalogue: dict, player_count: int) -> list[dict]:
    """[{"what", "known", "detail"}] in plain words: what this game may need from the box."""
    clean = validate_catalogue(catalogue or {})
    vp_missing = [s for s in SCORING_SPACES if s not in clean["track_vp"]]
    huts_missing = [h for h in HUT_NUMBERS if h not in clean["huts"]]
    cards = clean["round_cards"]
    if not vp_missing:
        vp_detail = say("All four are known.")
    elif len(vp_missing) == 1:
        vp_detail = say("Not known yet: space %(space)s. A marker there counts 0 until you "
                        "answer.", space=vp_missing[0])
    else:
        vp_detail = say("Not known yet: spaces %(spaces)s. A marker there counts 0 until you "
                        "answer.", spaces=join_names(vp_missing))
    if not huts_missing:
        hut_detail = say("All six are known.")
    elif len(huts_missing) == 1:
        hut_detail = say("Not known yet: Hut %(hut)s. The player moves their own marker at "
                         "setup.", hut=huts_missing[0])
    else:
        hut_detail = say("Not known yet: Huts %(huts)s. The player moves their own marker at "
                         "setup.", huts=join_names(huts_missing))
    out = [{"what": say("VP of Progress Track spaces 15 to 18"), "known": not vp_missing,
            "detail": vp_detail},
           {"what": say("The track icon of each Hut"), "known": not huts_missing,
            "detail": hut_detail},
           {"what": say("Round Cards"), "known": len(cards) >= ROUNDS,
            "detail": (say("%(count)s in the box data: the app deals and reveals them.",
                           count=len(cards)) if len(cards) >= ROUNDS else
                       say("%(count)s in the box data (the app needs %(rounds)s): you type each "
                           "card in as it is turned over.", count=len(cards), rounds=ROUNDS))}]
    if player_count == 1:
        missing_vp = [c["id"] for c in cards if c.get("solo_vp") is None]
        out.append({"what": say("Solo VP on the Round Cards"),
                    "known": bool(cards) and not missing_vp,
                    "detail": (say("Known for every card.") if cards and not missing_vp else
                               say("Type it in for each card as it is turned over."))})
    return out
