"""The Red Plains field drawn in Python (larp/redplains/field_svg.py): well-formed SVG, every text escaped, the
moderator's places to add, the terrain, the river and its bridge, and the counters, in Russian."""
from xml.etree import ElementTree

from django.urls import reverse
from django.utils import translation

from larp.redplains.field_svg import field

from .conftest import deploy_both

SVG = "{http://www.w3.org/2000/svg}"


def a_board(**extra):
    cells = [{"id": f"{row}{col}", "x": (col - 1) * 60, "y": i * 60, "hill": col == 3, "forest": col == 4,
              "extra": col == 13, "zone": "north" if i < 3 else "south"}
             for i, row in enumerate("ABCDEF") for col in range(1, 14)]
    board = {"cells": cells, "size": 60, "ghosts": [{"id": "B14", "x": 780, "y": 60}],
             "view_box": "-4 -4 788 368", "centre": {"x1": 0, "x2": 780, "y": 180, "width": 780},
             "river": {"x": 0, "width": 780, "y": 175, "height": 10},
             "bridge": {"x": 132, "y": 170, "width": 36, "height": 20, "cells": "C3 — D3"},
             "counters": [{"id": "n1", "x": 60, "y": 60, "cx": 90, "cy": 90, "side": "north", "colour": "#2f5d8a",
                           "short": "Кав", "figures": 16, "fleeing": False, "name": 'Конница <b>"Журавля"</b> & Ко',
                           "arrow": "82,74 98,74 90,64", "orders": 2},
                          {"id": "s1", "x": 120, "y": 240, "cx": 150, "cy": 270, "side": "south",
                           "colour": "#a23b2a", "short": "Асиг", "figures": 4, "fleeing": True, "name": "Асигару",
                           "arrow": "142,254 158,254 150,244", "orders": 0}]}
    board.update(extra)
    return board


def parse(board):
    return ElementTree.fromstring(str(field(board)).replace(" data-board>", ' data-board="">')
                                  .replace(" data-river>", ' data-river="">')
                                  .replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))


def test_the_field_is_well_formed_and_escapes_every_text():
    with translation.override("ru"):
        svg = parse(a_board())
    assert svg.get("aria-label") == "Поле боя" and svg.get("viewBox") == "-4 -4 788 368"
    cells = svg.findall(f"{SVG}g[@data-cell]")
    assert len(cells) == 78 and cells[0].get("class") == "rp-cell north"
    assert {c.get("data-cell") for c in cells if "hill" in c.get("class")} == {f"{r}3" for r in "ABCDEF"}
    assert all(c.find(f"{SVG}text[@class='rp-terrain']").text == "▲" for c in cells if "hill" in c.get("class"))
    assert all(c.find(f"{SVG}text[@class='rp-terrain']").text == "♣" for c in cells if "forest" in c.get("class"))
    assert [c.get("class") for c in cells if c.get("data-cell") == "F13"] == ["rp-cell extra south"]
    ghost = svg.find(f"{SVG}g[@data-add-cell]")
    assert ghost.get("aria-label") == "Добавить клетку B14" and ghost.get("role") == "button"
    assert svg.find(f"{SVG}rect[@class='rp-river']").find(f"{SVG}title").text == "Река"
    bridge = svg.find(f"{SVG}rect[@class='rp-bridge']")
    assert bridge.get("data-bridge") == "C3 — D3" and bridge.find(f"{SVG}title").text == "Мост C3 — D3"
    units = svg.findall(f"{SVG}g[@data-unit]")
    assert [u.get("class") for u in units] == ["rp-unit", "rp-unit fleeing"]
    assert units[0].find(f"{SVG}title").text == 'Конница <b>"Журавля"</b> & Ко'  # text, not markup
    assert units[0].find(f"{SVG}text[@class='rp-orders']").text == "2✎"
    assert units[1].find(f"{SVG}text[@class='rp-orders']") is None
    assert units[1].find(f"{SVG}text[@class='rp-figs']").text == "4"
    # Later in the document is drawn on top: cells, then the river and bridge, then the counters.
    order = [el.get("class") for el in svg]
    assert order.index("rp-river") > order.index("rp-ghost") and order.index("rp-unit") > order.index("rp-bridge")


def test_a_field_without_river_ghosts_or_counters():
    with translation.override("en"):
        svg = parse(a_board(ghosts=[], river=None, bridge=None, counters=[]))
    assert svg.get("aria-label") == "The field"
    assert svg.find(f"{SVG}g[@data-add-cell]") is None and svg.find(f"{SVG}rect[@class='rp-river']") is None
    assert svg.find(f"{SVG}g[@data-unit]") is None and svg.find(f"{SVG}line[@class='rp-centre']") is not None


def test_each_seat_sees_its_own_counters_on_the_table_page(table, moderator, player, other_player, client_for):
    deploy_both(table, moderator)
    path = reverse("redplains:table", args=[table.game_id, table.pk])
    pages = {who: client_for(user).get(path).content.decode()
             for who, user in (("moderator", moderator), ("north", player), ("south", other_player))}
    for who, page in pages.items():
        assert page.count('<svg class="rp-board"') == 1, who
        assert page.count('data-cell="') >= 72, who
    assert all(f'data-unit="{u}"' in pages["moderator"] for u in ("n1", "n2", "s1", "s2"))
    assert 'data-unit="n1"' in pages["north"] and 'data-unit="s1"' in pages["south"]
