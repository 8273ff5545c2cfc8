"""A fast model of one Luk Fu hand with every card known, for the strong bot's search (rules.md §2).

The engine (:mod:`games.luk_fu.engine`) is the rules' reference; this module plays the same hand thousands of
times a decision, so it trades readability for speed:

* a card is an integer id, ``suit × 9 + rank − 1`` for the 36 suited cards (suits C S M T = 0..3) and 36 for
  Li Tyen, which is also its index in :func:`games.core.cards.lukfu_deck`;
* a set of cards is a bit mask of ids;
* a play is a tuple ``(kind, mask, size, a, b)``: kind 0 single (``a`` suit or −1 for LT, ``b`` rank), 1 set
  (``a`` rank), 2 run (``a`` suit, ``b`` top rank), 3 the Five Tigers lead;
* the three active players are numbered 0..2 in order of play, the parent first (``active`` of the view).

:class:`Hand` moves through the same phases as the engine (call, the after-call Five Tigers question, lead,
follow, stop) and scores the end with :mod:`games.luk_fu.scoring`. :func:`rollout` finishes a hand fast: the
search (:mod:`games.luk_fu.search`) deals the hidden cards into a possible world, and a rollout plays that world
out, the searching player greedily with every card in view, the others the baseline's way. The test suite
checks the model against the engine.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.core.cards import LukFuCard, lukfu_deck
from games.luk_fu.rules import LukFuRules
from games.luk_fu.scoring import make_share, payments

Play = tuple[int, int, int, int, int]
"""(kind, mask, size, a, b): see the module docstring."""

SINGLE, SET, RUN, TIGERS = 0, 1, 2, 3
LT = 36
CARDS: tuple[LukFuCard, ...] = tuple(lukfu_deck())
"""Card by id."""
ID: dict[LukFuCard, int] = {c: i for i, c in enumerate(CARDS)}
SUIT_MASK: tuple[int, ...] = tuple(0x1FF << (9 * s) for s in range(4))
RANK_MASK: tuple[int, ...] = (0, *(sum(1 << (9 * s + r - 1) for s in range(4)) for r in range(1, 10)))
ABOVE: tuple[int, ...] = (
    *((SUIT_MASK[i // 9] >> (i + 1) << (i + 1)) & SUIT_MASK[i // 9] for i in range(36)),
    0,
)
"""The cards of the same suit ranked above each card (none above Li Tyen, which has no suit)."""
PERM = 1 << 0 | 1 << 27 | 1 << LT
"""1C, 1T and LT: always old, unbeatable led singly."""
FIVE = 1 << 0 | 1 << 9 | 1 << 18 | 1 << 27 | 1 << LT
RED = 1 << 8 | 1 << 17 | 1 << 26 | 1 << 35 | 1 << 34 | 1 << 0 | 1 << 27 | 1 << LT
ALL = (1 << 37) - 1
SITTER_MATCH: tuple[int, ...] = (0, RANK_MASK[1] | 1 << LT, *RANK_MASK[2:])
"""Winning cards matching a sitter card of each rank (LT counts as 1)."""
SET_RANK_HIGH: tuple[int, ...] = (0, 17, 4, 6, 8, 10, 12, 14, 16, 18)
"""Set-rank under ``ones_set_rank = high``: 2 < … < 8 < 1 < 9."""

SINGLES: tuple[Play, ...] = (*((SINGLE, 1 << i, 1, i // 9, i % 9 + 1) for i in range(36)), (SINGLE, 1 << LT, 1, -1, 0))


def _run_table() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For each 9-bit suit pattern: every run in it as (size, top rank, 9-bit mask), sub-runs included, in the
    engine's order (by lowest rank, then size)."""
    out: list[tuple[tuple[int, int, int], ...]] = []
    for bits in range(512):
        runs: list[tuple[int, int, int]] = []
        for lo in range(7):
            if not bits >> lo & 1:
                continue
            hi = lo
            while hi + 1 < 9 and bits >> (hi + 1) & 1:
                hi += 1
            for n in range(3, hi - lo + 2):
                runs.append((n, lo + n, ((1 << n) - 1) << lo))
        out.append(tuple(runs))
    return tuple(out)


