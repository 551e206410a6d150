#!/usr/bin/env python3
"""Train the strong bot's learned bid model (``ohhell/bots/bid_model.py``) by expert iteration.

1. ``generate``: deal random hands (3–6 players, 2–10 cards, every scoring, a turned trump or
   none) and let the strong bot's bidding search bid them seat by seat, as at a table. Each
   search is one sample: the seat's hand and place, the bids before it, the scoring, and the
   search's own estimates — for every candidate bid, how often it was tried and the trick
   counts it ended with — and the bid it chose. Samples are written as JSON lines.
2. ``train``: fit the network (NumPy, Adam) to those estimates: the trick distribution after
   each bid (weighed by how often the search tried it) and the bid chosen; write the weights
   to ``ohhell/bots/bid_model.json`` with the figures of the run (data, time, held-out loss
   against the binomial estimate the heuristic bots use, agreement with the search).

Reproducible from the seeds:

    python scripts/train_bid_model.py generate --samples 8000 --jobs 2 --seed 1 --out /tmp/bids-1.jsonl
    python scripts/train_bid_model.py train /tmp/bids-1.jsonl --seed 1

Expert iteration goes round again by generating with the trained model in the search
(``generate --with-model``) and training on both files. ``ismcts-bids`` checks the model as an
opponent model on the bids of OpenSpiel's ISMCTS (needs ``open-spiel``); ``own-bids`` checks
whether it should make the bot's own bids (it should not: the search is better there). NumPy
is needed here only; playing needs neither NumPy nor any deep-learning framework.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ohhell.actions import Bid, Deal  # noqa: E402
from ohhell.bots import bid_model  # noqa: E402
from ohhell.bots.bid_model import INPUTS, OUTPUTS, WIDTH, BidInputs, features  # noqa: E402
from ohhell.bots.heuristics import estimate_tricks, trick_distribution, trump_mask_of  # noqa: E402
from ohhell.bots.strong import StrongBot  # noqa: E402
from ohhell.cards import mask_of  # noqa: E402
from ohhell.game import Game  # noqa: E402
from ohhell.rules import HandPlan, preset  # noqa: E402
from ohhell.views import seat_view  # noqa: E402

PLAYERS = (3, 4, 4, 4, 4, 5, 6)
SCORING_WEIGHTS = {"exact": 3, "trick-plus-bonus": 2, "triangular-penalty": 3, "german-bridge": 2, "7-truf": 1,
                   "boerenbridge": 1}


# -- generating ------------------------------------------------------------------------------

def one_hand(task: tuple[int, int, bool]) -> list[dict[str, Any]]:
    """Deal hand number ``index`` and let the strong bot bid it in every seat."""
    index, seed, with_model = task
    rng = random.Random(seed * 1_000_003 + index)
    n = rng.choice(PLAYERS)
    size = rng.randint(2, min(10, 51 // n))
    trump = "none" if rng.random() < 0.1 else "turn-up"
    scoring = rng.choices(list(SCORING_WEIGHTS), weights=list(SCORING_WEIGHTS.values()))[0]
    rules = preset("classic", players=n, schedule="explicit", hands=[HandPlan(size, trump)], scoring=scoring,
                   bid_changes=False)
    dealer = rng.randrange(n)
    state = Game(rules).new_initial_state(first_dealer=dealer)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = tuple(tuple(deck[p * size:(p + 1) * size]) for p in range(n))
    turn_up = deck[n * size] if trump == "turn-up" else None
    state.apply(Deal(hands, turn_up))
    samples = []
    for position in range(n):
        seat = state.turn
        assert seat is not None
        view = seat_view(state, seat)
        bot = StrongBot(seed=rng.getrandbits(32), use_bid_model=with_model)
        suggestion = bot.suggest(view)
        assert isinstance(suggestion.action, Bid)
        made_before = [b for b in view.bids if b is not None]
        trump_suit = view.trump if view.trump is not None and view.trump < 4 else -1
        samples.append({
            "hand": mask_of(view.hand), "trump_suit": trump_suit,
            "turn_up_rank": turn_up % 13 if turn_up is not None and turn_up // 13 == trump_suit else -1,
            "players": n, "size": size, "position": position, "bids_before": sum(made_before),
            "bids_count": len(made_before), "scoring": scoring,
            "visits": {b: int(v) for b, v in suggestion.details["visits"].items()},
            "tricks_by_bid": suggestion.details["tricks_by_bid"],
            "chosen": suggestion.action.bid,
            "forbidden": view.forbidden_bid,
        })
        state.apply(suggestion.action)
    return samples


def generate(args: argparse.Namespace) -> None:
    started = time.perf_counter()
    hands = []
    count = 0
    index = 0
    out = Path(args.out)
    with out.open("w", encoding="utf-8") as stream, ProcessPoolExecutor(max_workers=args.jobs) as pool:
        while count < args.samples:
            batch = [(index + i, args.seed, args.with_model) for i in range(args.jobs * 8)]
            index += len(batch)
            for samples in pool.map(one_hand, batch):
                hands.append(len(samples))
                for sample in samples:
                    stream.write(json.dumps(sample) + "\n")
                count += len(samples)
            stream.flush()
            print(f"{count} samples, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    print(f"generated {count} samples from {len(hands)} hands in {time.perf_counter() - started:.0f} s -> {out}")


# -- training --------------------------------------------------------------------------------

def inputs_of(sample: dict[str, Any]) -> BidInputs:
    return BidInputs(sample["hand"], sample["trump_suit"], sample["turn_up_rank"], sample["players"], sample["size"],
                     sample["position"], sample["bids_before"], sample["bids_count"], sample["scoring"])


def tensors(samples: list[dict[str, Any]]) -> dict[str, Any]:
    """Inputs, the trick-count targets per (sample, bid) with their weights, and the chosen bids."""
    import numpy as np

    x = np.array([features(inputs_of(s)) for s in samples], dtype=np.float32)
    rows, bids, targets, weights = [], [], [], []
    for i, sample in enumerate(samples):
        size = sample["size"]
        total_visits = sum(sample["visits"].values())
        for bid_text, hist in sample["tricks_by_bid"].items():
            visits = sum(hist)
            if visits <= 0:
                continue
            target = np.zeros(WIDTH, dtype=np.float32)
            target[:size + 1] = np.array(hist[:size + 1], dtype=np.float32) / visits
            rows.append(i)
            bids.append(int(bid_text))
            targets.append(target)
            # The more the search tried a bid, the better it knows its outcome.
            weights.append(math.sqrt(visits / max(1, total_visits)))
    mask = np.full((len(samples), WIDTH), -1e9, dtype=np.float32)
    for i, sample in enumerate(samples):
        mask[i, :sample["size"] + 1] = 0.0
    return {"x": x, "rows": np.array(rows), "bids": np.array(bids), "targets": np.array(targets),
            "weights": np.array(weights, dtype=np.float32), "chosen": np.array([s["chosen"] for s in samples]),
            "mask": mask}


def forward(params: dict[str, Any], data: dict[str, Any], rows: Any) -> dict[str, Any]:
    import numpy as np

    x = data["x"][rows]
    pre = x @ params["w1"].T + params["b1"]
    h = np.maximum(pre, 0.0)
    out = h @ params["w2"].T + params["b2"]
    return {"x": x, "pre": pre, "h": h, "out": out}


def losses(params: dict[str, Any], data: dict[str, Any], sample_rows: Any, pair_index: Any,
           grad: bool = True) -> tuple[float, float, dict[str, Any] | None]:
    """Cross-entropy of the trick targets (per pair) and of the chosen bid (per sample), and
    the gradients of their sum."""
    import numpy as np

    f = forward(params, data, sample_rows)
    out = f["out"]
    local = {int(r): k for k, r in enumerate(sample_rows)}
    mask = data["mask"][sample_rows]
    # Policy.
    logits = out[:, :WIDTH] + mask
    logits = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    chosen = data["chosen"][sample_rows]
    policy_loss = float(-np.mean(np.log(p[np.arange(len(chosen)), chosen] + 1e-12)))
    # Tricks after each bid: P(t | b) ∝ exp(q[t] - λ|t - b|).
    rows = np.array([local[int(r)] for r in data["rows"][pair_index]])
    bids = data["bids"][pair_index]
    targets = data["targets"][pair_index]
    w = data["weights"][pair_index]
    q = out[rows, WIDTH:2 * WIDTH]
    c = out[rows, 2 * WIDTH]
    strength = np.log1p(np.exp(-np.abs(c))) + np.maximum(c, 0.0)
    distance = np.abs(np.arange(WIDTH)[None, :] - bids[:, None])
    z = q - strength[:, None] * distance + mask[rows]
    z = z - z.max(axis=1, keepdims=True)
    pt = np.exp(z)
    pt /= pt.sum(axis=1, keepdims=True)
    trick_loss = float(np.sum(w * -np.sum(targets * np.log(pt + 1e-12), axis=1)) / max(1e-9, np.sum(w)))
    if not grad:
        return trick_loss, policy_loss, None
    d_out = np.zeros_like(out)
    onehot = np.zeros_like(p)
    onehot[np.arange(len(chosen)), chosen] = 1.0
    d_out[:, :WIDTH] = (p - onehot) / len(chosen)
    scale = (w / max(1e-9, np.sum(w)))[:, None]
    d_z = (pt - targets) * scale
    np.add.at(d_out[:, WIDTH:2 * WIDTH], rows, d_z)
    d_strength = -np.sum(d_z * distance, axis=1)
    sigmoid = 1.0 / (1.0 + np.exp(-c))
    np.add.at(d_out[:, 2 * WIDTH], rows, d_strength * sigmoid)
    grads = {"w2": d_out.T @ f["h"], "b2": d_out.sum(axis=0)}
    d_h = d_out @ params["w2"]
    d_pre = d_h * (f["pre"] > 0)
    grads["w1"] = d_pre.T @ f["x"]
    grads["b1"] = d_pre.sum(axis=0)
    return trick_loss, policy_loss, grads


def baseline_loss(samples: list[dict[str, Any]]) -> tuple[float, float]:
    """What the heuristic bots' estimate gives on the same targets: the binomial trick
    distribution around the hand's estimated tricks (whatever the bid), and the bid nearest
    the estimate as the policy."""
    total, weight, hits = 0.0, 0.0, 0
    for sample in samples:
        size = sample["size"]
        hand = sample["hand"]
        trump_suit = sample["trump_suit"]
        turn_up = 13 * trump_suit + sample["turn_up_rank"] if sample["turn_up_rank"] >= 0 else None
        trump = trump_mask_of(trump_suit if trump_suit >= 0 else None, turn_up)
        unseen = ((1 << 52) - 1) & ~hand & ~((1 << turn_up) if turn_up is not None else 0)
        estimate = estimate_tricks(hand, trump, unseen, sample["players"], size)
        distribution = trick_distribution(estimate, size)
        total_visits = sum(sample["visits"].values())
        for hist in sample["tricks_by_bid"].values():
            visits = sum(hist)
            if visits <= 0:
                continue
            w = math.sqrt(visits / max(1, total_visits))
            total += w * -sum(h / visits * math.log(distribution[t] + 1e-12) for t, h in enumerate(hist[:size + 1]))
            weight += w
        hits += int(min(size, max(0, round(estimate))) == sample["chosen"])
    return total / max(1e-9, weight), hits / max(1, len(samples))


def agreement(params: dict[str, Any], data: dict[str, Any], samples: list[dict[str, Any]], rows: Any) -> float:
    """How often the bid with the best expected score under the model (the hook honoured) is
    the search's choice."""
    import numpy as np

    from ohhell.fastsim import score_row

    out = forward(params, data, rows)["out"]
    hits = 0
    for k, r in enumerate(rows):
        sample = samples[int(r)]
        size = sample["size"]
        rules = preset("classic", players=sample["players"], scoring=sample["scoring"])
        best, best_value = -1, -math.inf
        for bid in range(size + 1):
            if bid == sample["forbidden"]:
                continue
            distribution = bid_model.steered(out[k, WIDTH:2 * WIDTH], float(out[k, 2 * WIDTH]), bid, size)
            row = score_row(rules, bid, 0, size)
            value = float(np.dot(distribution, row))
            if value > best_value:
                best, best_value = bid, value
        hits += int(best == sample["chosen"])
    return hits / max(1, len(rows))


