"""Say each sentence once, as a message: no refusal of the core or of the pages is English
built in code (an f-string, ``%``, ``+``, ``.format`` or a join) that a page could only show
in English or parse back; and a message handed to pydantic (``refuse``, ``worded``,
``one_given``) is a ``say(...)`` that ``make i18n`` extracts. The command line's own
operator sentences (cli, backup, restore) are English by design and not scanned."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.games import GAMES
from companion.games.messages import Message
from companion.games.score_rows import row_name
from companion.plays import new_state, score_of

ROOT = Path(__file__).resolve().parents[2] / "companion"
OPERATOR = {"cli.py", "backup.py", "restore.py", "restore_checks.py"}
# the call and the position of its message (the keyword ``message`` too)
MESSAGE_AT = {"RuleError": 0, "impossible": 0, "refuse": 0, "worded": 1, "player_of": 3,
              "check_int": 2, "check_delta": 2, "check_bool": 2, "check_name": 2,
              "check_object": 3, "Tiebreak": 0, "SheetField": 1, "Option": 1}
EXTRACTED = {"RuleError", "impossible"}     # make i18n reads their literal first argument
# calls whose words make i18n does not read: a literal there is English on every page (a row's
# or an option's label, a tie-break's name: each is a say(...))
DECLARED = ("refuse", "worded", "one_given", "SheetField", "Option", "Tiebreak")


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
        said = [kw.value for kw in node.keywords
                if kw.arg in ("message", "label", "help", "when_label", "most")]
        if name in MESSAGE_AT and len(node.args) > MESSAGE_AT[name]:
            said.append(node.args[MESSAGE_AT[name]])
        for value in said:
            if built(value):
                out.append(f"line {value.lineno}: {name}({ast.unparse(value)[:60]})")
            elif (isinstance(value, ast.Constant) and isinstance(value.value, str)
                  and value.value and name in DECLARED):
                out.append(f"line {value.lineno}: {name}: a literal make i18n does not see")
    return out


def test_the_scan_finds_a_built_sentence():
    assert faults('raise RuleError(f"{x} is wrong.", "x")')
    assert faults('player_of(p, names, "data.player", f"one of {names}")')
    assert faults('raise refuse("Not both.", "x")')
    assert faults('raise RuleError("%s is wrong" % x)')
    assert not faults('raise RuleError(say("%(x)s is wrong.", x=x), "x")')
    assert not faults('raise RuleError("Plain words.", "x")')
    assert faults('SheetField("gold", "Salvaged gold")')
    assert faults('Option("rocks", say("Rocks"), help="Tiles and captains.")')
    assert faults('Tiebreak("Workers", lambda r: r["workers"])')
    assert faults('Tiebreak(say("Workers"), lambda r: r["workers"], most="the most Workers")')
    assert not faults('SheetField("gold", say("Salvaged gold"), help=say("Each 1 VP."))')


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


def test_a_row_declared_in_plain_text_is_refused_where_it_is_declared():
    """A row's or an option's words given as plain text would reach a German page in English
    (make i18n does not see them): the declaration itself refuses it."""
    from companion.games.inputs import Option, SheetField
    from companion.games.messages import say

    with pytest.raises(TypeError, match="declare it with say"):
        SheetField("gold", "Salvaged gold")
    with pytest.raises(TypeError, match="help"):
        Option("rocks", say("Rocks of Ruin expansion"), help="72 tiles.")
    assert SheetField("gold", say("Salvaged gold")).label.id == "Salvaged gold"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_row_a_game_scores_is_named_by_the_core(game_id):
    """The score table's rows (a result's categories) are named once, by the core
    (companion.games.score_rows), never shown by their key: every category of a play with
    every option on, for one, two and the most players, has a name that make i18n extracts."""
    game = GAMES[game_id]
    options = {o.name: True for o in game.options if o.kind == "bool"}
    players = ["Ann", "Bo", "Cy", "Di", "Ed"][:game.max_players]
    categories = set()
    for count in {1, 2, len(players)} & set(range(game.min_players, game.max_players + 1)):
        score = score_of(new_state(game_id, players[:count], options, 1, {}))
        assert "error" not in score, score
        categories |= {c for p in score["players"] for c in p["categories"]}
    assert categories
    named = {c: row_name(c) for c in categories}
    assert {c: n for c, n in named.items() if not isinstance(n, Message)} == {}
    assert {str(n) for n in named.values()} <= extracted_ids()


def extracted_ids() -> set[str]:
    with open(ROOT.parent / "translations" / "messages.pot", "rb") as handle:
        return {m.id for m in read_po(handle) if isinstance(m.id, str)}
