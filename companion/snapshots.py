"""Which rules computed a stored state: a snapshot is used only by the same rules.

A play's truth is its event log; a snapshot (store.play_snapshots) is the state after its
first N events, kept so that a cold read or an undo replays only the events after it. A state
depends on the code that applies events: the games, the play layer and the game clock. Their
source files, hashed, name that code; a snapshot written by other code (an upgrade, a rules
fix) is ignored and the state is replayed from an older matching snapshot or the start, then
kept again under the new fingerprint.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
# the code a state depends on: everything under games/, the play layer, its clock and the
# players' clocks (which read whose turn it is from the seats)
RULES_CODE = ("games", "plays.py", "clock.py", "clock_players.py", "seats.py")
# bumped by hand when the stored form of a state changes without its code changing
STATE_FORMAT = 3


@lru_cache(maxsize=1)
def rules_fingerprint() -> str:
    """A hash of the rules' source (file names and bytes) and STATE_FORMAT: 64 hex digits."""
    digest = hashlib.sha256(f"state-format {STATE_FORMAT}\n".encode())
    for part in RULES_CODE:
        path = PACKAGE / part
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            digest.update(str(file.relative_to(PACKAGE)).encode() + b"\0")
            digest.update(file.read_bytes() + b"\0")
    return digest.hexdigest()
