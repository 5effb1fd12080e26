"""Axial hex coordinates (O2): neighbours, distance, hex order."""
from __future__ import annotations

Hex = tuple[int, int]

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def neighbours(h: Hex) -> tuple[Hex, ...]:
    q, r = h
    return tuple((q + dq, r + dr) for dq, dr in DIRECTIONS)


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def adjacent(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def hex_order(ref: Hex, hexes) -> list[Hex]:
    """Hexes sorted by distance from `ref`, then q, then r ([defaults.hex_order])."""
    return sorted(hexes, key=lambda h: (distance(ref, h), h[0], h[1]))


def disc(radius: int) -> frozenset[Hex]:
    return frozenset((q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
                     if abs(q + r) <= radius)


def as_list(h: Hex | None) -> list[int] | None:
    return None if h is None else [h[0], h[1]]
