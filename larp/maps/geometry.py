"""The map's geometry: the projection of provinces onto the drawing, and where each name goes.

Pure geometry (no Django): the map selector gives the nodes in the map's units, this
says for each where its label goes. Every province is named, always: a name goes next to
its own node where there is room, a step further out where there is not (with a leader
line back to its node once it stands apart), and never covers another name, a flag, a ship
or a reserved box (the projector's panel). The same nodes and flags always give the same
places (no randomness, a fixed order).
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass

# Advance widths of DejaVu Sans Bold (the widest of the usual sans-serif faces), in font sizes, rounded up.
_WIDTHS = {
    "ijl '": 0.35,
    'IJ.,': 0.4,
    'f-': 0.45,
    'rt()': 0.5,
    'г': 0.55,
    'зстэcsz': 0.6,
    'ГвхьяLx': 0.65,
    'ЕТабекнопучЁёEFTaekovy0123456789': 0.7,
    'ЗРСЭийлрцCPSYZbdghnpqu': 0.75,
    'АБВУХЬЯъABKRVX': 0.8,
    'ИЙКЛНПЧдмDGHNU': 0.85,
    'ДОOQ': 0.9,
    'ЦЪыw': 0.95,
    'МФжфюM': 1.0,
    'Ыm': 1.05,
    'ш': 1.1,
    'щW': 1.15,
    'Ю': 1.2,
    'ЖШ': 1.25,
    'Щ': 1.35,
}
CHAR_WIDTHS = {ch: w for group, w in _WIDTHS.items() for ch in group}
LINE_HEIGHT = 1.17  # a line's box: the font's ascent (0.93) and descent (0.24), as browsers measure it
ASCENT = 0.93
RINGS = 60          # how many steps further out a name may go before it takes the least bad place
# Directions tried at each distance, best first: below, above, right, left, the corners, then between them.
DIRECTIONS = (90, 270, 0, 180, 45, 135, 315, 225, 67.5, 112.5, 292.5, 247.5, 22.5, 157.5, 337.5, 202.5,
              78.75, 101.25, 281.25, 258.75, 11.25, 168.75, 348.75, 191.25, 56.25, 123.75, 303.75, 236.25,
              33.75, 146.25, 326.25, 213.75)


@dataclass(frozen=True)
class Label:
    dx: float          # offset of the text anchor from the node's centre, in map units
    dy: float          # offset of the text baseline
    anchor: str        # SVG text-anchor
    minor: bool = False  # kept for the pages' markup: every name is placed now, none is left out
    leader: tuple | None = None  # (x1, y1, x2, y2) from the node's edge to the name, relative to the node


def _overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _hits_circle(box, cx, cy, r) -> bool:
    nx, ny = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    return (nx - cx) ** 2 + (ny - cy) ** 2 < r * r


def label_box(x: float, y: float, label: Label, width: float, font: float) -> tuple:
    """The box (x0, y0, x1, y1) a placed name covers, in map units: for tests and for the pages' checks."""
    ax, top = x + label.dx, y + label.dy - font * ASCENT
    x0 = ax - (width / 2 if label.anchor == "middle" else (width if label.anchor == "end" else 0))
    return (x0, top, x0 + width, top + font * LINE_HEIGHT)


def text_width(name: str, font: float) -> float:
    """A name's width in map units at this font size (a letter not in the table counts as a wide one)."""
    return max(font, sum(CHAR_WIDTHS.get(ch, 0.8) for ch in name) * font)


def free_corner(points: list[tuple[float, float]], bounds: tuple[float, float], width: float,
                clearance: float) -> tuple | None:
    """The tallest box `width` wide standing in a corner of the drawing with no node within `clearance` of it:
    (x0, y0, x1, y1), or None when no corner has room for a quarter of the drawing's height. The projector's
    panel goes there, and names keep clear of it."""
    w, h = bounds
    best = None
    for right in (True, False):
        for bottom in (True, False):
            x0, x1 = (w - width, w) if right else (0.0, width)
            inside = [y for x, y in points if x0 - clearance < x < x1 + clearance]
            if bottom:
                y0 = max([y + clearance for y in inside], default=0.0)
                box = (x0, y0, x1, h)
            else:
                y1 = min([y - clearance for y in inside], default=h)
                box = (x0, 0.0, x1, y1)
            tall = box[3] - box[1]
            if tall >= h * 0.25 and (best is None or tall > best[3] - best[1]):
                best = box
    return tuple(round(v, 1) for v in best) if best else None


