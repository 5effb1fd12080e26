"""The map's geometry: the projection of provinces onto the drawing, and where each name goes.

Pure geometry (no Django): the map selector gives the nodes in the map's units, this
says for each where its label goes and whether it fits. Capitals are placed first; a
name whose every place covers another name, a node, a flag or a ship is marked `minor`
(a capital only when it would cover another name), and the projector leaves it out
(a tablet can zoom in).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

CHAR_WIDTH = 0.72   # average width of a (semi-bold) Cyrillic letter of the label font, in font sizes
LINE_HEIGHT = 1.15


@dataclass
class Label:
    dx: float          # offset of the text anchor from the node's centre, in map units
    dy: float          # offset of the text baseline
    anchor: str        # SVG text-anchor
    minor: bool        # no free place: left out where space is short (the projector)


def _overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def place_labels(nodes: list[dict], radius: float, font: float, obstacles=(), bounds=None) -> dict[str, Label]:
    """nodes: [{"code", "name", "x", "y", "key": bool}] in map units; font: label size in map units;
    obstacles: other boxes (x0, y0, x1, y1) to keep clear of (flags, ships); bounds: (width, height) of the map,
    which a name must not cross.

    Greedy: key provinces first, then the rest; each tries below, above, left and right of its node, the
    corners, then the same further out, and takes the first place that covers neither another label nor
    another node, flag or ship.
    """
    height = font * LINE_HEIGHT
    margin = font * 0.3  # a little air between two names on one line
    gap = radius * 0.35
    occupied = [(n["x"] - radius, n["y"] - radius, n["x"] + radius, n["y"] + radius) for n in nodes]
    markers = list(obstacles)  # a name under a flag or a ship is unreadable: worse than touching a node
    names: list[tuple] = []  # the boxes of the names placed so far: never covered, even by a key name
    placed: dict[str, Label] = {}
    for n in sorted(nodes, key=lambda n: (not n.get("key"), n["y"], n["x"])):
        width = max(1, len(n["name"])) * font * CHAR_WIDTH
        x, y = n["x"], n["y"]
        own = (x - radius, y - radius, x + radius, y + radius)
        candidates = _candidates(x, y, radius, gap, font, width, height)
        best, best_hits = None, None
        for dx, dy, anchor, box in candidates:
            edge = font * 0.4  # a name's true width varies with its letters: keep clear of the map's edge
            if bounds and (box[0] < edge or box[1] < 0 or box[2] > bounds[0] - edge or box[3] > bounds[1]):
                continue
            roomy = (box[0] - margin, box[1], box[2] + margin, box[3])
            if any(_overlaps(roomy, other) for other in names):
                continue
            hits = sum(1 for other in occupied if other != own and _overlaps(box, other)) \
                + 10 * sum(1 for other in markers if _overlaps(box, other))
            if best_hits is None or hits < best_hits:
                best, best_hits = (dx, dy, anchor, box), hits
            if hits == 0:
                break
        minor = best is None or (best_hits > 0 and not n.get("key"))
        dx, dy, anchor, box = candidates[0] if minor else best
        if not minor:
            occupied.append(box)
            names.append(box)
        placed[n["code"]] = Label(dx=dx, dy=dy, anchor=anchor, minor=minor)
    return placed


def _candidates(x, y, radius, gap, font, width, height) -> list[tuple]:
    """Where a name may go, best first: below, above, left, right of its node, then the four corners, then
    the same a step further out (a crowded corner of the map). Each is (dx, dy of the baseline, anchor, box)."""
    out = []
    for far in (0.0, height * 0.9):
        g = gap + far
        out += [
            (0.0, radius + g + font * 0.85, "middle", (x - width / 2, y + radius + g, x + width / 2, y + radius + g + height)),
            (0.0, -radius - g - font * 0.25, "middle", (x - width / 2, y - radius - g - height, x + width / 2, y - radius - g)),
            (-radius - g, font * 0.35, "end", (x - radius - g - width, y - height / 2, x - radius - g, y + height / 2)),
            (radius + g, font * 0.35, "start", (x + radius + g, y - height / 2, x + radius + g + width, y + height / 2)),
        ]
        d = radius * 0.7 + g
        out += [
            (d, d + font * 0.85, "start", (x + d, y + d, x + d + width, y + d + height)),
            (-d, d + font * 0.85, "end", (x - d - width, y + d, x - d, y + d + height)),
            (d, -d - font * 0.25, "start", (x + d, y - d - height, x + d + width, y - d)),
            (-d, -d - font * 0.25, "end", (x - d - width, y - d - height, x - d, y - d)),
        ]
    return out


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
