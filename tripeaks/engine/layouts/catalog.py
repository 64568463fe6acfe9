"""The layouts as data: one small picture per layout, parsed when the module is imported.

Each picture is a grid of characters in half-card units: the character in column x of row y
is "." for no card, or a digit z for a card whose top-left corner lies at (x, y) on level z.
A card spans two columns and two rows, so a card one row lower and one column to the side
overlaps a quarter of it. Covers are derived from the geometry (see `tripeaks.engine.layout`):
a card covers every card on a lower level that its rectangle overlaps. Positions are numbered in
reading order, top row first and each row left to right, exactly like the classic three peaks.

`solvability` is the share of winnable deals over seeds 0..999, wrap on, measured with an exact
solver by `bench/layout_solvability.py` (the table is in docs/layouts.md).
"""

from __future__ import annotations

import textwrap

from tripeaks.engine.layout import CLASSIC, Layout, LayoutError, Slot


def parse_grid(grid: str) -> tuple[Slot, ...]:
    """The slots drawn in `grid`, in reading order (top row first, each row left to right)."""
    rows = textwrap.dedent(grid).strip("\n").splitlines()
    slots: list[Slot] = []
    for y, row in enumerate(rows):
        for x, char in enumerate(row.rstrip()):
            if char == ".":
                continue
            if not char.isdigit():
                raise LayoutError(f"row {y}, column {x} of a layout picture holds {char!r}; use '.' or a level 0-9")
            slots.append(Slot(x, y, int(char)))
    return tuple(slots)


def from_grid(name: str, title: str, solvability: float | None, grid: str) -> Layout:
    return Layout(name, title, parse_grid(grid), solvability)


