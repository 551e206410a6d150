"""A learned model of bidding: what a hand is worth to a strong player, and what it bids.

The strong bot's bidding search (about 20 000 simulations) is too slow to run for every hand
it must imagine — the other seats' hands in each of its worlds, when it asks how they will
bid and what their bids say about their cards. This small network, trained on the search's
own estimates (expert iteration: ``scripts/train_bid_model.py``), answers in microseconds:

* ``tricks(b)``: the chance of ending the hand with each number of tricks after bidding
  ``b`` — a distribution ``q`` of what the hand can take, pulled towards the bid by how
  well a player steers to it (``P(t | b) ∝ q(t) · exp(-λ |t - b|)``);
* ``policy``: the chance that a strong player bids each bid.

Its inputs (:func:`features`) are the hand with its suits put in a canonical order (trumps
first, then the longer suits), the turned card's rank, the table (players, hand size, the
seat's place in the bidding, the bids made before it) and the scoring. It covers hands of
2 to 10 cards from a 52-card pack, bid in turn, with a suit or no trump; elsewhere
:func:`covers` is false and the bots estimate as before.

The weights ship in the package (``bid_model.json``, about 6 000 numbers); the forward
pass is plain Python here (one hand at a time) and C in the fast core (``bid_values``, a
batch of hands), so playing needs no deep-learning framework and no NumPy.

>>> from ohhell.cards import mask_of, parse_cards
>>> model = load()
>>> hand = mask_of(parse_cards("AS KS QS 2H 3D"))
>>> inputs = BidInputs(hand, trump_suit=0, turn_up_rank=7, players=4, size=5, position=0, bids_before=0,
...                    bids_count=0, scoring="exact")
>>> distribution = model.tricks(inputs, bid=3)
>>> round(sum(distribution), 6), max(range(6), key=distribution.__getitem__)
(1.0, 3)
"""

from __future__ import annotations

import base64
import json
import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from typing import Any, Final

from ohhell.cards import SUIT_MASKS, CardMask
from ohhell.rules import Rules

FEATURES_VERSION: Final = 1
MAX_SIZE: Final = 13
"""The largest hand the model knows (bids and trick counts 0 … 13)."""
WIDTH: Final = MAX_SIZE + 1
TRAINED_SIZE: Final = 10
"""The largest hand it was trained on (``scripts/train_bid_model.py``)."""
SCORINGS: Final = ("exact", "trick-plus-bonus", "german-bridge", "7-truf", "boerenbridge", "triangular-penalty")
INPUTS: Final = 52 + 13 + 1 + 5 + 2 + 7 + 1 + 3 + len(SCORINGS)
"""Length of the input vector (see :func:`features`)."""
OUTPUTS: Final = WIDTH + WIDTH + 1
"""Policy logits (bids 0 … 13), trick logits ``q`` (0 … 13) and the steering strength λ."""
MODEL_FILE: Final = "bid_model.json"


@dataclass(frozen=True)
class BidInputs:
    """What the model sees of one seat about to bid."""

    hand: CardMask
    trump_suit: int
    """0–3, or -1 for no trump."""
    turn_up_rank: int
    """The turned card's rank (0 = two … 12 = ace) when it is a trump, else -1."""
    players: int
    size: int
    position: int
    """The seat's place in the bidding order (0: first)."""
    bids_before: int
    """The sum of the bids made before it."""
    bids_count: int
    """How many bids were made before it."""
    scoring: str


def covers(rules: Rules, size: int) -> bool:
    """Whether the model knows a hand of ``size`` cards under these rules: a 52-card pack,
    bids in turn, and hands of 2 to :data:`TRAINED_SIZE` cards (the sizes it was trained on);
    not Bust's second pack (its hands are wider than the model's 52 inputs)."""
    return rules.deck_size == 52 and rules.deck == "52" and not rules.remove_twos_with and rules.bidding == "in-turn" \
        and 2 <= size <= TRAINED_SIZE and rules.scoring in SCORINGS


