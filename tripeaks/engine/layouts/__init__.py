"""Every named layout, the classic three peaks first."""

from __future__ import annotations

from tripeaks.engine.layout import Layout, LayoutError
from tripeaks.engine.layouts.catalog import CATALOG

LAYOUTS: dict[str, Layout] = {layout.name: layout for layout in CATALOG}
DEFAULT_LAYOUT = "classic"


def get_layout(name: str) -> Layout:
    try:
        return LAYOUTS[name]
    except KeyError:
        raise LayoutError(
            f"no layout named {name!r}; there are {len(LAYOUTS)}, such as {DEFAULT_LAYOUT!r}"
        ) from None
