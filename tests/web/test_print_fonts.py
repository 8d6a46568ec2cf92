"""The score sheets' own font (issue 22: a sheet's render cost): DejaVu Sans cut to the
characters a sheet prints (static/fonts/NorthSeaSans*.ttf, scripts/make_print_fonts.py), so
each document subsets and embeds two small faces instead of two of DejaVu's 6,253 glyphs.

- every game's sheet and a pad embed exactly the two faces (pdffonts): no sentence of the
  sheet falls back to another font;
- every character of every sentence in the three catalogues and in the PDF templates is in
  both faces (a translation that reached outside them would print in another font);
- a name outside them (Armenian) is still printed, by the system's DejaVu Sans.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from benchmarks.bench_pdf import ended_play
from companion.games import GAMES
from companion.pdf import Renderer

ROOT = Path(__file__).resolve().parents[2]
FACES = ("NorthSeaSans.ttf", "NorthSeaSans-Bold.ttf")


def embedded(pdf: bytes, tmp_path) -> list[str]:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    lines = subprocess.run(["pdffonts", str(path)], check=True, capture_output=True,
                           text=True).stdout.splitlines()[2:]
    return sorted(line.split()[0].split("+", 1)[-1] for line in lines)


def sheet_pdf(app, client, play_id: str, lang: str = "en") -> bytes:
    from companion.web import service
    from companion.web.sheets import scoresheet_html

    with app.test_request_context(headers={"Accept-Language": lang}):
        row = service().load(play_id)
        html = scoresheet_html(row, service().state(row))
    return Renderer(app.static_folder).render(html)


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_every_sheet_embeds_only_the_two_faces(app, client, lang, tmp_path):
    from companion.web.sheets import pad_html

    for game_id in sorted(GAMES):
        pdf = sheet_pdf(app, client, ended_play(client, game_id)["id"], lang)
        assert embedded(pdf, tmp_path) == ["North-Sea-Sans", "North-Sea-Sans-Bold"], game_id
    with app.test_request_context(headers={"Accept-Language": lang}):
        pad = Renderer(app.static_folder).render(pad_html(GAMES["knarr"], 5, "a4"))
    assert set(embedded(pad, tmp_path)) <= {"North-Sea-Sans", "North-Sea-Sans-Bold"}


def test_every_sentence_a_sheet_can_print_is_in_both_faces():
    said = set()
    for po in (ROOT / "translations").glob("*/LC_MESSAGES/messages.po"):
        for line in po.read_text(encoding="utf-8").splitlines():
            if line.startswith(("msgid", "msgstr", '"')):
                said |= set(line)
    for template in (ROOT / "templates" / "pdf").glob("*.html"):
        said |= set(template.read_text(encoding="utf-8"))
    said = {c for c in said if ord(c) >= 32}
    assert len(said) > 100
    for face in FACES:
        cmap = TTFont(ROOT / "static" / "fonts" / face).getBestCmap()
        assert sorted(c for c in said if ord(c) not in cmap) == [], face


def test_a_name_outside_the_faces_is_printed_by_the_system_font(app, client, tmp_path):
    play = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Արամ", "Bo"],
                                              "seed": 3}).get_json()
    pdf = sheet_pdf(app, client, play["id"])
    assert "DejaVu-Sans" in embedded(pdf, tmp_path)
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    text = subprocess.run(["pdftotext", str(path), "-"], check=True, capture_output=True,
                          text=True).stdout
    assert "Արամ" in text
