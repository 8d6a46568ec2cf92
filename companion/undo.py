"""Undo and redo at a table of phones: pure plans over the play's log, no Flask, no SQL.

Each phone takes back its own last change, puts back its own last undo (a redo), and may,
deliberately, take back the table's last change when another phone made it. A change is taken
back by a compensating event (it records who undid what, so a redo is that event taken back
in turn); a change no event can invert (the end of a turn, round or game) by moving the head
back, which only the play's last change allows. The game clock's pause and resume are events
of the play but never changes to undo: plans skip them and a head moved back keeps them.

``events`` are the store's undo candidates (companion.store.Store.undo_candidates): active
events up to the head, each with "position", "type", "data", "device", "undoes" and "at",
holding at least the head event, the device's own events, every compensating event and the
events they take back, every clock event, and the play's last change.
"""
from __future__ import annotations

from typing import Any

from . import clock
from .games import ending, get_game
from .games.bodies import check
from .games.errors import RuleError, say
from .plays import describe_event
from .sheet_changes import kinds_of, parts_of, sheet_change

CLOCK = clock.EVENTS


def is_change(event: dict) -> bool:
    """A change a person may take back: anything but the clock's pause and resume."""
    return event["type"] not in CLOCK


def taken_back(events: list[dict]) -> set[int]:
    """Positions a standing compensating event takes back. A compensation taken back in turn
    (a redo) stands no more, so the change it took back stands again."""
    gone: set[int] = set()
    for event in reversed(events):
        if event["position"] not in gone and event.get("undoes") is not None:
            gone.add(event["undoes"])
    return gone


def plan_undo_mine(state: dict, events: list[dict], device: str) -> dict:
    """How to take back ``device``'s last standing change: {"how": "compensate" | "head" |
    "refuse", "target", "keep" (clock events to append again after a head move), "code",
    "why", "moment"}."""
    gone = taken_back(events)
    target = next((e for e in reversed(events)
                   if e.get("device") == device and e.get("undoes") is None and is_change(e)
                   and e["position"] not in gone), None)
    if target is None:
        return refused(None, "nothing_to_undo",
                       say("This phone has no change of its own left to undo."))
    return plan_taking_back(state, events, target)


def plan_undo_other(state: dict, events: list[dict], device: str | None) -> dict:
    """How to take back the table's last change when another phone (or a script) made it;
    "refuse" with code "nothing_to_undo" when it is this device's own, an undo or a redo, or
    taken back already."""
    gone = taken_back(events)
    target = next((e for e in reversed(events) if is_change(e)), None)
    if (target is None or target.get("undoes") is not None or target["position"] in gone
            or (device is not None and target.get("device") == device)):
        return refused(None, "nothing_to_undo",
                       say("The last change is not another phone's to take back."))
    return plan_taking_back(state, events, target)


def plan_taking_back(state: dict, events: list[dict], target: dict) -> dict:
    """A compensating event when one can take ``target`` back now; else the head moved back
    over it when nothing but the clock came after it; else a refusal in a sentence."""
    after = only_clock_after(events, target)
    moment = "after" if after is not None else None
    label = describe_event(state, target, moment)
    why = why_not_invertible(state, target, label)
    if why is None:
        return {"how": "compensate", "target": target, "moment": moment, "label": label}
    if after is not None:
        return {"how": "head", "target": target, "keep": after, "moment": moment,
                "label": label}
    return refused(target, "cannot_undo_out_of_order", why, label)


