"""German and French: Accept-Language, the switch on the page (a cookie), <html lang>."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]


def lang_and_h1(response) -> tuple[str, str]:
    html = response.get_data(as_text=True)
    return (re.search(r'<html lang="(\w+)"', html).group(1),
            re.search(r"<h1>(.*?)</h1>", html).group(1))


@pytest.mark.parametrize("header, lang, title", [
    (None, "en", "Start a play"),
    ("de-DE,de;q=0.9,en;q=0.5", "de", "Eine Partie beginnen"),
    ("fr-CH, fr;q=0.9", "fr", "Commencer une partie"),
    ("nl, en-GB;q=0.8", "en", "Start a play"),
    ("ja", "en", "Start a play"),
])
def test_the_language_follows_the_phone(client, header, lang, title):
    headers = {"Accept-Language": header} if header else {}
    assert lang_and_h1(client.get("/", headers=headers)) == (lang, title)


def test_a_language_chosen_on_the_page_is_remembered(client):
    response = client.get("/language/fr?next=/new%3Fgame%3Dknarr",
                          headers={"Accept-Language": "de"})
    assert response.status_code == 302 and response.headers["Location"] == "/new?game=knarr"
    assert "lang=fr" in response.headers["Set-Cookie"]
    assert "Max-Age=31536000" in response.headers["Set-Cookie"]
    # the cookie wins over the phone's German from now on
    assert lang_and_h1(client.get("/", headers={"Accept-Language": "de"})) == (
        "fr", "Commencer une partie")
    client.get("/language/en?next=/")
    assert lang_and_h1(client.get("/", headers={"Accept-Language": "de"}))[0] == "en"


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:x",
                                    ""])
def test_the_switch_only_goes_back_to_this_site(client, target):
    response = client.get("/language/de", query_string={"next": target})
    assert response.headers["Location"] == "/"


def test_an_unknown_language_changes_nothing(client):
    response = client.get("/language/xx?next=/")
    assert response.status_code == 302 and "Set-Cookie" not in response.headers


def test_every_page_offers_the_three_languages(client):
    html = client.get("/new?game=seafarers", headers={"Accept-Language": "de"}).get_data(
        as_text=True)
    for code in ("en", "de", "fr"):
        assert f'hreflang="{code}"' in html
    assert 'href="/language/fr?next=/new?game%3Dseafarers"' in html or \
        'href="/language/fr?next=/new%3Fgame%3Dseafarers"' in html


def test_new_play_page_speaks_german_with_the_published_game_names(client):
    html = client.get("/new?game=explorers", headers={"Accept-Language": "de"}).get_data(
        as_text=True)
    assert "<h2>Entdecker der Nordsee</h2>" in html
    assert "Erweiterung Rocks of Ruin" in html and "Spiel aufbauen" in html
    html = client.get("/new?game=seafarers", headers={"Accept-Language": "fr"}).get_data(
        as_text=True)
    assert "<h2>Catane : Marins</h2>" in html and "Vers de nouveaux rivages" in html


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_catalogues_are_complete_and_keep_their_placeholders(lang):
    """Every string has a translation, and every %(name)s of the English is in it."""
    with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
        catalog = read_po(handle, locale=lang)
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"{lang}: no translation for {ids[0]!r}"
        wanted = set(re.findall(r"%\(\w+\)s", ids[-1]))
        for text in strings:
            assert set(re.findall(r"%\(\w+\)s", text)) <= wanted | set(
                re.findall(r"%\(\w+\)s", ids[0])), (lang, ids[0], text)
            assert wanted - {"%(num)s"} <= set(re.findall(r"%\(\w+\)s", text)), (lang, ids[0])
        assert "fuzzy" not in message.flags, (lang, ids[0])


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_every_word_a_game_shows_players_is_translated(lang):
    """The games' own words the pages show through core(): score-sheet rows and their hints,
    options with their hints and choices, phases, and what the box data holds (the German play
    page showed Reavers' row hints in English, one of them with a German "und" in it)."""
    with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
        translated = {m.id for m in read_po(handle, locale=lang) if m.id and m.string}
    from companion.games import GAMES

    words = set()
    for game in GAMES.values():
        words |= {game.catalogue_help} | set(game.phases)
        for field in game.sheet_fields:
            words |= {field.label, field.help, *(label for _, label in field.key_labels)}
        for option in game.options:
            words |= {option.label, option.help, *(label for _, label in option.choice_labels)}
    missing = sorted(w for w in words - {""} if w not in translated)
    assert not missing, missing


def test_every_box_of_a_grouped_row_has_words_for_people():
    """A row with a box per kind (livestock by type, a Progress Track each, a Longship bonus
    each) labels every box in words, never with the key the API uses ("raid_cards")."""
    from companion.games import GAMES

    for game in GAMES.values():
        for field in game.sheet_fields:
            keys = field.keys if field.kind == "counts" else (
                field.choices if field.kind == "choices" else ())
            for key in keys:
                assert field.key_label(key) != key, (game.id, field.name, key)
                assert "_" not in field.key_label(key), (game.id, field.name, key)


def test_an_error_page_does_not_echo_its_address_in_the_language_links(client):
    html = client.get("/plays/abc123/secret-token-x").get_data(as_text=True)
    assert "secret-token-x" not in html and 'hreflang="de"' in html


def test_every_string_wrapped_in_the_code_is_in_both_catalogues():
    """What `make i18n` would extract today is translated: a string wrapped in _() but never
    added to the catalogues would show in English on a German or French page."""
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with open(ROOT / "babel.cfg") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    keywords = {**DEFAULT_KEYWORDS, "_l": None, "lazy_gettext": None, "say": None,
                "say_in": ((1, "c"), 2), "say_n": (1, 2), "RuleError": None, "impossible": None}
    wanted = set()
    for _file, _line, message, _comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=keywords):
        wanted.add((context, message[0] if isinstance(message, tuple) else message))
    assert len(wanted) > 200
    for lang in ("de", "fr"):
        with open(ROOT / "translations" / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
            catalog = read_po(handle, locale=lang)
        known = {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id) for m in catalog}
        assert not wanted - known, f"{lang}: run `make i18n` and translate {wanted - known}"


