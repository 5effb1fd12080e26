"""Where the map writes each province's name: beside its node, never over another name.

Pure geometry (no Django): the map selector gives the nodes in the map's units, this
says for each where its label goes and whether it fits. Capitals are placed first; a
name whose every place covers another name, a node, a flag or a ship is marked `minor`
(a capital only when it would cover another name), and the projector leaves it out
(a tablet can zoom in).
"""
from __future__ import annotations

from dataclasses import dataclass

CHAR_WIDTH = 0.68   # average width of a (semi-bold) Cyrillic letter of the label font, in font sizes
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

    Greedy: key provinces first, then the rest; each tries below, above, left and right of its node
    and takes the first place that covers neither another label nor another node.
    """
    height = font * LINE_HEIGHT
    margin = font * 0.3  # a little air between two names on one line
    gap = radius * 0.35
    occupied = [(n["x"] - radius, n["y"] - radius, n["x"] + radius, n["y"] + radius) for n in nodes]
    occupied += list(obstacles)
    names: list[tuple] = []  # the boxes of the names placed so far: never covered, even by a key name
    placed: dict[str, Label] = {}
    for n in sorted(nodes, key=lambda n: (not n.get("key"), n["y"], n["x"])):
        width = max(1, len(n["name"])) * font * CHAR_WIDTH
        x, y = n["x"], n["y"]
        own = (x - radius, y - radius, x + radius, y + radius)
        candidates = [
            # (dx, dy of the baseline, anchor, box)
            (0.0, radius + gap + font * 0.85, "middle",
             (x - width / 2, y + radius + gap, x + width / 2, y + radius + gap + height)),
            (0.0, -radius - gap - font * 0.25, "middle",
             (x - width / 2, y - radius - gap - height, x + width / 2, y - radius - gap)),
            (-radius - gap, font * 0.35, "end",
             (x - radius - gap - width, y - height / 2, x - radius - gap, y + height / 2)),
            (radius + gap, font * 0.35, "start",
             (x + radius + gap, y - height / 2, x + radius + gap + width, y + height / 2)),
        ]
        best, best_hits = None, None
        for dx, dy, anchor, box in candidates:
            if bounds and (box[0] < 0 or box[1] < 0 or box[2] > bounds[0] or box[3] > bounds[1]):
                continue
            roomy = (box[0] - margin, box[1], box[2] + margin, box[3])
            if any(_overlaps(roomy, other) for other in names):
                continue
            hits = sum(1 for other in occupied if other != own and _overlaps(box, other))
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