def suit_order(hand: CardMask, trump_suit: int) -> list[int]:
    """The canonical order of the suits: the trump suit first, then the others by length and
    then by their cards (highest first), so that hands alike but for the suits' names look
    alike to the model."""
    plain = [suit for suit in range(4) if suit != trump_suit]
    plain.sort(key=lambda suit: (-((hand & SUIT_MASKS[suit]).bit_count()), -((hand >> (13 * suit)) & 0x1FFF)))
    return ([trump_suit] if trump_suit >= 0 else []) + plain


def features(inputs: BidInputs) -> list[float]:
    """The input vector of the model (the C core's ``bid_values`` builds the same one)."""
    x = [0.0] * INPUTS
    for slot, suit in enumerate(suit_order(inputs.hand, inputs.trump_suit)):
        bits = (inputs.hand >> (13 * suit)) & 0x1FFF
        for rank in range(13):
            if bits >> rank & 1:
                x[slot * 13 + rank] = 1.0
    if inputs.turn_up_rank >= 0:
        x[52 + inputs.turn_up_rank] = 1.0
    if inputs.trump_suit < 0:
        x[65] = 1.0
    n = inputs.players
    x[66 + min(max(n, 3), 7) - 3] = 1.0
    x[71] = inputs.size / 13.0
    x[72] = n * inputs.size / 52.0
    x[73 + min(inputs.position, 6)] = 1.0
    x[80] = 1.0 if inputs.position == n - 1 else 0.0
    size = max(1, inputs.size)
    x[81] = inputs.bids_before / size
    x[82] = inputs.bids_count / max(1, n - 1)
    x[83] = (inputs.bids_before - inputs.bids_count * inputs.size / n) / size
    x[84 + SCORINGS.index(inputs.scoring)] = 1.0
    return x


@dataclass(frozen=True)
class BidModel:
    """The network's weights (one hidden layer of ReLUs) and how it was trained."""

    hidden: int
    w1: tuple[float, ...]
    """``hidden × INPUTS``, row-major."""
    b1: tuple[float, ...]
    w2: tuple[float, ...]
    """``OUTPUTS × hidden``, row-major."""
    b2: tuple[float, ...]
    meta: dict[str, Any] = field(compare=False, hash=False)

    def outputs(self, inputs: BidInputs) -> list[float]:
        x = features(inputs)
        h = []
        for j in range(self.hidden):
            row = self.w1[j * INPUTS:(j + 1) * INPUTS]
            value = self.b1[j] + sum(w * v for w, v in zip(row, x, strict=True) if v)
            h.append(value if value > 0 else 0.0)
        return [self.b2[k] + sum(w * v for w, v in zip(self.w2[k * self.hidden:(k + 1) * self.hidden], h, strict=True))
                for k in range(OUTPUTS)]

    def tricks(self, inputs: BidInputs, bid: int, outputs: Sequence[float] | None = None) -> list[float]:
        """The chance of each trick count 0 … size after bidding ``bid``."""
        out = outputs if outputs is not None else self.outputs(inputs)
        return steered(out[WIDTH:2 * WIDTH], out[2 * WIDTH], bid, inputs.size)

    def policy(self, inputs: BidInputs, outputs: Sequence[float] | None = None) -> list[float]:
        """The chance that a strong player bids each bid 0 … size."""
        out = outputs if outputs is not None else self.outputs(inputs)
        return softmax(out[:inputs.size + 1])

    @cached_property
    def packed(self) -> bytes:
        """The weights as the C core reads them: float32, ``w1 b1 w2 b2``."""
        values = (*self.w1, *self.b1, *self.w2, *self.b2)
        return struct.pack(f"<{len(values)}f", *values)


def softmax(logits: Sequence[float]) -> list[float]:
    top = max(logits)
    exps = [math.exp(v - top) for v in logits]
    total = sum(exps)
    return [e / total for e in exps]


def softplus(value: float) -> float:
    return math.log1p(math.exp(-abs(value))) + max(value, 0.0)


def steered(q: Sequence[float], control: float, bid: int, size: int) -> list[float]:
    """``P(t | bid) ∝ exp(q[t] - λ |t - bid|)`` for t = 0 … size, λ = softplus(control)."""
    strength = softplus(control)
    return softmax([q[t] - strength * abs(t - bid) for t in range(size + 1)])