def test_the_scripts_words_come_with_the_page_in_its_language(client):
    """The outbox, the notes beside a control and the screen-wake badge are written by the
    page's scripts: a German page carries their German words, an English page nothing extra."""
    import json

    created = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo"]})
    path = "/" + created.get_json()["edit_url"].split("://", 1)[-1].split("/", 1)[1]
    html = client.get(path, headers={"Accept-Language": "de"}).get_data(as_text=True)
    block = re.search(r'<script type="application/json" id="nsc-words">(.*?)</script>', html)
    words = json.loads(block.group(1))
    assert words["Screen stays on"] == "Bildschirm bleibt an"
    assert words["%(n)s changes waiting"] == "%(n)s Änderungen warten"
    assert "nsc-words" not in client.get(path).get_data(as_text=True)


@pytest.mark.parametrize("lang, words", [
    ("de", "Die Uhr ist schon angehalten."),
    ("fr", "L’horloge est déjà en pause."),
    ("en", "The clock is already paused."),
])
def test_a_refusal_beside_the_controls_is_in_the_phones_language(client, lang, words):
    """The core refuses in English; the page shows the same sentence in the phone's language,
    in the markup the page's script looks for. The API keeps the English."""
    created = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo"]})
    play = created.get_json()
    client.post(f"/api/v1/plays/{play['id']}/events", json={"type": "pause"},
                headers={"Authorization": f"Bearer {play['edit_token']}"})
    response = client.post(f"/plays/{play['id']}/{play['edit_token']}/events",
                           data={"type": "pause", "expected_version": "1"},
                           headers={"HX-Request": "true", "Accept-Language": lang})
    html = response.get_data(as_text=True)
    assert response.status_code == 409
    assert re.search(r'<p class="error" role="alert" data-field="[^"]*">' + re.escape(words),
                     html), html[:2000]
    again = client.post(f"/api/v1/plays/{play['id']}/events", json={"type": "pause"},
                        headers={"Authorization": f"Bearer {play['edit_token']}",
                                 "Accept-Language": lang})
    assert again.get_json()["error"]["message"] == "The clock is already paused."