def train(args: argparse.Namespace) -> None:
    import numpy as np

    started = time.perf_counter()
    samples = [json.loads(line) for path in args.data for line in Path(path).read_text(encoding="utf-8").splitlines()
               if line.strip()]
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(len(samples))
    held = max(1, len(samples) // 10)
    test_rows, train_rows = np.sort(order[:held]), np.sort(order[held:])
    data = tensors(samples)
    pair_of_row: dict[int, list[int]] = {}
    for k, r in enumerate(data["rows"]):
        pair_of_row.setdefault(int(r), []).append(k)
    hidden = args.hidden
    params = {
        "w1": rng.normal(0, math.sqrt(2.0 / INPUTS), (hidden, INPUTS)).astype(np.float64),
        "b1": np.zeros(hidden),
        "w2": rng.normal(0, math.sqrt(1.0 / hidden), (OUTPUTS, hidden)).astype(np.float64),
        "b2": np.zeros(OUTPUTS),
    }
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    step = 0

    def pairs(rows: Any) -> Any:
        return np.array([k for r in rows for k in pair_of_row.get(int(r), [])], dtype=np.int64)

    test_pairs = pairs(test_rows)
    for epoch in range(args.epochs):
        rng.shuffle(train_rows)
        for start in range(0, len(train_rows), args.batch):
            rows = np.sort(train_rows[start:start + args.batch])
            _t, _p, grads = losses(params, data, rows, pairs(rows))
            assert grads is not None
            step += 1
            for key in params:
                g = grads[key] + args.l2 * params[key] * (key.startswith("w"))
                m, v = moments[key]
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                params[key] -= args.lr * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        if epoch % 10 == 9 or epoch == args.epochs - 1:
            t_loss, p_loss, _ = losses(params, data, test_rows, test_pairs, grad=False)
            print(f"epoch {epoch + 1}: held-out trick loss {t_loss:.4f}, policy loss {p_loss:.4f}", file=sys.stderr)
    t_loss, p_loss, _ = losses(params, data, test_rows, test_pairs, grad=False)
    base_loss, base_hits = baseline_loss([samples[int(r)] for r in test_rows])
    agree = agreement(params, data, samples, test_rows)
    seconds = time.perf_counter() - started
    meta = {
        "data": [str(Path(p).name) for p in args.data], "samples": len(samples), "held_out": int(held),
        "hidden": hidden, "epochs": args.epochs, "seed": args.seed, "train_seconds": round(seconds, 1),
        "held_out_trick_loss": round(t_loss, 4), "held_out_policy_loss": round(p_loss, 4),
        "binomial_trick_loss": round(base_loss, 4), "model_bid_agrees_with_search": round(agree, 4),
        "rounded_estimate_agrees_with_search": round(base_hits, 4),
    }
    model = {
        "features": bid_model.FEATURES_VERSION, "inputs": INPUTS, "outputs": OUTPUTS, "hidden": hidden,
        "w1": bid_model.encode_floats(params["w1"].astype(np.float32).ravel().tolist()),
        "b1": bid_model.encode_floats(params["b1"].astype(np.float32).tolist()),
        "w2": bid_model.encode_floats(params["w2"].astype(np.float32).ravel().tolist()),
        "b2": bid_model.encode_floats(params["b2"].astype(np.float32).tolist()),
        "meta": meta,
    }
    out = Path(args.out)
    out.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(meta, indent=1))
    print(f"wrote {out}")