def flag_box(x: float, y: float, width: float, marker: float) -> tuple:
    """The box of an army's flag (its cloth) drawn at (x, y), `width` wide in the flag's own units."""
    return (x - marker, y - 11.5 * marker, x + (width + 0.5) * marker, y - 0.5 * marker)


def staff_box(x: float, y: float, marker: float) -> tuple:
    """The box of a flag's staff, below its cloth: a name may stand beside it, never across it."""
    return (x - marker, y - 11 * marker, x + marker, y + 8 * marker)


def ship_box(x: float, y: float, marker: float) -> tuple:
    """The box of a fleet's ship drawn at (x, y)."""
    return (x - 9 * marker, y - 13 * marker, x + 11 * marker, y + 6 * marker)


_placed: dict[tuple, dict[str, Label]] = {}
_placed_lock = threading.Lock()
PLACED_KEPT = 32


def place_labels(nodes: list[dict], radius: float, font: float, obstacles=(), bounds=None) -> dict[str, Label]:
    """`_place_labels`, remembered for the same names, points, obstacles and bounds (a map's names stay where they
    were until a flag or a ship moves: every phase change redraws the map, most of them with nothing moved; the
    placing was half of a map's drawing)."""
    key = (tuple(tuple(sorted(n.items())) for n in nodes), radius, font, tuple(tuple(o) for o in obstacles),
           tuple(bounds) if bounds is not None else None)
    with _placed_lock:
        found = _placed.get(key)
    if found is None:
        found = _place_labels(nodes, radius, font, obstacles, bounds)
        with _placed_lock:
            if len(_placed) >= PLACED_KEPT:
                _placed.clear()
            _placed[key] = found
    return dict(found)


def _place_labels(nodes: list[dict], radius: float, font: float, obstacles=(), bounds=None) -> dict[str, Label]:
    """nodes: [{"code", "name", "x", "y", "key": bool, "first": bool}] in map units; font: label size in map units;
    obstacles: other boxes (x0, y0, x1, y1) to keep clear of (flags, ships, a panel); bounds: (width, height)
    of the map, which a name must not cross.

    Greedy over a fixed order (the names that must sit closest first — capitals, sea zones, the move shown —
    then the most crowded, key provinces first among equals): each name tries the
    places round its node, nearest first and in a fixed order of directions, then rings further out (half a
    line each), and takes the cheapest place that covers no other name, flag, ship or reserved box and stays
    inside the map; covering another province's dot costs two and a half rings. A name that stands apart
    from its node gets a leader line.
    """
    height = font * LINE_HEIGHT
    margin = font * 0.3  # a little air between two names on one line
    gap = radius * 0.35
    step = height * 0.5
    edge = font * 0.4    # a name's true width varies with its letters: keep clear of the map's edge
    markers = [tuple(b) for b in obstacles]
    names: list[tuple] = []
    placed: dict[str, Label] = {}
    reach = 4 * height

    def crowd(n):
        return sum(1 for o in nodes if o is not n and abs(o["x"] - n["x"]) < reach * 2 and abs(o["y"] - n["y"]) < reach)

    order = sorted(nodes, key=lambda n: (not n.get("first"), -crowd(n), not n.get("key"), n["y"], n["x"], n["code"]))
    for n in order:
        width = text_width(n["name"], font)
        x, y = n["x"], n["y"]
        best = None
        for ring in range(RINGS):
            if best is not None and best[0] <= ring:
                break  # nothing further out can be cheaper
            d = radius + gap + ring * step
            # Only what this ring's places can reach (the same answer, far fewer comparisons).
            around = (x - d - width - 2 * margin - radius, y - d - height - margin - radius,
                      x + d + width + 2 * margin + radius, y + d + height + margin + radius)
            near_names = [b for b in names if _overlaps(b, around)]
            near_markers = [b for b in markers if _overlaps(b, around)]
            near_dots = [(o["x"], o["y"]) for o in nodes if o is not n and around[0] < o["x"] < around[2]
                         and around[1] < o["y"] < around[3]]
            for i, angle in enumerate(DIRECTIONS):
                box, dx, dy, anchor = _place(x, y, d, angle, width, height, font)
                if bounds and (box[0] < edge or box[1] < 0 or box[2] > bounds[0] - edge or box[3] > bounds[1]):
                    continue
                roomy = (box[0] - margin, box[1] - margin * 0.3, box[2] + margin, box[3] + margin * 0.3)
                if any(_overlaps(roomy, other) for other in near_names) or any(_overlaps(box, m) for m in near_markers):
                    continue
                dots = sum(1 for ox, oy in near_dots if _hits_circle(box, ox, oy, radius * 1.1))
                cost = ring + 2.5 * dots + i * 0.001
                if best is None or cost < best[0]:
                    best = (cost, box, dx, dy, anchor, d, angle)
        if best is None:  # no free place at all: the least crowded one of the nearest ring (never expected)
            box, dx, dy, anchor = _place(x, y, radius + gap, DIRECTIONS[0], width, height, font)
            best = (0, box, dx, dy, anchor, radius + gap, DIRECTIONS[0])
        _cost, box, dx, dy, anchor, d, angle = best
        names.append(box)
        leader = None
        if d > radius + gap + step * 1.5:
            # From the node's edge towards the name's nearest point.
            nx, ny = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
            length = math.hypot(nx - x, ny - y) or 1
            ux, uy = (nx - x) / length, (ny - y) / length
            leader = (round(ux * radius, 1), round(uy * radius, 1), round(nx - x, 1), round(ny - y, 1))
        placed[n["code"]] = Label(dx=dx, dy=dy, anchor=anchor, leader=leader)
    return placed


