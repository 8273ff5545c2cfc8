"""The CJK font comes from the PyPI package and draws real glyphs; names are made drawable and fitted."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.render import fonts


def test_font_is_noto_cjk_from_the_package() -> None:
    path = fonts.font_path()
    assert path.name == "NotoSansCJKjp-Regular.otf"
    assert "noto_cjk_sans_jp_regular" in path.parts
    assert fonts.font(24).getname() == ("Noto Sans CJK JP", "Regular")


def test_japanese_draws_real_glyphs_not_notdef_boxes() -> None:
    f = fonts.font(32)
    notdef = f.getmask("\uffff")  # a noncharacter: always the .notdef box
    for char in "札親子嵐一月":
        mask = f.getmask(char)
        assert mask.getbbox() is not None
        assert (mask.size, bytes(mask)) != (notdef.size, bytes(notdef)), char


def test_japanese_text_on_an_image_differs_from_boxes() -> None:
    def draw(text: str) -> bytes:
        img = Image.new("L", (120, 40), 0)
        ImageDraw.Draw(img).text((2, 2), text, font=fonts.font(28), fill=255)
        return img.tobytes()

    assert draw("札場") != draw("\uffff\uffff")
    assert draw("札場") != draw("場札")  # two different glyphs, not two identical boxes


def test_has_glyph() -> None:
    assert fonts.has_glyph("札")
    assert fonts.has_glyph("A")
    assert fonts.has_glyph("♠")
    assert not fonts.has_glyph("😀")
    assert not fonts.has_glyph("\uffff")


def test_displayable_drops_emoji_and_joiners() -> None:
    assert fonts.displayable("🎴 花子\u200d👍🏽  Taro") == "花子 Taro"
    assert fonts.displayable("たろう") == "たろう"
    assert fonts.displayable("😀😀") == ""


def test_fit_truncates_long_names_with_an_ellipsis() -> None:
    long = "A very long display name that never ends at all"
    shown = fonts.fit(long, 20, 150)
    assert shown.endswith(fonts.ELLIPSIS)
    assert long.startswith(shown[:-1])
    assert fonts.text_width(shown, 20) <= 150

    ja = "さくらさくらさくらさくらさくら"
    shown_ja = fonts.fit(ja, 20, 100)
    assert shown_ja.endswith(fonts.ELLIPSIS)
    assert fonts.text_width(shown_ja, 20) <= 100


def test_fit_keeps_short_names_and_never_returns_nothing() -> None:
    assert fonts.fit("Bob", 20, 150) == "Bob"
    assert fonts.fit("🙂🙂🙂", 20, 150) == "?"
    assert fonts.fit("Zoë ✨", 20, 150) == "Zoë"


def test_fullwidth_latin_is_folded() -> None:
    assert fonts.displayable("ｆｕｌｌ") == "full"


def test_japanese_punctuation_is_kept() -> None:
    assert fonts.displayable("胴前 50：賭け（3）") == "胴前 50：賭け（3）"
    assert fonts.displayable("ｶﾞｷﾞ１２") == "ガギ12"


def test_every_fixed_mark_the_tables_draw_has_a_glyph() -> None:
    from bot.render import cards, oicho

    marks = [oicho.DEALER_BADGE, oicho.TURN_MARK, oicho.WINNER_MARK, "決", "×", fonts.ELLIPSIS]
    marks += list(cards.FRENCH_SUIT_SYMBOL.values()) + list(cards.LUKFU_SUIT_KANJI.values())
    marks += list("".join(cards.MONTH_KANJI))
    for mark in marks:
        for char in mark:
            assert fonts.has_glyph(char), repr(char)
