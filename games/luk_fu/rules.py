"""House rules of Luk Fu (rules.md §2.11): one frozen pydantic model, every option with its range and default."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Layout = Literal["dealer_sits_out", "opposite_sits_out"]
OldCardMode = Literal["public_sequence", "knowledge"]
OnesSetRank = Literal["led_only", "high"]
TigersTiming = Literal["at_lead", "after_call"]
RedScope = Literal["own_winning_cards", "all_captured"]


class LukFuRules(BaseModel):
    """Every Luk Fu house rule of rules.md §2.11 with its default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: Literal[3, 4] = Field(3, description="Most seats at the table; three always play (a fourth sits out).")
    four_player_layout: Layout = Field(
        "dealer_sits_out",
        description="With 4 players, who sits out: the dealer, or the player opposite him while the dealer plays.",
    )
    starting_chips: int = Field(100, ge=1, le=1_000_000, description="Chips each player starts with, in points.")
    hands_total: int = Field(12, ge=1, le=200, description="Deals in a game, all-pass deals included.")
    bust_ends_game: bool = Field(False, description="The game also ends when a player's chips reach 0.")
    old_card_mode: OldCardMode = Field(
        "public_sequence", description="How old cards are judged: public_sequence or knowledge (§2.6)."
    )
    old_lead_exempt_declarer: bool = Field(True, description="The declarer may lead any single card.")
    old_lead_exempt_only_old_left: bool = Field(
        True, description="A leader holding only old cards may lead any single card."
    )
    single_lead_highest_suit: bool = Field(
        True, description="A restricted single lead must come from the highest suit among non-old cards."
    )
    parent_pass_first_lead_max3: bool = Field(
        True, description="A parent who passed may not lead 4 or more cards to the first trick."
    )
    ones_set_rank: OnesSetRank = Field(
        "led_only", description="led_only: 1s are the lowest set, a led set of 1s falls only to 9s; high: 8 < 1 < 9."
    )
    five_tigers_enabled: bool = Field(True, description="Five Tigers (four 1s and Li Tyen) may be revealed.")
    five_tigers_timing: TigersTiming = Field(
        "at_lead", description="When Five Tigers may be revealed: at any of the holder's leads, or once after the call."
    )
    five_tigers_tricks: Literal[6, 8] = Field(6, description="Tricks credited for Five Tigers.")
    five_tigers_lead: bool = Field(False, description="The five may be led as one unbeatable 5-card lead.")
    big_hand_multiplier: bool = Field(False, description="10-11 tricks score x2, 12 tricks x3.")
    red_bonus: bool = Field(False, description="+1 to the share per red card in scope.")
    red_scope: RedScope = Field(
        "own_winning_cards", description="Which cards the red bonus counts: own winning cards or all captured cards."
    )
    declarer_pays_double: bool = Field(True, description="A losing declarer pays both losers' shares.")
    parent_pass_penalty: bool = Field(
        True, description="A parent who passed with a quad or a 4+ run and then wins is paid one share only."
    )
    dealer_bonus: bool = Field(True, description="4 players: the sitter's bonus for a rank matching a winning card.")
    dealer_repeats_on_win: bool = Field(True, description="A playing dealer who wins deals again.")
    stay_if_parent_declared_and_no_winner: bool = Field(
        False, description="The deal does not move after a no-winner hand in which the parent declared."
    )
