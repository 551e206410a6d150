"""What crosses the WebSocket: client messages parsed and checked, server messages built."""
