"""One glossary per game, in both languages, with the original terms, used as the game's own catalogs use them."""

from __future__ import annotations

import pytest

from bot import howto
from bot.howto.glossary import TERMS
from bot.i18n import catalog
from games.registry import all_games

ORIGINAL = {
    "oicho": ("おいちょ", "カブ", "親"),
    "luk_fu": ("六虎", "老千", "古い札"),
    "hachi_hachi": ("見ず転", "大場", "降ろされ"),
    "ofc": ("ファンタジーランド", "バースト", "ロイヤリティ"),
}
"""Terms the issue names, and OFC's own: each glossary must carry them in both languages."""

USED_AS: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {
    "oicho": {
        "oya": ("親", ("oicho.role_dealer", "oicho_ui.dealer")),
        "ko": ("子", ("oicho.role_child",)),
        "pile": ("場札", ("oicho_ui.pile",)),
        "kime": ("決め札", ("oicho.phase_deciding",)),
        "domae": ("胴前", ("oicho.table_cap", "oicho.bet_over_cap")),
        "kyoku": ("局", ("oicho.table_title",)),
        "buta": ("ブタ", ("oicho.points_0",)),
        "oicho": ("オイチョ", ("oicho.points_8",)),
        "kabu": ("カブ", ("oicho.points_9",)),
        "santa": ("サンタ", ("oicho.points_3",)),
        "arashi": ("アラシ", ("oicho.hand_arashi",)),
        "kuppin": ("クッピン（九一）", ("oicho.hand_kuppin",)),
        "push": ("引き分け", ("oicho.outcome_push",)),
        "maki": ("まき札", ("oicho.table_maki_fuda",)),
    },
    "ofc": {
        "rows": ("フロント", ("ofc.row_front",)),
        "street": ("巡目", ("ofc.table_street",)),
        "turbo": ("ターボ", ("ofc.variant_c",)),
        "pineapple": ("パイナップル", ("ofc.variant_d",)),
        "foul": ("バースト", ("ofc.fouled", "ofc.table_foul")),
        "royalties": ("ロイヤリティ", ("ofc.royalties",)),
        "scoop": ("スクープ", ("ofc.scoop",)),
        "fantasyland": ("ファンタジーランド", ("ofc.fantasyland",)),
        "dealer": ("ディーラー", ("ofc_ui.dealer",)),
        "hand": ("ハンド", ("ofc.table_title",)),
    },
    "luk_fu": {
        "luk_fu": ("六虎", ("luk_fu_ui.title",)),
        "suits": ("銭", ("luk_fu.suit_C",)),
        "li_tyen": ("老千", ("luk_fu.no_five_tigers",)),
        "reds": ("赤札", ("luk_fu_ui.result_reds",)),
        "parent": ("親", ("luk_fu_ui.roles", "luk_fu_render.badge_parent")),
        "dealer": ("配り手", ("luk_fu_ui.roles", "luk_fu_render.badge_dealer")),
        "declarer": ("宣言者", ("luk_fu_ui.declarer", "luk_fu_render.badge_declarer")),
        "call": ("宣言", ("luk_fu_render.call_title",)),
        "lead": ("リード", ("luk_fu_ui.lead_prompt",)),
        "combos": ("続き札", ("luk_fu_ui.kind_run", "luk_fu_render.kind_run")),
        "must_beat": ("勝たなければ", ("luk_fu_ui.must_beat",)),
        "face_down": ("伏せ札", ("luk_fu_render.play_face_down",)),
        "old": ("古い札", ("luk_fu_ui.old_note",)),
        "five_tigers": ("五虎", ("luk_fu.no_five_tigers", "luk_fu_render.kind_tigers")),
        "sitter": ("休み", ("luk_fu_render.badge_sitter",)),
        "dead_card": ("死に札", ("luk_fu_render.dead_card",)),
    },
    "hachi_hachi": {
        "sp": ("スタートプレイヤー", ("hachi_hachi_ui.sp",)),
        "mizuten": ("見ず転", ("hachi_hachi_ui.mizuten", "hachi_hachi_render.mizuten")),
        "trump": ("切り札", ("hachi_hachi_ui.trump", "hachi_hachi_render.trump")),
        "field": ("場", ("hachi_hachi_ui.field_plain",)),
        "oba": ("大場", ("hachi_hachi_ui.field_oba", "hachi_hachi_render.field_oba")),
        "zetsuba": ("絶場", ("hachi_hachi_ui.field_zetsuba", "hachi_hachi_render.field_zetsuba")),
        "play_fold": ("降りる", ("hachi_hachi_ui.fold",)),
        "fee": ("降り賃", ("hachi_hachi_render.fee_line",)),
        "forced_out": ("降ろされ", ("hachi_hachi_ui.state_forced_out", "hachi_hachi_render.state_forced_out")),
        "declarers": ("出る人", ("hachi_hachi_ui.status_declare",)),
        "pot": ("ポット", ("hachi_hachi_ui.pot", "hachi_hachi_render.pot")),
        "yaku": ("手役", ("hachi_hachi_ui.reveals",)),
        "split_fight": ("山分け", ("hachi_hachi_ui.choice_split", "hachi_hachi_render.choice_split")),
        "led": ("台札", ("hachi_hachi_ui.trick_led",)),
    },
}
"""For each glossary term, the original word it teaches and the panel, picture or result texts that already say it:
the glossary must use the word as they do."""


@pytest.mark.parametrize("game", howto.GAMES)
def test_the_glossary_is_the_last_topic_with_the_original_terms_in_both_languages(game: str) -> None:
    assert howto.topic_ids(game)[-1] == "glossary"
    rules = all_games()[game].rules_model()
    for lang in ("en", "ja"):
        text = "\n".join(p.body for p in howto.pages(game, "glossary", lang, rules))
        for term in ORIGINAL[game]:
            assert term in text, (game, lang, term)
    en = howto.pages(game, "glossary", "en", rules)
    assert all(len(p.body) <= 4096 for p in en)


@pytest.mark.parametrize("game", howto.GAMES)
def test_every_term_is_used_as_the_games_own_texts_use_it(game: str) -> None:
    assert set(USED_AS[game]) <= set(TERMS[game])
    strings = catalog()
    for term, (word, keys) in USED_AS[game].items():
        entry = strings[f"howto_{game}.term_{term}"]
        assert word in entry["ja"] and word in entry["en"], (term, word)
        for key in keys:
            assert word in strings[key]["ja"], (term, word, key, strings[key]["ja"])
