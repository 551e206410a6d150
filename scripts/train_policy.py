#!/usr/bin/env python3
"""Train the ``learned`` bot (``ohhell/integrations/learned.py``): 4-player classic, hands of 1 to 10 cards.

A policy distilled from a teacher bot's decisions, then trained further on its own games
(DAgger: the student plays, the teacher labels the positions the student reaches), all on the
CPU with PyTorch. Every stage writes to the run directory and picks up where it stopped, so
the script is resumable (run the same command again):

1. ``data/teacher-K.npz`` — games of four teachers (``--teacher``, default ``basic``); every
   decision is one sample: the observation vector of the deciding seat, its legal actions, the
   teacher's choice. A share ``--explore`` of the decisions is played at random (still
   labelled by the teacher), so the data holds positions a perfect imitator would not reach.
2. ``checkpoint.pt`` — the network (an MLP, ``--hidden`` units in two layers) trained by
   cross-entropy on the teacher's choices among the legal actions, ``--epochs`` epochs over the data
   per round.
3. ``data/student-K.npz`` — (from round ``--dagger-from`` on) games in which the student plays
   one seat against three teachers, each of its positions labelled by the teacher.
4. ``curve.json`` / ``curve.png`` — after each round, the agreement with the teacher on held-out
   teacher games (the last data file, never trained on) and, with ``--eval-deals``, the student
   against ``basic`` in the arena: duplicate deals (the same cards in every rotation of the
   seats), the paired difference of points per hand with its 95 % interval
   (:func:`ohhell.arena.paired_differences`). ``--measure ROUND`` measures one round's weights
   alone and adds the point to the curve.
5. ``policy-ROUND.npz`` — the weights for ``LearnedBot`` (float16); ``--install`` copies the best
   round's (by the arena, else by the held-out agreement) to ``ohhell/integrations/learned_policy.npz``.

    nice -n 10 python scripts/train_policy.py --out runs/learned --minutes 120 --jobs 2 --install
    python scripts/train_policy.py --out runs/learned --measure 4 --eval-deals 40 --jobs 2

``--minutes`` bounds the whole run (the budget of the issue is 2 hours on this project's
2-core machine); a stage that would start after it does not.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
import zlib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ohhell.actions import Action  # noqa: E402
from ohhell.bots import Bot, make_bot  # noqa: E402
from ohhell.bots.base import forward_actions  # noqa: E402
from ohhell.bots.driver import play_game  # noqa: E402
from ohhell.integrations.core import Setup  # noqa: E402
from ohhell.integrations.encoding import ObservationEncoder  # noqa: E402
from ohhell.integrations.learned import LearnedBot, Policy, trained_rules  # noqa: E402
from ohhell.views import SeatView  # noqa: E402

SHIPPED = ROOT / "ohhell" / "integrations" / "learned_policy.npz"


class Recorder(Bot):
    """Plays as ``actor`` (the teacher, or the student) and records the teacher's choice at
    every decision of its seat: (observation, legal mask, teacher's action)."""

    def __init__(self, teacher: Bot, actor: Bot | None, explore: float, rng: random.Random,
                 samples: list[tuple[np.ndarray, np.ndarray, int]]) -> None:
        super().__init__(seed=None)
        self.teacher, self.actor, self.explore, self.rng, self.samples = teacher, actor, explore, rng, samples
        setup = Setup.create(rules=trained_rules())
        self.encoder, self.codec = ObservationEncoder(setup), setup.codec

    def choose(self, view: SeatView) -> Action:
        legal = forward_actions(view)
        if len(legal) == 1:
            return legal[0]
        label = self.teacher.choose(view)
        if label in legal:
            mask = np.zeros(self.codec.num_actions, dtype=np.bool_)
            for action in legal:
                mask[self.codec.encode(action)] = True
            self.samples.append((self.encoder.encode(view).astype(np.float16), mask, self.codec.encode(label)))
        if self.actor is not None:
            return self.actor.choose(view)
        if self.rng.random() < self.explore:
            return legal[self.rng.randrange(len(legal))]
        return label

    def change_bid(self, view: SeatView) -> Any:
        return None


def play_games(task: tuple[str, int, int, float, str | None]) -> dict[str, np.ndarray]:
    """Games for one data file: four recording teachers, or (``student``: weights) the student
    in seat ``game % 4`` against three teachers, only its seat recorded."""
    teacher_name, games, seed, explore, student = task
    rng = random.Random(seed)
    samples: list[tuple[np.ndarray, np.ndarray, int]] = []
    rules = trained_rules()
    for game in range(games):
        teachers = [make_bot(teacher_name, seed=rng.randrange(2**31)) for _ in range(4)]
        if student is None:
            bots: list[Bot] = [Recorder(teacher, None, explore, rng, samples) for teacher in teachers]
        else:
            seat = game % 4
            bots = list(teachers)
            bots[seat] = Recorder(teachers[seat], LearnedBot(weights=student), 0.0, rng, samples)
        play_game(rules, bots, seed=rng.randrange(2**31))
    return {"obs": np.stack([s[0] for s in samples]), "mask": np.stack([s[1] for s in samples]),
            "action": np.array([s[2] for s in samples], dtype=np.int16)}


def generate(out: Path, prefix: str, files: int, games: int, seed: int, jobs: int, args: argparse.Namespace,
             student: str | None, deadline: float) -> None:
    """Write the missing data files ``prefix-K.npz`` (K < files), ``jobs`` at a time."""
    data = out / "data"
    data.mkdir(parents=True, exist_ok=True)
    missing = [k for k in range(files) if not (data / f"{prefix}-{k}.npz").exists()]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for start in range(0, len(missing), jobs):
            if time.time() > deadline:
                print("time is up: no more data", flush=True)
                return
            batch = missing[start:start + jobs]
            salt = zlib.crc32(prefix.encode()) % 997 * 1009
            tasks = [(args.teacher, games, seed * 100_003 + salt + k, args.explore, student) for k in batch]
            for k, result in zip(batch, pool.map(play_games, tasks), strict=True):
                np.savez_compressed(data / f"{prefix}-{k}.npz", **result)
                print(f"{prefix}-{k}: {len(result['action'])} decisions", flush=True)


Data = tuple[np.ndarray, np.ndarray, np.ndarray]


def load_data(out: Path) -> tuple[Data, Data]:
    """Every data file: the training samples, and the held-out ones (the last file of teacher
    games, which training never sees: the curve's agreement with the teacher)."""
    paths = sorted((out / "data").glob("*.npz"))
    held = [path for path in paths if path.name.startswith("teacher-")][-1:]

    def joined(files: list[Path]) -> Data:
        parts = [np.load(path) for path in files]
        return (np.concatenate([p["obs"] for p in parts]), np.concatenate([p["mask"] for p in parts]),
                np.concatenate([p["action"] for p in parts]).astype(np.int64))

    return joined([path for path in paths if path not in held]), joined(held)


def held_out(model: Any, data: Data) -> tuple[float, float]:
    """Loss and agreement with the teacher on held-out samples."""
    import torch

    obs, mask, action = data
    model.eval()
    with torch.no_grad():
        logits = model(torch.from_numpy(obs.astype(np.float32))).masked_fill(~torch.from_numpy(mask), -1e9)
        target = torch.from_numpy(action)
        loss = float(torch.nn.functional.cross_entropy(logits, target))
        agreement = float((logits.argmax(dim=1) == target).float().mean())
    return loss, agreement


def network(inputs: int, hidden: int, actions: int) -> Any:
    import torch

    return torch.nn.Sequential(torch.nn.Linear(inputs, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, hidden),
                               torch.nn.ReLU(), torch.nn.Linear(hidden, actions))


def train_round(model: Any, optimizer: Any, data: tuple[np.ndarray, np.ndarray, np.ndarray], batch: int,
                rng: np.random.Generator) -> tuple[float, float]:
    """One epoch of masked cross-entropy; returns the mean loss and the share of the teacher's
    choices the network ranks first."""
    import torch

    obs, mask, action = data
    order = rng.permutation(len(action))
    losses, hits = [], 0
    model.train()
    for start in range(0, len(order), batch):
        rows = order[start:start + batch]
        x = torch.from_numpy(obs[rows].astype(np.float32))
        legal = torch.from_numpy(mask[rows])
        target = torch.from_numpy(action[rows])
        logits = model(x).masked_fill(~legal, -1e9)
        loss = torch.nn.functional.cross_entropy(logits, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(float(loss.detach()))
        hits += int((logits.argmax(dim=1) == target).sum())
    return float(np.mean(losses)), hits / len(order)


def export(model: Any, meta: dict[str, Any], path: Path) -> None:
    layers = [module for module in model if hasattr(module, "weight")]
    Policy(tuple((layer.weight.detach().numpy().T.copy(), layer.bias.detach().numpy().copy()) for layer in layers),
           meta).save(path)


def policy_factory(spec: str, seed: int | None = None, budget: Any = None) -> Bot:
    """The arena's bots: ``learned:PATH`` is the student with the weights at PATH."""
    if spec.startswith("learned:"):
        return LearnedBot(seed=seed, weights=spec.removeprefix("learned:"))
    return make_bot(spec, seed=seed, budget=budget)


def evaluate(weights: Path, deals: int, seed: int, jobs: int) -> dict[str, float]:
    """The student against ``basic`` on duplicate deals (seats A B A B): points per hand, A − B."""
    from ohhell.arena import paired_differences, run_arena

    spec = f"learned:{weights}"
    result = run_arena(trained_rules(), [spec, "basic", spec, "basic"], deals, seed=seed, jobs=jobs,
                       factory=policy_factory)
    (difference,) = paired_differences(result)
    return {"deals": deals, "mean": difference.mean, "low": difference.ci[0], "high": difference.ci[1]}


def plot(curve: list[dict[str, Any]], path: Path) -> None:
    """Left: agreement with the teacher (training and held-out samples); right, for the rounds
    measured in the arena: learned − basic per hand with its 95 % interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rounds = [point["round"] for point in curve]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.plot(rounds, [point["agreement"] for point in curve], marker="o", label="training samples")
    left.plot(rounds, [point["held_out_agreement"] for point in curve], marker="s", label="held-out teacher games")
    left.set_xlabel("training round")
    left.set_ylabel("the teacher's choice ranked first")
    left.set_title("imitation of the teacher")
    left.legend(loc="lower right")
    measured = [point for point in curve if "vs_basic" in point]
    if measured:
        at = [point["round"] for point in measured]
        means = [p["vs_basic"]["mean"] for p in measured]
        right.errorbar(at, means, yerr=[[m - p["vs_basic"]["low"] for m, p in zip(means, measured, strict=True)],
                                        [p["vs_basic"]["high"] - m for m, p in zip(means, measured, strict=True)]],
                       marker="o", capsize=4, label="learned − basic, with its 95 % interval")
        for point in measured:
            right.annotate(f"{point['vs_basic']['deals']} deals", (point["round"], point["vs_basic"]["mean"]),
                           textcoords="offset points", xytext=(6, 6), fontsize=8)
        right.set_xlim(0.5, max(rounds) + 0.5)
        right.legend(loc="lower right")
    else:
        right.text(0.5, 0.5, "not measured in the arena yet", ha="center", va="center", transform=right.transAxes)
    right.axhline(0.0, color="black", linewidth=0.8)
    right.set_xlabel("training round")
    right.set_ylabel("points per hand, duplicate deals")
    right.set_title("against basic (classic, 4 players, 1–10 cards)")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def measure(args: argparse.Namespace) -> None:
    """``--measure ROUND``: one round's weights against basic in the arena, into the curve."""
    curve_path = args.out / "curve.json"
    curve = json.loads(curve_path.read_text())
    point = next(point for point in curve if point["round"] == args.measure)
    point["vs_basic"] = evaluate(args.out / f"policy-{args.measure}.npz", args.eval_deals, seed=10_000 + args.seed,
                                 jobs=args.jobs)
    curve_path.write_text(json.dumps(curve, indent=1))
    plot(curve, args.out / "curve.png")
    print(f"round {args.measure}: learned − basic {point['vs_basic']['mean']:+.2f} "
          f"[{point['vs_basic']['low']:+.2f}, {point['vs_basic']['high']:+.2f}] per hand, "
          f"{args.eval_deals} deals", flush=True)
    if args.install:
        shutil.copy(args.out / f"policy-{args.measure}.npz", SHIPPED)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("runs/learned"))
    parser.add_argument("--minutes", type=float, default=120.0, help="bound of the whole run")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--teacher", default="basic")
    parser.add_argument("--explore", type=float, default=0.05)
    parser.add_argument("--teacher-files", type=int, default=4, help="data files of teacher games")
    parser.add_argument("--games-per-file", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--dagger-from", type=int, default=3, help="the round from which the student plays")
    parser.add_argument("--dagger-games", type=int, default=10, help="student games per process and round")
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=3, help="epochs over the data per round")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--eval-deals", type=int, default=6, help="arena deals after each round (0: none)")
    parser.add_argument("--install", action="store_true", help="copy the best round's weights into the package")
    parser.add_argument("--measure", type=int, default=None, metavar="ROUND",
                        help="only measure that round's weights against basic (--eval-deals deals), add the point "
                             "to the curve and draw it again")
    args = parser.parse_args()
    if args.measure is not None:
        measure(args)
        return

    import torch

    torch.set_num_threads(1)
    started = time.time()
    deadline = started + 60 * args.minutes
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    generate(out, "teacher", args.teacher_files, args.games_per_file, args.seed, args.jobs, args, None, deadline)

    setup = Setup.create(rules=trained_rules())
    inputs, actions = ObservationEncoder(setup).size, setup.codec.num_actions
    model = network(inputs, args.hidden, actions)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    checkpoint = out / "checkpoint.pt"
    curve_path = out / "curve.json"
    curve: list[dict[str, Any]] = json.loads(curve_path.read_text()) if curve_path.exists() else []
    done = 0
    if checkpoint.exists():
        state = torch.load(checkpoint)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        done = int(state["round"])
        print(f"resumed after round {done}", flush=True)
    rng = np.random.default_rng(args.seed + done)
    for round_number in range(done + 1, args.rounds + 1):
        if time.time() > deadline:
            print("time is up", flush=True)
            break
        dagger = round_number >= args.dagger_from
        if dagger:  # the student's own positions, labelled by the teacher
            generate(out, f"student-{round_number}", args.jobs, args.dagger_games, args.seed, args.jobs,
                     args, str(out / "policy.npz"), deadline)
        data, validation = load_data(out)
        for _epoch in range(args.epochs):
            loss, agreement = train_round(model, optimizer, data, args.batch, rng)
        validation_loss, validation_agreement = held_out(model, validation)
        meta = {"round": round_number, "samples": len(data[2]), "loss": loss, "agreement": agreement,
                "held_out_loss": validation_loss, "held_out_agreement": validation_agreement,
                "teacher": args.teacher, "hidden": args.hidden, "seconds": round(time.time() - started)}
        export(model, meta, out / "policy.npz")
        shutil.copy(out / "policy.npz", out / f"policy-{round_number}.npz")
        torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "round": round_number},
                   checkpoint)
        point: dict[str, Any] = {**meta, "dagger": dagger}
        if args.eval_deals:
            point["vs_basic"] = evaluate(out / "policy.npz", args.eval_deals, seed=10_000 + args.seed, jobs=args.jobs)
        curve.append(point)
        curve_path.write_text(json.dumps(curve, indent=1))
        plot(curve, out / "curve.png")
        versus = point.get("vs_basic")
        print(f"round {round_number}: {len(data[2])} samples, loss {loss:.3f}, agreement {agreement:.3f}, "
              f"held out {validation_agreement:.3f}"
              + (f", learned − basic {versus['mean']:+.2f} [{versus['low']:+.2f}, {versus['high']:+.2f}]"
                 if versus else "") + f" ({time.time() - started:.0f} s)", flush=True)
    if args.install and curve:
        measured = [point for point in curve if "vs_basic" in point]
        best = (max(measured, key=lambda point: point["vs_basic"]["mean"]) if measured
                else max(curve, key=lambda point: point["held_out_agreement"]))
        shutil.copy(out / f"policy-{best['round']}.npz", SHIPPED)
        print(f"installed round {best['round']} as {SHIPPED}", flush=True)


if __name__ == "__main__":
    main()
