"""The shapes of names: what a display name or a username looks like, and what it may hold.

Pure functions of text (and their SQL twins for username columns); nothing here reads a table,
so the model, its validators and the forms can all use them. Checking a display name against the
players' usernames is ``accounts.display_names.clean_display_name``.

The rules for display names:

A display name is stored NFKC-normalised (fullwidth and other compatibility forms become their
plain letters; odd spaces become ' ') with its ends trimmed. It is refused (a clear 400 over the
API, a form error on the pages) when it

- holds a control, format, private-use, unassigned or line/paragraph separator character, a
  space other than U+0020, or a character that shows as nothing (the Hangul fillers such as
  U+3164, U+2800 BRAILLE PATTERN BLANK), or a run of more than ``MAX_MARKS`` combining marks;
- looks like a reserved name (admin, staff, moderator, system, ...), separators ignored (the
  same rule refuses such usernames: ``accounts.validators.refuse_reserved_username``);
- looks like another player's username.

"Looks like" compares *skeletons*, in the manner of Unicode TR39: NFKC, every character replaced
by the representative of its confusables class (Unicode's confusables data, from the
confusable-homoglyphs package: Cyrillic 'а' and Greek 'α' stand for 'a', 'O' and '0' for one),
case-folded, then the lookalikes that remain among ASCII folded together ('0'/'o', '1'/'l'/'i',
'rn'/'m', 'vv'/'w'). Usernames are ASCII, so their skeletons are computed in SQL with the same
ASCII folds (``username_skeleton``), and the check is one query.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from django.core.exceptions import ValidationError
from django.db.models import F, Func, Value
from django.db.models.functions import Lower, Replace
from django.utils.translation import gettext as _

MAX_MARKS = 2
RESERVED = ("admin", "administrator", "staff", "moderator", "system", "root", "support")

# Categories refused: control, format, surrogate, private use, unassigned, line and paragraph
# separators. Spaces other than U+0020 (after NFKC) are refused separately.
_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# Letters and symbols that render as blank space.
_BLANKS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u180e", "\u17b4", "\u17b5"}
# Lookalikes left among ASCII once case is folded, applied in this order (SQL repeats them).
ASCII_FOLDS: tuple[tuple[str, str], ...] = (
    ("0", "o"),
    ("1", "l"),
    ("i", "l"),
    ("|", "l"),
    ("rn", "m"),
    ("vv", "w"),
)
_SEPARATORS = re.compile(r"[\s_\-.·•*~'`\"]+")


@functools.cache
def _representatives() -> dict[str, str]:
    """Each confusable character -> its class's representative (an ASCII member if it has one)."""
    from confusable_homoglyphs.confusables import confusables_data  # type: ignore[import-untyped]

    parent: dict[str, str] = {}

    def find(char: str) -> str:
        while parent.get(char, char) != char:
            char = parent[char]
        return char

    def rank(char: str) -> tuple[bool, str]:
        return (not char.isascii(), char)

    for char, homoglyphs in confusables_data.items():
        for homoglyph in homoglyphs:
            other = homoglyph["c"]
            if len(char) == 1 and len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    low, high = sorted((a, b), key=rank)
                    parent[high] = low
    return {char: find(char) for char in parent}


def skeleton(text: str) -> str:
    """What `text` looks like: equal skeletons, confusable names."""
    representatives = _representatives()
    text = unicodedata.normalize("NFKC", text)
    text = "".join(representatives.get(char, char) for char in text)
    text = unicodedata.normalize("NFKC", text.casefold())
    for old, new in ASCII_FOLDS:
        text = text.replace(old, new)
    return text


def username_skeleton(field: str = "username") -> Func:
    """`skeleton()` of an ASCII username column, in SQL (lower-case, then the ASCII folds)."""
    expression: Func = Lower(F(field))
    for old, new in ASCII_FOLDS:
        expression = Replace(expression, Value(old), Value(new))
    return expression


def name_shape(value: str) -> str:
    """`skeleton()` without separators: ``Ad_min``, ``ad-m1n`` and ``admin`` have one shape."""
    return _SEPARATORS.sub("", skeleton(value))


def username_shape(field: str = "username") -> Func:
    """`name_shape()` of an ASCII username column, in SQL (a username's only separators are
    ``_`` and ``-``; a deleted account's ``deleted.<id>`` has a dot)."""
    expression = username_skeleton(field)
    for separator in ("_", "-", "."):
        expression = Replace(expression, Value(separator), Value(""))
    return expression


def normalize(value: str) -> str:
    return unicodedata.normalize("NFKC", value).strip()


def refuse_unsafe_characters(value: str) -> None:
    marks = 0
    for char in value:
        category = unicodedata.category(char)
        if category in _REFUSED_CATEGORIES or char in _BLANKS:
            raise ValidationError(
                _("A display name may not contain invisible or control characters (U+%(code)s).")
                % {"code": f"{ord(char):04X}"},
                code="invalid_display_name",
            )
        if category == "Zs" and char != " ":
            raise ValidationError(
                _("A display name may only contain plain spaces (not U+%(code)s).")
                % {"code": f"{ord(char):04X}"},
                code="invalid_display_name",
            )
        marks = marks + 1 if category.startswith("M") else 0
        if marks > MAX_MARKS:
            raise ValidationError(
                _("A display name may not stack more than two accents on one letter."),
                code="invalid_display_name",
            )


def looks_reserved(value: str) -> bool:
    """Whether `value` looks like a name of the site's staff: a display name or a username."""
    shape = name_shape(value)
    return any(shape == name_shape(name) for name in RESERVED)
