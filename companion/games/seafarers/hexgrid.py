"""Axial hex coordinates for pointy-top hexes (rows run along r).

A hex is a tuple ``(q, r)``. The six directions, in the contract's order, are east, north-east,
north-west, west, south-west and south-east: direction ``i`` and ``i + 1`` are neighbours of
each other around a hex. A corner (an intersection where settlements stand) is the frozenset of
the three hexes that meet there, whether or not all of them are on the board; an edge is the
frozenset of its two hexes.
"""
from __future__ import annotations

from collections.abc import Iterable

Hex = tuple[int, int]
Corner = frozenset

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def step(hex_: Hex, direction: int) -> Hex:
    """The neighbour of ``hex_`` in ``direction`` (an index into DIRECTIONS)."""
    dq, dr = DIRECTIONS[direction % 6]
    return (hex_[0] + dq, hex_[1] + dr)


def neighbours(hex_: Hex) -> list[Hex]:
    """The six neighbours, in direction order."""
    return [step(hex_, i) for i in range(6)]


def direction_to(a: Hex, b: Hex) -> int | None:
    """The direction index from ``a`` to its neighbour ``b``, or None when not neighbours."""
    delta = (b[0] - a[0], b[1] - a[1])
    return DIRECTIONS.index(delta) if delta in DIRECTIONS else None


def corner(hex_: Hex, direction: int) -> Corner:
    """The corner of ``hex_`` between its sides ``direction`` and ``direction + 1``."""
    return frozenset((hex_, step(hex_, direction), step(hex_, direction + 1)))


def corners(hex_: Hex) -> list[Corner]:
    """The six corners of a hex."""
    return [corner(hex_, i) for i in range(6)]


def edge_corners(hex_: Hex, direction: int) -> tuple[Corner, Corner]:
    """The two corners at the ends of the side of ``hex_`` facing ``direction``."""
    return corner(hex_, direction - 1), corner(hex_, direction)


def board_corners(hexes: Iterable[Hex]) -> set[Corner]:
    """Every corner touching at least one of ``hexes``."""
    return {c for h in hexes for c in corners(h)}


def components(cells: Iterable[Hex]) -> list[set[Hex]]:
    """The connected groups of ``cells`` (neighbours join), largest first."""
    todo, groups = set(cells), []
    while todo:
        start = todo.pop()
        group, frontier = {start}, [start]
        while frontier:
            for n in neighbours(frontier.pop()):
                if n in todo:
                    todo.discard(n)
                    group.add(n)
                    frontier.append(n)
        groups.append(group)
    return sorted(groups, key=len, reverse=True)


def pixel(hex_: Hex, size: float) -> tuple[float, float]:
    """The centre of a pointy-top hex of circumradius ``size`` (y grows downwards)."""
    q, r = hex_
    return (size * 3 ** 0.5 * (q + r / 2), size * 1.5 * r)


def parse_art(rows: Iterable[str]) -> dict[Hex, str]:
    """Read a frame drawn as text: one line per row r, hexes at every other column.

    Row ``r`` lines up with the picture of pointy-top hexes: each row is shifted half a hex
    from the one above, so a symbol at text column ``c`` sits at ``q = (c - r - shift) / 2``
    where ``shift`` makes the first symbol of the first row ``q = 0``. Spaces are no position.
    """
    cells: dict[Hex, str] = {}
    shift = None
    for r, line in enumerate(rows):
        for c, symbol in enumerate(line):
            if symbol == " ":
                continue
            if shift is None:
                shift = c - r
            if (c - r - shift) % 2:
                raise ValueError(f"symbol {symbol!r} at row {r} column {c} is off the grid")
            cells[((c - r - shift) // 2, r)] = symbol
    return cells


def labels(cells: Iterable[Hex]) -> dict[Hex, str]:
    """Short names printed on the board: a letter per row from the top (A, B, ...) and a
    number per hex from the west within that row (A1, A2, ...), e.g. "C4"."""
    cells = sorted(set(cells), key=lambda h: (h[1], h[0]))
    rows = sorted({r for _, r in cells})
    out, count = {}, {}
    for q, r in cells:
        count[r] = count.get(r, 0) + 1
        out[(q, r)] = f"{row_letter(rows.index(r))}{count[r]}"
    return out


def row_letter(index: int) -> str:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return letters[index] if index < len(letters) else f"Z{index - len(letters) + 1}"
