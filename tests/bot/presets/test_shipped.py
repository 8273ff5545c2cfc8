"""The presets shipped with the bot: every file checked against its game's rules model, so a rule change that breaks
one fails here; the variants rules.md names are among them, each described in both languages."""

from __future__ import annotations

import pytest

from bot.i18n import catalog
from bot.presets.format import build_rules, option_values, read_file
from bot.presets.shipped import files, find_shipped, shipped, shipped_for
from games.registry import all_games

FILES = files()


@pytest.mark.parametrize(("filename", "raw"), FILES, ids=[name for name, _ in FILES])
def test_every_shipped_file_fits_its_games_rules(filename: str, raw: bytes) -> None:
    preset = read_file(raw)  # the format, its version, the game and nothing else
    assert preset.name is not None
    assert filename == f"{preset.game}-{preset.name}.json"
    spec = all_games()[preset.game]
    built = build_rules(spec, preset.options)  # every option known, of its type, in range, and together valid
    defaults = option_values(spec.rules_model())
    # A shipped preset names only what it changes: an option at its default would be a line that says nothing.
    assert all(defaults[path] != value for path, value in preset.options.items()), filename
    assert option_values(built.rules) == defaults | preset.options


def test_every_shipped_file_loads_and_none_is_left_out() -> None:
    assert len(shipped()) == len(FILES) >= 4
    assert {p.game for p in shipped().values()} == set(all_games())  # at least one for every game


def test_each_shipped_preset_has_a_title_and_a_description_in_both_languages() -> None:
    texts = catalog()
    for preset in shipped().values():
        for kind in ("shipped", "about"):
            entry = texts.get(f"presets.{kind}_{preset.text_key}")
            assert entry is not None, (kind, preset.name)
            assert entry["en"].strip() and entry["ja"].strip() and entry["en"] != entry["ja"]


def _rules(game: str, name: str) -> object:
    preset = find_shipped(game, name)
    assert preset is not None, (game, name)
    return build_rules(all_games()[game], preset.options).rules


def test_the_variants_rules_md_names() -> None:
    # OFC: Pineapple dealing (3 cards, keep 2) and progressive Fantasyland (rules.md §4.8).
    ofc = _rules("ofc", "pineapple-progressive")
    assert ofc.pineapple()  # type: ignore[attr-defined]
    assert ofc.streets() == ((5, 0),) + ((3, 1),) * 4  # type: ignore[attr-defined]
    assert ofc.fl_cards == {"QQ": 14, "KK": 15, "AA": 16, "trips": 17}  # type: ignore[attr-defined]
    assert ofc.stay_front_trips() and ofc.stay_back_quads() and not ofc.stay_middle_fh()  # type: ignore[attr-defined]
    # Luk Fu: old cards judged on what the leader can know (§2.6, interpretation A).
    assert _rules("luk_fu", "knowledge").old_card_mode == "knowledge"  # type: ignore[attr-defined]
    # Luk Fu: Sung's four-player layout, which NovelGames shares (Q-L5, Q-L7).
    hakka = _rules("luk_fu", "hakka-four")
    assert (hakka.players, hakka.four_player_layout) == (4, "opposite_sits_out")  # type: ignore[attr-defined]
    assert (hakka.five_tigers_timing, hakka.five_tigers_tricks) == ("after_call", 8)  # type: ignore[attr-defined]
    # Hachi-Hachi: the short game of 6 rounds (§3.1).
    assert _rules("hachi_hachi", "short").rounds == 6  # type: ignore[attr-defined]
    # Oicho-Kabu: the eight local hands of §1.6, and [S000]'s optional payouts (§1.7).
    oicho = _rules("oicho", "local-hands")
    assert all(
        oicho.yaku(key).enabled
        for key in ("gogo", "tsuru", "toichi", "nobori", "kudari", "hifumi", "shichigosan", "doshippin")
    )  # type: ignore[attr-defined]
    payouts = _rules("oicho", "big-payouts")
    assert (payouts.arashi_multiplier, payouts.kuppin_shippin_multiplier) == (3, 2)  # type: ignore[attr-defined]


def test_shipped_presets_are_found_by_folded_name_per_game() -> None:
    assert find_shipped("ofc", "Pineapple-Progressive") is find_shipped("ofc", "pineapple-progressive")
    assert find_shipped("oicho", "pineapple-progressive") is None
    assert [p.name for p in shipped_for("oicho")] == ["big-payouts", "local-hands"]
