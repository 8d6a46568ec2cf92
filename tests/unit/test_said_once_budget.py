"""Say it once (issue 23): the modules that declare the API's bodies, schemas and words (the
OpenAPI document, the request declarations and their refusals, the core's messages and the
pages' words, the JSON check) stay within their budget of lines together. A thing said twice
there shows as lines, so the bound keeps it said once; a module added for schemas, models or
words joins the count (by its name), so moving code into a new one does not escape it."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Issue 23 asks for 1,000. Reached so far: 1,090 (1,238 at the start of 2026-11-26's fifth
# session, 1,144 at the start of the sixth, 1,110 at the start of the seventh, 1,091 at the
# start of the eighth): the bound holds that, so nothing grows back; lower it as more is said
# once.
BUDGET = 1090
COUNTED = ("companion/web/openapi.py", "companion/web/jsoncheck.py", "companion/web/words.py",
           "companion/games/bodies.py", "companion/games/refusals.py",
           "companion/games/messages.py", "companion/games/requests.py")
# what a module for schemas, models or words is called (a migration is none of them)
NAMED = re.compile(r"openapi|schema|model|word|bodies|message|refusal|request|jsoncheck")


def counted() -> list[Path]:
    named = [p for p in (ROOT / "companion").rglob("*.py") if NAMED.search(p.stem)
             and "migrations" not in p.parts]
    return sorted({*(ROOT / c for c in COUNTED), *named})


def test_the_modules_of_bodies_schemas_and_words_stay_within_their_budget():
    lines = {str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines())
             for p in counted()}
    assert sum(lines.values()) <= BUDGET, lines


def test_every_module_named_for_schemas_models_or_words_is_counted():
    """A new module for schemas, models or words is counted as it is made; one of the list
    that goes is taken off it (the test would otherwise read a file that is not there)."""
    assert all((ROOT / c).is_file() for c in COUNTED)
    assert {p.name for p in counted()} >= {"openapi.py", "bodies.py", "messages.py", "words.py"}
