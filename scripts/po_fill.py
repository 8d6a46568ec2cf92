"""Fill translations into the catalogues: `python scripts/po_fill.py FILE.json` where FILE maps
a language to {msgid: msgstr} (for a plural msgid: a list of msgstr forms). Run `make i18n`
first so the ids are in the catalogues; entries not in a catalogue are reported, not added.
The catalogues are written sorted by message id, as `make i18n` writes them."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent


def fill(wanted: dict[str, dict[str, str | list[str]]]) -> list[str]:
    problems = []
    for lang, strings in wanted.items():
        path = ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po"
        with open(path, "rb") as handle:
            catalog = read_po(handle, locale=lang)
        for msgid, msgstr in strings.items():
            message = catalog.get(msgid)
            if message is None:
                problems.append(f"{lang}: not in the catalogue (run make i18n): {msgid!r}")
                continue
            message.string = tuple(msgstr) if isinstance(msgstr, list) else msgstr
        with open(path, "wb") as handle:
            write_po(handle, catalog, sort_output=True, ignore_obsolete=True)
    return problems


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as handle:
        found = fill(json.load(handle))
    print("\n".join(found) or "filled")
    sys.exit(1 if found else 0)