@pytest.mark.parametrize("lang, words", [
    ("de", "Rekruten auf dem Schiff von Ann kann nicht unter 0 fallen."),
    ("fr", None),
    ("en", "Ann's Recruits on the ship cannot go below 0."),
])
def test_a_refusal_with_a_name_and_a_number_is_in_the_phones_language(client, lang, words):
    """The core says the refusal through say(): the page finds its shape in the catalogue and
    says it in the phone's language, the sheet row translated in turn and the player's name as
    typed; the API answers the same refusal in English."""
    play = client.post("/api/v1/plays", json={"game": "knarr", "players": ["Ann", "Bo"]}
                       ).get_json()
    response = client.post(f"/plays/{play['id']}/{play['edit_token']}/events",
                           data={"type": "sheet", "player": "Ann", "add:recruits": "-9"},
                           headers={"HX-Request": "true", "Accept-Language": lang})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    if words is None:    # French: whatever the catalogue says, built from its own shape
        from babel.messages.pofile import read_po
        with open(ROOT / "translations/fr/LC_MESSAGES/messages.po", "rb") as handle:
            catalog = read_po(handle, locale="fr")
        row = catalog.get("Recruits on the ship").string
        words = catalog.get("%(player)s's %(row)s cannot go below %(low)s.").string % {
            "player": "Ann", "row": row, "low": 0}
    assert re.search(r'<p class="error" role="alert" data-field="[^"]*">' + re.escape(
        words.replace("'", "&#39;")), html), html[:3000]
    api = client.post(f"/api/v1/plays/{play['id']}/events",
                      json={"type": "sheet", "data": {"player": "Ann", "add": {"recruits": -9}}},
                      headers={"Authorization": f"Bearer {play['edit_token']}",
                               "Accept-Language": lang})
    assert api.get_json()["error"]["message"] == "Ann's Recruits on the ship cannot go below 0."


@pytest.mark.parametrize("lang, label", [
    ("de", "↶ Rückgängig: Ann +1 Gebiet"),
    ("fr", "↶ Annuler : Ann +1 territoire"),
    ("en", "↶ Undo: Ann +1 territory"),
])
def test_the_undo_label_is_in_the_phones_language(client, lang, label):
    """The core labels the last change in English ("Undo: Ann +1 territory"); the play page
    shows the same label in the phone's language, the player's name as typed."""
    created = client.post("/api/v1/plays", json={"game": "reavers", "players": ["Ann", "Bo"]})
    play = created.get_json()
    answer = client.post(f"/api/v1/plays/{play['id']}/events",
                         json={"type": "territories", "data": {"player": "Ann", "add": 1},
                               "device": "phone-a"},
                         headers={"Authorization": f"Bearer {play['edit_token']}"})
    assert answer.status_code in (200, 201), answer.get_json()
    client.set_cookie("nsc_device", "phone-a")      # the phone that made the change
    html = client.get(f"/plays/{play['id']}/{play['edit_token']}",
                      headers={"Accept-Language": lang}).get_data(as_text=True)
    button = re.search(r"<button[^>]*data-undo-mine[^>]*><span class=\"clamp\">(.*?)</span>",
                       html, re.S)
    assert button and button.group(1).strip() == label, button and button.group(1)


def labels() -> list:
    """Undo and redo labels as the core says them (companion.plays.describe_event)."""
    from companion.games.messages import say
    from companion.plays import apply_event, describe_event, new_state

    reavers = new_state("reavers", ["Ann", "Bo"], {}, 1, {})
    explorers = new_state("explorers", ["Ann", "Bo"], {}, 1, {})
    shipwrights = new_state("shipwrights", ["Ann", "Bo"], {}, 1, {})
    advance = {"type": "advance"}
    return [
        say("Undo: %(change)s", change=describe_event(reavers, advance)),
        say("Redo: %(change)s", change=describe_event(reavers, {
            "type": "territories", "data": {"player": "Ann", "add": 2}})),
        say("Undo: %(change)s", change=describe_event(
            dict(reavers, phase="cleanup", round=2), advance, "before")),
        say("Undo: %(change)s", change=describe_event(
            apply_event(shipwrights, {"type": "reveal", "data": {"icons": {
                "military": 1, "trade": 0, "renown": 0}}}), advance, "before")),
        describe_event(shipwrights, {"type": "sheet", "data": {"player": "Ann",
                                                                "fields": {"gold": 3}}}),
        describe_event(explorers, {"type": "sheet", "data": {"player": "Bo", "add": {
            "outposts": 3, "livestock": {"pig": -1, "goat": 2}}}}),
        "Something the core does not say",
    ]