def _floats(text: str) -> tuple[float, ...]:
    raw = base64.b64decode(text)
    return struct.unpack(f"<{len(raw) // 4}f", raw)


def encode_floats(values: Sequence[float]) -> str:
    return base64.b64encode(struct.pack(f"<{len(values)}f", *values)).decode("ascii")


def from_json(data: dict[str, Any]) -> BidModel:
    if data.get("features") != FEATURES_VERSION or data.get("inputs") != INPUTS or data.get("outputs") != OUTPUTS:
        raise ValueError("the bid model was trained for other features; train it again "
                         "(scripts/train_bid_model.py)")
    hidden = int(data["hidden"])
    model = BidModel(hidden, _floats(data["w1"]), _floats(data["b1"]), _floats(data["w2"]), _floats(data["b2"]),
                     dict(data.get("meta", {})))
    if (len(model.w1), len(model.b1), len(model.w2), len(model.b2)) != (hidden * INPUTS, hidden, OUTPUTS * hidden,
                                                                        OUTPUTS):
        raise ValueError("the bid model's weights do not match its sizes")
    return model


@cache
def load() -> BidModel:
    """The model shipped with the package."""
    text = resources.files("ohhell.bots").joinpath(MODEL_FILE).read_text(encoding="utf-8")
    return from_json(json.loads(text))


def available() -> bool:
    """Whether the shipped model can be read."""
    try:
        load()
    except (OSError, ValueError, KeyError):
        return False
    return True


@dataclass(frozen=True)
class Table:
    """What the model needs to know of a hand being bid, besides the seats' cards."""

    rules: Rules
    trump_suit: int
    turn_up_rank: int
    size: int
    bid_order: tuple[int, ...]

    @classmethod
    def of(cls, rules: Rules, trump: int | None, turn_up: int | None, size: int,
           bid_order: Sequence[int]) -> Table:
        trump_suit = trump if trump is not None and trump < 4 else -1
        rank = turn_up % 13 if turn_up is not None and turn_up < 52 and turn_up // 13 == trump_suit else -1
        return cls(rules, trump_suit, rank, size, tuple(bid_order))

    def inputs(self, hand: CardMask, seat: int, bids: Sequence[int | None]) -> BidInputs:
        """The model's inputs for ``seat`` holding ``hand`` when its turn to bid comes, the
        bids before it being those of ``bids`` (a seat whose bid is not known counts its fair
        share, rounded)."""
        position, before, count = self.before(seat, bids)
        return BidInputs(hand, self.trump_suit, self.turn_up_rank, self.rules.players, self.size, position, before,
                         count, self.rules.scoring)

    def before(self, seat: int, bids: Sequence[int | None]) -> tuple[int, int, int]:
        """The seat's place in the bidding, the sum of the bids before it and their number."""
        position = self.bid_order.index(seat) if seat in self.bid_order else 0
        share = round(self.size / self.rules.players)
        earlier = [bids[p] for p in self.bid_order[:position]]
        return position, sum(share if b is None else b for b in earlier), len(earlier)


def batch(model: BidModel, table: Table, hands: Sequence[CardMask], seats: Sequence[int],
          bids: Sequence[int | None], rows: Sequence[Sequence[float]] | None) -> tuple[bytes, bytes]:
    """Each bid's expected score (by ``rows``: the score of each trick count after each bid;
    zeros when ``None``) and the chance a strong player bids it, for every hand (held by the
    matching seat), as float64 bytes, hands × (size + 1); computed in the fast core."""
    from ohhell import fastsim

    place_of = {seat: table.before(seat, bids) for seat in set(seats)}
    places = [place_of[seat] for seat in seats]
    return fastsim.core.bid_values(model.packed, model.hidden, list(hands), table.trump_suit,
                                   table.turn_up_rank, table.rules.players, table.size,
                                   [p[0] for p in places], [p[1] for p in places], [p[2] for p in places],
                                   SCORINGS.index(table.rules.scoring),
                                   None if rows is None else [list(row) for row in rows])


__all__ = ["INPUTS", "MAX_SIZE", "OUTPUTS", "SCORINGS", "BidInputs", "BidModel", "Table", "available", "batch",
           "covers", "features", "from_json", "load", "steered", "suit_order"]