def plan_redo_mine(state: dict, events: list[dict], device: str,
                   following: dict | None = None) -> dict:
    """How to put back ``device``'s last undo: {"how": "head" (the head moves on over
    ``following``, the first event past it, when the device made it) | "compensate" (its
    compensating event taken back) | "refuse", "target", "redoes" (the change put back)}.
    A change the device made after its undo ends the redo, as in any editor."""
    if following is not None and following.get("device") == device and is_change(following) \
            and following.get("undoes") is None:
        label = describe_event(state, following, "before")
        return {"how": "head", "target": following, "redoes": following, "moment": "before",
                "label": label}
    gone = taken_back(events)
    at = {e["position"]: e for e in events}
    for event in reversed(events):
        if event.get("device") != device or not is_change(event) or event["position"] in gone:
            continue
        if event.get("undoes") is None:
            break
        change = at.get(event["undoes"])
        if change is None or change.get("undoes") is not None:
            continue        # a redo of this device's: the undo before it is next
        label = describe_event(state, change)
        why = why_not_invertible(state, event, label)
        if why is not None:
            return refused(event, "cannot_redo", why, label, redoes=change)
        return {"how": "compensate", "target": event, "redoes": change, "moment": None,
                "label": label}
    return refused(None, "nothing_to_redo", say("This phone has no undo of its own to redo."))


def refused(target: dict | None, code: str, why: str, label: str | None = None,
            **more: Any) -> dict:
    return {"how": "refuse", "target": target, "code": code, "why": why, "label": label,
            **more}


def only_clock_after(events: list[dict], target: dict) -> list[dict] | None:
    """The clock events after ``target`` when nothing else came after it, else None."""
    head = events[-1]["position"] if events else 0
    ticks = [e for e in events if e["position"] > target["position"] and not is_change(e)]
    return ticks if len(ticks) == head - target["position"] else None


def why_not_invertible(state: dict, event: dict, label: str | None = None) -> str | None:
    """None when a compensating event can take ``event`` back now, else the sentence why not."""
    label = label or describe_event(state, event)
    if event["type"] != "sheet":
        if get_game(state["game"]).inverse_event(event) is None:
            return say("This change (%(change)s) cannot be taken back on its own: other "
                       "changes came after it.", change=label)
        return None
    if not still_as_set(state, event.get("data") or {}):
        return say("This change (%(change)s) was changed again since; taking it back would "
                   "overwrite that.", change=label)
    return None


def still_as_set(state: dict, data: dict) -> bool:
    """Whether the rows and kinds a sheet change set still hold what it set."""
    game = get_game(state["game"])
    sheet = state["sheets"].get(data.get("player"), {})
    specs = {f.name: f for f in game.sheet_fields_for(state["options"])}
    try:
        wanted, kinds, _ = parts_of(game, check(sheet_change(game), data, "data"))
    except RuleError:
        return False
    if any(sheet.get(k) != v for k, v in wanted.items()):
        return False
    return all(kinds_of(specs[name], sheet.get(name)).get(key, 0) == n
               for name, values in kinds.items() for key, n in values.items())


def inverse_event(before: dict, now: dict, event: dict) -> dict | None:
    """The event that takes ``event`` back out of order: the negated ``add``, and for
    ``fields`` and ``set`` the values they had ``before`` it; None when it cannot be."""
    if why_not_invertible(now, event):
        return None
    if event["type"] != "sheet":
        return get_game(now["game"]).inverse_event(event)
    data = event.get("data") or {}
    player = data.get("player")
    out: dict[str, Any] = {"player": player}
    game = get_game(now["game"])
    specs = {f.name: f for f in game.sheet_fields_for(now["options"])}
    old = before["sheets"].get(player, {})
    if data.get("fields"):
        out["fields"] = {name: old.get(name, specs[name].empty())
                         for name in data["fields"] if name in specs}
    if data.get("set"):
        out["set"] = {name: {key: kinds_of(specs[name], old.get(name)).get(key, 0)
                             for key in values}
                      for name, values in data["set"].items() if name in specs}
    if data.get("add"):
        out["add"] = negated(data["add"])
    if data.get("done") is not None:
        out["done"] = ending.is_done(before, player)
    was = set((before.get(ending.ENTERED) or {}).get(player, ()))
    reopen = sorted({*out.get("fields", {}), *out.get("set", {}), *out.get("add", {})} - was)
    if reopen:                   # taken back, these rows are still to enter, as before
        out["reopen"] = reopen
    return {"type": "sheet", "data": out}


def negated(add: Any) -> Any:
    if isinstance(add, dict):
        return {k: negated(v) for k, v in add.items()}
    return -int(add)
