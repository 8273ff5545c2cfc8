"""House rules of Hachi-Hachi Trick (rules.md §3.4): one frozen pydantic model, every option with its range and
default, and the editable hand-combination table of §3.3 (``yaku_table``)."""

from __future__ import annotations

import typing
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, PlainSerializer, model_validator

Rank = Literal["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
RANK_NAMES: tuple[str, ...] = typing.get_args(Rank)
"""Rank names as rules and moderators write them, ``2`` … ``10``, ``J``, ``Q``, ``K``, ``A``."""

VoidPot = Literal["carry", "refund"]
TrickDirection = Literal["clockwise", "counterclockwise"]


def rank_name(rank: int) -> str:
    """A card's rank (2..14, ace high) as a rank name of the rules."""
    return RANK_NAMES[rank - 2]


def _in_rank_order(ranks: frozenset[str]) -> list[str]:
    return [r for r in RANK_NAMES if r in ranks]


# A set of ranks, dumped in rank order so the rules' JSON (stored with every table record) never depends on the
# iteration order of a frozenset.
RankSet = Annotated[frozenset[Rank], PlainSerializer(_in_rank_order, return_type=list[str])]


class YakuRow(BaseModel):
    """One row of the hand-combination table: whether it scores, and its two columns."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    enabled: bool = Field(True, description="This hand combination scores (a disabled row never does).")
    normal: int = Field(
        0, ge=0, le=1000, description="Normal column: what the hand is worth to a declarer in hand settlement."
    )
    forced_out: int = Field(
        0, ge=0, le=1000, description="Forced-out column: what a forced-out player receives from each declarer."
    )


def _row(condition: str, normal: int, forced_out: int, *, enabled: bool = True) -> typing.Any:
    return Field(
        default_factory=lambda: YakuRow(enabled=enabled, normal=normal, forced_out=forced_out),
        description=f"{condition} (default {normal} / {forced_out}{'' if enabled else ', disabled'})",
    )


class YakuTable(BaseModel):
    """The hand-combination table (手役表) of rules.md §3.3, in table order (the order breaks ties).

    Combination yaku (at most one scores: the highest normal value, then forced-out value, then table order),
    then weak-hand yaku (at most one scores). "Pattern" is the sorted multiset of rank counts; "pips" are 2-9,
    "honours" 10, J, Q, K, A.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    four_three: YakuRow = _row("Four-Three (四三): pattern 4-3.", 20, 10)
    straight_flush: YakuRow = _row("Straight flush: 5+ consecutive ranks all in one suit.", 15, 8)
    two_triples: YakuRow = _row("Two triples (二三本): pattern 3-3-1.", 8, 4)
    haneken: YakuRow = _row("Haneken (はねけん): pattern 3-2-2.", 7, 4)
    one_two_four: YakuRow = _row("One-two-four (一二四): pattern 4-2-1.", 8, 4)
    four_kind: YakuRow = _row("Four of a kind (手四): any pattern containing 4.", 6, 3)
    full_house: YakuRow = _row("Full house: pattern 3-2-1-1.", 4, 2)
    flush: YakuRow = _row("Flush: 5+ cards of one suit.", 4, 2)
    three_pairs: YakuRow = _row("Three pairs (くっつき): pattern 2-2-2-1.", 4, 2)
    straight: YakuRow = _row("Straight: 5+ consecutive ranks (A-2-3-4-5 and 10-J-Q-K-A count; no wrap).", 3, 2)
    three_kind: YakuRow = _row("Three of a kind (三本): pattern 3-1-1-1-1.", 2, 1)
    karasu: YakuRow = _row("Karasu (空素): all seven cards are pips.", 4, 2)
    pikaichi: YakuRow = _row("Pikaichi (光一): exactly one honour, and it is an Ace.", 4, 2)
    toichi: YakuRow = _row("Toichi (十一): exactly one honour, and it is 10, J, Q or K.", 2, 1)
    sunashi: YakuRow = _row("Sunashi (素無): no pips at all (disabled by default).", 6, 3, enabled=False)

    def row(self, key: str) -> YakuRow:
        row = getattr(self, key)
        assert isinstance(row, YakuRow)
        return row


COMBINATION_KEYS: tuple[str, ...] = (
    "four_three",
    "straight_flush",
    "two_triples",
    "haneken",
    "one_two_four",
    "four_kind",
    "full_house",
    "flush",
    "three_pairs",
    "straight",
    "three_kind",
)
WEAK_KEYS: tuple[str, ...] = ("karasu", "pikaichi", "toichi", "sunashi")
YAKU_KEYS: tuple[str, ...] = COMBINATION_KEYS + WEAK_KEYS


class HachiHachiRules(BaseModel):
    """Every Hachi-Hachi Trick house rule of rules.md §3.4 with its default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: int = Field(7, ge=3, le=7, description="Most seats at the table (3 to 7; 5 or 6 play best).")
    starting_chips: int = Field(50, ge=1, le=1_000_000, description="Chips each player starts with, in points.")
    rounds: int = Field(12, ge=1, le=200, description="Rounds in a game (12; the short game plays 6).")
    fold_fee_first: int = Field(
        2, ge=0, le=1000, description="Fold fee (降り賃) of the first player to fold in a round."
    )
    fold_fee_step: int = Field(
        1, ge=0, le=1000, description="How much each later folder in the round pays more than the one before."
    )
    max_declarers: int = Field(
        3, ge=2, le=3, description="Play declarations allowed; once reached, everyone not yet asked is forced out."
    )
    forced_out_ace_value: int = Field(
        1, ge=0, le=100, description="What each Ace earns a forced-out player, from each declarer (times M)."
    )
    trick_rate: int = Field(
        2, ge=1, le=100, description="Points per trick of difference in trick settlement (times M)."
    )
    oba_ranks: RankSet = Field(
        frozenset({"10", "J", "Q"}), description="Indicator ranks that make Ōba (大場), a field of oba_mult."
    )
    oba_mult: int = Field(2, ge=1, le=10, description="The field multiplier M of Ōba.")
    zetsuba_ranks: RankSet = Field(
        frozenset({"K", "A"}), description="Indicator ranks that make Zetsuba (絶場), a field of zetsuba_mult."
    )
    zetsuba_mult: int = Field(4, ge=1, le=10, description="The field multiplier M of Zetsuba.")
    mult_applies_to_fold_fees: bool = Field(True, description="The field multiplier M also multiplies fold fees.")
    two_player_split_allowed: bool = Field(
        True, description="Two declarers may split the pot instead of playing (both must choose split)."
    )
    split_settles_hands: bool = Field(False, description="A split still settles the two declarers' hands.")
    void_pot: VoidPot = Field(
        "carry", description="When nobody plays: the pot carries over to the next round, or is refunded to its payers."
    )
    void_round_counts: bool = Field(True, description="A round in which nobody plays counts towards the rounds.")
    trick_direction: TrickDirection = Field(
        "clockwise",
        description="Direction of trick play among the declarers (declarations always go clockwise, to the left).",
    )
    mizuten_enabled: bool = Field(
        True, description="The start player may declare Mizuten (見ず転) before the deal, and must then play."
    )
    mizuten_min_tricks: int = Field(
        3, ge=0, le=7, description="Tricks a Mizuten start player needs (with three declarers) to be paid the bonus."
    )
    mizuten_bonus: int = Field(
        1, ge=0, le=100, description="What every other player pays a successful Mizuten (times M)."
    )
    yaku_table: YakuTable = Field(
        default_factory=YakuTable,
        description="The hand-combination table (手役表): each row enabled, normal, forced-out.",
    )

    @model_validator(mode="after")
    def _fields_do_not_overlap(self) -> HachiHachiRules:
        both = self.oba_ranks & self.zetsuba_ranks
        if both:
            shown = ",".join(_in_rank_order(frozenset(both)))
            raise ValueError(f"a rank cannot make both Ōba and Zetsuba: {shown} is in oba_ranks and zetsuba_ranks")
        return self

    @property
    def mizuten_can_pay(self) -> bool:
        """Whether a Mizuten can ever earn its bonus here: only with three declarers (§3.2 step 9, Q-H4), which
        ``max_declarers = 2`` never allows. It is still offered then (§3.2 step 1 does not depend on it): it binds
        the start player to play and is void at the round's end."""
        return self.mizuten_enabled and self.max_declarers >= 3

    def field_of(self, rank: int) -> tuple[str, int]:
        """The field an indicator of this rank (2..14) makes, and its multiplier M: ``("oba", 2)`` …"""
        name = rank_name(rank)
        if name in self.zetsuba_ranks:
            return "zetsuba", self.zetsuba_mult
        if name in self.oba_ranks:
            return "oba", self.oba_mult
        return "plain", 1
