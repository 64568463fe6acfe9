"""``{% load locale_digits %}``: numbers the server writes into a page, in the page language's own
digits (Nepali: Devanagari), as the page's scripts write theirs (``digits()`` in i18n.js).

    {{ row.last_seen|date:"Y-m-d H:i"|digits }}   {{ field.help_text|safe|digits }}

Only text is changed, never markup: a tag (and its attributes: a URL, an id) keeps its digits.
"""

from __future__ import annotations

import re

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

register = template.Library()

# The zero of each language whose digits are not ASCII.
ZEROS = {"ne": 0x0966}
TAG_OR_DIGIT = re.compile(r"(<[^>]*>)|[0-9]")


def in_locale_digits(text: str, language: str | None) -> str:
    zero = ZEROS.get((language or "")[:2])
    if not zero:
        return text
    return TAG_OR_DIGIT.sub(lambda m: m.group(1) or chr(zero + int(m.group(0))), text)


@register.filter(is_safe=True)
def digits(value: object) -> str:
    text = str(value)
    changed = in_locale_digits(text, get_language())
    return mark_safe(changed) if isinstance(value, SafeString) else changed
