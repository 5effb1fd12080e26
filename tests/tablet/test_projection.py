"""The map's projection is pure geometry (larp.maps.geometry), testable without a database."""
import math

from larp.maps.geometry import focus_box, project


def test_projection_keeps_the_aspect_at_the_middle_latitude_and_sizes_nodes_by_neighbours():
    proj = project({"a": (60.0, 10.0), "b": (60.0, 12.0), "c": (61.0, 10.0)})
    ax, ay = proj.points["a"]
    bx, by = proj.points["b"]
    cx, cy = proj.points["c"]
    assert (ay, by) == (proj.points["a"][1], ay) and cy < ay          # north is up
    assert math.isclose((bx - ax) / (ay - cy), 2 * math.cos(math.radians(60.5)), rel_tol=1e-9)
    assert math.isclose(max(bx, ay - cy), proj.width) and proj.width == 1000.0 and math.isclose(proj.height, ay - cy)
    assert 7.0 <= proj.radius <= 22.0 and proj.pad == proj.radius * 6


def test_focus_box_only_for_a_corner_of_a_big_map():
    proj = project({i: (40.0 + i % 10, 20.0 + i // 10) for i in range(100)})
    corner = focus_box([proj.points[0], proj.points[1]], proj)
    assert len(corner.split()) == 4
    assert focus_box([proj.points[0], proj.points[99]], proj) == ""
    assert focus_box([], proj) == ""
