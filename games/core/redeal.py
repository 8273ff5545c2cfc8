"""Re-dealing the cards a seat cannot see: what the "no peeking" check of the bot levels is built on.

A bot decides from its seat's view alone, so any other deal of the cards the seat cannot see (the stock, the other
seats' hands, a face-down card) that leaves everything it saw as it was must give the same decision. :func:`redeal`
makes such a deal for any engine, through the engine contract alone: it takes :meth:`Engine.snapshot`, draws a random
permutation of :meth:`Engine.hidden_from` ``(seat)``, puts every hidden card's image where the card was (the stock,
each hand, a set of cards, wherever it is held), and restores an engine from the result. A permutation keeps every
place's size and every card's uniqueness, so the re-dealt engine holds one whole pack again.

Only the deal in play is re-dealt: a record of the past that holds card objects (the last deal's result, the dealer
draw of the table's first deal) shows cards that were seen then, however hidden they are now, back in the stock. Each
game names those fields in :data:`PAST_FIELDS` (a game whose past holds cards only as text needs none); a field left
out shows as a public view that changed, which :func:`redeal` refuses.

The re-dealt engine need not be one the game could reach (a seat that showed void in a suit may now hold it): nothing
the seat saw may tell the two apart, and that is all the check needs.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.core.cards import FrenchCard, KabuCard, LukFuCard
from games.core.engine import Engine
from games.core.snapshot import decode, encode

Card = FrenchCard | KabuCard | LukFuCard

PAST_FIELDS: Mapping[str, frozenset[str]] = {
    "oicho": frozenset({"last_result", "draw_passes"}),
    "ofc": frozenset({"last"}),
    "luk_fu": frozenset({"last_result"}),
    "hachi_hachi": frozenset({"last_result"}),
}
"""Per game: the engine fields that record earlier deals (or the dealer draw) and are never re-dealt."""

_CARD_CLASSES = {f"{c.__module__}:{c.__qualname__}" for c in (FrenchCard, KabuCard, LukFuCard)}


class RedealError(AssertionError):
    """The re-deal changed what onlookers see: a field of the past is missing from :data:`PAST_FIELDS`."""


def permutation(cards: frozenset[Card], rng: random.Random) -> dict[Card, Card]:
    """A random one-to-one map of ``cards`` onto themselves (drawn in a fixed order, so ``rng`` alone decides it)."""
    ordered = sorted(cards, key=repr)
    images = list(ordered)
    rng.shuffle(images)
    return dict(zip(ordered, images, strict=True))


def _map_cards(data: Any, images: Mapping[Card, Card]) -> Any:
    """Snapshot data with every encoded hidden card replaced by the encoding of its image."""
    if isinstance(data, list):
        return [_map_cards(v, images) for v in data]
    if not isinstance(data, dict):
        return data
    if data.get("$o") in _CARD_CLASSES:
        card = decode(data)
        return encode(images[card]) if card in images else data
    return {k: _map_cards(v, images) for k, v in data.items()}


def redeal(engine: Engine[Any], seat: int, rng: random.Random, *, check: bool = True) -> Engine[Any]:
    """A copy of ``engine`` with every card hidden from ``seat`` dealt again at random (``rng``), the past kept.

    ``check``: refuse (:class:`RedealError`) a re-deal that changed the public view, which only a card of the past
    re-dealt by mistake can do (onlookers see no more than the seat)."""
    hidden = engine.hidden_from(seat)
    images = permutation(hidden, rng)
    past = PAST_FIELDS.get(engine.game_id, frozenset())
    state = {k: v if k in past else _map_cards(v, images) for k, v in engine.snapshot().items()}
    copy = type(engine).restore(engine.rules, state, engine.shuffler)
    if check and copy.public_view() != engine.public_view():
        raise RedealError(f"{engine.game_id}: re-dealing the cards seat {seat} cannot see changed the public view")
    return copy
