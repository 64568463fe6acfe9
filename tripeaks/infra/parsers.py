"""The API's JSON parser: DRF's, answering 400 for JSON nested too deeply to decode.

Python's JSON decoder recurses once per nested array or object: a body of 100,000 ``[`` made it
raise ``RecursionError`` (not a ``ValueError``), which DRF let through as a 500. Here it is a
parse error like any other. (A depth limit computed from the text before decoding was tried: in
Python it cost up to a second of CPU for a 2.5 MB body of brackets or escapes, an attack of its
own; the C decoder refuses the deep ones in milliseconds.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO

from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONBodyParser(parsers.JSONParser):
    def parse(
        self,
        stream: IO[bytes],
        media_type: str | None = None,
        parser_context: Mapping[str, object] | None = None,
    ) -> dict[str, object]:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply") from None
