"""The web app: play Oh Hell in the browser with friends and bots (``ohhell serve``).

The pieces, each in its own module:

* :mod:`ohhell.server.config` — the knobs of a server (timings, limits), one frozen value.
* :mod:`ohhell.server.storage.store` — the database (SQLite by default, PostgreSQL through the same
  code): tables, seats, the action log and scoresheets. One writer thread commits every
  accepted action (group commit) *before* anything about it is broadcast.
* :mod:`ohhell.server.wire` — the WebSocket protocol's messages (``docs/protocol.md``):
  ``protocol`` parses what clients send and names the errors; ``stream`` builds what each
  connection receives about a game, from its own :func:`~ohhell.views.seat_view` (or the
  spectator's), carrying only what changed for it.
* :mod:`ohhell.server.live` — the game master, no HTTP, no sockets, no Redis: ``owner`` (a
  table in its owner process: the engine state, bots, turn timers, stand-ins), ``room`` (what
  a process's connections see of a table; the ``Subscriber`` a connection implements),
  ``manager`` (every table of the process), ``seats``, ``chat``, ``codes``, ``deals``,
  ``commands`` (the one dispatcher of what people ask), ``peers`` (the other processes, as an
  interface; ``LocalPeers`` for one process).
* :mod:`ohhell.server.cluster` — ``live.peers`` over Redis: ``node`` (leases, fencing,
  failover), ``mirror`` (a copy of another process's table), ``messages`` (everything that
  crosses the broker, typed), ``broker``, ``local`` (a whole site on one machine).
* :mod:`ohhell.server.ws` — the WebSocket transport: ``endpoint`` (origin, hello, limits),
  ``connection`` (a ``live`` subscriber), ``outbox`` (each connection's messages in order).
* :mod:`ohhell.server.web.sheets` — the scorekeeper page's sheets (the one
  :class:`~ohhell.scorekeeper.ScoreSheet` implementation, stored in the database).
* :mod:`ohhell.server.texts` — every text of the web client, served per language from the
  gettext catalogs.
* :mod:`ohhell.server.app` — the Starlette application: pages, the HTTP API, the WebSocket.
* :mod:`ohhell.server.cli` — the ``ohhell serve`` command.
"""
