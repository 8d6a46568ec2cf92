"""Say each sentence once, as a message: no refusal of the core or of the pages is English
built in code (an f-string, ``%``, ``+``, ``.format`` or a join) that a page could only show
in English or parse back; and a message handed to pydantic (``refuse``, ``worded``,
``one_given``) is a ``say(...)`` that ``make i18n`` extracts. The command line's own
operator sentences (cli, backup, restore) are English by design and not scanned."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "companion"
OPERATOR = {"cli.py", "backup.py", "restore.py", "restore_checks.py"}
# the call and the position of its message (the keyword ``message`` too)
MESSAGE_AT = {"RuleError": 0, "impossible": 0, "refuse": 0, "worded": 1, "player_of": 3,
              "check_int": 2, "check_delta": 2, "check_bool": 2, "check_name": 2,
              "check_object": 3, "Tiebreak": 0, "SheetField": 1, "Option": 1}
EXTRACTED = {"RuleError", "impossible"}     # make i18n reads their literal first argument


def called(node: ast.Call) -> str | None:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def built(node: ast.AST) -> bool:
    return (isinstance(node, ast.JoinedStr)
            or isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mod, ast.Add))
            or isinstance(node, ast.Call) and called(node) in ("format", "join"))


def faults(source: str) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = called(node)
        said = [kw.value for kw in node.keywords if kw.arg in ("message", "label", "help")]
        if name in MESSAGE_AT and len(node.args) > MESSAGE_AT[name]:
            said.append(node.args[MESSAGE_AT[name]])
        for value in said:
            if built(value):
                out.append(f"line {value.lineno}: {name}({ast.unparse(value)[:60]})")
            elif (isinstance(value, ast.Constant) and isinstance(value.value, str)
                  and name in ("refuse", "worded", "one_given")):
                out.append(f"line {value.lineno}: {name}: a literal make i18n does not see")
    return out


def test_the_scan_finds_a_built_sentence():
    assert faults('raise RuleError(f"{x} is wrong.", "x")')
    assert faults('player_of(p, names, "data.player", f"one of {names}")')
    assert faults('raise refuse("Not both.", "x")')
    assert faults('raise RuleError("%s is wrong" % x)')
    assert not faults('raise RuleError(say("%(x)s is wrong.", x=x), "x")')
    assert not faults('raise RuleError("Plain words.", "x")')


def test_no_refusal_is_english_built_in_code():
    found = {str(path.relative_to(ROOT)): faults(path.read_text())
             for path in sorted(ROOT.rglob("*.py")) if path.name not in OPERATOR}
    assert len(found) > 80
    assert {path: lines for path, lines in found.items() if lines} == {}


def test_nothing_reads_the_catalogue_to_parse_a_sentence_back():
    """The shape matching is gone: no module of the app reads the message template or the
    catalogues' entries (the pages look an id up through gettext only); compiling a .po into
    its .mo (companion.web.i18n) is no reading back."""
    gone = [ROOT / "web" / name for name in ("core_words.py", "label_words.py",
                                            "rule_words.py")]
    assert not any(path.exists() for path in gone)
    readers = [str(path.relative_to(ROOT)) for path in ROOT.rglob("*.py")
               if "messages.pot" in (text := path.read_text())
               or re.search(r"\bread_po\b", text) and "write_mo" not in text]
    assert readers == []
