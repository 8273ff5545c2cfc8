"""Fast pieces for the strong Hachi-Hachi Trick bot: cards as small ints, hand values, the opponent model, trick
playouts and an exact endgame search. Nothing here reads a view or an engine; :mod:`games.hachi_hachi.strong`
turns what a seat saw into these arguments.

A card is ``suit × 13 + rank − 2`` (suits c, d, h, s as 0..3, ranks 2..14), so within a suit a larger int is a
higher card. Trick play is simulated between the declarers only, by their *position* in the playing order
(``trick_order``): position ``p`` is followed by ``(p + 1) % d``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from games.core.cards import SUIT_CHARS, FrenchCard, french_deck
from games.hachi_hachi.normal import JoinOutcome, fight_value_of, value_over
from games.hachi_hachi.rules import COMBINATION_KEYS, WEAK_KEYS, HachiHachiRules, YakuTable

SUIT = tuple(i // 13 for i in range(52))
RANK = tuple(i % 13 + 2 for i in range(52))
ACE = 14
_CARDS: dict[int, FrenchCard] = {SUIT_CHARS.index(c.suit) * 13 + c.rank - 2: c for c in french_deck()}


def to_int(card: FrenchCard) -> int:
    return SUIT_CHARS.index(card.suit) * 13 + card.rank - 2


def to_card(card: int) -> FrenchCard:
    return _CARDS[card]


def suit_int(suit: str) -> int:
    return SUIT_CHARS.index(suit)


# ---------------------------------------------------------------- hand values

_PATTERNS: dict[tuple[int, ...], str] = {
    (4, 3): "four_three",
    (3, 3, 1): "two_triples",
    (3, 2, 2): "haneken",
    (4, 2, 1): "one_two_four",
    (3, 2, 1, 1): "full_house",
    (2, 2, 2, 1): "three_pairs",
    (3, 1, 1, 1, 1): "three_kind",
}


def _has_run(ranks: set[int]) -> bool:
    """Five or more consecutive ranks (the Ace high and low)."""
    if ACE in ranks:
        ranks = ranks | {1}
    run = 0
    for r in range(1, ACE + 1):
        if r in ranks:
            run += 1
            if run >= 5:
                return True
        else:
            run = 0
    return False


class Valuer:
    """What a 7-card hand (ints) scores under a yaku table; the same answer as :func:`games.hachi_hachi.yaku.
    classify`, without building the shown cards."""

    def __init__(self, table: YakuTable, ace_value: int) -> None:
        self.ace_value = ace_value
        rows = {k: table.row(k) for k in (*COMBINATION_KEYS, *WEAK_KEYS)}
        order = {k: i for i, k in enumerate(COMBINATION_KEYS)}
        self._combo = {k: (r.normal, r.forced_out, -order[k]) for k, r in rows.items() if k in order and r.enabled}
        self._weak = {k: (r.normal, r.forced_out) for k, r in rows.items() if k in WEAK_KEYS and r.enabled}

    def keys(self, cards: Sequence[int]) -> tuple[str | None, str | None]:
        """The Combination and Weak-hand yaku the hand scores (None where it scores none)."""
        counts: dict[int, int] = {}
        suits = [0, 0, 0, 0]
        honours = 0
        for c in cards:
            r = RANK[c]
            counts[r] = counts.get(r, 0) + 1
            suits[SUIT[c]] += 1
            if r > 9:
                honours += 1
        shape = tuple(sorted(counts.values(), reverse=True))
        met: list[str] = []
        key = _PATTERNS.get(shape)
        if key is not None:
            met.append(key)
        if shape[0] == 4:
            met.append("four_kind")
        if len(counts) >= 5:
            if _has_run(set(counts)):
                met.append("straight")
            flush = next((s for s in range(4) if suits[s] >= 5), None)
            if flush is not None:
                met.append("flush")
                if _has_run({RANK[c] for c in cards if SUIT[c] == flush}):
                    met.append("straight_flush")
        combo: str | None = None
        best: tuple[int, int, int] | None = None
        for k in met:
            value = self._combo.get(k)
            if value is not None and (best is None or value > best):
                best, combo = value, k
        if honours == 0:
            weak: str | None = "karasu"
        elif honours == len(cards):
            weak = "sunashi"
        elif honours == 1:
            weak = "pikaichi" if any(RANK[c] == ACE for c in cards) else "toichi"
        else:
            weak = None
        if weak is not None and weak not in self._weak:
            weak = None
        return combo, weak

    def values(self, cards: Sequence[int]) -> tuple[int, int]:
        """(normal column, forced-out column plus the Aces' worth) of a 7-card hand."""
        combo, weak = self.keys(cards)
        normal = forced = 0
        if combo is not None:
            n, f, _ = self._combo[combo]
            normal, forced = n, f
        if weak is not None:
            n, f = self._weak[weak]
            normal, forced = normal + n, forced + f
        aces = sum(1 for c in cards if RANK[c] == ACE)
        return normal, forced + self.ace_value * aces


# ---------------------------------------------------------------- the opponent model

_TRUMP_WORTH = {14: 1.0, 13: 0.85, 12: 0.7, 11: 0.55, 10: 0.45}
_SIDE_WORTH = {14: 0.8, 13: 0.4, 12: 0.12}


def estimate(cards: Sequence[int], trump: int) -> float:
    """:func:`games.hachi_hachi.normal.estimate_tricks` on ints (the same number)."""
    by_suit: list[list[int]] = [[], [], [], []]
    for c in cards:
        by_suit[SUIT[c]].append(RANK[c])
    est = 0.0
    for suit, ranks in enumerate(by_suit):
        if suit == trump:
            est += sum(_TRUMP_WORTH.get(r, 0.3) for r in ranks)
            continue
        for r in ranks:
            worth = _SIDE_WORTH.get(r, 0.0)
            if r == 13 and len(ranks) == 1:
                worth = 0.2  # a bare King falls to the Ace
            est += worth
    trumps = len(by_suit[trump])
    if trumps:
        voids = sum(1 for s in range(4) if s != trump and not by_suit[s])
        est += 0.35 * min(voids, trumps)
    return est


MODEL_TEMPERATURE = 2.0
"""How soft the model of other players is, in points (times M): the normal bot's margin over which a player
plays (or fights) with probability 1/(1 + e⁻¹) ≈ 0.73."""
MODEL_FLOOR = 0.03
"""No modelled choice is ever treated as certain: players differ from the model (the easy bot plays often)."""


def _logistic(x: float) -> float:
    if x < -40:
        return MODEL_FLOOR
    return min(1.0 - MODEL_FLOOR, max(MODEL_FLOOR, 1.0 / (1.0 + math.exp(-x))))


def p_play(
    est: float, value: int, *, outcomes: Sequence[JoinOutcome], fee: int, mult: int, rules: HachiHachiRules
) -> float:
    """How likely a player with this hand plays, in a spot whose later speakers may go as ``outcomes`` say (the
    normal bot's rule, :func:`games.hachi_hachi.normal.join_outcomes`, softened)."""
    margin = value_over(outcomes, est, value, mult=mult, rules=rules) + fee
    return _logistic(margin / (MODEL_TEMPERATURE * mult))


def p_fight(est: float, value: int, *, pot: int, mult: int, trick_rate: int) -> float:
    """How likely one of two declarers with this hand insists on playing rather than splitting the pot."""
    margin = fight_value_of(est, value, pot=pot, mult=mult, trick_rate=trick_rate)
    return _logistic(margin / (MODEL_TEMPERATURE * mult))


# ---------------------------------------------------------------- trick play


def beats(card: int, best: int, trump: int) -> bool:
    s = SUIT[card]
    b = SUIT[best]
    if s == b:
        return card > best
    return s == trump


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """The index (in playing order) of the card that wins a complete trick."""
    best = 0
    top = cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        if beats(c, top, trump):
            best, top = i, c
    return best


def legal(hand: Sequence[int], led: int | None) -> list[int]:
    if led is not None:
        follow = [c for c in hand if SUIT[c] == led]
        if follow:
            return follow
    return list(hand)


def _can_beat(hand: Sequence[int], led: int, best: int, trump: int) -> bool:
    """Whether a player holding ``hand`` could beat ``best`` in a trick led in ``led``."""
    has_led = False
    for c in hand:
        if SUIT[c] == led:
            has_led = True
            if SUIT[best] == led and c > best:
                return True
    if has_led:
        return False
    if SUIT[best] == trump:
        return any(SUIT[c] == trump and c > best for c in hand)
    return any(SUIT[c] == trump for c in hand)


def _dump(cards: Sequence[int], trump: int) -> int:
    """The least useful card: the lowest side card, else the lowest trump."""
    return min(cards, key=lambda c: (SUIT[c] == trump, RANK[c]))


def playout_card(hands: Sequence[list[int]], pos: int, cur: Sequence[int], leader: int, trump: int) -> int:
    """The card a declarer at ``pos`` plays in a playout, seeing every hand (a quick, sensible rule)."""
    d = len(hands)
    hand = hands[pos]
    if not cur:
        return _lead(hands, pos, trump)
    led = SUIT[cur[0]]
    follow = [c for c in hand if SUIT[c] == led] or hand
    if len(follow) == 1:
        return follow[0]
    best = cur[0]
    for c in cur[1:]:
        if beats(c, best, trump):
            best = c
    winners = sorted((c for c in follow if beats(c, best, trump)), key=lambda c: (SUIT[c] == trump, RANK[c]))
    if not winners:
        return _dump(follow, trump)
    later = [hands[(leader + k) % d] for k in range(len(cur) + 1, d)]
    for c in winners:
        if not any(_can_beat(h, led, c, trump) for h in later):
            return c
    return _dump(follow, trump)


def _lead(hands: Sequence[list[int]], pos: int, trump: int) -> int:
    hand = hands[pos]
    top = [-1, -1, -1, -1]  # the rivals' highest card of each suit
    ruffed = [False, False, False, False]  # a rival holds trumps and none of the suit
    for i, h in enumerate(hands):
        if i == pos:
            continue
        present = [False, False, False, False]
        for c in h:
            s = SUIT[c]
            present[s] = True
            if c > top[s]:
                top[s] = c
        if present[trump]:
            for s in range(4):
                if not present[s]:
                    ruffed[s] = True
    # a side card no one can beat: the highest of its suit left, and no rival can ruff it (the highest such)
    sure = -1
    for c in hand:
        s = SUIT[c]
        if s != trump and c > top[s] and not ruffed[s] and (sure < 0 or RANK[c] > RANK[sure]):
            sure = c
    if sure >= 0:
        return sure
    trumps = [c for c in hand if SUIT[c] == trump]
    if trumps and top[trump] >= 0 and max(trumps) > top[trump]:
        return max(trumps)  # draw the rivals' trumps with the top one
    side = [c for c in hand if SUIT[c] != trump]
    if not side:
        return min(trumps)
    counts = [0, 0, 0, 0]
    for c in side:
        counts[SUIT[c]] += 1
    return min(side, key=lambda c: (-counts[SUIT[c]], RANK[c]))


def rollout(
    hands: Sequence[Sequence[int]], leader: int, cur: Sequence[int], tricks: Sequence[int], trump: int
) -> list[int]:
    """Play the round out with :func:`playout_card` for everyone; the final trick counts by position. Its work is
    one unit per card played (:func:`plies`)."""
    d = len(hands)
    h = [list(x) for x in hands]
    t = list(tricks)
    trick = list(cur)
    while True:
        while len(trick) < d:
            pos = (leader + len(trick)) % d
            card = playout_card(h, pos, trick, leader, trump)
            h[pos].remove(card)
            trick.append(card)
        leader = (leader + trick_winner(trick, trump)) % d
        t[leader] += 1
        trick = []
        if not h[leader]:
            return t


Utility = Callable[[Sequence[int]], Sequence[float]]
"""Final trick counts by position → what each position makes of them."""


def leaves(hands: Sequence[Sequence[int]]) -> int:
    """An upper bound on the play sequences left (the product of the hands' factorials)."""
    out = 1
    for h in hands:
        out *= math.factorial(len(h))
    return out


def plies(hands: Sequence[Sequence[int]]) -> int:
    """The cards left to play: the work of a :func:`rollout`, in units."""
    return sum(len(h) for h in hands)


def exact(
    hands: Sequence[Sequence[int]],
    leader: int,
    cur: Sequence[int],
    tricks: Sequence[int],
    trump: int,
    utility: Utility,
    work: list[int],
) -> Sequence[float]:
    """The round's outcome when every declarer sees every hand and plays for its own utility (max-n search; a
    tie goes to the lower card). Only for small endgames (:func:`leaves`). Adds one unit of work per position
    searched to ``work[0]``."""
    work[0] += 1
    d = len(hands)
    if len(cur) == d:
        winner = (leader + trick_winner(cur, trump)) % d
        t = list(tricks)
        t[winner] += 1
        if not hands[winner]:
            return utility(t)
        return exact(hands, winner, (), t, trump, utility, work)
    pos = (leader + len(cur)) % d
    hand = hands[pos]
    moves = legal(hand, SUIT[cur[0]] if cur else None)
    best: Sequence[float] | None = None
    for card in sorted(moves):
        rest = [c for c in hand if c != card]
        after = [rest if i == pos else h for i, h in enumerate(hands)]
        vec = exact(after, leader, (*cur, card), tricks, trump, utility, work)
        if best is None or vec[pos] > best[pos]:
            best = vec
    assert best is not None
    return best


def trick_utility(
    *,
    d: int,
    declarer_rank: Sequence[int],
    mult: int,
    trick_rate: int,
    pot: int,
    mizuten_pos: int | None,
    mizuten_min: int,
    mizuten_gain: int,
    mizuten_loss: int,
) -> Utility:
    """What each position makes of the final trick counts: the trick settlement (linear in its own tricks: it
    receives ``rate × M × (tᵢ − tⱼ)`` from each other declarer j), the pot for the most tricks (ties to the earlier
    declarer, ``declarer_rank``), and a paid Mizuten."""
    rate = trick_rate * mult

    def utility(t: Sequence[int]) -> list[float]:
        total = sum(t)
        out = [float(rate * (d * t[i] - total)) for i in range(d)]
        top = max(t)
        taker = min((i for i in range(d) if t[i] == top), key=lambda i: declarer_rank[i])
        out[taker] += pot
        if mizuten_pos is not None and t[mizuten_pos] >= mizuten_min:
            for i in range(d):
                out[i] += mizuten_gain if i == mizuten_pos else -mizuten_loss
        return out

    return utility
