"""Board cursors: an opaque, URL-safe token naming the board and the last line a page showed."""

from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime

from leaderboard.boards import Column, Key


class BadCursor(ValueError):
    """A cursor this server did not hand out (or for another board)."""


def encode_cursor(kind: str, rank: int, key: Key) -> str:
    values = [v.isoformat() if isinstance(v, datetime) else v for v in key]
    raw = json.dumps({"b": kind, "r": rank, "k": values}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(kind: str, cursor: str, types: tuple[type, ...]) -> tuple[int, Key]:
    """(rank of the last line seen, its sort key) from a cursor, or BadCursor."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        data = json.loads(raw)
        if not isinstance(data, dict) or data.get("b") != kind:
            raise BadCursor("the cursor belongs to another board")
        rank, values = data["r"], data["k"]
        if type(rank) is not int or rank < 1 or not isinstance(values, list):
            raise BadCursor("malformed cursor")
        if len(values) != len(types):
            raise BadCursor("malformed cursor")
        key: list[Column] = []
        for value, kind_of in zip(values, types, strict=True):
            if kind_of is datetime:
                parsed = datetime.fromisoformat(value)
                if parsed.tzinfo is None:
                    raise BadCursor("malformed cursor")
                key.append(parsed)
            elif (kind_of is int and type(value) is int) or (
                kind_of is bool and type(value) is bool
            ):
                key.append(value)
            elif kind_of is float and type(value) in (int, float):
                key.append(float(value))
            else:
                raise BadCursor("malformed cursor")
        return rank, tuple(key)
    except BadCursor:
        raise
    except (ValueError, KeyError, TypeError, binascii.Error, UnicodeDecodeError):
        raise BadCursor("malformed cursor") from None
