"""OFC house rules (rules.md §4.9) as one frozen pydantic model.

Options whose default depends on the variant are a choice with an ``"auto"`` value ("by variant"),
because the house-rule tooling has no optional fields; :class:`OFCRules` resolves them with methods.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Variant = Literal["a", "b", "c", "d"]
RANKS = "23456789TJQKA"

# §4.5 front royalties: pairs 22-55 score nothing but stay editable.
DEFAULT_FRONT: dict[str, int] = {
    **{r + r: max(0, i - 3) for i, r in enumerate(RANKS)},
    **{r * 3: 10 + i for i, r in enumerate(RANKS)},
}
DEFAULT_MIDDLE: dict[str, int] = {
    "trips": 2,
    "straight": 4,
    "flush": 8,
    "full_house": 12,
    "quads": 20,
    "straight_flush": 30,
}
DEFAULT_BACK: dict[str, int] = {
    "straight": 2,
    "flush": 4,
    "full_house": 6,
    "quads": 10,
    "straight_flush": 15,
    "royal_flush": 25,
}
FL_CARD_KEYS = ("QQ", "KK", "AA", "trips")
DEFAULT_FL_CARDS: dict[str, int] = {"QQ": 13, "KK": 14, "AA": 15, "trips": 16}

ScoopChoice = Literal["auto", "0", "1", "2", "3", "4", "5", "6"]
ByVariant = Literal["auto", "on", "off"]


class RoyaltyTables(BaseModel):
    """Editable royalty tables (§4.5); the middle royal flush is the separate ``middle_royal`` option."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    front: dict[str, int] = Field(default_factory=lambda: dict(DEFAULT_FRONT))
    middle: dict[str, int] = Field(default_factory=lambda: dict(DEFAULT_MIDDLE))
    back: dict[str, int] = Field(default_factory=lambda: dict(DEFAULT_BACK))

    @model_validator(mode="after")
    def _complete(self) -> RoyaltyTables:
        for name, table, default in (
            ("front", self.front, DEFAULT_FRONT),
            ("middle", self.middle, DEFAULT_MIDDLE),
            ("back", self.back, DEFAULT_BACK),
        ):
            if set(table) != set(default):
                raise ValueError(f"royalties.{name} must have exactly the keys {', '.join(default)}")
            if any(v < 0 for v in table.values()):
                raise ValueError(f"royalties.{name}: a royalty cannot be negative")
        return self


class OFCRules(BaseModel):
    """Every OFC house rule of rules.md §4.9 with its default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    variant: Variant = Field("c", description="a one-at-a-time, b two-at-a-time, c Turbo, d Turbo Pineapple")
    allow_2_3_players: bool = Field(True, description="variants a-c may start with 2 or 3 players")
    starting_chips: Annotated[int, Field(ge=1)] = 100
    scoop_bonus: ScoopChoice = Field("auto", description="bonus for winning all three rows; auto: 0 in a, 3 in b-d")
    foul_on_equal: bool = Field(False, description="a middle exactly equal to the back fouls")
    royalties: RoyaltyTables = Field(default_factory=RoyaltyTables)
    middle_royal: Literal[30, 50] = Field(50, description="royalty of a royal flush in the middle")
    fl_entry_min: Literal["QQ", "KK", "AA"] = Field("QQ", description="weakest front that enters Fantasyland")
    fl_cards: dict[str, int] = Field(
        default_factory=lambda: dict(DEFAULT_FL_CARDS),
        description="variant d: cards dealt in Fantasyland by the front that earned it (13-17)",
    )
    fl_cards_continue: Annotated[int, Field(ge=13, le=17)] = Field(13, description="cards for a player who stayed")
    fl_stay_front_trips: ByVariant = "auto"
    fl_stay_middle_fh: ByVariant = "auto"
    fl_stay_back_quads: ByVariant = "auto"
    freeze_dealer_during_fl: bool = True
    dealer_orbits: Annotated[int, Field(ge=1)] = 2
    bankruptcy_ends_game: bool = True
    d_pineapple_streets: bool = Field(False, description="variant d: four streets of 3 cards, keep 2, discard 1")
    hints: bool = Field(True, description="the player panel offers a suggested placement (a bot's choice)")

    @model_validator(mode="after")
    def _check_fl_cards(self) -> OFCRules:
        if set(self.fl_cards) != set(FL_CARD_KEYS):
            raise ValueError(f"fl_cards must have exactly the keys {', '.join(FL_CARD_KEYS)}")
        if any(not 13 <= v <= 17 for v in self.fl_cards.values()):
            raise ValueError("fl_cards values must be 13-17")
        return self

    # ------------------------------------------------------------ resolved values

    def scoop(self) -> int:
        """The scoop bonus in force (§4.4: 0 in a, 3 in b, c, d)."""
        if self.scoop_bonus == "auto":
            return 0 if self.variant == "a" else 3
        return int(self.scoop_bonus)

    def stay_front_trips(self) -> bool:
        return _resolve(self.fl_stay_front_trips, True)

    def stay_middle_fh(self) -> bool:
        return _resolve(self.fl_stay_middle_fh, self.variant in ("a", "b", "c"))

    def stay_back_quads(self) -> bool:
        return _resolve(self.fl_stay_back_quads, self.variant in ("c", "d"))

    def simultaneous(self) -> bool:
        """Turbo streets (c, d): everyone places face down at once, revealed together."""
        return self.variant in ("c", "d")

    def pineapple(self) -> bool:
        return self.variant == "d" and self.d_pineapple_streets

    def streets(self) -> tuple[tuple[int, int], ...]:
        """(cards dealt, cards discarded) per street for a normal (non-Fantasyland) player."""
        if self.variant == "a":
            return ((5, 0),) + ((1, 0),) * 8
        if self.variant == "b":
            return ((5, 0),) + ((2, 0),) * 4
        if self.pineapple():
            return ((5, 0),) + ((3, 1),) * 4
        return ((5, 0), (4, 0), (4, 0))

    def seat_range(self) -> tuple[int, int]:
        """Players allowed at the table (§4.1)."""
        if self.variant == "d":
            return (2, 3)
        return (2, 4) if self.allow_2_3_players else (4, 4)


def _resolve(choice: ByVariant, by_variant: bool) -> bool:
    return by_variant if choice == "auto" else choice == "on"
