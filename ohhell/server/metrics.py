"""What a server process reports to Prometheus at ``/metrics``: tables, connections, actions
per second, the time a commit takes and the broker's latency.

The standard client library (``prometheus_client``, in the ``cluster`` extra) does the
counting and the text format. Without it the server runs the same and ``/metrics`` says the
library is missing: every metric here is then a stand-in that counts nothing.

=============================================  =========================================
``ohhell_tables{role="owned"|"mirrored"}``    tables this process runs / keeps a copy of
``ohhell_connections``                         WebSocket connections to tables
``ohhell_actions_total``                       actions committed (rate: actions per second)
``ohhell_commit_seconds``                      from an action's check to its commit
``ohhell_broker_latency_seconds``              from an event's publication to its arrival here
``ohhell_forward_seconds``                     a request forwarded to a table's owner, there and back
``ohhell_broker_published_total``              events published to other processes
``ohhell_takeovers_total``                     tables taken over from an owner that was gone
``ohhell_forwarded_actions_total``             actions of this process's players sent to another's owner
``ohhell_table_handoffs_total``                tables this process handed to the process the balancer chose
=============================================  =========================================
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

prometheus_client: Any
try:
    import prometheus_client
except ImportError:  # the optional extra is not installed
    prometheus_client = None


class _Nothing:
    """A metric that counts nothing (the library is missing)."""

    def inc(self, amount: float = 1) -> None: ...

    def dec(self, amount: float = 1) -> None: ...

    def observe(self, amount: float) -> None: ...

    def set_function(self, function: Callable[[], float]) -> None: ...

    def labels(self, *values: str) -> _Nothing:
        return self


class Metrics:
    """The metrics of this process (one registry of its own, so that tests may make several)."""

    registry: Any
    tables: Any
    owned: Any
    mirrored: Any
    connections: Any
    actions: Any
    commit: Any
    broker_latency: Any
    forward_latency: Any
    published: Any
    takeovers: Any
    forwarded_actions: Any
    handoffs: Any

    def __init__(self) -> None:
        self.available = prometheus_client is not None
        if prometheus_client is None:
            nothing: Any = _Nothing()
            self.registry = None
            self.tables = self.connections = self.actions = self.commit = nothing
            self.broker_latency = self.forward_latency = self.published = self.takeovers = nothing
            self.forwarded_actions = self.handoffs = nothing
            self.owned = self.mirrored = nothing
            return
        p = prometheus_client
        self.registry = p.CollectorRegistry()
        short = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
        self.tables = p.Gauge("ohhell_tables", "Tables in this process", ["role"], registry=self.registry)
        self.owned = self.tables.labels("owned")
        self.mirrored = self.tables.labels("mirrored")
        self.connections = p.Gauge("ohhell_connections", "WebSocket connections to tables", registry=self.registry)
        self.actions = p.Counter("ohhell_actions", "Actions committed", registry=self.registry)
        self.commit = p.Histogram("ohhell_commit_seconds", "From an action's check to its commit", buckets=short,
                                  registry=self.registry)
        self.broker_latency = p.Histogram("ohhell_broker_latency_seconds", "From an event's publication to "
                                          "its arrival in this process", buckets=short, registry=self.registry)
        self.forward_latency = p.Histogram("ohhell_forward_seconds", "A request forwarded to a table's owner, "
                                           "there and back", buckets=short, registry=self.registry)
        self.published = p.Counter("ohhell_broker_published", "Events published to other processes",
                                   registry=self.registry)
        self.takeovers = p.Counter("ohhell_takeovers", "Tables taken over from an owner that was gone",
                                   registry=self.registry)
        self.forwarded_actions = p.Counter("ohhell_forwarded_actions", "Actions of this process's connections "
                                           "forwarded to the table's owner in another process", registry=self.registry)
        self.handoffs = p.Counter("ohhell_table_handoffs", "Tables this process handed over to the process the "
                                  "load balancer sends them to", registry=self.registry)

    def exposition(self) -> tuple[bytes, str]:
        """The metrics in Prometheus's text format, and its content type."""
        assert prometheus_client is not None and self.registry is not None
        return prometheus_client.generate_latest(self.registry), prometheus_client.CONTENT_TYPE_LATEST


METRICS = Metrics()
"""The metrics of this process."""
