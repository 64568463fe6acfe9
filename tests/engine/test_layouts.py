"""The layout catalogue: 54+ named layouts, valid, drawn sensibly, numbered like the classic, solvable."""

from __future__ import annotations

import importlib
import importlib.util
import math
import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from tripeaks.engine.deal import Deal, from_seed
from tripeaks.engine.layout import CLASSIC, Layout, LayoutError
from tripeaks.engine.layouts import DEFAULT_LAYOUT, LAYOUTS, get_layout
from tripeaks.engine.layouts.catalog import CATALOG, parse_grid
from tripeaks.engine.rules import Rules

ALL = list(CATALOG)
IDS = [layout.name for layout in ALL]


def test_there_are_at_least_54_layouts_with_unique_slug_names() -> None:
    assert len(ALL) >= 54
    assert len(set(IDS)) == len(IDS)
    assert list(LAYOUTS) == IDS
    for name in IDS:
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", name), name


def test_titles_are_unique_and_human() -> None:
    titles = [layout.title for layout in ALL]
    assert len(set(titles)) == len(titles)
    for title in titles:
        assert title and title[0].isupper() and title == title.strip()


def test_classic_is_layout_one_and_the_default() -> None:
    assert ALL[0] is CLASSIC
    assert DEFAULT_LAYOUT == "classic"
    assert get_layout("classic") is CLASSIC


def test_classic_covers_exactly_as_the_issue_says() -> None:
    expected: list[tuple[int, ...]] = []
    expected += [(3 + 2 * p, 4 + 2 * p) for p in range(3)]
    expected += [(9 + 3 * (i // 2) + i % 2, 10 + 3 * (i // 2) + i % 2) for i in range(6)]
    expected += [(18 + i, 19 + i) for i in range(9)]
    expected += [() for _ in range(10)]
    assert CLASSIC.size == 28
    assert [tuple(sorted(c)) for c in CLASSIC.covered_by] == expected


def test_the_classic_picture_parses_to_the_classic_slots() -> None:
    picture = """
        ...0.....0.....0
        ..1.1...1.1...1.1
        .2.2.2.2.2.2.2.2.2
        3.3.3.3.3.3.3.3.3.3
    """
    assert parse_grid(picture) == CLASSIC.slots


def test_a_picture_with_a_stray_character_is_rejected() -> None:
    with pytest.raises(LayoutError, match="row 1, column 2"):
        parse_grid("0.0\n..x")


def test_a_picture_with_two_cards_overlapping_on_one_level_is_rejected() -> None:
    with pytest.raises(LayoutError, match="overlap on one level"):
        Layout("bad", "Bad", parse_grid("0.\n.0"))


@pytest.mark.parametrize("layout", ALL, ids=IDS)
def test_every_layout_has_15_to_30_cards(layout: Layout) -> None:
    assert 15 <= layout.size <= 30


@pytest.mark.parametrize("layout", ALL, ids=IDS)
def test_every_layout_validates_and_starts_with_a_free_and_a_face_down_card(layout: Layout) -> None:
    rebuilt = Layout(layout.name, layout.title, layout.slots, layout.solvability)
    assert rebuilt.covered_by == layout.covered_by
    assert any(not above for above in layout.covered_by)
    assert any(above for above in layout.covered_by)
    for position, above in enumerate(layout.covered_by):
        for other in above:
            assert layout.slots[other].z > layout.slots[position].z


@pytest.mark.parametrize("layout", ALL, ids=IDS)
def test_every_layout_fits_the_drawing_box(layout: Layout) -> None:
    xs = [slot.x for slot in layout.slots]
    ys = [slot.y for slot in layout.slots]
    assert min(xs) == 0 and min(ys) == 0
    assert max(xs) <= 20 and max(ys) <= 8
    assert all(0 <= slot.z <= 9 for slot in layout.slots)


@pytest.mark.parametrize("layout", ALL, ids=IDS)
def test_positions_are_numbered_top_row_first_left_to_right(layout: Layout) -> None:
    keys = [(slot.y, slot.x) for slot in layout.slots]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)


@pytest.mark.parametrize("layout", ALL, ids=IDS)
def test_every_layout_records_a_solvability_of_at_least_half(layout: Layout) -> None:
    assert layout.solvability is not None
    assert 0.5 <= layout.solvability <= 1.0


def test_get_layout_names_every_layout_and_rejects_unknown_names() -> None:
    for layout in ALL:
        assert get_layout(layout.name) is layout
    with pytest.raises(LayoutError, match="no layout named 'no-such-layout'"):
        get_layout("no-such-layout")


def _winnable() -> Callable[[Deal, Rules], bool]:
    """The engine's exact solver when it exists, else the exact baseline in bench/."""
    try:
        solver: ModuleType = importlib.import_module("tripeaks.engine.solver")
    except ImportError:
        path = Path(__file__).resolve().parents[2] / "bench" / "layout_solvability.py"
        spec = importlib.util.spec_from_file_location("layout_solvability", path)
        assert spec is not None and spec.loader is not None
        bench = importlib.util.module_from_spec(spec)
        sys.modules.setdefault("layout_solvability", bench)
        spec.loader.exec_module(bench)
        baseline: Callable[[Deal, Rules], bool] = bench.baseline_winnable
        return baseline
    return lambda deal, rules: bool(solver.solve(deal, rules).winnable)


def _binomial_tails(wins: int, deals: int, p: float) -> tuple[float, float]:
    """P(X <= wins) and P(X >= wins) for X ~ Binomial(deals, p)."""
    pmf = [math.comb(deals, k) * p**k * (1 - p) ** (deals - k) for k in range(deals + 1)]
    return sum(pmf[: wins + 1]), sum(pmf[wins:])


@pytest.mark.slow
def test_recorded_solvability_is_plausible_on_fresh_deals() -> None:
    """Solve 30 deals outside the measured seeds for the hardest layouts and the classic."""
    winnable = _winnable()
    hardest = sorted(ALL, key=lambda layout: (layout.solvability or 0.0, layout.size))[:3]
    deals = 30
    for layout in [CLASSIC, *hardest]:
        assert layout.solvability is not None
        wins = sum(
            winnable(from_seed(seed, layout), Rules()) for seed in range(10_000, 10_000 + deals)
        )
        p = min(max(layout.solvability, 0.001), 0.999)
        low_tail, high_tail = _binomial_tails(wins, deals, p)
        assert min(low_tail, high_tail) > 1e-4, (layout.name, wins, layout.solvability)
