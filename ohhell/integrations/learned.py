"""The learned bot: a small neural network that plays, trained by ``scripts/train_policy.py``.

It reads the observation vector every learning interface gives a seat
(:class:`ohhell.integrations.encoding.ObservationEncoder`, built from the seat's view, so it
sees nothing a player may not) and scores every action of the fixed numbering
(:class:`ohhell.integrations.core.ActionCodec`); it plays the best-scored legal action. The
network is a multi-layer perceptron whose weights ship in the package
(``learned_policy.npz``, float16, a few hundred KB); the forward pass is NumPy, so playing
needs no deep-learning framework (training does: PyTorch). Its bids, where the hand has 2 to
10 cards, are those of highest expected score under the package's other network, the bid
model (:mod:`ohhell.bots.bid_model`, learned from the strong bot's search); the network bids
elsewhere (or everywhere, with ``bids="network"``). No search: every decision is a forward
pass. Its measured strength is in ``docs/integrations.md``.

It was trained for the classic rules with four players (hands of 10 cards down to 1 and back
up, a turned trump, the hook): :func:`covers` says which rules. Elsewhere — other presets,
knobs or player counts — it plays as ``basic`` does, so that ``learned`` can be named at
any table.

>>> from ohhell.rules import preset
>>> from ohhell.bots import make_bot
>>> from ohhell.bots.driver import play_game
>>> state = play_game(preset("classic", players=4), [make_bot("learned", seed=s) for s in range(4)], seed=3)
>>> state.is_terminal()
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ohhell.actions import Action, Bid
from ohhell.bots import bid_model
from ohhell.bots.base import Bot, Budget, forward_actions
from ohhell.bots.basic import BasicBot
from ohhell.bots.trump_choice import choose_trump
from ohhell.cards import mask_of
from ohhell.game import Phase
from ohhell.rules import Rules, preset
from ohhell.scoring import hand_score
from ohhell.views import SeatView

WEIGHTS_FILE: Final = "learned_policy.npz"
TRAINED_PRESET: Final = "classic"
TRAINED_PLAYERS: Final = 4

FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Policy:
    """A multi-layer perceptron: ``layers`` of (weights, bias), ReLU between them; the last
    layer gives one logit per action."""

    layers: tuple[tuple[FloatArray, FloatArray], ...]
    meta: dict[str, Any]

    @property
    def inputs(self) -> int:
        return int(self.layers[0][0].shape[0])

    @property
    def actions(self) -> int:
        return int(self.layers[-1][0].shape[1])

    def logits(self, observations: FloatArray) -> FloatArray:
        """``(…, actions)`` logits of ``(…, inputs)`` observations."""
        x = np.asarray(observations, dtype=np.float32)
        for index, (weights, bias) in enumerate(self.layers):
            x = x @ weights + bias
            if index < len(self.layers) - 1:
                np.maximum(x, 0.0, out=x)
        return x

    def save(self, path: str | Path) -> None:
        """Write the weights (float16) with the run's figures (``meta``, JSON-able)."""
        import json

        arrays: dict[str, Any] = {"meta": np.frombuffer(json.dumps(self.meta).encode(), dtype=np.uint8)}
        for index, (weights, bias) in enumerate(self.layers):
            arrays[f"w{index}"] = weights.astype(np.float16)
            arrays[f"b{index}"] = bias.astype(np.float16)
        with open(path, "wb") as out:
            np.savez_compressed(out, **arrays)

    @classmethod
    def load(cls, path: str | Path | None = None) -> Policy:
        """The weights at ``path`` (default: the ones shipped in the package)."""
        import json

        source = path if path is not None else resources.files("ohhell.integrations").joinpath(WEIGHTS_FILE)
        with source.open("rb") if not isinstance(source, (str, Path)) else open(source, "rb") as handle:
            data = np.load(handle)
            count = sum(1 for name in data.files if name.startswith("w"))
            layers = tuple((data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32)) for i in range(count))
            meta = json.loads(bytes(data["meta"]).decode())
        return cls(layers, meta)


@cache
def shipped() -> Policy:
    """The policy shipped in the package (loaded once per process)."""
    return Policy.load()


def trained_rules() -> Rules:
    return preset(TRAINED_PRESET, players=TRAINED_PLAYERS)


def covers(rules: Rules) -> bool:
    """Whether the network was trained for ``rules`` (the classic rules, four players).

    >>> covers(preset("classic", players=4)), covers(preset("classic", players=5))
    (True, False)
    """
    return rules == trained_rules()


@cache
def _bid_model() -> bid_model.BidModel | None:
    return bid_model.load() if bid_model.available() else None


@cache
def _encoder_and_codec(rules: Rules) -> tuple[Any, Any]:
    from ohhell.integrations.core import Setup
    from ohhell.integrations.encoding import ObservationEncoder

    setup = Setup.create(rules=rules)
    return ObservationEncoder(setup), setup.codec


class LearnedBot(Bot):
    """The network's greedy choice among the legal actions (see the module docstring);
    ``weights``: a path to other weights (``scripts/train_policy.py`` writes them). ``bids``:
    ``"model"`` (default) bids with the package's learned bid model where it knows the hand
    (2 to 10 cards: the bid of highest expected score under its trick distributions), the
    network elsewhere; ``"network"`` lets the network make every bid."""

    name = "learned"

    def __init__(self, seed: int | None = None, budget: Budget | None = None, weights: str | Path | None = None,
                 bids: str = "model") -> None:
        super().__init__(seed=seed, budget=budget)
        if bids not in ("model", "network"):
            raise ValueError(f"bids are made by the 'model' or the 'network', not {bids!r}")
        self.bids = bids
        self.policy = shipped() if weights is None else Policy.load(weights)
        self._fallback: BasicBot | None = None

    def choose(self, view: SeatView) -> Action:
        legal = forward_actions(view)
        if len(legal) == 1:
            return legal[0]
        if view.phase == Phase.CHOOSING_TRUMP:  # the network plays cards and bids; the choice is the heuristic's
            return choose_trump(view)[0]
        if not covers(view.rules):
            if self._fallback is None:
                self._fallback = BasicBot(seed=self.seed, budget=self.budget)
            return self._fallback.choose(view)
        if self.bids == "model" and isinstance(legal[0], Bid):
            bid = self._model_bid(view, [action for action in legal if isinstance(action, Bid)])
            if bid is not None:
                return bid
        encoder, codec = _encoder_and_codec(view.rules)
        logits = self.policy.logits(encoder.encode(view))
        return max(legal, key=lambda action: float(logits[codec.encode(action)]))

    def _model_bid(self, view: SeatView, bids: list[Bid]) -> Bid | None:
        """The bid of highest expected score under the bid model's trick distributions, where
        the model knows the hand (2 to 10 cards); else ``None`` (the network bids)."""
        model = _bid_model()
        if model is None or not bid_model.covers(view.rules, view.hand_size):
            return None
        table = bid_model.Table.of(view.rules, view.trump, view.turn_up, view.hand_size, view.bid_order)
        assert view.seat is not None
        inputs = table.inputs(mask_of(view.hand), view.seat, view.bids)
        outputs = model.outputs(inputs)
        size = view.hand_size

        def expected(action: Bid) -> float:
            chances = model.tricks(inputs, action.bid, outputs)
            return sum(chance * hand_score(view.rules, action.bid, tricks, size)
                       for tricks, chance in enumerate(chances[:size + 1]))

        return max(bids, key=expected)


__all__ = ["LearnedBot", "Policy", "covers", "shipped"]
