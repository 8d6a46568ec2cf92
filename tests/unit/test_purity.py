"""The rules core stays pure: nothing under companion/games imports a web or database library."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[2] / "companion" / "games"
FORBIDDEN = ("flask", "sqlalchemy", "werkzeug", "jinja2", "psycopg", "htmx_flask", "alembic",
             "weasyprint")


def imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """Every absolute module name an import statement names, with its line (relative imports
    stay inside the package and are skipped)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "__import__" and node.args
              and isinstance(node.args[0], ast.Constant)):
            found.append((node.lineno, str(node.args[0].value)))
    return found


def forbidden_imports(source: str) -> list[str]:
    return [f"line {line}: {name}" for line, name in imported_modules(ast.parse(source))
            if name.split(".")[0] in FORBIDDEN]


SOURCES = sorted(GAMES.rglob("*.py"))


def test_the_games_package_has_sources():
    assert len(SOURCES) >= 5


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(GAMES)))
def test_game_module_imports_no_web_or_database_library(path):
    assert forbidden_imports(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("source", [
    "import flask", "from flask import Flask", "import sqlalchemy as sa",
    "from werkzeug.exceptions import NotFound", "def f():\n    import sqlalchemy.orm\n",
    "__import__('flask')",
])
def test_the_checker_catches_each_way_of_importing(source):
    assert forbidden_imports(source)


def test_the_checker_allows_the_standard_library_and_relative_imports():
    assert forbidden_imports("import random\nfrom .base import Game\nfrom . import flask\n") == []
