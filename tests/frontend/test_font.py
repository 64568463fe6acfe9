"""The Devanagari webfont the Nepali pages ship (scripts/subset_font.py): every letter the Nepali
catalogs use is in it, it is small, its licence travels with it, and only Nepali pages load it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[2]
FONTS = ROOT / "frontend" / "static" / "frontend" / "fonts"
FONT = FONTS / "noto-sans-devanagari-subset.woff2"
DEVANAGARI = re.compile("[\u0900-\u097f]")


def test_every_devanagari_letter_of_the_nepali_catalogs_is_in_the_font() -> None:
    used = {
        ord(c)
        for po in (ROOT / "locale" / "ne" / "LC_MESSAGES").glob("*.po")
        for c in DEVANAGARI.findall(po.read_text(encoding="utf-8"))
    }
    font = TTFont(str(FONT))
    assert font.flavor == "woff2"
    missing = sorted(chr(c) for c in used - set(font.getBestCmap()))
    assert missing == [], f"run scripts/subset_font.py again: {missing}"
    assert {0x0966 + d for d in range(10)} <= set(font.getBestCmap())  # the digits
    assert FONT.stat().st_size < 20_000  # 16,976 bytes; the whole Devanagari block was 50,416


def test_the_font_travels_with_its_licence() -> None:
    licence = (FONTS / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL Open Font License, Version 1.1" in licence
    assert "Noto Project Authors" in licence


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ne", "de", "en"])
def test_the_nepali_pages_are_set_in_the_font_the_others_only_nepali_words(language: str) -> None:
    """(A browser downloads it only where it draws Devanagari: tests/frontend/test_e2e_wire.py.)"""
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert "noto-sans-devanagari-subset" in page and "unicode-range:U+0900-097F" in page
    whole_page = ':root{font-family:"TriPeaks Devanagari"' in page
    assert whole_page is (language == "ne")
    assert ('[lang=ne]{font-family:"TriPeaks Devanagari"' in page) is (language != "ne")
    assert '<option value="ne" lang="ne"' in page  # the language list's "नेपाली"
