"""The only Flask importers besides companion/__init__.py: pages, API, security, errors."""
from __future__ import annotations

from flask import current_app

from ..service import PlayService


def service() -> PlayService:
    return current_app.extensions["companion"]
