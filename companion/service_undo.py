"""Undo and redo for a table of phones, as use cases over the store (the plans are pure:
companion.undo). A part of companion.service.PlayService, kept apart by concern: each phone
takes back its own last change, redoes its own last undo, and may deliberately take back the
table's last change when another phone made it."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .games.errors import RuleError, say
from .plays import apply_event, valid_device
from .seats import check_taking_back, seat_name
from .store import Conflict, PlayRow
from .store.write import Write
from .undo import (
    inverse_event,
    plan_redo_mine,
    plan_undo_mine,
    plan_undo_other,
    why_not_invertible,
)

if TYPE_CHECKING:       # (companion.service imports this module)
    from .service import Answer, ChangeKey, Check, Done, Known


class TakingBack:
    """The undo and redo of companion.service.PlayService (its store, cache and the steps
    of a write: _writing, _replay_of, known, state_at, _to_head, _appended, _keep)."""

    def move_mine(self, play_id: str, step: int, device: str, **how) -> Done:
        """``undo_mine`` (``step`` -1) or ``redo_mine`` (+1)."""
        return (self.undo_mine if step < 0 else self.redo_mine)(play_id, device, **how)

    def undo_mine(self, play_id: str, device: str, *, key: ChangeKey | None = None,
                  answer: Answer | None = None, check: Check | None = None,
                  seat: int | None = None) -> Done:
        """Take back this device's last change without touching another phone's: a
        compensating event (which records the undo, so the device can redo it), or the head
        moved back over a change no event inverts when only the clock came after it;
        anything else is refused with a sentence (companion.undo)."""
        return self._twice(lambda: self._take_back(play_id, device, "mine", key, answer,
                                                   check, seat=seat))

    def redo_mine(self, play_id: str, device: str, *, key: ChangeKey | None = None,
                  answer: Answer | None = None, check: Check | None = None,
                  seat: int | None = None) -> Done:
        """Put back what this device last took back (its compensating event taken back in
        turn, or the head moved on over its own change)."""
        return self._twice(lambda: self._take_back(play_id, device, "redo", key, answer,
                                                   check, seat=seat))

    def undo_other(self, play_id: str, device: str | None, position, *,
                   key: ChangeKey | None = None, answer: Answer | None = None,
                   check: Check | None = None, seat: int | None = None) -> Done:
        """Deliberately take back the table's last change, made by another phone; it must
        still be the change at ``position`` (the one the person saw named), else Conflict."""
        return self._twice(lambda: self._take_back(play_id, device, "other", key, answer,
                                                   check, position, seat))

    def _take_back(self, play_id: str, device: str | None, which: str, key: ChangeKey | None,
                   answer: Answer | None, check: Check | None, position=None,
                   seat: int | None = None) -> Done:
        with self._writing(play_id, check, seat) as write:
            done = self._replay_of(write, key)
            if done is not None:
                return done
            row = write.row
            events = self.store.undo_candidates(row.id, row.head, device, conn=write.conn)
            known = self.known(row, write)
            plan = self._plan(which, known.state, events, device, row, write)
            if which == "other" and (plan["target"] or {}).get("position") != position:
                raise Conflict(row.version)
            if plan["how"] == "refuse":
                refusal = plan["why"]             # a message (companion.undo)
                raise RuleError(refusal, None, plan["code"], 409)
            # a seat takes back (or puts back) only what it may change (companion.seats)
            check_taking_back(known.state, seat_name(known.state, write.seat),
                              plan.get("redoes") or plan["target"], own=which != "other")
            if plan["how"] == "compensate":
                done = self._compensate(write, known, plan["target"], device)
            elif which == "redo":
                done = self._to_head(write, row.head + 1)
            else:
                done = self._head_back(write, plan["target"], plan["keep"])
            done = self._keep(write, key, done, answer)
        return self._remember(done)

    def _check_moved_over(self, write: Write, step: int) -> None:
        """A seat's undo or redo of the table's latest change (the head moved): the change it
        takes back or puts back must be one this seat may make (companion.seats)."""
        if write.seat is None:
            return
        row = write.row
        state = self.known(row, write).state
        if step < 0:
            found = self.store.undo_candidates(row.id, row.head, None, conn=write.conn)
            target = next((e for e in found if e["position"] == row.head), None)
        else:
            target = self.store.event_after_head(row.id, row.head, conn=write.conn)
        check_taking_back(state, seat_name(state, write.seat), target, own=False)

    def _plan(self, which: str, state: dict, events: list[dict], device: str | None,
              row: PlayRow, write: Write | None = None) -> dict:
        if which == "mine":
            return plan_undo_mine(state, events, device)
        if which == "other":
            return plan_undo_other(state, events, device)
        following = (self.store.event_after_head(row.id, row.head,
                                                 conn=write.conn if write else None)
                     if row.can_redo else None)
        return plan_redo_mine(state, events, device, following)

    def _compensate(self, write: Write, known: Known, target: dict,
                    device: str | None) -> Done:
        """Append the event that takes ``target`` back, recorded as this device's undo."""
        row, state = write.row, known.state
        before = self.state_at(row, target["position"] - 1, write).state
        inverse = inverse_event(before, state, target)
        if inverse is None:
            raise RuleError(why_not_invertible(state, target) or
                            "That change cannot be taken back on its own.", None,
                            "cannot_undo_out_of_order", 409)
        inverse = dict(inverse, at=self.now())
        after = apply_event(state, inverse)
        return self._appended(write, inverse, after, known.snapped, device=device,
                              undoes=target["position"])

    def _head_back(self, write: Write, target: dict, keep: list[dict]) -> Done:
        """The head moved back over ``target``; the clock events after it (never changes
        to undo) are appended again as they were, each with its own time and device."""
        done = self._to_head(write, target["position"] - 1)
        for tick in keep:
            write.row = done.row
            event = {"type": tick["type"], "data": tick["data"], "at": tick["at"]}
            after = apply_event(done.state, event)
            done = self._appended(write, event, after, done.snapped, device=tick["device"])
        return done

    def undo_info(self, row: PlayRow, device: str | None) -> dict:
        """What the Undo buttons say (companion.undo): "mine" (this device's last change),
        "redo" (its last undo) and "other" (the table's last change, another phone's), each
        {"label", "change", "possible", "why", "position"}; nothing for an unknown device."""
        out = {"mine": NOTHING, "redo": NOTHING, "other": NOTHING}
        if not row.head and not row.can_redo:
            return out
        events = self.store.undo_candidates(row.id, row.head, device)
        state = self.state(row)
        if device and valid_device(device):
            for which, said in LABELS.items():
                out[which] = button_of(self._plan(which, state, events, device, row), said)
        return out


NOTHING = {"label": "", "change": "", "possible": False, "why": None, "position": None}


# what each button says, around the change in words
LABELS = {"mine": lambda change: say("Undo: %(change)s", change=change),
          "redo": lambda change: say("Redo: %(change)s", change=change),
          "other": lambda change: say("Undo another phone's change: %(change)s", change=change)}


def button_of(plan: dict, said: Callable[[str], str]) -> dict:
    """An undo plan as its button: the label (the change in words) and whether it can be
    done; a plan that found nothing to do shows no button (empty label)."""
    if plan.get("label") is None:
        return NOTHING
    return {"label": said(plan["label"]), "change": plan["label"],
            "possible": plan["how"] != "refuse", "why": plan.get("why"),
            "position": (plan.get("target") or {}).get("position")}
