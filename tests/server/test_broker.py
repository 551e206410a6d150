"""The link to Redis (ohhell.server.cluster.broker), against a real redis-server on loopback."""

from __future__ import annotations

import asyncio
import subprocess
import tempfile
from typing import Any

from conftest import need
from ohhell.server.cluster.broker import Broker
from ohhell.server.cluster.local import free_port, redis_binary, wait_for_port


def test_a_watch_that_failed_is_tried_again_and_then_heard() -> None:
    """A SUBSCRIBE that fails (Redis restarting) must not leave the table counted as watched:
    redis-py would never subscribe it again, and the copy of that table would never hear its
    owner (a table of the nemesis stalled so, under load)."""
    binary = redis_binary()
    need(binary is not None, "redis-server (apt-get install redis-server)")
    assert binary is not None
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        redis = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                  "--appendonly", "no"], cwd=folder, stdout=subprocess.DEVNULL)
        try:
            wait_for_port(port)
            asyncio.run(_watch_after_a_failure(f"redis://127.0.0.1:{port}/0"))
        finally:
            redis.kill()
            redis.wait()


async def _watch_after_a_failure(url: str) -> None:
    listener, owner = Broker(url), Broker(url)
    heard: list[tuple[str, dict[str, Any]]] = []
    listener.on_event = lambda code, event: heard.append((code, event))
    await listener.start()
    await owner.start()
    try:
        subscribe = listener._pubsub.subscribe
        failures = [ConnectionError("Redis is restarting")]

        async def flaky(*channels: Any) -> Any:
            if failures:
                raise failures.pop()
            return await subscribe(*channels)

        listener._pubsub.subscribe = flaky
        try:
            await listener.watch("ABCDEF")
        except ConnectionError:
            pass
        else:
            raise AssertionError("the failed SUBSCRIBE was not reported")
        await listener.watch("ABCDEF")  # the next copy of the table watches it again
        for _attempt in range(50):
            await owner.publish("ABCDEF", {"t": "beat", "to": 7})
            await asyncio.sleep(0.05)
            if heard:
                break
        assert heard and heard[0][0] == "ABCDEF"
    finally:
        await listener.close()
        await owner.close()
