"""One word per idea: every string of a game (panels, pictures, narration, results, refusals, /howto pages, /learn
coach notes) says each term the way the game's glossary (``bot.howto.glossary``) does, never a variant of it.

The term lists come from the glossary module: a new glossary term fails :func:`test_every_glossary_term_lists_its_variants`
until its variants are written down here, and from then on every catalog string of that game is held to it.
"""

from __future__ import annotations

import re

import pytest

from bot.howto.glossary import TERMS
from bot.i18n import LANGUAGES, catalog

Variants = dict[str, tuple[str, ...]]

VARIANTS: dict[str, dict[str, Variants]] = {
    "oicho": {
        "oya": {"ja": ("ディーラー", "配り手"), "en": (r"(?i)\bbankers?\b",)},
        "ko": {"ja": (), "en": (r"(?i)\bbettors?\b", r"^Players?$")},
        "pile": {"ja": ("山",), "en": (r"(?i)\bheaps?\b",)},
        "kime": {"ja": ("追加の札",), "en": ()},
        "domae": {"ja": (), "en": ()},
        "kyoku": {"ja": ("回戦", "ラウンド", "ハンド", r"(この|その|次の|前の|最後の)回(?!数)"), "en": ()},
        "buta": {"ja": (), "en": ()},
        "oicho": {"ja": (), "en": ()},
        "kabu": {"ja": (), "en": ()},
        "santa": {"ja": (), "en": ()},
        "arashi": {"ja": (), "en": ()},
        "kuppin": {"ja": (), "en": ()},
        "local": {"ja": (), "en": ()},
        "push": {"ja": ("プッシュ",), "en": ()},
        "maki": {"ja": (), "en": (r"(?i)makifuda",)},
    },
    "ofc": {
        "rows": {"ja": ("トップ", "ボトム"), "en": (r"(?i)\b(top|bottom) row",)},
        "street": {"ja": ("ストリート",), "en": ()},
        "turbo": {"ja": (), "en": ()},
        "pineapple": {"ja": (), "en": ()},
        "foul": {"ja": ("ファウル",), "en": (r"(?i)\bbust(s|ed)?\b",)},
        "royalties": {"ja": ("ロイヤルティ",), "en": ()},
        "scoop": {"ja": (), "en": ()},
        "fantasyland": {"ja": ("ファンタジー・ランド",), "en": (r"(?i)fantasy land",)},
        "dealer": {"ja": ("配り手", "親"), "en": (r"(?i)dealer button",)},
        "hand": {"ja": ("局", "回戦"), "en": ()},
        "board": {"ja": ("盤",), "en": ()},
    },
    "luk_fu": {
        "luk_fu": {"ja": (), "en": ()},
        "suits": {"ja": ("スート",), "en": ()},
        "li_tyen": {"ja": (), "en": ()},
        "reds": {"ja": ("赤い札",), "en": ()},
        "parent": {"ja": ("ディーラー",), "en": (r"(?i)\bbankers?\b",)},
        "dealer": {"ja": ("ディーラー", "配る人"), "en": ()},
        "declarer": {"ja": ("宣言した人",), "en": ()},
        "call": {"ja": ("コール",), "en": ()},
        "lead": {"ja": (), "en": ()},
        "combos": {"ja": ("セット", "単騎", "[34３４]枚組"), "en": (r"(?i)\bcombos?\b",)},
        "must_beat": {"ja": ("必ず勝つ", "勝たねば"), "en": ()},
        "face_down": {"ja": ("裏向き",), "en": ()},
        "old": {"ja": ("古札", "古いカード"), "en": ()},
        "five_tigers": {"ja": (), "en": ()},
        "sitter": {"ja": (), "en": ()},
        "dead_card": {"ja": (), "en": ()},
    },
    "hachi_hachi": {
        "sp": {"ja": ("スタP",), "en": (r"(?i)starting player",)},
        "mizuten": {"ja": ("ミズテン", "不見転"), "en": ()},
        "trump": {"ja": ("切札",), "en": ()},
        "field": {"ja": ("平場",), "en": ()},
        "oba": {"ja": ("オオバ",), "en": (r"\bOba\b",)},
        "zetsuba": {"ja": ("ゼツバ",), "en": ()},
        "play_fold": {"ja": (), "en": ()},
        "fee": {"ja": ("場代", "参加費"), "en": ()},
        "forced_out": {"ja": (), "en": ()},
        "declarers": {"ja": ("出た人", "宣言者"), "en": ()},
        # 場 is the field (×M): the pot is never called 場
        "pot": {"ja": (r"場(を取|に払|を分け|を争)", r"場（\{pot\}）", "持ち越しの場"), "en": ()},
        "yaku": {"ja": ("出来役",), "en": (r"(?i)\byaku\b",)},
        "split_fight": {"ja": (), "en": ()},
        "led": {"ja": (r"リード(された|の)?\s*(スート|\{suit\})", "出たスート"), "en": ()},
        "round": {
            "ja": (
                "局",
                r"(この|その|次の|前の|最後の)回(?!戦|数)",
                r"前回(?!戦)",
                r"第\{round\}回(?!戦)",
                r"(?<![0-9}])回の終わり",
            ),
            "en": (),
        },
    },
}
"""For each glossary term, per language, the variants (regular expressions) no string of that game may use. Only
the term's own glossary entry may name them, to teach the word a player may already know."""

