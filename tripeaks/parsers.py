"""The API's JSON parser: DRF's, with a limit on nesting.

Python's JSON decoder recurses once per nested array or object: a body of 100,000 ``[`` made it
raise ``RecursionError`` (not a ``ValueError``), which DRF let through as a 500. No request of
this API nests more than a few levels, so a body nested deeper than ``MAX_DEPTH`` is a 400 before
it is decoded. The depth is counted only when the body holds more than ``MAX_DEPTH`` brackets, so
ordinary bodies pay one ``count`` each.
"""

from __future__ import annotations

import re
from itertools import accumulate
from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError
from rest_framework.utils import json

MAX_DEPTH = 32
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def nesting_depth(text: str) -> int:
    """How deep `text`'s arrays and objects nest (brackets inside strings do not count)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return min(MAX_DEPTH, text.count("[") + text.count("{"))
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


class JSONBodyParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        # DRF's own check of the charset (text codecs only).
        encoding = parsers.get_encoding(parser_context or {})  # type: ignore[attr-defined]
        try:
            text = stream.read().decode(encoding) if stream is not None else ""
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        if nesting_depth(text) > MAX_DEPTH:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_DEPTH} levels")
        try:
            return json.loads(text, parse_constant=json.strict_constant if self.strict else None)
        except (ValueError, RecursionError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