RUNS: tuple[tuple[tuple[int, int, int], ...], ...] = _run_table()


def _cover(runs: tuple[tuple[int, int, int], ...]) -> int:
    out = 0
    for _n, _t, m in runs:
        out |= m
    return out


RUN_COVER: tuple[int, ...] = tuple(_cover(runs) for runs in RUNS)
"""For each 9-bit suit pattern: the cards that belong to some run in it."""


def mask_of(cards: Iterable[LukFuCard]) -> int:
    m = 0
    for c in cards:
        m |= 1 << ID[c]
    return m


def ids_of(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def cards_of(mask: int) -> tuple[LukFuCard, ...]:
    return tuple(CARDS[i] for i in ids_of(mask))


def make_play(mask: int) -> Play:
    """The play these cards make (they must form a single, set, run or the Five Tigers lead)."""
    ids = ids_of(mask)
    n = len(ids)
    if n == 1:
        return SINGLES[ids[0]]
    if mask == FIVE:
        return (TIGERS, mask, 5, 0, 0)
    ranks = {i % 9 + 1 for i in ids}
    if len(ranks) == 1:
        return (SET, mask, n, ids[0] % 9 + 1, 0)
    return (RUN, mask, n, ids[0] // 9, ids[-1] % 9 + 1)


def set_beats(r: int, q: int, is_lead: bool, ones_high: bool) -> bool:
    """A set of rank ``r`` beats one of rank ``q`` (same size), §2.5."""
    if ones_high:
        return SET_RANK_HIGH[r] > SET_RANK_HIGH[q]
    if is_lead and q == 1:
        return r == 9
    return r > q


def can_beat(hand: int, cur: Play, is_lead: bool, ones_high: bool) -> bool:
    """Whether ``hand`` holds a play that beats ``cur`` (the play winning the trick now)."""
    kind = cur[0]
    if kind == SINGLE:
        if cur[3] < 0 or (is_lead and cur[1] & PERM):
            return False
        return bool(hand & ABOVE[cur[3] * 9 + cur[4] - 1])
    if kind == SET:
        n, q = cur[2], cur[3]
        return any((hand & RANK_MASK[r]).bit_count() >= n and set_beats(r, q, is_lead, ones_high) for r in range(1, 10))
    if kind == RUN:
        n, s0, top = cur[2], cur[3], cur[4]
        for s in range(s0, 4):
            for size, t, _m in RUNS[(hand >> (9 * s)) & 0x1FF]:
                if size == n and (s > s0 or t > top):
                    return True
        return False
    return False


def beaters(hand: int, cur: Play, is_lead: bool, ones_high: bool) -> list[Play]:
    """Every play of ``hand`` that beats ``cur`` (what must-beat forces a choice among)."""
    kind = cur[0]
    out: list[Play] = []
    if kind == SINGLE:
        if cur[3] < 0 or (is_lead and cur[1] & PERM):
            return out
        return [SINGLES[i] for i in ids_of(hand & ABOVE[cur[3] * 9 + cur[4] - 1])]
    if kind == SET:
        n, q = cur[2], cur[3]
        for r in range(1, 10):
            m = hand & RANK_MASK[r]
            c = m.bit_count()
            if c < n or not set_beats(r, q, is_lead, ones_high):
                continue
            if c == n:
                out.append((SET, m, n, r, 0))
            else:  # three of a four
                for i in ids_of(m):
                    out.append((SET, m ^ (1 << i), n, r, 0))
        return out
    if kind == RUN:
        n, s0, top = cur[2], cur[3], cur[4]
        for s in range(s0, 4):
            for size, t, m9 in RUNS[(hand >> (9 * s)) & 0x1FF]:
                if size == n and (s > s0 or t > top):
                    out.append((RUN, m9 << (9 * s), n, s, t))
    return out


def multi_leads(hand: int) -> list[Play]:
    """Every triple, quad and run in ``hand`` (every 3 of a 4-of-a-kind, every sub-run)."""
    out: list[Play] = []
    for r in range(1, 10):
        m = hand & RANK_MASK[r]
        c = m.bit_count()
        if c == 3:
            out.append((SET, m, 3, r, 0))
        elif c == 4:
            for i in ids_of(m):
                out.append((SET, m ^ (1 << i), 3, r, 0))
            out.append((SET, m, 4, r, 0))
    for s in range(4):
        for size, t, m9 in RUNS[(hand >> (9 * s)) & 0x1FF]:
            out.append((RUN, m9 << (9 * s), size, s, t))
    return out


def combo_cover(hand: int) -> int:
    """The cards of ``hand`` that belong to some triple, quad or run."""
    a, b, c, d = hand & 0x1FF, (hand >> 9) & 0x1FF, (hand >> 18) & 0x1FF, (hand >> 27) & 0x1FF
    three = (a & b & (c | d)) | (c & d & (a | b))  # the ranks held in 3 or 4 suits
    return (
        (a & three | RUN_COVER[a])
        | (b & three | RUN_COVER[b]) << 9
        | (c & three | RUN_COVER[c]) << 18
        | (d & three | RUN_COVER[d]) << 27
    )


def has_big(hand: int) -> bool:
    """A quad or a run of 4+ (the parent-pass penalty's condition)."""
    for r in range(1, 10):
        if (hand & RANK_MASK[r]).bit_count() == 4:
            return True
    for s in range(4):
        for size, _t, _m in RUNS[(hand >> (9 * s)) & 0x1FF]:
            if size >= 4:
                return True
    return False


CALL_AT = 4.0
"""The baseline's call threshold (``games.luk_fu.policy.CALL_AT``), used for the players a rollout calls for."""


def estimate(hand: int) -> float:
    """The baseline policy's trick estimate (``policy.estimate_tricks``, as declarer), on a mask."""
    used = hand & PERM
    est = float(used.bit_count())
    for s in range(4):
        r = 9
        while r >= 1 and hand >> (9 * s + r - 1) & 1:
            used |= 1 << (9 * s + r - 1)
            est += 1
            r -= 1
    for kind, m, n, a, _b in multi_leads(hand):
        if used & m:
            continue
        if kind == SET:
            if a == 1 or a >= 7:
                est += n * 0.8
                used |= m
        elif n >= 4 and a >= 2:
            est += n * 0.7
            used |= m
    return est


# ------------------------------------------------------------------------------------------ the hand


@dataclass(frozen=True)
class Ctx:
    """The rules as the model uses them, and whose chips a rollout scores."""

    knowledge: bool
    exempt_declarer: bool
    exempt_only_old: bool
    highest_suit: bool
    first_lead_max3: bool
    ones_high: bool
    tigers_at_lead: bool
    tigers_after_call: bool
    tigers_tricks: int
    tigers_lead: bool
    big_multiplier: bool
    red_bonus: bool
    red_own: bool
    declarer_double: bool
    parent_penalty: bool
    sitter_bonus: bool
    root: int
    """The player (0..2) whose chips :meth:`Hand.payoff` counts."""

    @classmethod
    def of(cls, rules: LukFuRules, root: int, *, has_sitter: bool) -> Ctx:
        ft = rules.five_tigers_enabled
        return cls(
            knowledge=rules.old_card_mode == "knowledge",
            exempt_declarer=rules.old_lead_exempt_declarer,
            exempt_only_old=rules.old_lead_exempt_only_old_left,
            highest_suit=rules.single_lead_highest_suit,
            first_lead_max3=rules.parent_pass_first_lead_max3,
            ones_high=rules.ones_set_rank == "high",
            tigers_at_lead=ft and rules.five_tigers_timing == "at_lead",
            tigers_after_call=ft and rules.five_tigers_timing == "after_call",
            tigers_tricks=rules.five_tigers_tricks,
            tigers_lead=ft and rules.five_tigers_lead,
            big_multiplier=rules.big_hand_multiplier,
            red_bonus=rules.red_bonus,
            red_own=rules.red_scope == "own_winning_cards",
            declarer_double=rules.declarer_pays_double,
            parent_penalty=rules.parent_pass_penalty,
            sitter_bonus=has_sitter and rules.dealer_bonus,
            root=root,
        )


CALL, TIGERS_Q, LEAD, FOLLOW, STOP, END = range(6)


class Hand:
    """One hand in progress with every card known (the search's possible world)."""

    __slots__ = (
        "caps",
        "capt",
        "ctx",
        "dealt",
        "declarer",
        "disc",
        "faceup",
        "hands",
        "ncalls",
        "parent_passed",
        "phase",
        "plays",
        "reached",
        "sitter_card",
        "trick_no",
        "tricks",
        "turn",
        "win_idx",
        "winner",
        "won",
    )

    def __init__(self, ctx: Ctx) -> None:
        self.ctx = ctx
        self.hands = [0, 0, 0]
        self.dealt = [0, 0, 0]
        self.faceup = 0
        self.disc = [0, 0, 0]
        self.caps = [9] * 12
        """Must-beat inference of §2.6 (knowledge mode): ``caps[p*4+s]`` is the highest rank of suit s player p
        may still hold, as the engine keeps it."""
        self.tricks = [0, 0, 0]
        self.won = [0, 0, 0]
        self.capt = [0, 0, 0]
        self.reached: list[int] = []
        self.declarer = -1
        self.parent_passed = False
        self.ncalls = 0
        self.phase = CALL
        self.turn = 0
        """Who acts: the caller, leader, follower or the winner choosing stop."""
        self.plays: list[tuple[int, Play | None, int]] = []
        """The trick in progress: (player, play or None face down, cards)."""
        self.win_idx = 0
        self.trick_no = 0
        self.winner = -1
        self.sitter_card = -1
        """4 players: the sitter's card id (for the sitter bonus); else −1."""

    def copy(self) -> Hand:
        h = Hand.__new__(Hand)
        h.ctx = self.ctx
        h.hands = self.hands[:]
        h.dealt = self.dealt
        h.faceup = self.faceup
        h.disc = self.disc[:]
        h.caps = self.caps[:]
        h.tricks = self.tricks[:]
        h.won = self.won[:]
        h.capt = self.capt[:]
        h.reached = self.reached[:]
        h.declarer = self.declarer
        h.parent_passed = self.parent_passed
        h.ncalls = self.ncalls
        h.phase = self.phase
        h.turn = self.turn
        h.plays = self.plays[:]
        h.win_idx = self.win_idx
        h.trick_no = self.trick_no
        h.winner = self.winner
        h.sitter_card = self.sitter_card
        return h

    # ------------------------------------------------------------------ what is legal

    def old_mask(self, p: int) -> int:
        """The old cards in player p's hand (§2.6, the engine's ``old_in_hand`` on masks)."""
        hand = self.hands[p]
        old = hand & PERM
        faceup = self.faceup
        if self.ctx.knowledge:
            known = hand | faceup | self.disc[p]
            caps = self.caps
            o1, o2 = ((p + 1) % 3) * 4, ((p + 2) % 3) * 4
            for s in range(4):
                if not hand & SUIT_MASK[s]:
                    continue
                cap = max(caps[o1 + s], caps[o2 + s])
                for r in range(9, 0, -1):
                    b = 1 << (9 * s + r - 1)
                    if hand & b:
                        old |= b
                    elif not (known & b or r > cap):
                        break
        else:
            dealt = self.dealt[p]
            for s in range(4):
                if not hand & SUIT_MASK[s]:
                    continue
                r = 9
                while r >= 1 and faceup >> (9 * s + r - 1) & 1:
                    r -= 1
                while r >= 1:
                    b = 1 << (9 * s + r - 1)
                    if hand & b:
                        old |= b
                    if not dealt & b:
                        break
                    r -= 1
        return old

    def single_leads(self, p: int) -> int:
        """The cards p may lead singly (the §2.4 restriction), before the no-legal-lead fallback."""
        hand = self.hands[p]
        ctx = self.ctx
        if ctx.exempt_declarer and p == self.declarer:
            return hand
        nonold = hand & ~self.old_mask(p)
        if ctx.exempt_only_old and not nonold:
            return hand
        if ctx.highest_suit and nonold:
            for s in (3, 2, 1, 0):
                if nonold & SUIT_MASK[s]:
                    return nonold & SUIT_MASK[s]
        return nonold

    def leads(self, p: int) -> list[Play]:
        """Every legal lead of p (not the Five Tigers reveal, see :meth:`may_reveal`)."""
        hand = self.hands[p]
        ctx = self.ctx
        multi = multi_leads(hand)
        if ctx.first_lead_max3 and self.trick_no == 0 and p == 0 and self.parent_passed:
            multi = [m for m in multi if m[2] <= 3]
        if ctx.tigers_lead and hand & FIVE == FIVE:
            multi.append((TIGERS, FIVE, 5, 0, 0))
        singles = self.single_leads(p)
        if not singles and not multi:
            singles = hand
        return [SINGLES[i] for i in ids_of(singles)] + multi

    def may_reveal(self, p: int) -> bool:
        return self.ctx.tigers_at_lead and self.hands[p] & FIVE == FIVE

    def winning(self) -> Play:
        play = self.plays[self.win_idx][1]
        assert play is not None
        return play

    def follow_beaters(self, p: int) -> list[Play]:
        return beaters(self.hands[p], self.winning(), self.win_idx == 0, self.ctx.ones_high)

    # ------------------------------------------------------------------ moves

    def call(self, p: int, play: bool) -> None:
        self.ncalls += 1
        if self.ncalls == 1 and p == 0 and not play:
            self.parent_passed = True
        if play:
            self.declarer = p
            if self.ctx.tigers_after_call and any(h & FIVE == FIVE for h in self.hands):
                self.phase = TIGERS_Q
                self.turn = next(i for i in range(3) if self.hands[i] & FIVE == FIVE)
            else:
                self.phase, self.turn = LEAD, 0
        elif self.ncalls == 3:
            self.phase = END
        else:
            self.turn = self.ncalls

    def keep(self) -> None:
        """After-call Five Tigers question: the holder keeps them."""
        self.phase, self.turn = LEAD, 0

    def reveal(self, p: int) -> None:
        self.tricks[p] = min(12, self.tricks[p] + self.ctx.tigers_tricks)
        self.won[p] |= FIVE
        self.capt[p] |= FIVE
        self.hands[p] &= ~FIVE
        self.faceup |= FIVE
        self.winner = p
        self.phase = END

    def lead(self, p: int, play: Play) -> None:
        m = play[1]
        self.hands[p] ^= m
        self.faceup |= m
        self.trick_no += 1
        self.plays = [(p, play, m)]
        self.win_idx = 0
        self.phase = FOLLOW
        self.turn = (p + 1) % 3

    def follow(self, p: int, play: Play) -> None:
        m = play[1]
        self.hands[p] ^= m
        self.faceup |= m
        self.win_idx = len(self.plays)
        self.plays.append((p, play, m))
        self._next(p)

    def discard(self, p: int, mask: int) -> None:
        self.hands[p] ^= mask
        self.disc[p] |= mask
        w = self.plays[self.win_idx][1]
        assert w is not None
        if w[0] == SINGLE and w[3] >= 0 and not (self.win_idx == 0 and w[1] & PERM):
            k = p * 4 + w[3]
            if w[4] < self.caps[k]:
                self.caps[k] = w[4]
        self.plays.append((p, None, mask))
        self._next(p)

    def _next(self, p: int) -> None:
        if len(self.plays) < 3:
            self.turn = (p + 1) % 3
            return
        plays = self.plays
        w, play, m = plays[self.win_idx]
        assert play is not None
        n = play[2]
        before = self.tricks[w]
        self.tricks[w] = before + n
        self.won[w] |= m
        self.capt[w] |= plays[0][2] | plays[1][2] | plays[2][2]
        if before < 6 <= before + n:
            self.reached.append(w)
        self.plays = []
        if not self.hands[w]:
            self.winner = self.reached[-1] if self.reached else -1
            self.phase = END
        elif before + n >= 6:
            self.phase, self.turn = STOP, w
        else:
            self.phase, self.turn = LEAD, w

    def stop(self, p: int) -> None:
        self.winner = p
        self.phase = END

    def cont(self, p: int) -> None:
        self.phase, self.turn = LEAD, p

    # ------------------------------------------------------------------ the end

    def payoff(self) -> int:
        """The root player's chips from this (finished) hand, in points, before any stack cap."""
        w = self.winner
        if w < 0:
            return 0
        ctx = self.ctx
        reds = 0
        if ctx.red_bonus:
            reds = ((self.won[w] if ctx.red_own else self.capt[w]) & RED).bit_count()
        share = make_share(self.tricks[w], big_hand_multiplier=ctx.big_multiplier, reds=reds).value
        losers = [p for p in range(3) if p != w]
        declarer = self.declarer if self.declarer >= 0 else None
        penalty = ctx.parent_penalty and w == 0 and self.parent_passed and declarer in losers and has_big(self.dealt[0])
        bonus = ctx.sitter_bonus and self.sitter_card >= 0 and bool(self.won[w] & _sitter_mask(self.sitter_card))
        root = ctx.root
        total = 0
        for pay in payments(
            winner=w,
            losers=losers,
            declarer=declarer,
            share=share,
            declarer_pays_double=ctx.declarer_double,
            parent_penalty=penalty,
            sitter=3 if ctx.sitter_bonus else None,
            sitter_bonus=bonus,
        ):
            if pay.payee == root:
                total += pay.amount
            elif pay.payer == root:
                total -= pay.amount
        return total


def _sitter_mask(card: int) -> int:
    return SITTER_MATCH[1] if card == LT else SITTER_MATCH[card % 9 + 1]


# ------------------------------------------------------------------------------------------ rollouts
# The root player's policies: greedy, seeing every card of the world.


def strength(play: Play, ones_high: bool) -> int:
    """Orders plays of one kind from weakest to strongest (to follow with the cheapest beating play)."""
    kind = play[0]
    if kind == SINGLE:
        return play[4]
    if kind == SET:
        return SET_RANK_HIGH[play[3]] if ones_high else play[3]
    return play[3] * 10 + play[4]


def _spread(bits: int, suit: int) -> int:
    out = 0
    for r in range(9):
        if bits >> r & 1:
            out |= 1 << (r * 4 + suit)
    return out


_RANK_MAJOR: tuple[tuple[int, ...], ...] = tuple(tuple(_spread(b, s) for b in range(512)) for s in range(4))
"""A suit's 9-bit pattern spread into rank-major order (bit ``4 × (rank − 1) + suit``), so that the lowest bits
of a rank-major mask are the lowest-ranked cards."""


def _lowest(mask: int, n: int) -> int:
    """The ``n`` lowest-ranked suited cards of ``mask`` (lower suit first within a rank), as a mask."""
    rm = (
        _RANK_MAJOR[0][mask & 0x1FF]
        | _RANK_MAJOR[1][(mask >> 9) & 0x1FF]
        | _RANK_MAJOR[2][(mask >> 18) & 0x1FF]
        | _RANK_MAJOR[3][(mask >> 27) & 0x1FF]
    )
    out = 0
    while n and rm:
        low = rm & -rm
        rm ^= low
        j = low.bit_length() - 1
        out |= 1 << ((j & 3) * 9 + (j >> 2))
        n -= 1
    return out


def discard_mask(h: Hand, p: int, n: int) -> int:
    """The ``n`` cards p least wants to keep, to discard face down, lowest rank first within each tier: 1C, 1T
    and LT (unless p is an exempt declarer, to whom they are unbeatable leads, kept last); cards another player
    can beat, outside any set or run; such cards in a set or run; cards nobody else can beat."""
    hand = h.hands[p]
    others = h.hands[(p + 1) % 3] | h.hands[(p + 2) % 3]
    free = h.ctx.exempt_declarer and p == h.declarer
    perm = hand & PERM
    out = 0
    if not free and perm:
        if perm.bit_count() >= n:
            for i in ids_of(perm)[:n]:
                out |= 1 << i
            return out
        out, n = perm, n - perm.bit_count()
    suited = hand & ~PERM
    beatable = 0
    for s in range(4):
        top = ((others >> (9 * s)) & 0x1FF).bit_length()  # the others' highest rank in the suit (0: none)
        if top > 1:
            beatable |= ((1 << (top - 1)) - 1) << (9 * s)
    beatable &= suited
    combo = combo_cover(hand)
    for tier in (beatable & ~combo, beatable & combo, suited & ~beatable & ~combo, suited & ~beatable & combo):
        if not tier:
            continue
        count = tier.bit_count()
        if count >= n:
            return out | _lowest(tier, n)
        out |= tier
        n -= count
    if n:
        for i in ids_of(perm & ~out)[:n]:
            out |= 1 << i
    return out


def greedy_lead(h: Hand, p: int) -> None:
    """Reveal Five Tigers if possible; else lead the most cards nobody can beat; else the lowest single."""
    if h.may_reveal(p):
        h.reveal(p)
        return
    ones_high = h.ctx.ones_high
    leads = h.leads(p)
    o1, o2 = h.hands[(p + 1) % 3], h.hands[(p + 2) % 3]
    best: Play | None = None
    for play in leads:
        if can_beat(o1, play, True, ones_high) or can_beat(o2, play, True, ones_high):
            continue
        if best is None or play[2] > best[2]:
            best = play
    if best is None:
        singles = [x for x in leads if x[0] == SINGLE]
        pool = singles or leads
        best = min(pool, key=lambda x: (x[2], strength(x, ones_high)))
    h.lead(p, best)


def greedy_follow(h: Hand, p: int) -> None:
    """The cheapest beating play the next player cannot beat (the cheapest if he can beat them all); with
    nothing that beats, the cards p least wants to keep, face down."""
    ones_high = h.ctx.ones_high
    options = h.follow_beaters(p)
    if options:
        options.sort(key=lambda x: strength(x, ones_high))
        pick = options[0]
        if len(h.plays) == 1:
            nxt = h.hands[(p + 1) % 3]
            for play in options:
                if not can_beat(nxt, play, False, ones_high):
                    pick = play
                    break
        h.follow(p, pick)
        return
    h.discard(p, discard_mask(h, p, h.plays[0][2].bit_count()))


def greedy_stop(h: Hand, p: int) -> None:
    """Plays on only while holding a lead nobody can beat: that trick is sure, and he is asked again after it."""
    ones_high = h.ctx.ones_high
    o1, o2 = h.hands[(p + 1) % 3], h.hands[(p + 2) % 3]
    for play in h.leads(p):
        if not can_beat(o1, play, True, ones_high) and not can_beat(o2, play, True, ones_high):
            h.cont(p)
            return
    h.stop(p)


def baseline_call(h: Hand, p: int) -> None:
    """The baseline's call: play from :data:`CALL_AT` estimated tricks (half a trick less for a parent with a
    quad or a 4+ run)."""
    hand = h.hands[p]
    threshold = CALL_AT - 0.5 if p == 0 and has_big(hand) else CALL_AT
    h.call(p, estimate(hand) >= threshold)


# ------------------------------------------------------------------ the others' policies: the baseline's, on masks


def win_chance(play: Play, unknown: int, old: int) -> float:
    """How likely a lead of p is to win, judged from p's own knowledge (the baseline's ``win_chance``)."""
    kind = play[0]
    if kind == TIGERS:
        return 1.0
    if kind == SINGLE:
        m = play[1]
        if m & PERM:
            return 1.0
        if m & old:
            return 0.95
        return 0.5 ** (unknown & ABOVE[play[3] * 9 + play[4] - 1]).bit_count()
    n = play[2]
    threats = 0
    if kind == SET:
        q = play[3]
        for r in (9,) if q == 1 else range(q + 1, 10):
            if (unknown & RANK_MASK[r]).bit_count() >= n:
                threats += 1
        return 0.4**threats
    s0, top = play[3], play[4]
    base = (1 << n) - 1
    for s in range(s0, 4):
        bits = (unknown >> (9 * s)) & 0x1FF
        for t in range(top + 1 if s == s0 else n, 10):
            w = base << (t - n)
            if bits & w == w:
                threats += 1
    return 0.6**threats


def _values(h: Hand, p: int, old: int) -> list[tuple[float, int]]:
    """(worth keeping, id) of p's cards, lowest first: the baseline's ``card_value``."""
    hand = h.hands[p]
    combo = combo_cover(hand)
    out: list[tuple[float, int]] = []
    m = hand
    while m:
        low = m & -m
        m ^= low
        i = low.bit_length() - 1
        if low & PERM:
            v = 15.0
        elif old & low:
            v = 20.0
        else:
            v = _LOW_VALUE[i] + (6 if combo & low else 0)
        out.append((v, i))
    out.sort()
    return out


_LOW_VALUE: tuple[float, ...] = tuple(i % 9 + 1 + 0.3 * (i // 9) for i in range(36))


def seen_lead(h: Hand, p: int) -> None:
    """The baseline's lead: Five Tigers; else the lead with the best chance × cards from 0.6; else the single
    it values least."""
    if h.may_reveal(p):
        h.reveal(p)
        return
    unknown = ALL & ~(h.hands[p] | h.faceup | h.disc[p])
    old = h.old_mask(p)
    leads = h.leads(p)
    best: Play | None = None
    best_score = -1.0
    for play in leads:
        score = win_chance(play, unknown, old) * play[2]
        if score > best_score or (score == best_score and best is not None and play[2] > best[2]):
            best, best_score = play, score
    if best is None or best_score < 0.6:
        singles = 0
        for play in leads:
            if play[0] == SINGLE:
                singles |= play[1]
        if singles:
            for _v, i in _values(h, p, old):
                if singles >> i & 1:
                    best = SINGLES[i]
                    break
        else:
            best = min(leads, key=lambda x: strength(x, h.ctx.ones_high))
    assert best is not None
    h.lead(p, best)


def seen_follow(h: Hand, p: int) -> None:
    """The baseline's follow: the weakest beating play when last, else the strongest; face down, the cards it
    values least."""
    options = h.follow_beaters(p)
    if options:
        ones_high = h.ctx.ones_high
        key = lambda x: strength(x, ones_high)  # noqa: E731
        h.follow(p, min(options, key=key) if len(h.plays) == 2 else max(options, key=key))
        return
    n = h.plays[0][2].bit_count()
    mask = 0
    for _v, i in _values(h, p, h.old_mask(p))[:n]:
        mask |= 1 << i
    h.discard(p, mask)


def seen_stop(h: Hand, p: int) -> None:
    """Plays on only with a lead it knows nobody can beat (its own knowledge); else stops."""
    unknown = ALL & ~(h.hands[p] | h.faceup | h.disc[p])
    old = h.old_mask(p)
    for play in h.leads(p):
        if win_chance(play, unknown, old) == 1.0:
            h.cont(p)
            return
    h.stop(p)


def rollout(h: Hand) -> int:
    """Plays the hand to its end and returns the root player's chips.

    The root player plays greedily with every card in view (:func:`greedy_lead` and the rest): the search
    judges its own later choices by what they could achieve. The others play the baseline's way, each from his
    own cards and the table (:func:`seen_lead` and the rest): measured against the baseline, this model of
    them beat both alternatives (everyone seeing everything, everyone seeing only his own cards)."""
    root = h.ctx.root
    while True:
        phase = h.phase
        p = h.turn
        if phase == FOLLOW:
            if p == root:
                greedy_follow(h, p)
            else:
                seen_follow(h, p)
        elif phase == LEAD:
            if p == root:
                greedy_lead(h, p)
            else:
                seen_lead(h, p)
        elif phase == STOP:
            if p == root:
                greedy_stop(h, p)
            else:
                seen_stop(h, p)
        elif phase == END:
            return h.payoff()
        elif phase == CALL:
            baseline_call(h, p)
        else:
            h.reveal(p)


def remaining_cards(h: Hand) -> int:
    """Cards still to be played: what a rollout from here costs, roughly."""
    return h.hands[0].bit_count() + h.hands[1].bit_count() + h.hands[2].bit_count()
