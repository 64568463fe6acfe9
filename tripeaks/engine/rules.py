"""Rule variants and their keys, such as "wrap-closed"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Start = Literal["waste", "empty"]


class RulesError(ValueError):
    """A rule-set key that names no rule set."""


@dataclass(frozen=True, slots=True)
class Rules:
    """wrap: King and Ace connect. open: every layout card face up from the start.
    start: "waste" turns one card onto the waste; "empty" leaves it empty so any free card may start."""

    wrap: bool = True
    open: bool = False
    start: Start = "waste"

    def __post_init__(self) -> None:
        if not isinstance(self.wrap, bool) or not isinstance(self.open, bool):
            raise RulesError("wrap and open are True or False")
        if self.start not in ("waste", "empty"):
            raise RulesError(f"start {self.start!r} is not a start: use 'waste' or 'empty'")

    @property
    def key(self) -> str:
        key = f"{'wrap' if self.wrap else 'nowrap'}-{'open' if self.open else 'closed'}"
        return key if self.start == "waste" else f"{key}-empty"

    def fits(self, rank: int, target: int | None) -> bool:
        """Can a card of `rank` go onto a waste whose top has rank `target` (None: empty waste)?"""
        if target is None:
            return True
        gap = abs(rank - target)
        return gap == 1 or (self.wrap and gap == 12)

    @classmethod
    def from_key(cls, key: str) -> Rules:
        parts = key.strip().lower().split("-")
        if (
            len(parts) not in (2, 3)
            or parts[0] not in ("wrap", "nowrap")
            or parts[1] not in ("open", "closed")
        ):
            raise RulesError(
                f"{key!r} is not a rule set: use wrap-closed, wrap-open, nowrap-closed or nowrap-open"
            )
        if len(parts) == 3 and parts[2] != "empty":
            raise RulesError(f"{key!r} is not a rule set: the only start suffix is -empty")
        return cls(
            wrap=parts[0] == "wrap",
            open=parts[1] == "open",
            start="empty" if len(parts) == 3 else "waste",
        )


CLASSIC_RULE_SETS: tuple[Rules, ...] = tuple(
    Rules(wrap=w, open=o) for w in (True, False) for o in (False, True)
)
