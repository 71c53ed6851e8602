#!/usr/bin/python3
"""Glyph comparison for gen/data/lookalikes.tsv: renders characters in the
Noto Sans font of their script and every ASCII letter and digit in Noto Sans,
on one baseline at one size, and prints, for each character, the ASCII
characters whose rendering overlaps it most (intersection over union of the
inked pixels, each slightly thickened so that stroke widths matter less).

A curation tool, not part of any build: it needs Debian's fonts-noto-core
fonts-wqy-microhei, fonts-arphic-uming and python3-pil. Its scores are what the data file's `glyph:` provenance
records (`glyph:NotoSansThai=0.61` means the target was chosen by looking at
the rendering and this score, in Noto Sans Thai).

Usage: /usr/bin/python3 gen/glyphs.py CHARS [--sheet out.png]
"""
import sys
import unicodedata

from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONTS = "/usr/share/fonts/truetype/noto/"
# Han, Bopomofo and kana: WenQuanYi Micro Hei (Debian's fonts-wqy-microhei).
WQY = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
# Bopomofo Extended, which WenQuanYi lacks: AR PL UMing (fonts-arphic-uming).
UMING = "/usr/share/fonts/truetype/arphic/uming.ttc"
SIZE = 64
CANVAS = (96, 112)
BASELINE = 80

SCRIPT_FONTS = {
    "ARMENIAN": "NotoSansArmenian", "ETHIOPIC": "NotoSansEthiopic", "GEORGIAN": "NotoSansGeorgian",
    "HEBREW": "NotoSansHebrew", "BENGALI": "NotoSansBengali", "DEVANAGARI": "NotoSansDevanagari",
    "GUJARATI": "NotoSansGujarati", "GURMUKHI": "NotoSansGurmukhi", "KANNADA": "NotoSansKannada",
    "MALAYALAM": "NotoSansMalayalam", "ORIYA": "NotoSansOriya", "TAMIL": "NotoSansTamil",
    "TELUGU": "NotoSansTelugu", "MYANMAR": "NotoSansMyanmar", "THAI": "NotoSansThai",
}


def font_for(c):
    name = unicodedata.name(c, "")
    if name.startswith("BOPOMOFO") and ord(c) >= 0x31A0:
        return "uming"
    if name.startswith(("CJK", "BOPOMOFO", "KATAKANA", "HIRAGANA")):
        return "wqy"
    for key, font in SCRIPT_FONTS.items():
        if name.startswith(key):
            return font
    return "NotoSans"


def render(c, font):
    img = Image.new("L", CANVAS, 0)
    path = {"wqy": WQY, "uming": UMING}.get(font, FONTS + font + "-Regular.ttf")
    f = ImageFont.truetype(path, SIZE)
    d = ImageDraw.Draw(img)
    d.text((CANVAS[0] // 2, BASELINE), c, font=f, fill=255, anchor="ms")
    return img.filter(ImageFilter.MaxFilter(5))


def ink(img):
    return {i for i, v in enumerate(img.getdata()) if v > 96}


def main():
    chars = sys.argv[1]
    targets = "abcdefghijklmnopqrstuvwxyz0123456789-/\\+"
    latin = {t: ink(render(t, "NotoSans")) for t in targets}
    sheet_rows = []
    for c in chars:
        font = font_for(c)
        img = render(c, font)
        a = ink(img)
        scores = sorted(((len(a & b) / max(1, len(a | b)), t) for t, b in latin.items()), reverse=True)
        best = " ".join(f"{t}={s:.2f}" for s, t in scores[:3])
        print(f"{c}\tU+{ord(c):04X}\t{font}\t{best}")
        sheet_rows.append((c, font, scores[0][1]))
    if "--sheet" in sys.argv:
        out = sys.argv[sys.argv.index("--sheet") + 1]
        sheet = Image.new("L", (CANVAS[0] * 2 * 8, CANVAS[1] * ((len(sheet_rows) + 7) // 8)), 0)
        for i, (c, font, t) in enumerate(sheet_rows):
            x, y = (i % 8) * CANVAS[0] * 2, (i // 8) * CANVAS[1]
            sheet.paste(render(c, font), (x, y))
            sheet.paste(render(t, "NotoSans"), (x + CANVAS[0], y))
        sheet.save(out)


main()
