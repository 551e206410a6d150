"""Faults across simulated hosts while tables play: a nemesis and a checker (Jepsen's way).

PostgreSQL, Redis and each ``ohhell serve`` process run in a network namespace of their own on
one bridge, with ``tc netem`` delay between them (:mod:`ohhell.server.cluster.nemesis`). Clients
play every seat of ``--tables`` tables of four, their connections spread over the processes,
while the nemesis injects ``--events`` faults, one at a time: an owner partitioned from Redis,
from PostgreSQL or from its clients, paused past its lease, killed with ``kill -9`` (and started
again), Redis restarted, PostgreSQL restarted. Then every game is played out and the checker
reads every client's history against the final records. The last line:

    nemesis: events=N anomalies=A tables=T failover_p50=… failover_max=…

    sudo python benchmarks/nemesis.py --events 56 --tables 20 --processes 3

Needs root (namespaces), iproute2, iptables, Redis and PostgreSQL (``./scripts/test`` installs
them). Only addresses of 10.213.77.0/24, on interfaces it creates and removes, are used; the run
is bounded (``--events``, ``--hold``, ``--quiet``) and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time

from ohhell.server.cluster import nemesis


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=56, help="faults to inject (every kind in turn)")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--hold", type=float, default=4.0, help="seconds each fault lasts")
    parser.add_argument("--quiet", type=float, default=3.0, help="seconds of healthy play after each fault")
    parser.add_argument("--delay-ms", type=float, default=2.0, help="netem delay on every link (jitter: half)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="also print the verdict as JSON")
    args = parser.parse_args()
    missing = nemesis.missing_tools()
    if missing:
        raise SystemExit("nemesis: cannot run here, missing " + ", ".join(missing))
    faults = nemesis.schedule(args.events, random.Random(args.seed))
    serve_args = ["--bot-delay", "0", "--trick-pause", "0", "--hand-pause", "0", "--leave-grace", "600",
                  "--max-new-tables", str(args.tables * 5 + 10)]
    started = time.monotonic()

    def say(line: str) -> None:
        print(f"[{time.monotonic() - started:6.1f}s] {line}", file=sys.stderr, flush=True)

    with nemesis.site_on_hosts(args.processes, serve_args, args.delay_ms) as site:
        if not site.network.netem:
            say("this kernel has no tc netem (CONFIG_NET_SCH_NETEM is not set): the links add no delay")
        say(f"{args.processes} processes, PostgreSQL and Redis on hosts of their own; {args.tables} tables")
        outcome = asyncio.run(nemesis.play_under_faults(site, args.tables, faults, args.hold, args.quiet,
                                                        args.seed, progress=say))
    verdict = outcome.verdict
    for anomaly in verdict.anomalies[:50]:
        print("anomaly:", anomaly)
    for line in verdict.unanswered[:20]:
        print("unanswered:", line)
    kinds: dict[str, int] = {}
    for fault in outcome.faults:
        kinds[fault.kind] = kinds.get(fault.kind, 0) + 1
    print(f"faults: {json.dumps(kinds)}; tables finished {verdict.finished}/{verdict.tables}; "
          f"acknowledged actions {verdict.acknowledged}; states checked {verdict.states}; {outcome.seconds:.0f} s")
    if args.json:
        print(json.dumps({"events": len(outcome.faults), "anomalies": verdict.anomalies, "tables": verdict.tables,
                          "finished": verdict.finished, "acknowledged": verdict.acknowledged,
                          "failovers": verdict.failovers}))
    print(outcome.line)


if __name__ == "__main__":
    main()
