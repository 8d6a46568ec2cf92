"""The table display (a read-only screen in the middle of the table) and the game clock's words.

The clock's numbers come from the core (companion.clock); this module only reads them at this
moment (through the service) and puts them into words for people.
"""
from __future__ import annotations

from flask import Blueprint

bp = Blueprint("display", __name__)


@bp.app_template_filter("duration")
def duration(seconds) -> str:
    """'1 h 05 min', '12 min' (an unknown length: an empty string)."""
    if seconds is None:
        return ""
    minutes = int(seconds) // 60
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"

