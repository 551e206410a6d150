"""The WebSocket transport: a connection per open page, its outbox, the endpoint's checks."""
