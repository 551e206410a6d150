"""The game master: live tables, their seats, bots and timers — no HTTP, no sockets, no Redis."""
