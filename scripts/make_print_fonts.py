"""Make the score sheets' font, static/fonts/NorthSeaSans{,-Bold}.ttf: DejaVu Sans and DejaVu
Sans Bold (the system's fonts-dejavu-core, as the sheets used before) cut to the characters a
sheet prints in any of its languages and to the players' names of most tables: Latin with its
extensions, Greek, Cyrillic, punctuation and the few signs the sheets use (★ ● ○ • – ·).

Why (issue 22, docs/benchmarks.md): WeasyPrint embeds each face as a subset that keeps every
glyph's number up to the highest one used (HarfBuzz's retain-gids), and a sheet's ★, • and –
are glyphs 2,800-3,800 of DejaVu's 6,253: each sheet subset and compressed two fonts of about
3,800 glyphs (4 of a sheet's 40-50 ms). Here the same outlines, metrics, kerning and
ligatures are 1,273 glyphs, renamed as DejaVu's licence asks of a modified font (no
"Bitstream", no "Vera"; the licence is static/fonts/LICENSE-DejaVu.txt). A character outside
these ranges (a name in Armenian or Chinese) falls back to the system's fonts as before
(print.css: "North Sea Sans", "DejaVu Sans", sans-serif).

    .venv/bin/python scripts/make_print_fonts.py [/usr/share/fonts/truetype/dejavu]
"""
from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

RANGES = ((0x20, 0x7E), (0xA0, 0x24F), (0x370, 0x3FF), (0x400, 0x45F), (0x1E00, 0x1EFF),
          (0x2000, 0x206F), (0x20A0, 0x20BF), (0x2116, 0x2116), (0x2122, 0x2122),
          (0x2190, 0x2193), (0x21B6, 0x21BB), (0x2212, 0x2212), (0x25CB, 0x25CB), (0x25CF, 0x25CF),
          (0x2605, 0x2606), (0x2713, 0x2713), (0x2717, 0x2717))
FACES = {"DejaVuSans.ttf": ("NorthSeaSans.ttf", "Book"),
         "DejaVuSans-Bold.ttf": ("NorthSeaSans-Bold.ttf", "Bold")}
FAMILY = "North Sea Sans"


def make(source: Path, target: Path, style: str) -> None:
    font = TTFont(source)
    options = subset.Options()
    options.layout_features = ["*"]          # kerning and ligatures as DejaVu sets them
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[c for lo, hi in RANGES for c in range(lo, hi + 1)])
    subsetter.subset(font)
    names = font["name"]
    full = f"{FAMILY} {style}" if style != "Book" else FAMILY
    for record in list(names.names):
        if record.nameID in (1, 16):
            names.setName(FAMILY, record.nameID, record.platformID, record.platEncID,
                          record.langID)
        elif record.nameID in (4, 18):
            names.setName(full, record.nameID, record.platformID, record.platEncID,
                          record.langID)
        elif record.nameID == 6:
            names.setName(full.replace(" ", ""), 6, record.platformID, record.platEncID,
                          record.langID)
        elif record.nameID == 3:
            names.setName(f"{full} (DejaVu subset)", 3, record.platformID,
                          record.platEncID, record.langID)
    font.save(target)


def main(folder: str = "/usr/share/fonts/truetype/dejavu") -> None:
    out = Path(__file__).resolve().parent.parent / "static" / "fonts"
    out.mkdir(exist_ok=True)
    for source, (target, style) in FACES.items():
        make(Path(folder) / source, out / target, style)
        print(out / target, (out / target).stat().st_size, "bytes")


if __name__ == "__main__":
    main(*sys.argv[1:])
