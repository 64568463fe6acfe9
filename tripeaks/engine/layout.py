"""A layout: where the cards lie and which card covers which, derived from the geometry.

Coordinates are in half-card units: a card spans 2 units across (x) and 2 units down (y), so
a card one unit lower and one unit to the side overlaps half of it. A card covers another when
it lies above it (greater z) and their rectangles overlap.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class LayoutError(ValueError):
    """A layout that cannot be played: overlapping slots, nothing free, bad size."""


@dataclass(frozen=True, slots=True)
class Slot:
    x: int
    y: int
    z: int


def _overlaps(a: Slot, b: Slot) -> bool:
    return abs(a.x - b.x) < 2 and abs(a.y - b.y) < 2


@dataclass(frozen=True, slots=True)
class Layout:
    """Positions are numbered in the order of `slots`; deals fill them in that order."""

    name: str
    title: str
    slots: tuple[Slot, ...]
    # Share of winnable deals (wrap on, at least 1,000 random deals), measured by `python -m tripeaks stats`.
    solvability: float | None = None
    covered_by: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    covers: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    # covered_by as bitmasks: a position is free when every bit of its mask is removed.
    cover_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    # How many positions (a field, not worked out at each ask: every move's rules and view ask).
    size: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        slots = self.slots
        if not 1 <= len(slots) <= 51:
            raise LayoutError(f"layout {self.name!r} has {len(slots)} cards; it needs 1 to 51")
        if len(set(slots)) != len(slots):
            raise LayoutError(f"layout {self.name!r} puts two cards in one place")
        covered_by = tuple(
            tuple(
                j for j, above in enumerate(slots) if above.z > below.z and _overlaps(above, below)
            )
            for below in slots
        )
        for i, below in enumerate(slots):
            for j, other in enumerate(slots):
                if i != j and other.z == below.z and _overlaps(other, below):
                    raise LayoutError(
                        f"layout {self.name!r}: positions {i} and {j} overlap on one level"
                    )
        if not any(not c for c in covered_by):
            raise LayoutError(f"layout {self.name!r} has no free card at the start")
        covers = tuple(
            tuple(i for i, above in enumerate(covered_by) if j in above) for j in range(len(slots))
        )
        object.__setattr__(self, "size", len(slots))
        object.__setattr__(self, "covered_by", covered_by)
        object.__setattr__(self, "covers", covers)
        object.__setattr__(
            self, "cover_masks", tuple(sum(1 << c for c in above) for above in covered_by)
        )

    def free(self, position: int, removed: int) -> bool:
        """Is `position` uncovered once the positions in the bitmask `removed` are gone?"""
        mask = self.cover_masks[position]
        return removed & mask == mask


def classic_slots() -> tuple[Slot, ...]:
    """The three peaks: rows of 3, 6, 9 and 10, top row first, each left to right."""
    tops = [Slot(3 + 6 * p, 0, 0) for p in range(3)]
    second = [Slot(2 + 6 * (i // 2) + 2 * (i % 2), 1, 1) for i in range(6)]
    third = [Slot(1 + 2 * i, 2, 2) for i in range(9)]
    bottom = [Slot(2 * i, 3, 3) for i in range(10)]
    return tuple(tops + second + third + bottom)


CLASSIC = Layout("classic", "Three Peaks", classic_slots(), solvability=0.96)
