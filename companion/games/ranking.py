"""Ranking by total and tie-breaks, the sentences that explain each tie, and the common
scoring response.

Pure: standard library only.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .box_questions import Unknowns
from .messages import join_names, say, series


@dataclass(frozen=True)
class Tiebreak:
    """A tie-break: ``label`` names what is counted after a number ("also tied on 3 viking
    deaths"); ``most`` is the whole phrase "the most viking deaths", one message, so a language
    glues its own article or preposition to the words ("le plus d’ouvriers", "mit den meisten
    Arbeitern") rather than a sentence putting "the most" before any label."""
    label: str
    value: Callable[[dict], float]
    most: str


def rank(results: list[dict], tiebreaks: Sequence[Tiebreak] = (),
         total: Callable[[dict], float] = lambda r: r["total"],
         ) -> tuple[list[dict], list[str], str | None]:
    """Rank ``results`` (each with "name" and "total") by total, then each tie-break.

    Sets ``rank`` on each result (1 for the winners; equal results share a rank; competition
    ranking 1, 1, 3). Returns (results in input order, winners' names, the tie-break sentence
    or None when no tie at the top needed deciding). ``tie_sentences`` explains every tie.
    """
    ordered = ranked_order(results, tiebreaks, total)
    if not ordered:
        return results, [], None
    winners = [r["name"] for r in results if r["rank"] == 1]
    return results, winners, tiebreak_sentence(ordered, tiebreaks, total)


def ranked_order(results: list[dict], tiebreaks: Sequence[Tiebreak],
                 total: Callable[[dict], float]) -> list[dict]:
    """The results best first, each given its ``rank``."""
    def key(r: dict) -> tuple:
        return (total(r),) + tuple(t.value(r) for t in tiebreaks)

    ordered = sorted(results, key=key, reverse=True)
    for i, r in enumerate(ordered):
        if i and key(r) == key(ordered[i - 1]):
            r["rank"] = ordered[i - 1]["rank"]
        else:
            r["rank"] = i + 1
    return ordered


def tiebreak_sentence(ordered: list[dict], tiebreaks: Sequence[Tiebreak],
                      total: Callable[[dict], float]) -> str | None:
    """How the tie for first place was decided (None when nobody tied the leader)."""
    top = [r for r in ordered if total(r) == total(ordered[0])]
    if len(top) < 2:
        return None
    return series(explain_tie(top, tiebreaks, 1, number(total(top[0]))), " ")


def tie_sentences(ordered: list[dict], tiebreaks: Sequence[Tiebreak],
                  total: Callable[[dict], float] = lambda r: r["total"]) -> list[str]:
    """One sentence (or more) for EVERY group of players on the same total, best first: what
    decided between them, or that they share the place. ``ordered`` is best first."""
    sentences, i = [], 0
    while i < len(ordered):
        group = [r for r in ordered[i:] if total(r) == total(ordered[i])]
        if len(group) > 1:
            sentences += explain_tie(group, tiebreaks, i + 1, number(total(group[0])))
        i += len(group)
    return sentences


# The tie-break sentences, whole (pages say them in the player's language by their shape, see
# say(); no two placeholders run together, so each is one shape per lead and verb). The lead is
# "Ann and Bo tied on 12" or, inside a tie a tie-break did not settle, "Bo and Cy also tied on
# 3 viking deaths"; the verb is what the most of the next tie-break did for the leaders, and
# "the most ..." is the tie-break's own phrase (Tiebreak.most).
TIE_DECIDED = {
    (False, "wins"): say("%(names)s tied on %(total)s; %(players)s wins with "
                         "%(most)s (%(value)s against %(others)s)."),
    (False, "win"): say("%(names)s tied on %(total)s; %(players)s win with "
                        "%(most)s (%(value)s against %(others)s)."),
    (False, "stays ahead"): say("%(names)s tied on %(total)s; %(players)s stays ahead with "
                                "%(most)s (%(value)s against %(others)s)."),
    (False, "stay ahead"): say("%(names)s tied on %(total)s; %(players)s stay ahead with "
                               "%(most)s (%(value)s against %(others)s)."),
    (False, "takes"): say("%(names)s tied on %(total)s; %(players)s takes %(place)s place "
                          "with %(most)s (%(value)s against %(others)s)."),
    (False, "share"): say("%(names)s tied on %(total)s; %(players)s share %(place)s place "
                          "with %(most)s (%(value)s against %(others)s)."),
    (True, "wins"): say("%(names)s also tied on %(level)s %(level_label)s; %(players)s wins "
                        "with %(most)s (%(value)s against %(others)s)."),
    (True, "win"): say("%(names)s also tied on %(level)s %(level_label)s; %(players)s win "
                       "with %(most)s (%(value)s against %(others)s)."),
    (True, "stays ahead"): say("%(names)s also tied on %(level)s %(level_label)s; "
                               "%(players)s stays ahead with %(most)s (%(value)s "
                               "against %(others)s)."),
    (True, "stay ahead"): say("%(names)s also tied on %(level)s %(level_label)s; "
                              "%(players)s stay ahead with %(most)s (%(value)s "
                              "against %(others)s)."),
    (True, "takes"): say("%(names)s also tied on %(level)s %(level_label)s; %(players)s "
                         "takes %(place)s place with %(most)s (%(value)s against "
                         "%(others)s)."),
    (True, "share"): say("%(names)s also tied on %(level)s %(level_label)s; %(players)s "
                         "share %(place)s place with %(most)s (%(value)s against "
                         "%(others)s)."),
}
# (also, on every tie-break, a shared win)
TIE_SHARED = {
    (False, False, True): say("%(names)s tied on %(total)s: a shared win."),
    (False, True, True): say("%(names)s tied on %(total)s and on every tie-break: a shared "
                             "win."),
    (False, False, False): say("%(names)s tied on %(total)s: they share %(place)s place."),
    (False, True, False): say("%(names)s tied on %(total)s and on every tie-break: they share "
                              "%(place)s place."),
    (True, False, True): say("%(names)s also tied on %(level)s %(level_label)s: a shared win."),
    (True, True, True): say("%(names)s also tied on %(level)s %(level_label)s and on every "
                            "other tie-break: a shared win."),
    (True, False, False): say("%(names)s also tied on %(level)s %(level_label)s: they share "
                              "%(place)s place."),
    (True, True, False): say("%(names)s also tied on %(level)s %(level_label)s and on every "
                             "other tie-break: they share %(place)s place."),
}


def explain_tie(group: list[dict], tiebreaks: Sequence[Tiebreak], place: int, total: Any,
                level: tuple[Any, str] | None = None) -> list[str]:
    """Sentences for players level on everything before ``tiebreaks``, in ranked order;
    ``place`` is the best place the group can take; ``total`` their total, ``level`` (value,
    label) the last tie-break they are also level on, inside a tie a tie-break split."""
    also = level is not None
    lead = {"names": join_names([r["name"] for r in group]), "total": total}
    if also:
        lead.update(level=level[0], level_label=level[1])
    for k, tb in enumerate(tiebreaks):
        values = [tb.value(r) for r in group]
        if len(set(values)) == 1:
            continue
        rest = tiebreaks[k + 1:]
        parts = split_by(group, tb.value)
        leaders = parts[0]
        others = series([number(v) for v in values[len(leaders):]], ", ")
        settled = len(leaders) == 1 or not splits(leaders, rest)
        if not settled:
            verb = "stays ahead" if len(leaders) == 1 else "stay ahead"
        elif place == 1:
            verb = "wins" if len(leaders) == 1 else "win"
        else:
            verb = "takes" if len(leaders) == 1 else "share"
        sentences = [say(TIE_DECIDED[also, verb], **lead,
                         players=join_names([r["name"] for r in leaders]),
                         place=ordinal(place), most=tb.most, value=number(values[0]),
                         others=others)]
        position = place
        for part in parts:
            if len(part) > 1 and (part is not leaders or not settled):
                sentences += explain_tie(part, rest, position, total,
                                         (number(tb.value(part[0])), tb.label))
            position += len(part)
        return sentences
    return [say(TIE_SHARED[also, bool(tiebreaks), place == 1], **lead,
                place=ordinal(place))]


def split_by(group: list[dict], value: Callable[[dict], float]) -> list[list[dict]]:
    """``group`` (already in ranked order) cut where ``value`` changes."""
    parts: list[list[dict]] = []
    for r in group:
        if parts and value(parts[-1][0]) == value(r):
            parts[-1].append(r)
        else:
            parts.append([r])
    return parts


def splits(group: list[dict], tiebreaks: Sequence[Tiebreak]) -> bool:
    return any(len({tb.value(r) for r in group}) > 1 for tb in tiebreaks)


def ordinal(n: int) -> str:
    """"2nd", "11th" (said from a shape: "2." and "2e" on German and French pages)."""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return say("%(n)sth", n=n)
    if n % 10 == 1:
        return say("%(n)sst", n=n)
    if n % 10 == 2:
        return say("%(n)snd", n=n)
    return say("%(n)srd", n=n)


def number(value: float) -> Any:
    return int(value) if float(value).is_integer() else value


def score_response(results: list[dict], tiebreaks: Sequence[Tiebreak] = (),
                   unknowns: Unknowns | None = None, notes: Sequence[str] = (),
                   **extra) -> dict:
    """The common scoring response: players (name, categories, total, rank), winners, tiebreak,
    complete and missing, and ``notes``: sentences saying where the rules leave a sheet's
    values open and the answer accepted them without a check.

    ``results``: [{"name", "categories": {row: vp}, "unknown": [rows counted 0 for a missing
    box value], ...}]; any other keys are used by the tie-breaks and dropped.
    """
    for r in results:
        r["total"] = sum(r["categories"].values())
    ranked, winners, sentence = rank(results, tiebreaks)
    every_tie = tie_sentences(sorted(ranked, key=lambda r: r["rank"]), tiebreaks)
    players = [{"name": r["name"], "categories": r["categories"], "total": r["total"],
                "rank": r["rank"], **({"explanations": r["explanations"]}
                                      if r.get("explanations") else {}),
                **({"unknown": r["unknown"]} if r.get("unknown") else {})}
               for r in ranked]
    return {"players": players, "winners": winners, "tiebreak": sentence,
            "tiebreaks": every_tie, "notes": list(notes), **extra,
            **(unknowns or Unknowns()).as_fields()}