def _place(x, y, d, angle, width, height, font):
    """A name's box and text anchor at distance d from (x, y) in the direction `angle` (degrees, y down)."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    px, py = x + c * d, y + s * d
    if c > 0.3:
        x0, anchor, ax = px, "start", px
    elif c < -0.3:
        x0, anchor, ax = px - width, "end", px
    else:
        x0, anchor, ax = px - width / 2, "middle", px
    if s > 0.3:
        y0 = py
    elif s < -0.3:
        y0 = py - height
    else:
        y0 = py - height / 2
    box = (x0, y0, x0 + width, y0 + height)
    baseline = y0 + font * ASCENT
    return box, ax - x, baseline - y, anchor


# --- the map's projection ------------------------------------------------------------------------

@dataclass(frozen=True)
class Projection:
    """Places on a 1000-wide drawing: points (before padding), node radius, padding and size."""
    points: dict
    radius: float
    pad: float
    width: float
    height: float


def project(coords: dict, width: float = 1000.0) -> Projection:
    """{key: (latitude, longitude)} -> an equirectangular drawing, corrected for the middle latitude.

    The node radius comes from the typical distance between neighbours, so big and small maps both read well.
    """
    lats = [lat for lat, _lon in coords.values()]
    k = math.cos(math.radians((max(lats) + min(lats)) / 2))
    xs = {key: lon * k for key, (_lat, lon) in coords.items()}
    ys = {key: -lat for key, (lat, _lon) in coords.items()}
    x0, y0 = min(xs.values()), min(ys.values())
    span = max(max(xs.values()) - x0, max(ys.values()) - y0, 1e-6)
    unit = width / span
    points = {key: ((xs[key] - x0) * unit, (ys[key] - y0) * unit) for key in coords}
    nearest = sorted(min((math.hypot(x - a, y - b) for q, (a, b) in points.items() if q != key), default=100)
                     for key, (x, y) in points.items())
    typical = nearest[len(nearest) // 2] if nearest else 100
    radius = max(7.0, min(22.0, typical * 0.22))
    return Projection(points, radius, radius * 6, width, (max(ys.values()) - y0) * unit)


def picture_projection(points: dict, width: float, height: float) -> Projection:
    """Places at their pixels on a map picture (width x height): no padding, the node radius as `project` sizes it
    from the typical distance between neighbours."""
    pts = {key: (float(x), float(y)) for key, (x, y) in points.items()}
    nearest = sorted(min((math.hypot(x - a, y - b) for q, (a, b) in pts.items() if q != key), default=100)
                     for key, (x, y) in pts.items())
    typical = nearest[len(nearest) // 2] if nearest else 100
    radius = max(7.0, min(22.0 * max(width, height) / 1000, typical * 0.22))
    return Projection(pts, radius, 0.0, float(width), float(height))


def focus_box(mine: list[tuple[float, float]], proj: Projection) -> str:
    """An SVG viewBox around a player's own corner of a big map, or "" when that is most of the map."""
    if not mine:
        return ""
    pad = proj.pad
    x0, x1 = min(x for x, _ in mine), max(x for x, _ in mine)
    y0, y1 = min(y for _, y in mine), max(y for _, y in mine)
    whole_w, whole_h = proj.width + 2 * pad, proj.height + 2 * pad
    w, h = max(x1 - x0, whole_w * 0.3) + 2 * pad, max(y1 - y0, whole_h * 0.3) + 2 * pad
    cx, cy = (x0 + x1) / 2 + pad, (y0 + y1) / 2 + pad
    if w * h >= 0.5 * whole_w * whole_h:  # a small map is shown whole
        return ""
    return f"{cx - w / 2:.1f} {cy - h / 2:.1f} {w:.1f} {h:.1f}"