# -- checking the model as an opponent model ----------------------------------------------------

def ismcts_bids(args: argparse.Namespace) -> None:
    """How well the model's policy explains the bids of another careful player, OpenSpiel's
    ISMCTS (1000 simulations, as in ``benchmarks/strength.py``), against the Gaussian around
    the heuristic estimate that the strong bot used before: the mean log-likelihood of the
    bids made, and how often each one's most likely bid is the bid made."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from openspiel_bridge import Mirror, ohhell_rules, openspiel_game
    from strength import _ismcts

    from ohhell.bots.knowledge import Knowledge

    game = openspiel_game(4, 10)
    mirror = Mirror(ohhell_rules(4, 10))
    model = bid_model.load()
    rows = []
    for deal in range(args.deals):
        rng = random.Random(args.seed * 1_000_003 + deal)
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        bots = [_ismcts(game, args.seed * 7919 + deal * 4 + p, 1000) for p in range(4)]
        for _ in range(4):
            player = state.current_player()
            view = seat_view(mirror.state_of(state), player)
            action = int(bots[player].step(state))
            bid = action - 52
            knowledge = Knowledge.from_view(view)
            hand = mask_of(view.hand)
            estimate = estimate_tricks(hand, knowledge.trump, knowledge.unseen, 4, 10)
            table = bid_model.Table.of(view.rules, view.trump, view.turn_up, 10, view.bid_order)
            policy = model.policy(table.inputs(hand, player, view.bids))
            spread = 0.55 + 0.06 * 10
            if view.forbidden_bid is not None:
                forbidden = view.forbidden_bid
                policy = [0.0 if b == forbidden else p / (1 - policy[forbidden]) for b, p in enumerate(policy)]
                spread *= 1.5
            gaussian = math.exp(-((bid - estimate) ** 2) / (2 * spread ** 2)) / (math.sqrt(2 * math.pi) * spread)
            rows.append((policy[bid], gaussian, max(range(11), key=policy.__getitem__) == bid,
                         min(10, max(0, round(estimate))) == bid))
            state.apply_action(action)
    count = len(rows)
    print(f"{count} ISMCTS bids ({args.deals} deals, seed {args.seed})")
    print(f"  mean log-likelihood: model policy {sum(math.log(max(1e-6, r[0])) for r in rows) / count:.3f}, "
          f"Gaussian around the estimate {sum(math.log(max(1e-6, r[1])) for r in rows) / count:.3f}")
    print(f"  the bid made is the most likely one: model {sum(r[2] for r in rows) / count:.1%}, "
          f"rounded estimate {sum(r[3] for r in rows) / count:.1%}")


def own_bids(args: argparse.Namespace) -> None:
    """Where the model's best bid and the strong bot's bidding search (20 000 simulations)
    differ, which one a search ten times bigger (100 000 simulations over 2 000 worlds) sides
    with, and what it thinks each bid is worth: should the model make the bot's own bids?"""
    from ohhell.fastsim import score_row

    model = bid_model.load()
    rng = random.Random(args.seed)
    results = []
    tried = 0
    while len(results) < args.positions and tried < 20 * args.positions:
        tried += 1
        size = rng.randint(5, 10)
        rules = preset("classic", players=4, schedule="explicit", hands=[HandPlan(size, "turn-up")],
                       scoring=args.scoring, bid_changes=False)
        state = Game(rules).new_initial_state(first_dealer=rng.randrange(4))
        deck = list(range(52))
        rng.shuffle(deck)
        state.apply(Deal(tuple(tuple(deck[p * size:(p + 1) * size]) for p in range(4)), deck[4 * size]))
        for _ in range(rng.randrange(4)):
            state.apply(StrongBot(seed=rng.getrandbits(30)).choose(seat_view(state, state.turn)))
        view = seat_view(state, state.turn)
        allowed = [a.bid for a in view.legal_actions if isinstance(a, Bid)]
        search_bid = StrongBot(seed=rng.getrandbits(30)).choose(view).bid
        table = bid_model.Table.of(rules, view.trump, view.turn_up, size, view.bid_order)
        inputs = table.inputs(mask_of(view.hand), view.seat, view.bids)
        outputs = model.outputs(inputs)
        value = {b: sum(p * r for p, r in zip(model.tricks(inputs, b, outputs), score_row(rules, b, 0, size),
                                             strict=True)) for b in allowed}
        model_bid = max(allowed, key=value.__getitem__)
        if model_bid == search_bid:
            continue
        big = StrongBot(seed=rng.getrandbits(30), worlds=2000, simulations=100_000).suggest(view)
        values = {int(b): v for b, v in big.details["expected_score"].items()}
        assert isinstance(big.action, Bid)
        results.append((search_bid, model_bid, big.action.bid, values[search_bid], values[model_bid]))
    count = max(1, len(results))
    print(f"{len(results)} positions where they differ ({args.scoring}, seed {args.seed}): the big search sides "
          f"with the search {sum(r[2] == r[0] for r in results)} times, with the model "
          f"{sum(r[2] == r[1] for r in results)} times; it values the search's bids at "
          f"{sum(r[3] for r in results) / count:+.2f}, the model's at {sum(r[4] for r in results) / count:+.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    gen = commands.add_parser("generate", help="let the bidding search label random hands")
    gen.add_argument("--samples", type=int, default=8000)
    gen.add_argument("--jobs", type=int, default=2)
    gen.add_argument("--seed", type=int, default=1)
    gen.add_argument("--with-model", action="store_true", help="the search uses the current model (expert iteration)")
    gen.add_argument("--out", default="bids.jsonl")
    fit = commands.add_parser("train", help="fit the model to generated samples")
    fit.add_argument("data", nargs="+")
    fit.add_argument("--hidden", type=int, default=48)
    fit.add_argument("--epochs", type=int, default=60)
    fit.add_argument("--batch", type=int, default=256)
    fit.add_argument("--lr", type=float, default=3e-3)
    fit.add_argument("--l2", type=float, default=1e-4)
    fit.add_argument("--seed", type=int, default=1)
    fit.add_argument("--out", default=str(ROOT / "ohhell" / "bots" / bid_model.MODEL_FILE))
    check = commands.add_parser("ismcts-bids", help="how well the model explains OpenSpiel ISMCTS's bids")
    check.add_argument("--deals", type=int, default=40)
    check.add_argument("--seed", type=int, default=1)
    own = commands.add_parser("own-bids", help="the model's best bid against the search's, judged by a bigger search")
    own.add_argument("--positions", type=int, default=40)
    own.add_argument("--scoring", default="triangular-penalty")
    own.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    if args.command == "generate":
        generate(args)
    elif args.command == "train":
        train(args)
    elif args.command == "own-bids":
        own_bids(args)
    else:
        ismcts_bids(args)


if __name__ == "__main__":
    main()
