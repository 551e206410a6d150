"""The web app: play Oh Hell in the browser with friends and bots (``ohhell serve``).

Its sub-packages, top to bottom (each imports only those below it; ``docs/architecture.md``):

* :mod:`~ohhell.server.cli` — the ``ohhell serve`` command.
* :mod:`~ohhell.server.app` — the composition root: builds the Starlette site from every part below.
* :mod:`~ohhell.server.web` — the HTTP side: the site, ``http``, ``forms``, ``routes/*`` (each its ``ROUTES``).
* :mod:`~ohhell.server.ws` — the WebSocket transport: the endpoint (origin, hello, limits), connections, outboxes.
* :mod:`~ohhell.server.cluster` — many processes, one site: Redis broker, leases and fencing, mirrors.
* :mod:`~ohhell.server.community` — accounts, results, ratings, duplicate events, the daily deal, embargoes.
* :mod:`~ohhell.server.live` — the game master: tables, seats, bots, timers, deals, one dispatcher, ``Peers``.
* :mod:`~ohhell.server.wire` — the WebSocket protocol's messages: parsing, building, per-connection diffs.
* :mod:`~ohhell.server.storage` — the database: schema, migrations, the group-commit writer, the ``Store``.
* :mod:`~ohhell.server.config`, :mod:`~ohhell.server.metrics`, :mod:`~ohhell.server.texts` — a server's
  knobs, its Prometheus metrics, the client's texts per language (they import nothing of the server).
"""
