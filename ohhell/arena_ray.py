"""The arena's deals as Ray tasks: on a local Ray cluster (``ohhell arena --ray``) or on an
existing one (``ohhell arena --ray ADDRESS``, e.g. ``ray://head:10001`` or ``auto``).

Each deal is one task — the same function ``--jobs`` runs in its process pool — and a deal's
cards and bots are seeded from the match's seed and the deal's number alone, so the results
are the same whichever worker plays which deal, and the same as with ``--jobs N``. Results
arrive as deals finish (for the progress bar); the arena puts them back in order.

Every node of an existing cluster needs ohhell installed (the same version), as Ray needs for
any library its tasks import. Ray comes with the ``cluster`` extra: ``pip install -e '.[cluster]'``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Sequence
from typing import Any

LOCAL = "local"
"""``--ray`` without an address: start a Ray cluster on this machine for the match."""


def ray_deal_results(task: Any, tasks: Sequence[Any], address: str, workers: int | None) -> Iterator[Any]:
    """Run ``task(item)`` for every item of ``tasks`` as Ray tasks and yield the results as they
    finish. ``address``: :data:`LOCAL` for a Ray cluster of ``workers`` CPUs on this machine
    (stopped afterwards), else the address of a running cluster to join."""
    try:
        import ray
    except ImportError as error:
        raise RuntimeError("--ray needs Ray: pip install -e '.[cluster]'") from error
    started_here = not ray.is_initialized()
    if started_here:
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                   "logging_level": logging.WARNING, "configure_logging": False}
        if address == LOCAL:
            options["num_cpus"] = workers or os.cpu_count() or 1
            # The workers import ohhell from wherever this process does.
            options["runtime_env"] = {"env_vars": {"PYTHONPATH": os.pathsep.join(_import_paths())}}
        else:
            options["address"] = address
        ray.init(**options)
    try:
        remote = ray.remote(num_cpus=1)(task)
        pending = [remote.remote(item) for item in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        if started_here:
            ray.shutdown()


def _import_paths() -> list[str]:
    import ohhell

    root = os.path.dirname(os.path.dirname(os.path.abspath(ohhell.__file__)))
    current = os.environ.get("PYTHONPATH", "")
    return [root, *(part for part in current.split(os.pathsep) if part)]
