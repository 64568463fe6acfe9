"""The Devanagari webfont the Nepali pages load: Noto Sans Devanagari (SIL OFL 1.1,
frontend/static/frontend/fonts/OFL.txt), cut down to the glyphs the Nepali catalogs need.

    npm pack @fontsource/noto-sans-devanagari@5.3.0 && tar xzf fontsource-noto-sans-devanagari-5.3.0.tgz
    python scripts/subset_font.py package/files/noto-sans-devanagari-devanagari-400-normal.woff2

Every run of Devanagari in ``locale/ne/LC_MESSAGES/*.po`` (and the digits) is shaped with HarfBuzz,
as a browser shapes it; the font keeps exactly the glyphs that shaping uses (the conjuncts, half
forms and vowel signs of our words, with the rules that make them), every Devanagari letter the
catalogs use, and no others: 16.5 KB of woff2, against 28 KB when every conjunct of those letters
was kept and 50 KB for the whole Devanagari block. A word of another text (a player's name) that
needs a conjunct the font lacks is still drawn, its letters joined by a visible virama.
The script then shapes every run again with the cut font and fails if a glyph differs.

Run it again after new Nepali words (tests/frontend/test_font.py fails when a letter is missing).
Needs fontTools, brotli and uharfbuzz (the test extras).
"""

from __future__ import annotations

import argparse
import io
import re
from pathlib import Path

import uharfbuzz as hb
from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = sorted((ROOT / "locale" / "ne" / "LC_MESSAGES").glob("*.po"))
TARGET = ROOT / "frontend" / "static" / "frontend" / "fonts" / "noto-sans-devanagari-subset.woff2"
RUN = re.compile("[\u0900-\u097f\u200c\u200d]+")
# The digits, danda and double danda: numbers and sentences the catalogs may not spell out.
ALWAYS = [chr(c) for c in (*range(0x0966, 0x0970), 0x0964, 0x0965)]


def runs() -> set[str]:
    found = set(ALWAYS)
    for path in CATALOGS:
        found.update(RUN.findall(path.read_text(encoding="utf-8")))
    return found


def shaped(
    font_bytes: bytes, texts: set[str], order: list[str]
) -> tuple[dict[str, list[str]], set[str]]:
    """Each text's glyphs, by name (`order`: the font's glyph names by id), as HarfBuzz shapes
    it with this font; and every glyph shaping passed through on the way (a conjunct made in
    steps needs the glyphs of each step)."""
    face = hb.Face(font_bytes)
    font = hb.Font(face)
    out = {}
    seen: set[str] = set()
    for text in texts:
        buffer = hb.Buffer()
        buffer.add_str(text)
        buffer.guess_segment_properties()

        def step(message: str, buffer: hb.Buffer = buffer) -> bool:
            # Around each lookup the buffer holds glyph ids (before the first, characters).
            if message.startswith(("start lookup", "end lookup")):
                seen.update(order[info.codepoint] for info in buffer.glyph_infos)
            return True

        buffer.set_message_func(step)
        hb.shape(font, buffer, {})
        out[text] = [order[info.codepoint] for info in buffer.glyph_infos]
        seen.update(out[text])
    return out, seen


def plain(path: Path) -> bytes:
    font = TTFont(str(path))
    font.flavor = None
    data = io.BytesIO()
    font.save(data)
    return data.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", type=Path, help="Noto Sans Devanagari, regular (ttf or woff2)")
    parser.add_argument("--output", type=Path, default=TARGET)
    args = parser.parse_args()
    texts = runs()
    source = plain(args.source)
    before, steps = shaped(source, texts, TTFont(io.BytesIO(source)).getGlyphOrder())
    options = subset.Options()
    options.flavor = "woff2"
    options.hinting = False  # browsers hint Devanagari well enough themselves; fewer bytes
    options.name_IDs = ["*"]  # the copyright, licence and family names stay
    options.layout_closure = False  # only the glyphs our words need, not every conjunct
    font = subset.load_font(str(args.source), options)
    subsetter = subset.Subsetter(options)
    glyphs = sorted(steps)
    subsetter.populate(glyphs=glyphs, unicodes=sorted({ord(c) for t in texts for c in t}))
    subsetter.subset(font)
    subset.save_font(font, str(args.output), options)
    # The cut font's glyph names stay in memory (the file keeps none, to be smaller).
    after, _ = shaped(plain(args.output), texts, font.getGlyphOrder())
    differ = [t for t in texts if after[t] != before[t]]
    if differ:
        raise SystemExit(f"shaped differently with the cut font: {differ[:5]}")
    size = args.output.stat().st_size
    print(
        f"{args.output.relative_to(ROOT)}: {size:,} bytes, {len(glyphs)} glyphs, {len(texts)} runs"
    )


if __name__ == "__main__":
    main()
