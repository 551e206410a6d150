"""The arena on Ray against the arena's own process pool, side by side in one run.

    python benchmarks/arena_scaling.py                  # basic bots, 40 deals per run
    python benchmarks/arena_scaling.py --bots strong,basic,basic,basic --games 8

Deals per second of ``run_arena`` with ``jobs=1`` and ``jobs=2`` (a process pool) and with Ray
on a local cluster of 1 and 2 workers (``ray=...``), the same deals and seeds each time (the
results are checked to be equal). The Ray cluster is started once, before the timed runs (its
start-up, a few seconds, is reported apart: a long match pays it once); each timed run still
pays for scheduling every deal as a task and shipping its result back. Last line:
``ray_vs_jobs=R`` — Ray's deals/s over the pool's, at the largest worker count.
"""

from __future__ import annotations

import argparse
import os
import time

from ohhell.arena import run_arena
from ohhell.rules import preset


def _warm() -> int:
    import ohhell.arena  # noqa: F401 - what a deal's task imports first
    from ohhell.bots import make_bot

    make_bot("basic", seed=0)
    time.sleep(0.5)  # held a moment, so each of the workers gets one
    return os.getpid()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", default="basic,basic,random,random")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    import ray

    specs = args.bots.split(",")
    rules = preset("classic", players=len(specs))
    counts = [int(x) for x in args.workers.split(",")]
    print(f"load average at the start: {os.getloadavg()}", flush=True)
    rates: dict[tuple[str, int], float] = {}
    reference = None
    for workers in counts:
        started = time.perf_counter()
        result = run_arena(rules, specs, args.games, seed=args.seed, jobs=workers)
        pool_seconds = time.perf_counter() - started
        rates["jobs", workers] = args.games / pool_seconds
        started = time.perf_counter()
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
        # Ray's workers are fresh interpreters that import ohhell and its bots on their first task
        # (the pool's are forks of this process, which has): start them before the clock, as a
        # long match pays it once — counted in the start-up time printed.
        warm = ray.remote(num_cpus=1)(_warm)
        ray.get([warm.remote() for _ in range(workers)])
        startup = time.perf_counter() - started
        try:
            started = time.perf_counter()
            on_ray = run_arena(rules, specs, args.games, seed=args.seed, jobs=workers, ray="local")
            ray_seconds = time.perf_counter() - started
        finally:
            ray.shutdown()
        rates["ray", workers] = args.games / ray_seconds
        same = [b.to_json() for b in on_ray.bots] == [b.to_json() for b in result.bots]
        reference = reference or [b.to_json() for b in result.bots]
        assert same and [b.to_json() for b in result.bots] == reference, "the results differ"
        print(f"{workers} worker(s): --jobs {rates['jobs', workers]:.2f} deals/s, Ray {rates['ray', workers]:.2f} "
              f"deals/s (Ray started in {startup:.1f} s); results identical", flush=True)
    top = max(counts)
    print(f"load average at the end: {os.getloadavg()}")
    print(f"ray_vs_jobs={rates['ray', top] / rates['jobs', top]:.2f}")


if __name__ == "__main__":
    main()
