"""The seeded shuffle: how every deck is ordered, and how anyone can check it.

Algorithm (documented for players in ``docs/fairness.md``; never change it without a new record version):

1. A seed is 32 random bytes, written as 64 lowercase hex characters.
2. Before the deal the table shows the **commitment** ``SHA-256(seed bytes)`` in hex; after it, the seed.
3. A stream of 64-bit numbers: block ``k`` (k = 0, 1, …) is ``SHA-256(seed bytes || k as 8 bytes big-endian)``;
   each block gives four numbers, its bytes 0-7, 8-15, 16-23, 24-31 read big-endian.
4. Fisher–Yates over the canonical deck order: for ``i`` from ``n-1`` down to ``1``, take the next number
   ``x``; reject it while ``x >= 2**64 - (2**64 % (i+1))`` (so every ``j`` is equally likely); then
   ``j = x % (i+1)`` and swap positions ``i`` and ``j``.
5. The resulting list is the deck, **top card first**.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from games.core.cards import FrenchCard, KabuCard, LukFuCard, complete_deck_order
from games.core.errors import NotationError, RecordError

T = TypeVar("T")
C = TypeVar("C", FrenchCard, KabuCard, LukFuCard)

_TWO64 = 1 << 64


def new_seed() -> str:
    """A fresh secret seed from the operating system's CSPRNG."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """SHA-256 of the seed's bytes, shown before the deal."""
    return hashlib.sha256(_seed_bytes(seed)).hexdigest()


def _seed_bytes(seed: str) -> bytes:
    try:
        raw = bytes.fromhex(seed)
    except ValueError as exc:
        raise RecordError(f"a seed must be hex: {seed!r}") from exc
    if len(raw) != 32:
        raise RecordError("a seed must be 32 bytes (64 hex characters)")
    return raw


def _stream(seed: str) -> Iterator[int]:
    raw = _seed_bytes(seed)
    k = 0
    while True:
        block = hashlib.sha256(raw + k.to_bytes(8, "big")).digest()
        for off in range(0, 32, 8):
            yield int.from_bytes(block[off : off + 8], "big")
        k += 1


def seeded_shuffle(items: Sequence[T], seed: str) -> list[T]:
    """``items`` (canonical order) shuffled by the documented algorithm; top card first."""
    out = list(items)
    numbers = _stream(seed)
    for i in range(len(out) - 1, 0, -1):
        bound = i + 1
        limit = _TWO64 - (_TWO64 % bound)
        x = next(numbers)
        while x >= limit:
            x = next(numbers)
        j = x % bound
        out[i], out[j] = out[j], out[i]
    return out


@dataclass
class Shuffle:
    """One chance step of a table: a seeded shuffle, or (tests, stacked decks) an explicit order.

    ``deal`` is the deal the shuffle belongs to (its seed is revealed when that deal ends) and
    ``purpose`` says what it was for (``"deal"``, ``"draw_dealer"`` …).
    """

    seed: str | None = None
    order: str | None = None
    deal: int = 0
    purpose: str = "deal"

    def __post_init__(self) -> None:
        if (self.seed is None) == (self.order is None):
            raise RecordError("a shuffle has exactly one of seed and order")
        if self.seed is not None:
            _seed_bytes(self.seed)

    @property
    def commitment(self) -> str | None:
        return None if self.seed is None else commitment(self.seed)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"deal": self.deal, "purpose": self.purpose}
        if self.seed is not None:
            out["seed"] = self.seed
        else:
            out["order"] = self.order
        return out

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Shuffle:
        if not isinstance(data, dict):
            raise RecordError(f"bad shuffle entry: {data!r}")
        seed = data.get("seed")
        order = data.get("order")
        deal = data.get("deal", 0)
        purpose = data.get("purpose", "deal")
        if not isinstance(deal, int) or not isinstance(purpose, str):
            raise RecordError(f"bad shuffle entry: {data!r}")
        return cls(
            seed=seed if isinstance(seed, str) else None,
            order=order if isinstance(order, str) else None,
            deal=deal,
            purpose=purpose,
        )


@dataclass
class Shuffler:
    """Gives engines their decks and records every shuffle it made.

    ``planned`` shuffles (from a record) are used first, in order; after them a live table draws
    fresh seeds (``fresh=True``) while a replay of a finished record refuses (``fresh=False``), or, with
    ``stub_missing``, hands out the deck unshuffled and notes it in ``missing`` (a record that ends as a
    deal ends: the next deal's shuffle was never made, and nothing of that deal is shown).
    Explicit orders may be partial: the rest of the deck follows in canonical order.

    ``used`` lists the shuffles made, oldest first; a live table drops those of settled deals
    (:meth:`trim`), counting them in ``offset``, so its memory does not grow with its age.
    """

    planned: list[Shuffle] = field(default_factory=list)
    fresh: bool = True
    seed_source: Callable[[], str] = field(default=new_seed, compare=False, repr=False)
    used: list[Shuffle] = field(default_factory=list)
    offset: int = 0
    stub_missing: bool = False
    missing: list[tuple[int, str]] = field(default_factory=list)

    def shuffle(
        self,
        canonical: Sequence[C],
        parse: Callable[[str], list[C]],
        *,
        deal: int,
        purpose: str = "deal",
    ) -> list[C]:
        """The next deck, top card first; ``parse`` reads an explicit order in the deck's notation."""
        index = self.offset + len(self.used)
        if index < len(self.planned):
            entry = self.planned[index]
            entry = Shuffle(seed=entry.seed, order=entry.order, deal=deal, purpose=purpose)
        elif self.fresh:
            entry = Shuffle(seed=self.seed_source(), deal=deal, purpose=purpose)
        elif self.stub_missing:
            self.missing.append((deal, purpose))
            return list(canonical)
        else:
            raise RecordError(f"the record has no shuffle #{index + 1} (deal {deal}, {purpose})")
        if entry.seed is not None:
            deck = seeded_shuffle(canonical, entry.seed)
        else:
            assert entry.order is not None
            try:
                deck = complete_deck_order(parse(entry.order), canonical)
            except NotationError as exc:
                raise RecordError(f"shuffle #{index + 1}: {exc}") from exc
        self.used.append(entry)
        return deck

    @property
    def made(self) -> int:
        """How many shuffles were made since the table opened."""
        return self.offset + len(self.used)

    def trim(self, before_deal: int) -> None:
        """Forget the shuffles of deals before ``before_deal`` (settled and revealed)."""
        k = 0
        while k < len(self.used) and self.used[k].deal < before_deal:
            k += 1
        if k:
            del self.used[:k]
            self.offset += k

    def commitments(self, deal: int) -> list[str]:
        """The SHA-256 commitments of the seeded shuffles of one deal."""
        return [c for s in self.used if s.deal == deal and (c := s.commitment) is not None]

    def seeds(self, deal: int) -> list[str]:
        """The seeds of one deal (reveal only once it has ended)."""
        return [s.seed for s in self.used if s.deal == deal and s.seed is not None]
