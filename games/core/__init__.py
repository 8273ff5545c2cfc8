"""What every game shares: cards, the seeded shuffle, actions, the engine contract, settlement, records."""

from games.core.actions import Action, ActionCodec, ActionFamily, AmountRange, LegalAction, is_listed
from games.core.cards import (
    FrenchCard,
    KabuCard,
    LukFuCard,
    french_deck,
    kabu_deck,
    lukfu_deck,
    notation,
    parse_french,
    parse_kabu,
    parse_lukfu,
)
from games.core.engine import DealResult, Engine, iter_cards
from games.core.errors import GameError, IllegalAction, NotationError, RecordError
from games.core.record import TableRecord
from games.core.rng import Shuffle, Shuffler, commitment, seeded_shuffle
from games.core.settlement import Debt, settle

__all__ = [
    "Action",
    "ActionCodec",
    "ActionFamily",
    "AmountRange",
    "DealResult",
    "Debt",
    "Engine",
    "FrenchCard",
    "GameError",
    "IllegalAction",
    "KabuCard",
    "LegalAction",
    "LukFuCard",
    "NotationError",
    "RecordError",
    "Shuffle",
    "Shuffler",
    "TableRecord",
    "commitment",
    "french_deck",
    "is_listed",
    "iter_cards",
    "kabu_deck",
    "lukfu_deck",
    "notation",
    "parse_french",
    "parse_kabu",
    "parse_lukfu",
    "seeded_shuffle",
    "settle",
]
