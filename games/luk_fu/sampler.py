"""Possible worlds for the strong bot: deals of the cards a seat cannot see that agree with all it has seen.

A seat sees its own cards (dealt, in hand, discarded face down), every card played face up, how many cards each
other player discarded face down in each trick, and the call. The cards it cannot see (the other two hands, their
face-down discards, the dead card or the sitter's card) are dealt again into *slots*: each other player's hand,
each of his face-down follows (one slot per trick, since a card discarded in trick k was in his hand until then),
and the odd card. A deal must agree with what the rules made the others show:

* **must beat** (§2.5): a player who followed face down held nothing that beat the play winning the trick at his
  turn. For a single, no card of that suit above it (``caps``, as for old cards in §2.6); for a set or a run, no
  such set or run;
* **the lead restriction** (§2.4): a player who led one card, not exempt, led a non-old card of the highest suit
  among his non-old cards: he held nothing but old cards in the suits above it (and if the card he led was
  old, he was exempt only because all his cards were);
* **the call** (§2.3), loosely: the declarer seldom has a weak hand, a player who passed seldom a strong one
  (a deal against this is kept only now and then, since people call differently).

Cards are dealt most constrained first, each into a slot it may go to, in proportion to the room left there and,
for a face-down follow, to how readily people throw that card away (low cards far more than high ones: dealing
the others' discards at random would leave them weaker hands than they keep). A deal that still breaks a set,
run or lead inference is mended by swapping the offending cards with others that may stand in for them, or
dealt again. Everything random comes from the ``random.Random`` given, so the same view and seed give the same
worlds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.luk_fu import sim
from games.luk_fu.sim import ABOVE, ALL, PERM, SINGLE, Ctx, Hand, Play, can_beat, make_play, mask_of
from games.luk_fu.views import LukFuSeatView, TrickView

LATE = 99
"""The time of a hand slot: after every trick."""
TRIES = 400
"""Deals tried for one world that keeps the must-beat and lead rules (most positions need one or two; a few,
where the rules leave little room, dozens)."""
SOFT_TRIES = 30
"""Deals tried for one that also fits the call; after that, the first that keeps the rules will do."""
REPAIRS = 8
"""Rounds of mending a deal that breaks an inference before it is thrown away."""
KEEP_WEAK_DECLARER = 0.1
KEEP_STRONG_PASSER = 0.1
CALL_MARGIN = 0.5
"""How often a deal is kept in which the declarer looks too weak to have declared, or a passer too strong to
have passed (by the baseline's estimate: below ``CALL_AT − CALL_MARGIN``, or from ``CALL_AT + CALL_MARGIN``)."""


DISCARD_WEIGHT: tuple[int, ...] = (*(3 ** (8 - i % 9) for i in range(36)), 3**8)
"""How likely each card (by id) is to be among a player's face-down follows, against :data:`HAND_WEIGHT` for
his hand: people throw away low cards (and LT) and keep high ones."""
HAND_WEIGHT = 81


@dataclass(frozen=True)
class Slot:
    owner: int
    """The player (0..2 in order of play) whose cards these are, or −1 for the odd card."""
    time: int
    """The trick (0-based) of a face-down follow, or :data:`LATE` for the hand."""
    size: int


@dataclass(frozen=True)
class PastTrick:
    """A trick of this hand as the seat saw it, on masks: (player, cards or None when unseen, slot index of an
    unseen face-down follow or −1, face down)."""

    plays: tuple[tuple[int, int | None, int, bool], ...]
    winner: int | None


class Knowledge:
    """What the seat of ``view`` knows of the hand, ready to deal worlds from."""

    def __init__(self, view: LukFuSeatView) -> None:
        rules = view.rules
        self.view = view
        self.active = view.active
        self.me = view.active.index(view.seat)
        self.has_sitter = view.sitter is not None and view.sitter_has_card
        self.ctx = Ctx.of(rules, self.me, has_sitter=self.has_sitter)
        self.ones_high = rules.ones_set_rank == "high"
        idx = {seat: i for i, seat in enumerate(self.active)}
        self.idx = idx
        self.my_hand = mask_of(view.hand)
        self.my_dealt = mask_of(view.dealt)
        self.my_disc = mask_of(view.own_discards)
        self.faceup = mask_of(view.faceup_played)
        others = [p for p in range(3) if p != self.me]
        self.others = others
        slots: list[Slot] = []
        hand_slot: dict[int, int] = {}
        for p in others:
            hand_slot[p] = len(slots)
            slots.append(Slot(p, LATE, view.hand_sizes[self.active[p]]))
        history: list[TrickView] = list(view.finished_tricks)
        if view.trick is not None:
            history.append(view.trick)
        self.tricks: list[PastTrick] = []
        faceup_by = [[0] * len(history) for _ in range(3)]
        for k, trick in enumerate(history):
            plays: list[tuple[int, int | None, int, bool]] = []
            for pv in trick.plays:
                p = idx[pv.seat]
                if not pv.face_down or p == self.me:
                    m = mask_of(c for c in pv.cards if c is not None)
                    plays.append((p, m, -1, pv.face_down))
                    if not pv.face_down:
                        faceup_by[p][k] = m
                else:
                    plays.append((p, None, len(slots), True))
                    slots.append(Slot(p, k, len(pv.cards)))
            self.tricks.append(PastTrick(tuple(plays), None if trick.winner is None else idx[trick.winner]))
        self.faceup_by = faceup_by
        self.hand_slot = hand_slot
        seen = self.my_hand | self.my_disc | self.faceup
        unknown = sim.ids_of(ALL & ~seen)
        odd = len(unknown) - sum(s.size for s in slots)
        if odd not in (0, 1):
            raise ValueError(f"the view does not add up: {len(unknown)} unseen cards for {sum(s.size for s in slots)}")
        self.odd_slot = -1
        if odd:
            self.odd_slot = len(slots)
            slots.append(Slot(-1, LATE, 1))
        self.slots = slots
        self.unknown = unknown
        self._public_history(history)
        forbid = [0] * len(slots)
        for p, k, mask in self.forbidden:
            for j, slot in enumerate(slots):
                if slot.owner == p and slot.time >= k:
                    forbid[j] |= mask
        self.forbid = forbid
        allowed: dict[int, list[int]] = {}
        for card in unknown:
            allowed[card] = [j for j in range(len(slots)) if not forbid[j] >> card & 1]
        self.allowed = allowed
        everywhere = len(slots)
        self.free = [c for c in unknown if len(allowed[c]) == everywhere]
        """Cards no inference keeps out of any slot (dealt last, all at once)."""
        self.constrained = [c for c in unknown if len(allowed[c]) < everywhere]
        self.face_down_slot = [slot.owner >= 0 and slot.time < LATE for slot in slots]
        # What dealing costs, in the search's work units (a card played in a rollout, about 4 µs here), measured
        # per attempt and per world built (bench/bench_bots_lukfu.py): the search counts work instead of timing
        # itself, so that its result does not depend on the machine's load.
        thrown = sum(slot.size for j, slot in enumerate(slots) if self.face_down_slot[j])
        self.try_cost = (
            3.5
            + len(self.constrained)
            + 0.5 * len(self.free)
            + 0.13 * thrown * len(self.free)
            + 1.8 * len(self.must_not_beat)
            + 7.6 * len(self.led_singles)
        ) / 4
        self.world_cost = (6 + 1.5 * len(self.tricks)) / 4
        self.work = 0.0
        """Work spent dealing so far (tries and worlds), in those units."""

    # ------------------------------------------------------------------ the rules' inferences

    def _public_history(self, history: list[TrickView]) -> None:
        """Reads the inferences out of the tricks so far."""
        view = self.view
        rules = view.rules
        declarer = -1 if view.declarer is None else self.idx[view.declarer]
        self.declarer = declarer
        self.forbidden: list[tuple[int, int, int]] = []
        """(player, trick, cards): cards the player cannot have held from that trick on."""
        self.must_not_beat: list[tuple[int, int, Play, bool]] = []
        """(player, trick, play, is the lead): a set or run he could not beat at his turn."""
        self.led_singles: list[tuple[int, int]] = []
        """(player, trick): another player's single lead, restricted (not an exempt declarer)."""
        caps = [9] * 12
        self.caps_before: list[list[int]] = []
        faceup_before = my_gone = my_disc = 0
        self.faceup_before: list[int] = []
        for k, trick in enumerate(self.tricks):
            self.caps_before.append(caps[:])
            self.faceup_before.append(faceup_before)
            lead_p, lead_m, _, _ = trick.plays[0]
            assert lead_m is not None
            lead = make_play(lead_m)
            if lead[0] == SINGLE and lead_p != self.me and not (rules.old_lead_exempt_declarer and lead_p == declarer):
                self.led_singles.append((lead_p, k))
                # An old card led (1C, 1T, LT, or a card with every higher one played face up) was allowed only
                # because all his cards were old; any other restricted single came from his highest suit among
                # non-old cards, so the suits above held only old cards.
                certainly_old = lead_m & PERM or not (ABOVE[sim.ids_of(lead_m)[0]] & ~faceup_before)
                suits = range(4) if certainly_old else range(lead[3] + 1, 4)
                if certainly_old or rules.single_lead_highest_suit:
                    by = 0
                    for t in range(k):
                        by |= self.faceup_by[lead_p][t]
                    mask = self._never_old(lead_p, suits, faceup_before, by, my_gone, my_disc, caps)
                    self.forbidden.append((lead_p, k, mask))
            win: Play = lead
            win_idx = 0
            for i, (p, m, _slot, down) in enumerate(trick.plays[1:], start=1):
                if not down:
                    assert m is not None
                    win, win_idx = make_play(m), i
                    continue
                if win[0] == SINGLE and win[3] >= 0 and not (win_idx == 0 and win[1] & PERM):
                    # §2.6: a face-down follow shows no card of the suit above the winning one
                    s, q = win[3], win[4]
                    caps[p * 4 + s] = min(caps[p * 4 + s], q)
                    if p != self.me:
                        self.forbidden.append((p, k, ABOVE[s * 9 + q - 1]))
                elif p != self.me and win[0] in (sim.SET, sim.RUN):
                    self.must_not_beat.append((p, k, win, win_idx == 0))
            for p, m, _slot, down in trick.plays:
                if not down:
                    assert m is not None
                    faceup_before |= m
                if p == self.me:
                    assert m is not None
                    my_gone |= m
                    if down:
                        my_disc |= m
        self.caps_now = caps

    def _never_old(
        self, p: int, suits: range, faceup_before: int, faceup_by: int, my_gone: int, my_disc: int, caps: list[int]
    ) -> int:
        """The cards of ``suits`` that player p, leading a restricted single at trick ``k``, cannot have held
        because they could not have been old for him then (§2.6). Only the seat's own cards and,
        in ``public_sequence``, the third player's face-up plays can prove that; whether a possible world's cards
        really were old is checked exactly later.

        ``my_gone``: the seat's cards played before trick k (face up or down); ``my_disc``: those face down;
        ``caps``: the must-beat caps as trick k began."""
        knowledge = self.view.rules.old_card_mode == "knowledge"
        third = 3 - p - self.me
        out = 0
        for s in suits:
            if knowledge:
                # A higher card the seat still holds is never accounted for by p; one it discarded is, when
                # the caps of both other players exclude it.
                cap = max(caps[self.me * 4 + s], caps[third * 4 + s])
                mine = (self.my_dealt & ~my_gone) | (my_disc & ~_ranks_above(s, cap))
            else:
                mine = self.my_dealt & ~faceup_before
            top = 9
            while top >= 1 and faceup_before >> (9 * s + top - 1) & 1:
                top -= 1
            broken = False
            for r in range(9, 0, -1):
                b = 1 << (9 * s + r - 1)
                if knowledge:
                    # old only if every higher card is accounted for; the seat's own unplayed cards are not
                    if broken:
                        out |= b
                    if mine & b:
                        broken = True
                else:
                    # old only if r is the top unplayed card, or every card from r up to it was dealt to p
                    if r > top:
                        continue
                    if mine & b or (faceup_before & b and not faceup_by & b):
                        broken = True
                    if broken and r < top:
                        out |= b
        return out & ~PERM

    # ------------------------------------------------------------------ dealing

    def deal(self, rng: random.Random) -> list[int]:
        """One world: the cards of each slot, as masks (see :attr:`slots`)."""
        fallback: list[int] | None = None
        self.work += self.world_cost
        for attempt in range(TRIES):
            self.work += self.try_cost
            cards = self._assign(rng)
            if cards is None or not (self._hard_ok(cards) or self._repair(cards, rng)):
                continue
            if fallback is None:
                fallback = cards
            if attempt >= SOFT_TRIES or self._soft_ok(cards, rng):
                return cards
        if fallback is not None:
            return fallback
        # Decision: with no deal found that keeps every rule (a long shot), the cards go anywhere that fits.
        return self._assign(rng, ignore_rules=True) or []

    def _assign(self, rng: random.Random, *, ignore_rules: bool = False) -> list[int] | None:
        slots = self.slots
        room = [s.size for s in slots]
        out = [0] * len(slots)
        down = self.face_down_slot
        free = self.free
        if ignore_rules:
            constrained: list[int] = []
            free = self.unknown
        else:
            constrained = self.constrained[:]
            rng.shuffle(constrained)
            constrained.sort(key=lambda c: len(self.allowed[c]))  # most constrained first, ties shuffled
        for card in constrained:
            choices = self.allowed[card]
            low = DISCARD_WEIGHT[card]
            total = 0
            for j in choices:
                total += room[j] * (low if down[j] else HAND_WEIGHT)
            if total == 0:
                return None
            x = rng.randrange(total)
            for j in choices:
                x -= room[j] * (low if down[j] else HAND_WEIGHT)
                if x < 0:
                    out[j] |= 1 << card
                    room[j] -= 1
                    break
        # The cards that may go anywhere: the face-down follows first, low cards likelier (players throw away
        # what they value least), then the rest shuffled and cut into the room left in the other slots.
        rest = free[:]
        rng.shuffle(rest)
        wanted = sum(room[j] for j in range(len(slots)) if down[j])
        thrown: list[int] = []
        while wanted and rest:
            total = 0
            for c in rest:
                total += DISCARD_WEIGHT[c]
            x = rng.randrange(total)
            for i, c in enumerate(rest):
                x -= DISCARD_WEIGHT[c]
                if x < 0:
                    thrown.append(rest.pop(i))
                    break
            wanted -= 1
        i = k = 0
        for j, left in enumerate(room):
            pool = thrown if down[j] else rest
            start = k if down[j] else i
            for card in pool[start : start + left]:
                out[j] |= 1 << card
            if down[j]:
                k += left
            else:
                i += left
        return out

    def holding(self, cards: list[int], p: int, k: int) -> int:
        """What player p (not the seat) held as trick ``k`` began, in this world."""
        m = cards[self.hand_slot[p]]
        for j, slot in enumerate(self.slots):
            if slot.owner == p and k <= slot.time < LATE:
                m |= cards[j]
        by = self.faceup_by[p]
        for t in range(k, len(by)):
            m |= by[t]
        return m

    def _hard_ok(self, cards: list[int]) -> bool:
        for p, k, play, is_lead in self.must_not_beat:
            if can_beat(self.holding(cards, p, k), play, is_lead, self.ones_high):
                return False
        return all(self._lead_was_legal(cards, p, k) for p, k in self.led_singles)

    def _lead_hand(self, cards: list[int], p: int, k: int) -> Hand:
        """Player p as he was about to lead trick ``k``, in the world ``cards`` (for his old cards then)."""
        h = Hand(self.ctx)
        h.hands[p] = self.holding(cards, p, k)
        h.dealt[p] = self.holding(cards, p, 0)
        h.faceup = self.faceup_before[k]
        disc = 0
        for j, slot in enumerate(self.slots):
            if slot.owner == p and slot.time < k:
                disc |= cards[j]
        h.disc[p] = disc
        h.caps = self.caps_before[k][:]
        h.declarer = self.declarer
        h.trick_no = k
        h.parent_passed = self.view.parent_passed
        return h

    def _lead_was_legal(self, cards: list[int], p: int, k: int) -> bool:
        lead_m = self.tricks[k].plays[0][1]
        assert lead_m is not None
        h = self._lead_hand(cards, p, k)
        allowed = h.single_leads(p)
        if allowed:
            return bool(allowed & lead_m)
        return not sim.multi_leads(h.hands[p])  # the no-legal-lead fallback: any single

    def _repair(self, cards: list[int], rng: random.Random) -> bool:
        """Mends a world that breaks a rule's inference: the cards that break it (a set or run that would have
        beaten, a non-old card that would have forbidden the lead made) change places with cards from elsewhere
        that may stand in for them. True if the world now keeps every rule."""
        for _ in range(REPAIRS):
            fault = self._fault(cards)
            if fault is None:
                return True
            p, k, bad, avoid = fault
            if not bad or not self._swap_out(cards, p, k, bad, avoid, rng):
                return False
        return self._fault(cards) is None

    def _fault(self, cards: list[int]) -> tuple[int, int, int, int] | None:
        """The first broken inference of a world: (player, trick, cards of his to move away, cards not to bring
        in), or None. Trick −1: the cards may be taken from any of his slots."""
        for p, k, play, is_lead in self.must_not_beat:
            held = self.holding(cards, p, k)
            if not can_beat(held, play, is_lead, self.ones_high):
                continue
            bad = avoid = 0
            if play[0] == sim.SET:
                for r in range(1, 10):
                    if sim.set_beats(r, play[3], is_lead, self.ones_high):
                        avoid |= sim.RANK_MASK[r]
                        m = held & sim.RANK_MASK[r]
                        if m.bit_count() >= play[2]:
                            bad |= m
            else:
                for run in sim.beaters(held, play, is_lead, self.ones_high):
                    bad |= run[1]
                    avoid |= run[1]
            return p, k, bad, avoid
        for p, k in self.led_singles:
            if self._lead_was_legal(cards, p, k):
                continue
            lead_m = self.tricks[k].plays[0][1]
            assert lead_m is not None
            h = self._lead_hand(cards, p, k)
            old = h.old_mask(p)
            led = sim.ids_of(lead_m)[0]
            if lead_m & old and not lead_m & PERM and ABOVE[led] & ~h.faceup:
                # The world made the led card old: take away a higher card of its suit he was dealt (before
                # and after this trick), so that it was not.
                return p, -1, h.dealt[p] & ABOVE[led] & ~h.faceup, ABOVE[led]
            if lead_m & old:
                suits = ALL  # an old card was led: every card must have been old
            elif self.view.rules.single_lead_highest_suit:
                suits = ALL & ~((1 << (9 * (make_play(lead_m)[3] + 1))) - 1)
            else:
                suits = 0
            return p, k, h.hands[p] & ~old & suits & ~PERM, suits & ~PERM
        return None

    def _swap_out(self, cards: list[int], p: int, k: int, bad: int, avoid: int, rng: random.Random) -> bool:
        """Moves each unseen card of ``bad`` held by p from trick ``k`` on to another slot, in exchange for a
        card there that may go where it was and is not in ``avoid``. (Moving all of a set's cards out is more
        than needed; any part of it that stays is checked again.)"""
        slots, forbid = self.slots, self.forbid
        later = 0
        for j, slot in enumerate(slots):
            if slot.owner == p and slot.time >= k:
                later |= 1 << j
        moved = False
        for c in sim.ids_of(bad):
            here = next((j for j in range(len(slots)) if cards[j] >> c & 1), -1)
            if here < 0 or not later >> here & 1:
                continue  # a face-up card of his
            if moved and not self._fault_at(cards, p, k):
                break
            options: list[tuple[int, int]] = []
            for j in range(len(slots)):
                if later >> j & 1 or forbid[j] >> c & 1:
                    continue
                for d in sim.ids_of(cards[j] & ~avoid):
                    if not forbid[here] >> d & 1:
                        options.append((j, d))
            if not options:
                return False
            there, d = options[rng.randrange(len(options))]
            swap = (1 << c) | (1 << d)
            cards[here] ^= swap
            cards[there] ^= swap
            moved = True
        return moved

    def _fault_at(self, cards: list[int], p: int, k: int) -> bool:
        fault = self._fault(cards)
        return fault is not None and fault[:2] == (p, k)

    def _soft_ok(self, cards: list[int], rng: random.Random) -> bool:
        calls = self.view.calls
        for seat, played in calls:
            p = self.idx[seat]
            if p == self.me:
                continue
            est = sim.estimate(self.holding(cards, p, 0))
            if played and est < sim.CALL_AT - CALL_MARGIN and rng.random() >= KEEP_WEAK_DECLARER:
                return False
            if not played and est >= sim.CALL_AT + CALL_MARGIN and rng.random() >= KEEP_STRONG_PASSER:
                return False
        return True

    # ------------------------------------------------------------------ a world to play in

    def world(self, cards: list[int]) -> Hand:
        """The hand as it stands now, in the world ``cards``."""
        view = self.view
        h = Hand(self.ctx)
        me = self.me
        for p in range(3):
            if p == me:
                h.hands[p] = self.my_hand
                h.dealt[p] = self.my_dealt
                h.disc[p] = self.my_disc
            else:
                h.hands[p] = cards[self.hand_slot[p]]
                h.dealt[p] = self.holding(cards, p, 0)
                disc = 0
                for j, slot in enumerate(self.slots):
                    if slot.owner == p and slot.time < LATE:
                        disc |= cards[j]
                h.disc[p] = disc
        h.faceup = self.faceup
        h.caps = self.caps_now[:]
        idx = self.idx
        for seat, count in enumerate(view.tricks):
            if seat in idx:
                h.tricks[idx[seat]] = count
        for seat, won in enumerate(view.winning_cards):
            if seat in idx:
                h.won[idx[seat]] = mask_of(won)
        for past in self.tricks:
            if past.winner is None:
                continue
            for _p, m, j, _down in past.plays:
                h.capt[past.winner] |= m if m is not None else cards[j]
        h.reached = [idx[s] for s in view.reached_six]
        h.declarer = self.declarer
        h.parent_passed = view.parent_passed
        h.ncalls = len(view.calls)
        h.trick_no = view.trick_no
        if self.has_sitter and self.odd_slot >= 0:
            h.sitter_card = sim.ids_of(cards[self.odd_slot])[0]
        elif self.has_sitter and view.sitter_card is not None:
            h.sitter_card = sim.ID[view.sitter_card]
        phase = view.phase
        if phase == "call":
            assert view.caller is not None
            h.phase, h.turn = sim.CALL, idx[view.caller]
        elif phase == "tigers":
            h.phase, h.turn = sim.TIGERS_Q, me
        elif phase == "lead":
            assert view.leader is not None
            h.phase, h.turn = sim.LEAD, idx[view.leader]
        elif phase == "follow":
            assert view.follower is not None
            h.phase, h.turn = sim.FOLLOW, idx[view.follower]
            current = self.tricks[-1]
            plays: list[tuple[int, Play | None, int]] = []
            for i, (p, m, j, down) in enumerate(current.plays):
                if not down:
                    assert m is not None
                    plays.append((p, make_play(m), m))
                    h.win_idx = i
                else:
                    plays.append((p, None, m if m is not None else cards[j]))
            h.plays = plays
        elif phase == "stop":
            assert view.stop_seat is not None
            h.phase, h.turn = sim.STOP, idx[view.stop_seat]
        else:
            h.phase = sim.END
        return h


def _ranks_above(suit: int, cap: int) -> int:
    """The cards of ``suit`` ranked above ``cap``."""
    return ABOVE[suit * 9 + cap - 1] if cap >= 1 else sim.SUIT_MASK[suit]


def unseen(view: LukFuSeatView) -> int:
    """The cards the seat cannot see now, as a mask (for tests)."""
    seen = mask_of(view.hand) | mask_of(view.own_discards) | mask_of(view.faceup_played)
    if view.sitter_card is not None:
        seen |= 1 << sim.ID[view.sitter_card]
    return ALL & ~seen
