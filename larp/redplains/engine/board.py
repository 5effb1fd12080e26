"""The field (W2): cell labels with the moderator's extra cells, contact, adjacency, facing and board order."""
from __future__ import annotations

from typing import Any

from .case import MAX_ID, integer, lst, obj
from .data import Data
from .errors import CaseError
from .outcomes import FRONT, LEFT, NORTH, REAR, RIGHT, SOUTH

STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
TURN_LEFT = {"N": "W", "W": "S", "S": "E", "E": "N"}
TURN_RIGHT = {v: k for k, v in TURN_LEFT.items()}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
MAX_EXTRA_CELLS = 200


def direction(facing: str, side: str) -> str:
    """The compass direction of a unit's front, left, right or rear cell."""
    if side == FRONT:
        return facing
    if side == LEFT:
        return TURN_LEFT[facing]
    if side == RIGHT:
        return TURN_RIGHT[facing]
    return OPPOSITE[facing]


class Board:
    """Cells by label and position; the extra cells of W2.5 are outside 1..columns x 1..rows."""

    def __init__(self, data: Data, field: Any, where: str = "field"):
        self.data = data
        self.cells: dict[str, tuple[int, int]] = dict(data.cells)
        field = {} if field is None else obj(field, where)
        for i, raw in enumerate(lst(field.get("extra_cells", []) or [], f"{where}.extra_cells", MAX_EXTRA_CELLS)):
            node = obj(raw, f"{where}.extra_cells[{i}]")
            label = node.get("id")
            if not isinstance(label, str) or not label or len(label) > MAX_ID or label in self.cells:
                raise CaseError(f"{where}.extra_cells[{i}].id", "needs a new, unique cell label")
            col = integer(node, "col", f"{where}.extra_cells[{i}]", -100, 200)
            row = integer(node, "row", f"{where}.extra_cells[{i}]", -100, 200)
            if 1 <= col <= data.columns and 1 <= row <= data.rows:
                raise CaseError(f"{where}.extra_cells[{i}]", "an extra cell lies outside the 12 x 6 field (W2.5)")
            if (col, row) in self.cells.values():
                raise CaseError(f"{where}.extra_cells[{i}]", "two cells at one position")
            self.cells[label] = (col, row)
        self.at = {pos: label for label, pos in self.cells.items()}
        self.north_rows = max(data.deployment_rows[NORTH])

    def cell(self, label: Any, where: str) -> str:
        if not isinstance(label, str) or label not in self.cells:
            shown = label if isinstance(label, str) and len(label) < 20 else type(label).__name__
            raise CaseError(where, f"no such cell {shown!r}")
        return label

    def pos(self, label: str) -> tuple[int, int]:
        return self.cells[label]

    def neighbour(self, label: str, compass: str) -> str | None:
        """The cell in contact in that compass direction, or None if it does not exist (W2.5)."""
        col, row = self.cells[label]
        dc, dr = STEP[compass]
        return self.at.get((col + dc, row + dr))

    def beyond(self, label: str, compass: str) -> tuple[int, int]:
        col, row = self.cells[label]
        dc, dr = STEP[compass]
        return col + dc, row + dr

    def toward(self, label: str, facing: str, side: str) -> str | None:
        return self.neighbour(label, direction(facing, side))

    def adjacent(self, a: str, b: str) -> bool:
        """W2.4: sharing a side or a corner."""
        (c1, r1), (c2, r2) = self.cells[a], self.cells[b]
        return a != b and abs(c1 - c2) <= 1 and abs(r1 - r2) <= 1

    def in_contact(self, a: str, b: str) -> bool:
        (c1, r1), (c2, r2) = self.cells[a], self.cells[b]
        return abs(c1 - c2) + abs(r1 - r2) == 1

    def side_of(self, target_cell: str, target_facing: str, attacker_cell: str) -> str | None:
        """W3.5: on which side of the target a unit in contact stands."""
        for side in (FRONT, LEFT, RIGHT, REAR):
            if self.toward(target_cell, target_facing, side) == attacker_cell:
                return side
        return None

    def half(self, label: str) -> str:
        return NORTH if self.cells[label][1] <= self.north_rows else SOUTH

    def own_edge(self, side: str) -> str:
        return "N" if side == NORTH else "S"

    def order_key(self, label: str) -> tuple[int, int]:
        """W2.4 board order: by row, then column, north-west first."""
        col, row = self.cells[label]
        return row, col

    def on_field(self, pos: tuple[int, int]) -> bool:
        return pos in self.at

    def beyond_own_edge(self, side: str, pos: tuple[int, int]) -> bool:
        """W34.5: a step past the unit's own edge leaves the field."""
        rows = [r for (_c, r) in self.cells.values()]
        return pos[1] < min(rows) if side == NORTH else pos[1] > max(rows)


class Terrain:
    """W36–W38: river, bridge (two cell labels, north one first), hills and forests, as the case gives them."""

    def __init__(self, board: Board, field: Any, where: str = "field"):
        node = {} if field is None else obj(field, where)
        river = node.get("river", False)
        if not isinstance(river, bool):
            raise CaseError(f"{where}.river", "must be true or false")
        self.river = river
        bridge = node.get("bridge")
        if bridge is None:
            self.bridge: tuple[str, str] | None = None
        else:
            cells = [bridge.get(NORTH), bridge.get(SOUTH)] if isinstance(bridge, dict) else bridge
            if not isinstance(cells, list) or len(cells) != 2:
                raise CaseError(f"{where}.bridge", "two cell labels (or {north, south}) or null")
            a, b = (board.cell(c, f"{where}.bridge") for c in cells)
            if not board.in_contact(a, b) or board.pos(a)[0] != board.pos(b)[0] or board.half(a) == board.half(b):
                raise CaseError(f"{where}.bridge", "joins one north and one south cell of the same column (W36.3)")
            self.bridge = (a, b) if board.half(a) == NORTH else (b, a)
        self.hills = [board.cell(c, f"{where}.hills[{i}]") for i, c in enumerate(lst(node.get("hills", []) or [],
                                                                                     f"{where}.hills", 20))]
        self.forests = [board.cell(c, f"{where}.forests[{i}]")
                        for i, c in enumerate(lst(node.get("forests", []) or [], f"{where}.forests", 20))]

    def crosses_river(self, board: Board, a: str, b: str) -> bool:
        """A move between the halves not by the bridge crosses the river (W36.2)."""
        if not self.river or board.half(a) == board.half(b):
            return False
        return not (self.bridge and {a, b} == set(self.bridge))

    def on_bridge(self, a: str, b: str) -> bool:
        return bool(self.bridge) and {a, b} == set(self.bridge)