CATALOG: tuple[Layout, ...] = (
    CLASSIC,
    from_grid("twin-peaks", "Twin Peaks", 0.985, """
        ...0.......0...
        ..1.1.....1.1..
        .2.2.2.2.2.2.2.
        3.3.3.3.3.3.3.3
    """),
    from_grid("four-peaks", "Four Peaks", 1.0, """
        ..0...0...0...0..
        .1.1.1.1.1.1.1.1.
        2.2.2.2.2.2.2.2.2
    """),
    from_grid("five-peaks", "Five Peaks", 1.0, """
        .0...0...0...0...0.
        1.1.1.1.1.1.1.1.1.1
        .2.2.2.2.2.2.2.2.2.
    """),
    from_grid("mountain-range", "Mountain Range", 0.961, """
        ........0..........
        ...1...1.1.........
        ..2.2.2.2.2...2....
        .3.3.3.3.3.3.3.3.3.
        4.4.4.4.4.4.4.4.4.4
    """),
    from_grid("pyramid", "Pyramid", 0.862, """
        ....0
        ...1.1
        ..2.2.2
        .3.3.3.3
        4.4.4.4.4
    """),
    from_grid("great-pyramid", "Great Pyramid", 0.959, """
        ......0
        .....1.1
        ....2.2.2
        ...0.0.0.0
        ..1.1.1.1.1
        .2.2.2.2.2.2
        3.3.3.3.3.3.3
    """),
    from_grid("twin-pyramids", "Twin Pyramids", 0.737, """
        ....0.........0
        ...1.1.......1.1
        ..2.2.2.....2.2.2
        .3.3.3.3...3.3.3.3
        4.4.4.4.4.4.4.4.4.4
    """),
    from_grid("cascade", "Cascade", 0.834, """
        ....4
        ...3.3
        ..2.2.2
        .1.1.1.1
        0.0.0.0.0
    """),
    from_grid("funnel", "Funnel", 0.829, """
        0.0.0.0.0
        .1.1.1.1
        ..2.2.2
        ...3.3
        ....4
    """),
    from_grid("three-valleys", "Three Valleys", 0.954, """
        0.0.0.0.0.0.0.0.0.0
        .1.1.1.1.1.1.1.1.1
        ..2.2...2.2...2.2
        ...3.....3.....3
    """),
    from_grid("diamond", "Diamond", 0.765, """
        ....0....
        ...1.1...
        ..2.2.2..
        .3.3.3.3.
        4.4.4.4.4
        .3.3.3.3.
        ..2.2.2..
        ...1.1...
        ....0....
    """),
    from_grid("hourglass", "Hourglass", 0.95, """
        3.3.3.3.3
        .2.2.2.2.
        ..1.1.1..
        ...0.0...
        ..1.1.1..
        .2.2.2.2.
        3.3.3.3.3
    """),
    from_grid("mesa", "Mesa", 0.937, """
        ...0.0.0.0
        ..1.1.1.1.1
        .2.2.2.2.2.2
        3.3.3.3.3.3.3
    """),
    from_grid("wedge", "Wedge", 0.841, """
        0
        .1.1
        2.2.2
        .3.3.3.3
        4.4.4.4.4
        .5.5.5.5.5.5
    """),
    from_grid("ziggurat", "Ziggurat", 1.0, """
        0.0.0.0.0
        .1.1.1.1.
        0.02020.0
        .1.1.1.1.
        0.0.0.0.0
    """),
    from_grid("checkerboard", "Checkerboard", 1.0, """
        0.0.0.0.0.0
        .1.1.1.1.1
        0.0.0.0.0.0
        .1.1.1.1.1
        0.0.0.0.0.0
    """),
    from_grid("wall", "The Wall", 0.926, """
        0.0.0.0.0.0.
        .1.1.1.1.1.1
        2.2.2.2.2.2.
        .3.3.3.3.3.3
    """),
    from_grid("great-wall", "Great Wall", 0.996, """
        0.0.0.0.0.0.0.0.0.
        .1.1.1.1.1.1.1.1.1
        2.2.2.2.2.2.2.2.2.
    """),
    from_grid("stone-wall", "Stone Wall", 1.0, """
        010101010
        .........
        101010101
        .........
        010101010
    """),
    from_grid("ruined-wall", "Ruined Wall", 0.976, """
        0.0...0.0.0...
        .1.1.1.1...1.1
        2.2.2.2.2.2.2.
        .3.3...3.3.3.3
    """),
    from_grid("fence", "Fence", 0.998, """
        0.....0.....0.....0
        14.4.414.4.414.4.41
        2.....2.....2.....2
        3.....3.....3.....3
    """),
    from_grid("castle", "Castle", 0.876, """
        0.0.0.......0.0.0
        .1.1.........1.1.
        2.2.2.2.2.2.2.2.2
        .3.3.3.....3.3.3.
        4.4...........4.4
    """),
    from_grid("five-towers", "Five Towers", 0.961, """
        0...0...0...0...0
        1...1...1...1...1
        2...2...2...2...2
        3...3...3...3...3
        4...4...4...4...4
    """),
    from_grid("twin-towers", "Twin Towers", 0.988, """
        0.0.........0.0
        1.1.........1.1
        2.25.5.5.5.52.2
        3.3.........3.3
        4.4.........4.4
    """),
    from_grid("skyline", "Skyline", 0.993, """
        ......0......
        ..1...1.....1
        ..2...2.2...2
        3.3...3.3.3.3
        4.4.4.4.4.4.4
        5.5.5.5.5.5.5
    """),
    from_grid("lighthouse", "Lighthouse", 1.0, """
        0..0.0..0
        ....1
        ...0.0
        ....1
        ...0.0
        ....1
        ...0.0
        ..1.1.1
        .2.2.2.2
    """),
    from_grid("staircase", "Staircase", 0.791, """
        0.0.0.0
        .1.1.1.1
        ..2.2.2.2
        ...3.3.3.3
        ....4.4.4.4
    """),
    from_grid("steps", "Steps", 1.0, """
        0.0.0............
        ..1.1.1..........
        ....2.2.2........
        ......3.3.3......
        ........4.4.4....
        ..........5.5.5..
        ............6.6.6
    """),
    from_grid("bridge", "Bridge", 0.992, """
        0.0.0.0.0.0.0.0.0.0
        .1.......1.......1.
        .2.......2.......2.
        .3.......3.......3.
        .4.......4.......4.
    """),
    from_grid("suspension-bridge", "Suspension Bridge", 0.97, """
        ...0...........0
        ...1...........1
        ...2...........2
        9.939.9.9.9.9.939.9
        ...4...........4
        ...5...........5
    """),
    from_grid("rope-bridge", "Rope Bridge", 0.999, """
        0.................0
        210.............012
        3..101.......101..3
        4.....0101010.....4
    """),
    from_grid("arch", "Arch", 0.965, """
        ....4.454.4
        ...3.3...3.3
        ..2.2.....2.2
        .1.1.......1.1
        0.0.........0.0
        1.1.........1.1
        0.0.........0.0
    """),
    from_grid("aqueduct", "Aqueduct", 0.997, """
        0.0.0.0.0.0.0.0.0.0
        .1.1.1.1.1.1.1.1.1.
        2.....2.....2.....2
        3.....3.....3.....3
    """),
    from_grid("temple", "Temple", 1.0, """
        .......4
        ......5.5
        .6.6.6.6.6.6.6
        .0...0...0...0
        .1...1...1...1
        .2...2...2...2
        3.3.3.3.3.3.3.3
    """),
    from_grid("torii", "Torii Gate", 0.999, """
        6.6.6.6.6.6.6.6.6
        ...0.........0
        ...1.........1
        ..626.6.6.6.626
        ...3.........3
        ...4.........4
        ...5.........5
    """),
    from_grid("pagoda", "Pagoda", 1.0, """
        .....0
        ....1.1.1
        .....0.0
        ..1.1.1.1.1
        ...0.0.0.0
        1.1.1.1.1.1.1
        .0.0.0.0.0.0
    """),
    from_grid("ladder", "Ladder", 0.908, """
        0.......0
        17.7.7.71
        2.......2
        37.7.7.73
        4.......4
        57.7.7.75
        6.......6
    """),
    from_grid("crown", "Crown", 0.987, """
        .0.......0.......0.
        1.1..1..1.1..1..1.1
        .2.2.2.2.2.2.2.2.2.
        3.3.3.3.3.3.3.3.3.3
    """),
    from_grid("zigzag", "Zigzag", 1.0, """
        0.....0.....0
        .1...1.1...1.1
        0.0.0.0.0.0.0.0
        .1.1.1.1.1.1.1
        ..0.0...0.0...0
        ...1.....1
    """),
    from_grid("waves", "Waves", 1.0, """
        01..01..01
        ..01..01
        .
        .01..01..01
        ...01..01
        .
        01..01..01
        ..01..01
    """),
    from_grid("butterfly", "Butterfly", 1.0, """
        .0.0.......0.0
        1.1.1..3..1.1.1
        ..2.2.2.2.2.2
        1.1.1..3..1.1.1
        .0.0.......0.0
    """),
    from_grid("bowtie", "Bow Tie", 0.834, """
        0.......0
        .1.....1
        0.2...2.0
        .1.343.1
        0.2...2.0
        .1.....1
        0.......0
    """),
    from_grid("cross", "Cross", 1.0, """
        .....0.0
        .....1.1
        .....0.0
        2.2.2.2.2.2.2
        .3.3.3.3.3.3
        .....2.2
        .....3.3
        .....2.2
    """),
    from_grid("saltire", "Saltire", 0.962, """
        4.......4
        .3.....3
        ..2...2
        ...1.1
        ....0
        ...1.1
        ..2...2
        .3.....3
        4.......4
    """),
    from_grid("heart", "Heart", 1.0, """
        .2.2...2.2
        1.1.1.1.1.1
        .0.0.0.0.0
        ..2.2.2.2
        ...1.1.1
        ....0.0
        .....2
    """),
    from_grid("arrow", "Arrow", 0.992, """
        ......0.0
        1.1....1.1
        .2.2....2.2
        3.3.3.3.3.3.3
        .2.2....2.2
        1.1....1.1
        ......0.0
    """),
    from_grid("frame", "Picture Frame", 0.984, """
        0.0.0.0.0.0.0
        .1.........1
        2...........2
        .3.........3
        4...........4
        .5.5.5.5.5.5
    """),
    from_grid("pine-tree", "Pine Tree", 0.984, """
        .....0
        ....1.1
        ...2.2.2
        ..0.0.0.0
        .1.1.1.1.1
        2.2.2.2.2.2
        .....3
        .....4
    """),
    from_grid("cottage", "Cottage", 0.991, """
        ...0..0
        ..1.1.1
        .2.2.2
        3.3.3.3
        .2.2.2
        3.3.3.3
        .4...4
    """),
    from_grid("sailboat", "Sailboat", 0.731, """
        .....0
        ....1.1..1
        ...2.2.2.2
        ..3.3.3.3.3
        4.4.4.4.4.4.4
        .5.5.5.5.5.5
    """),
    from_grid("dice", "Dice", 1.0, """
        0.0...0.0...0.0
        .1.....1.....1
        0.0...0.0...0.0
        .
        ...0.0...0.0...0.0
        ....1.....1.....1
        ...0.0...0.0...0.0
    """),
    from_grid("dominoes", "Dominoes", 1.0, """
        01.01.01.01.01
        .
        .0..0..0..0..0
        .1..1..1..1..1
        .
        01.01.01.01.01
    """),
    from_grid("horseshoe", "Horseshoe", 1.0, """
        0...........0
        1...........1
        0...........0
        1...........1
        0...........0
        1...........1
        .0.........0
        ..1.......1
        ...0101010
    """),
)
