"""Every province is named on the projector at all times, next to its own point and never under a flag.

The placement is pure geometry (larp.maps.geometry); here it runs over the default scenario as the projector
draws it, with its armies and fleets in their starting places and then scattered at random (seeded).
"""
import math
import random

import pytest

from larp.battles.views import PROJECTOR_FLAG_SIZE, PROJECTOR_LABEL_PX, PROJECTOR_PANEL
from larp.forces.models import Army, Fleet
from larp.maps.geometry import Label, free_corner, place_labels
from larp.maps.view import map_view


def _over(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _scattered(game, seed):
    rng = random.Random(seed)
    land = list(game.provinces.filter(domain="land").values_list("code", flat=True).order_by("code"))
    sea = list(game.provinces.filter(domain="sea").values_list("code", flat=True).order_by("code"))
    # Crowd a few provinces on purpose: stacks of several flags are where names used to vanish.
    crowded = rng.sample(land, 6)
    positions = {a.code: rng.choice(crowded if rng.random() < 0.5 else land)
                 for a in Army.objects.filter(game=game).select_related("faction").order_by("faction__code", "number")}
    positions |= {f.code: rng.choice(sea)
                  for f in Fleet.objects.filter(game=game).select_related("faction").order_by("faction__code", "number")}
    return positions


def assert_every_name_readable(m):
    bounds = (0, 0, m["width"], m["height"])
    blocks = [f["box"] for f in m["flags"]] + [f["staff"] for f in m["flags"]] + [s["box"] for s in m["ships"]]
    if m["panel"]:
        blocks.append(m["panel"]["box"])
    boxes = {}
    for n in m["nodes"]:
        box = n["box"]
        assert not n["minor"], n["name"]
        assert bounds[0] <= box[0] and box[2] <= bounds[2] and bounds[1] <= box[1] and box[3] <= bounds[3], \
            f"{n['name']} leaves the map: {box}"
        hit = [b for b in blocks if _over(box, b)]
        assert not hit, f"{n['name']} is covered by a flag, a ship or the panel: {hit}"
        # Next to its own point: close by, or tied to it by a leader line.
        near = math.dist((n["x"], n["y"]), (min(max(n["x"], box[0]), box[2]), min(max(n["y"], box[1]), box[3])))
        assert near <= m["r"] * 3 or n["leader"], f"{n['name']} stands apart with no leader line"
        boxes[n["name"]] = box
    names = sorted(boxes)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not _over(boxes[a], boxes[b]), f"{a} overlaps {b}"


def projector_map(game, positions=None):
    return map_view(game, positions=positions, label_px=PROJECTOR_LABEL_PX, flag_size=PROJECTOR_FLAG_SIZE,
                    panel_width=PROJECTOR_PANEL)


def test_every_province_is_named_clear_of_flags_at_the_start(latin_game):
    m = projector_map(latin_game)
    assert len(m["nodes"]) == latin_game.provinces.count() and m["panel"]
    assert_every_name_readable(m)


@pytest.mark.parametrize("seed", range(6))
def test_every_province_is_named_clear_of_flags_wherever_the_armies_stand(latin_game, seed):
    positions = _scattered(latin_game, seed)
    m = projector_map(latin_game, positions)
    assert_every_name_readable(m)
    assert projector_map(latin_game, positions)["nodes"] == m["nodes"]  # the same map, the same places


def test_a_name_with_no_room_beside_its_point_goes_further_out_with_a_leader_line():
    nodes = [{"code": "a", "name": "Константинополь", "x": 200, "y": 200}]
    walls = [(150, 150, 250, 190), (150, 210, 250, 250), (100, 150, 190, 250), (210, 150, 300, 250)]
    placed = place_labels(nodes, 8, 12, obstacles=walls, bounds=(600, 600))
    at = placed["a"]
    assert isinstance(at, Label) and not at.minor and at.leader


def test_the_panel_goes_in_an_empty_corner():
    points = [(x, y) for x in range(0, 600, 50) for y in range(0, 400, 50)] + [(900, 100)]
    box = free_corner(points, (1000, 600), 300, 20)
    assert box and box[0] == 700 and box[3] == 600 and box[1] >= 120


def test_the_same_map_is_placed_once_and_a_moved_flag_places_it_again(monkeypatch):
    """Each phase change redraws the map; its names are placed again only when something they avoid moved."""
    from larp.maps import geometry

    nodes = [{"code": c, "name": c.title(), "x": x, "y": 50.0, "key": False, "first": False}
             for c, x in (("alpha", 10.0), ("beta", 40.0), ("gamma", 70.0))]
    calls = []
    real = geometry._place_labels
    monkeypatch.setattr(geometry, "_place_labels", lambda *a, **k: calls.append(1) or real(*a, **k))
    geometry._placed.clear()
    first = place_labels(nodes, 3.0, 8.0, obstacles=[(0, 0, 5, 5)], bounds=(100.0, 100.0))
    again = place_labels([dict(n) for n in nodes], 3.0, 8.0, obstacles=[(0, 0, 5, 5)], bounds=(100.0, 100.0))
    assert again == first and again is not first and len(calls) == 1
    moved = place_labels(nodes, 3.0, 8.0, obstacles=[(35, 40, 45, 60)], bounds=(100.0, 100.0))
    assert len(calls) == 2 and moved == real(nodes, 3.0, 8.0, obstacles=[(35, 40, 45, 60)], bounds=(100.0, 100.0))
    with pytest.raises(AttributeError):
        first["alpha"].dx = 0  # one answer serves many maps: what it holds cannot be changed
