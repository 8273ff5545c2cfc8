"""House rules of Oicho-Kabu (rules.md §1.9): one frozen pydantic model, every option with its range."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Scope = Literal["both", "dealer", "child"]
Visibility = Literal["all_children", "pile_bettors"]

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class YakuOption(BaseModel):
    """One local yaku (ローカル役): off by default; tier 1 when on (rules.md §1.6)."""

    model_config = _FROZEN

    enabled: bool = Field(False, description="Whether this local hand counts at all.")
    multiplier: int = Field(1, ge=1, le=5, description="Payout multiplier when this hand wins.")
    scope: Scope = Field("both", description="Who can score it: both, dealer or child.")


class OrderedYakuOption(YakuOption):
    """A local yaku whose three months may be required in dealing order."""

    strict_order: bool = Field(False, description="Require the months in the listed order (c1→c2→c3).")


class LocalYaku(BaseModel):
    """The eight local yaku, in the §1.6 table order (earlier wins a multiplier tie)."""

    model_config = _FROZEN

    gogo: YakuOption = Field(default_factory=YakuOption, description="Gogo: two 5s.")
    tsuru: YakuOption = Field(default_factory=YakuOption, description="Tsuru: two 2s.")
    toichi: YakuOption = Field(default_factory=YakuOption, description="Toichi: 10 and 1.")
    nobori: YakuOption = Field(default_factory=YakuOption, description="Nobori: m, m+1, m+2 in dealing order.")
    kudari: YakuOption = Field(default_factory=YakuOption, description="Kudari: m, m-1, m-2 in dealing order.")
    hifumi: OrderedYakuOption = Field(default_factory=OrderedYakuOption, description="Hifumi: 1, 2, 3.")
    shichigosan: OrderedYakuOption = Field(default_factory=OrderedYakuOption, description="Shichigosan: 7, 5, 3.")
    doshippin: OrderedYakuOption = Field(default_factory=OrderedYakuOption, description="Do-shippin: 1, 10, 10.")


YAKU_KEYS: tuple[str, ...] = tuple(LocalYaku.model_fields)
"""Local yaku keys in priority order (rules.md §1.6 table)."""


class OichoRules(BaseModel):
    """Every Oicho-Kabu house rule (rules.md §1.9) with its default."""

    model_config = _FROZEN

    starting_chips: int = Field(100, ge=1, le=1_000_000, description="Chips each player starts with, in points.")
    bank_cap: int = Field(
        50, ge=1, le=1_000_000, description="Cap on the sum of all children's bets in one round (dō-mae)."
    )
    use_months_11_12: bool = Field(False, description="Play with 48 cards: months 11 and 12 count 1 and 2.")
    maki_fuda: bool = Field(False, description="Turn four cards face up each round as information only.")
    first_extra_visibility: Visibility = Field(
        "all_children", description="Who may look at a face-down first extra: all_children or pile_bettors."
    )
    tie_goes_to_dealer: bool = Field(False, description="Equal hands: the dealer wins at x1 instead of a push.")
    kuppin_shippin_strict_order: bool = Field(
        False, description="Kuppin needs 9 then 1 and Shippin 4 then 1 in dealing order."
    )
    kuppin_shippin_multiplier: int = Field(
        1, ge=1, le=5, description="Payout multiplier of the dealer's Kuppin/Shippin."
    )
    arashi_multiplier: int = Field(1, ge=1, le=5, description="Payout multiplier of an Arashi (three of a month).")
    local_yaku: LocalYaku = Field(default_factory=LocalYaku, description="Optional local hands.")
    yaku_may_stand: bool = Field(
        True, description="A pile whose two cards form an enabled local hand may stand even on 0-3."
    )
    dealer_rounds: int = Field(3, ge=1, le=50, description="A dealer's tenure ends after this many non-void rounds.")
    dealer_bust_ends_tenure: bool = Field(
        True, description="The tenure ends once the dealer's net for it is at or below minus the bank cap."
    )
    dealer_may_resign: bool = Field(True, description="The dealer may end his tenure after any round.")
    dealer_cycles: int = Field(1, ge=1, le=10, description="The game ends once every player has dealt this many times.")

    def yaku(self, key: str) -> YakuOption:
        """The option block of one local yaku by key."""
        option = getattr(self.local_yaku, key)
        assert isinstance(option, YakuOption)
        return option
