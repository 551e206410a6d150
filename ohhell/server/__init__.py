"""The web app: play Oh Hell in the browser with friends and bots (``ohhell serve``).

The pieces, each in its own module:

* :mod:`ohhell.server.config` — the knobs of a server (timings, limits), one frozen value.
* :mod:`ohhell.server.storage.store` — the database (SQLite by default, PostgreSQL through the same
  code): tables, seats, the action log and scoresheets. One writer thread commits every
  accepted action (group commit) *before* anything about it is broadcast.
* :mod:`ohhell.server.wire.protocol` — the JSON messages of the WebSocket protocol
  (``docs/protocol.md``): parsing what clients send, building what they receive. Every
  outgoing message about a game is built from a :func:`~ohhell.views.seat_view` or
  :func:`~ohhell.views.spectator_view` (after every action, from
  :func:`~ohhell.views.seat_views`), and carries only what changed for its connection.
* :mod:`ohhell.server.ws.outbox` — writing each connection's messages in order, at once while
  its socket takes them.
* :mod:`ohhell.server.live.tables` — live tables: the engine state, the seats and their
  connections, bots, turn timers, and the stand-in bot of an absent player.
* :mod:`ohhell.server.web.sheets` — the scorekeeper page's sheets (the one
  :class:`~ohhell.scorekeeper.ScoreSheet` implementation, stored in the database).
* :mod:`ohhell.server.texts` — every text of the web client, served per language from the
  gettext catalogs.
* :mod:`ohhell.server.web` — the HTTP side: :mod:`~ohhell.server.web.site` (what the app holds while
  it runs), :mod:`~ohhell.server.web.http` (what every route shares: the site, the request's
  language, its JSON body), :mod:`~ohhell.server.web.forms` (names, rules, timers), and
  ``web/routes/{pages,tables,sheets,ops,accounts,events}.py``, each with its ``ROUTES``.
* :mod:`ohhell.server.app` — the composition root: builds the site and serves every routes
  module's ``ROUTES`` and the WebSocket.
* :mod:`ohhell.server.cli` — the ``ohhell serve`` command.
"""
