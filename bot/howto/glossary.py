"""One glossary per game: the words of its table, with the original terms (親, カブ; 六虎, 老千, 古い札; 見ず転 …).

Each term is one catalog entry, ``howto_<game>.term_<id>``, in both languages; the glossary is an ordinary topic
(``glossary``) of the game's guide, split into pages of :data:`PER_PAGE` terms. Every string of a game says each term
as its entry does; where a picture has no room, only a short form the entry itself lists (SP, FL, F/M/B …) may stand
in for it (``tests/bot/i18n/test_terms.py`` holds every catalog to that).
"""

from __future__ import annotations

from functools import partial

from bot.howto.model import PageDef, TopicDef, Writer

PER_PAGE = 16

TERMS: dict[str, tuple[str, ...]] = {
    "oicho": (
        "oya",
        "ko",
        "pile",
        "kime",
        "domae",
        "kyoku",
        "buta",
        "oicho",
        "kabu",
        "santa",
        "arashi",
        "kuppin",
        "local",
        "push",
        "maki",
    ),
    "ofc": (
        "rows",
        "board",
        "street",
        "turbo",
        "pineapple",
        "foul",
        "royalties",
        "scoop",
        "fantasyland",
        "dealer",
        "hand",
    ),
    "luk_fu": (
        "luk_fu",
        "suits",
        "li_tyen",
        "reds",
        "parent",
        "dealer",
        "declarer",
        "call",
        "lead",
        "combos",
        "must_beat",
        "face_down",
        "old",
        "five_tigers",
        "sitter",
        "dead_card",
    ),
    "hachi_hachi": (
        "round",
        "sp",
        "mizuten",
        "trump",
        "field",
        "oba",
        "zetsuba",
        "play_fold",
        "fee",
        "forced_out",
        "declarers",
        "pot",
        "yaku",
        "split_fight",
        "led",
    ),
}


def glossary_topic(game: str) -> TopicDef:
    terms = TERMS[game]
    chunks = [terms[i : i + PER_PAGE] for i in range(0, len(terms), PER_PAGE)]
    return TopicDef("glossary", "📖", tuple(PageDef("glossary", body=partial(_body, chunk)) for chunk in chunks))


def _body(terms: tuple[str, ...], w: Writer) -> str:
    return "\n".join([w.common("glossary_intro"), "", *(w.t(f"term_{term}") for term in terms)])
