"""A fixed share of the processor for one process: a cgroup with a CPU quota.

On a machine of two cores, three server processes beside their database, broker, balancer and
load generator all share the same two cores, so adding a process cannot add capacity and
scaling cannot be seen. Held to a quota each (say 0.3 CPU), N processes get N times the
processor while the rest of the site has what is left — the way a site of N machines behaves,
measured on one. The period is short (10 ms by default) so that a throttled process stalls for
a few milliseconds, not the 70 ms a default 100 ms period allows.

cgroup v1 (``cpu.cfs_quota_us``/``cpu.cfs_period_us`` under ``/sys/fs/cgroup/cpu/``) and v2
(``cpu.max`` in the unified hierarchy) are both handled; :func:`cgroup_support` says which this
machine has, or why neither can be used (needs root).

>>> CpuQuota.describe(0.3, 10)
'0.30 CPU (3000 µs every 10000 µs)'
"""

from __future__ import annotations

import contextlib
import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

V1_CPU: Final = Path("/sys/fs/cgroup/cpu")
V1_CPUACCT: Final = Path("/sys/fs/cgroup/cpuacct")
V2_ROOT: Final = Path("/sys/fs/cgroup")


def cgroup_support() -> tuple[str | None, str]:
    """``("v1" | "v2", how)`` when CPU quotas can be set here, else ``(None, why not)``."""
    if os.geteuid() != 0:
        return None, "CPU quotas need root (cgroups)"
    if (V1_CPU / "cpu.cfs_quota_us").exists():
        return "v1", f"cgroup v1: cpu.cfs_quota_us/cpu.cfs_period_us under {V1_CPU}"
    if (V2_ROOT / "cgroup.controllers").exists():
        controllers = (V2_ROOT / "cgroup.controllers").read_text().split()
        if "cpu" in controllers:
            return "v2", f"cgroup v2: cpu.max under {V2_ROOT}"
        return None, "cgroup v2 is mounted without its cpu controller"
    return None, "no cgroup CPU controller is mounted (neither /sys/fs/cgroup/cpu nor cgroup v2)"


@dataclass
class CpuQuota:
    """One cgroup holding its processes to ``cpus`` of one core, made on creation and removed by
    :meth:`remove`."""

    cpus: float
    period_ms: float = 10.0
    name: str = field(default_factory=lambda: f"ohhell-{secrets.token_hex(3)}")
    version: str = ""

    def __post_init__(self) -> None:
        version, why = cgroup_support()
        if version is None:
            raise RuntimeError(why)
        self.version = version
        period = int(self.period_ms * 1000)
        quota = max(1000, int(self.cpus * period))
        if version == "v1":
            self.folder = V1_CPU / self.name
            self.folder.mkdir(exist_ok=True)
            (self.folder / "cpu.cfs_period_us").write_text(str(period))
            (self.folder / "cpu.cfs_quota_us").write_text(str(quota))
            # The highest weight too: on a machine shared with other work, the group gets its
            # whole quota (the quota caps it; the weight keeps others from taking its share).
            with contextlib.suppress(OSError):
                (self.folder / "cpu.shares").write_text("262144")
            self.accounting: Path | None = V1_CPUACCT / self.name if V1_CPUACCT.is_dir() else None
            if self.accounting is not None:
                self.accounting.mkdir(exist_ok=True)
        else:
            subtree = V2_ROOT / "cgroup.subtree_control"
            with contextlib.suppress(OSError):
                subtree.write_text("+cpu")
            self.folder = V2_ROOT / self.name
            self.folder.mkdir(exist_ok=True)
            (self.folder / "cpu.max").write_text(f"{quota} {period}")
            with contextlib.suppress(OSError):
                (self.folder / "cpu.weight").write_text("10000")
            self.accounting = None

    @staticmethod
    def describe(cpus: float, period_ms: float) -> str:
        period = int(period_ms * 1000)
        return f"{cpus:.2f} CPU ({int(cpus * period)} µs every {period} µs)"

    def add(self, pid: int) -> None:
        """Move a process (all its threads, and the children it starts later) into the group."""
        (self.folder / "cgroup.procs").write_text(str(pid))
        if self.accounting is not None:
            (self.accounting / "cgroup.procs").write_text(str(pid))

    def cpu_seconds(self) -> float:
        """Processor time used by the group's processes so far."""
        if self.version == "v1" and self.accounting is not None:
            return int((self.accounting / "cpuacct.usage").read_text()) / 1e9
        stat = self.stat()
        return stat.get("usage_usec", 0) / 1e6

    def stat(self) -> dict[str, int]:
        """``cpu.stat``: how often and how long the group was throttled (``nr_throttled``,
        ``throttled_time`` in ns on v1, ``throttled_usec`` on v2)."""
        out = {}
        for line in (self.folder / "cpu.stat").read_text().splitlines():
            key, _, value = line.partition(" ")
            with contextlib.suppress(ValueError):
                out[key] = int(value)
        return out

    def remove(self) -> None:
        """Move the group's processes back to the root group and delete it."""
        for folder, root in ((self.folder, self.folder.parent), (self.accounting, V1_CPUACCT)):
            if folder is None or not folder.exists():
                continue
            with contextlib.suppress(OSError):
                for pid in (folder / "cgroup.procs").read_text().split():
                    with contextlib.suppress(OSError):
                        (root / "cgroup.procs").write_text(pid)
            with contextlib.suppress(OSError):
                folder.rmdir()