@pytest.mark.parametrize("lang, words", [
    ("en", ["Undo: End of the phase", "Redo: Ann +2 territories", "Undo: End of round 2",
            "Undo: End of the reveal phase", "Ann's sheet: Gold (1 VP each) 3",
            "Bo: Outposts built +3; -1 pig delivered and 1 more",
            "Something the core does not say"]),
    ("de", ["Rückgängig: Ende der Phase", "Wiederholen: Ann +2 Gebiete",
            "Rückgängig: Ende von Runde 2", "Rückgängig: Ende der Phase „Aufdecken“",
            "Blatt von Ann: Gold (je 1 SP) 3",
            "Bo: Gebaute Außenposten +3; -1 Schwein abgeliefert und 1 weitere",
            "Something the core does not say"]),
    ("fr", ["Annuler : Fin de la phase", "Rétablir : Ann +2 territoires",
            "Annuler : Fin de la manche 2", "Annuler : Fin de la phase « révélation »",
            "Feuille (Ann) : Or (1 PV chacun) 3",
            "Bo : Avant-postes construits +3 ; -1 cochon livré et 1 de plus",
            "Something the core does not say"]),
])
def test_undo_labels_are_said_from_the_cores_messages(app, lang, words):
    """Every label is a message of the core; nested changes, counts, phases, the kinds of a
    row and yes/no are translated too, names stay as typed, a plain text is a word looked up
    as it is (and stays as it is when the catalogue does not have it)."""
    from companion.web.words import core

    with app.test_request_context(headers={"Accept-Language": lang}):
        assert [core(label) for label in labels()] == words


# Literals a template may hold outside gettext: names that stay as they are in every language,
# date patterns for Babel, a command typed on the server, and what other helpers own (the undo
# labels' "Undo: " prefix is the core's English, cut off before the label is translated).
NOT_WORDS = {"Svend", "Thyra", "Frode", "Archer", "d MMM yyyy", "d MMM HH:mm",
             "<kbd>companion owner-key</kbd>", "Undo: "}


def template_literals():
    """Every string constant in every template that is not an argument of gettext, with the
    names of the calls around it (Jinja's own parser: a quote inside a string cannot fool it)."""
    from jinja2 import nodes

    from companion import create_app

    env = create_app({"TESTING": True, "DATABASE_URL": "sqlite://"}).jinja_env
    gettext_calls = {"_", "gettext", "ngettext", "pgettext"}

    def walk(node, calls):
        if isinstance(node, nodes.Call) and isinstance(node.node, nodes.Name):
            name = node.node.name
            # gettext's message ids (pgettext: its context too) are words for translators
            ids = {"pgettext": 2, "ngettext": 2}.get(name, 1) if name in gettext_calls else 0
            for child in node.args[ids:] + [k.value for k in node.kwargs]:
                yield from walk(child, calls + (name,))
            return
        if isinstance(node, nodes.Const) and isinstance(node.value, str):
            yield node.value, calls
        for child in node.iter_child_nodes():
            yield from walk(child, calls)

    for path in sorted((ROOT / "templates").rglob("*.html")):
        for value, calls in walk(env.parse(path.read_text()), ()):
            yield path.relative_to(ROOT), value, calls


def test_no_english_words_are_written_into_a_template_outside_gettext():
    """A label written as a string in a template expression ('Set of ' ~ k, a macro's label
    argument) never reaches the catalogues: the German and French pages showed it in English.
    Words go through _() / ngettext(), or through core() when they are the core's own (and then
    the catalogue has them)."""
    with open(ROOT / "translations/de/LC_MESSAGES/messages.po", "rb") as handle:
        known = {m.id for m in read_po(handle, locale="de") if m.id}
    words = re.compile(r"[A-Za-z]{2,}")
    found, unknown_to_core = [], []
    for path, value, calls in template_literals():
        if not words.search(value) or value in NOT_WORDS:
            continue
        if " " not in value.strip() and not re.match(r"[A-Z][a-z]", value):
            continue            # a key, an id, a CSS class, a filter's argument
        if calls and calls[-1] == "core":
            if value not in known:
                unknown_to_core.append((str(path), value))
            continue
        found.append((str(path), value))
    assert found == []
    assert unknown_to_core == []
