"""The service's cache of known play states (moved out of companion/service.py, which stays
under 400 lines): replay a play once, then every read and write of it is cheap."""
from __future__ import annotations

from collections import OrderedDict
from threading import Lock

CACHE_SIZE = 512


class StateCache:
    """Known states by (play id, version): replay once, then every read and write is cheap."""

    def __init__(self, size: int = CACHE_SIZE):
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = Lock()

    def get(self, key):
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        return None

    def put(self, key, state) -> None:
        with self._lock:
            self._items[key] = state
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
