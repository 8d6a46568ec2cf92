"""Scores by round from a play's log, the SVG chart, and player statistics (pure)."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from companion.charts import _nice_scale, line_chart_svg, player_stats, round_series
from companion.games import get_game
from companion.plays import new_state

SVG = "{http://www.w3.org/2000/svg}"


# Two players place 2 pawns each before cleanup (Trade with Villages left out: it would move
# the Start Player marker).
PLACE_ALL_PAWNS = [{"type": "place", "data": {"location": location}} for location in
                   ("recruit_reavers", "raid_villages", "raid_keeps", "battle_at_sea")]


def reavers_play(glories, players=("Ann", "Bo")):
    initial = new_state("reavers", list(players), {}, 3, get_game("reavers").empty_catalogue())
    events = []
    for round_glory in glories:
        for name, glory in zip(players, round_glory, strict=True):
            events.append({"type": "sheet", "data": {"player": name, "fields": {"glory": glory}}})
        events += PLACE_ALL_PAWNS + [{"type": "advance", "data": {}}] * 2
    return initial, events


def test_series_has_start_every_round_end_and_now():
    initial, events = reavers_play([(5, 3), (9, 8)])
    series = round_series(initial, events)
    assert [p["label"] for p in series] == ["Start", "Round 1", "Round 2", "Round 3 (now)"]
    assert [p["totals"]["Ann"] for p in series] == [0, 5, 9, 9]
    assert [p["totals"]["Bo"] for p in series] == [0, 3, 8, 8]


def test_series_ends_with_final_after_a_finish_and_later_corrections():
    initial, events = reavers_play([(5, 3)])
    events += [{"type": "finish", "data": {}},
               {"type": "sheet", "data": {"player": "Bo", "fields": {"glory": 30}}}]
    series = round_series(initial, events)
    assert series[-1]["label"] == "Final" and series[-1]["totals"] == {"Ann": 5, "Bo": 30}
    assert series[1]["totals"] == {"Ann": 5, "Bo": 3}


def test_series_of_a_new_play_is_just_the_start_and_now():
    initial, _ = reavers_play([])
    assert [p["label"] for p in round_series(initial, [])] == ["Start", "Round 1 (now)"]


def test_chart_is_valid_svg_with_a_line_per_player_and_no_style_attributes():
    initial, events = reavers_play([(5, 3), (9, 8), (12, 14)])
    svg = line_chart_svg(round_series(initial, events), initial["players"], "Reavers <by round>")
    root = ET.fromstring(svg)
    lines = root.findall(f"{SVG}polyline")
    assert len(lines) == 2
    assert root.find(f"{SVG}title").text == "Reavers <by round>"
    assert "style=" not in svg and "<script" not in svg
    assert lines[0].get("stroke") != lines[1].get("stroke")
    assert lines[0].get("stroke-dasharray") != lines[1].get("stroke-dasharray")
    ys = [float(p.split(",")[1]) for p in lines[0].get("points").split()]
    assert ys == sorted(ys, reverse=True)  # Ann's total only grows: her line only rises


def test_chart_escapes_player_names():
    initial, events = reavers_play([(1, 2)], players=("<b>Ann</b>", "Bo & Co"))
    svg = line_chart_svg(round_series(initial, events), initial["players"], "x")
    ET.fromstring(svg)
    assert "<b>" not in svg and "&lt;b&gt;Ann" in svg


@pytest.mark.parametrize("value, top, step", [(0, 5, 5), (1, 5, 5), (25, 25, 5), (26, 30, 10),
                                              (41, 50, 10), (93, 100, 20), (170, 200, 50),
                                              (1234, 1250, 250)])
def test_axis_top_is_a_round_number_at_or_above_the_highest_score(value, top, step):
    assert _nice_scale(value) == (top, step)
    assert top >= value and top % step == 0 and top // step <= 5


def test_player_stats_match_names_across_plays_ignoring_case():
    summaries = [{"winners": ["Ann"], "totals": {"Ann": 60, "Bo": 50}},
                 {"winners": ["bo"], "totals": {"ann": 40, "bo": 70}},
                 {"winners": ["Ann", "Cy"], "totals": {"Ann": 55, "Cy": 55}},
                 None, {"winners": [], "totals": {}}]
    stats = {s["name"].lower(): s for s in player_stats(summaries)}
    assert stats["ann"] == {"name": "Ann", "plays": 3, "wins": 2, "average": 51.7, "best": 60}
    assert stats["bo"] == {"name": "Bo", "plays": 2, "wins": 1, "average": 60.0, "best": 70}
    assert stats["cy"]["wins"] == 1
    assert [s["name"] for s in player_stats(summaries)][0] == "Ann"


def test_player_stats_of_nothing_is_empty():
    assert player_stats([]) == []
