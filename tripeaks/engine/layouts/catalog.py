"""The layouts as data."""

from __future__ import annotations

from tripeaks.engine.layout import CLASSIC, Layout

CATALOG: tuple[Layout, ...] = (CLASSIC,)