SHORT_FORMS: list[tuple[str, str, str, str, dict[str, str]]] = [
    (
        "ofc",
        "rows",
        "ja",
        "前・中・後",
        {"ofc.table_row_front": "前", "ofc.table_row_middle": "中", "ofc.table_row_back": "後"},
    ),
    (
        "ofc",
        "rows",
        "en",
        "F, M and B",
        {"ofc.table_row_front": "F", "ofc.table_row_middle": "M", "ofc.table_row_back": "B"},
    ),
    ("ofc", "dealer", "ja", "D", {}),  # the dealer badge, drawn by bot/render/ofc.py
    ("ofc", "dealer", "en", "D", {}),
    ("ofc", "fantasyland", "ja", "FL", {"ofc.table_fl": "FL"}),
    ("ofc", "fantasyland", "en", "FL", {"ofc.table_fl": "FL"}),
    ("hachi_hachi", "sp", "ja", "SP", {"hachi_hachi_render.badge_sp": "SP", "hachi_hachi_render.mizuten_prompt": "SP"}),
    ("hachi_hachi", "sp", "en", "SP", {"hachi_hachi_render.badge_sp": "SP", "hachi_hachi_render.mizuten_prompt": "SP"}),
    (
        "hachi_hachi",
        "fee",
        "en",
        "*fee*",
        {"hachi_hachi_render.fold_fee_now": "fee", "hachi_hachi_render.fee_line": "Fee"},
    ),
    ("hachi_hachi", "yaku", "ja", "**役**", {"hachi_hachi_render.reveal_none": "役"}),
    (
        "hachi_hachi",
        "yaku",
        "en",
        "*hand*",
        {"hachi_hachi_render.reveal_none": "hand", "hachi_hachi_render.reveal_value": "Hand"},
    ),
    ("luk_fu", "combos", "ja", "**組**", {"luk_fu_ui.lead_restricted": "組"}),
    ("luk_fu", "combos", "en", "*sets*", {"luk_fu_ui.lead_restricted": "sets"}),
]
"""Short forms where room is short (pictures, badges): each is listed in its term's glossary entry (``mention``),
and the strings named here really use it (a short form the glossary does not list is a variant)."""

CODE = re.compile(r"`[^`]*`")
"""House-rule names and values in backticks are identifiers, not words (``pile_bettors``, ``yaku_table``)."""

PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _variants_in(text: str, pattern: str) -> list[str]:
    """What ``pattern`` finds in ``text``, outside backticks and never wholly inside a placeholder (``{bust}`` is a
    slot for a sentence, not the word; ``第{round}回`` is the text around one)."""
    text = CODE.sub("", text)
    slots = [m.span() for m in PLACEHOLDER.finditer(text)]
    return [
        m.group(0) for m in re.finditer(pattern, text) if not any(a <= m.start() and m.end() <= b for a, b in slots)
    ]


def _own_namespace(namespace: str, game: str) -> bool:
    return namespace in {game, f"howto_{game}", f"learn_{game}"} or namespace.startswith(f"{game}_")


def game_strings(game: str) -> dict[str, dict[str, str]]:
    """Every catalog string of the game's own namespaces (``oicho``, ``oicho_ui``, ``howto_oicho``,
    ``learn_oicho`` …), and the shared strings whose key names the game (``learn.lesson_oicho_draw``)."""
    found: dict[str, dict[str, str]] = {}
    for key, texts in catalog().items():
        namespace, name = key.split(".", 1)
        owner = [g for g in TERMS if _own_namespace(namespace, g)]
        if owner == [game] or (not owner and re.search(rf"(^|_){game}(_|$)", name)):
            found[key] = texts
    return found


def test_every_glossary_term_lists_its_variants() -> None:
    assert set(VARIANTS) == set(TERMS)
    for game, terms in TERMS.items():
        assert set(VARIANTS[game]) == set(terms), game
        for term, by_lang in VARIANTS[game].items():
            assert set(by_lang) == set(LANGUAGES), (game, term)


@pytest.mark.parametrize("game", sorted(TERMS))
def test_no_variant_forbids_the_glossarys_own_word(game: str) -> None:
    """A variant must never match the words the glossary chose (the bold and italic words of its entry)."""
    strings = catalog()
    for term, by_lang in VARIANTS[game].items():
        for lang, patterns in by_lang.items():
            entry = strings[f"howto_{game}.term_{term}"][lang]
            head = [a or b for a, b in re.findall(r"\*\*([^*]+)\*\*|(?<!\*)\*([^*]+)\*(?!\*)", entry)]
            assert head, (game, term, lang, entry)
            for pattern in patterns:
                assert not any(re.search(pattern, word) for word in head), (game, term, lang, pattern, head)


@pytest.mark.parametrize("game", sorted(TERMS))
def test_every_string_of_a_game_uses_the_glossarys_words(game: str) -> None:
    strings = game_strings(game)
    namespaces = {key.split(".", 1)[0] for key in strings}
    assert {game, f"howto_{game}", f"learn_{game}"} <= namespaces  # the scan really reads the game's catalogs
    assert any(not _own_namespace(namespace, game) for namespace in namespaces)  # and the shared lesson strings
    found = []
    for term, by_lang in VARIANTS[game].items():
        own_entry = f"howto_{game}.term_{term}"
        for lang, patterns in by_lang.items():
            for key, texts in strings.items():
                if key == own_entry:
                    continue
                for pattern in patterns:
                    if hits := _variants_in(texts[lang], pattern):
                        found.append(f"{key} [{lang}] {term}: {hits[0]!r} in {texts[lang]!r}")
    assert found == []


@pytest.mark.parametrize(
    ("game", "term", "lang", "mention", "uses"), SHORT_FORMS, ids=[f"{g}-{t}-{lang}" for g, t, lang, *_ in SHORT_FORMS]
)
def test_short_forms_are_the_glossarys(game: str, term: str, lang: str, mention: str, uses: dict[str, str]) -> None:
    strings = catalog()
    assert mention in strings[f"howto_{game}.term_{term}"][lang]
    for key, short in uses.items():
        assert short in strings[key][lang], (key, short)
