"""The service worker's Web Push side in a real headless Chromium (``static/sw.js``): a push
message is shown as a system notification that names the table and links to it. Debian's
Chromium has no push service to subscribe to here, so the message is delivered to the worker
through the DevTools protocol (``ServiceWorker.deliverPushMessage``: a real, trusted ``push``
event, as a push service would cause); the page's own subscribing (``static/js/push.js``) fails
quietly without one — the table page must not break."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import ServerProcess, record_page_errors, spawn_server, stop_process
from ohhell.server.cluster.local import free_port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("browser-push")
    process = spawn_server(f"sqlite:///{folder / 'ohhell.db'}", free_port(), folder / "server.log")
    yield process
    stop_process(process)


def poll(page: Any, script: str, timeout: float = 10.0) -> Any:
    """The first non-null value of the async ``script`` in the page, asked every 100 ms."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = page.evaluate(script)
        if value is not None:
            return value
        page.wait_for_timeout(100)
    return None


def test_the_service_worker_shows_a_push_as_a_notification(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    context = browser.new_context()
    context.grant_permissions(["notifications"], origin=server.url)
    page = context.new_page()
    record_page_errors(page, errors)
    cdp = context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    page.goto(server.url + "/")
    page.wait_for_function("async () => !!(await navigator.serviceWorker.ready).active", timeout=20_000)
    page.wait_for_timeout(300)  # the registration's event
    scope = server.url + "/"
    found = [item for item in registrations if item["scopeURL"] == scope and not item.get("isDeleted")]
    assert found, registrations
    message = {"title": "Oh Hell", "body": "Your turn at table ABC234", "url": "/t/ABC234", "tag": "ohhell-turn-ABC234"}
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": server.url, "registrationId": found[0]["registrationId"],
                                                   "data": json.dumps(message)})
    shown = poll(page, """async () => {
        const list = await (await navigator.serviceWorker.ready).getNotifications();
        const shown = (n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url });
        return list.length ? list.map(shown) : null;
    }""")
    assert shown == [{"title": "Oh Hell", "body": "Your turn at table ABC234", "tag": "ohhell-turn-ABC234",
                      "url": "/t/ABC234"}]
    # Only a path of the site is followed: a message naming another site opens the lobby.
    cdp.send("ServiceWorker.deliverPushMessage", {"origin": server.url, "registrationId": found[0]["registrationId"],
                                                   "data": json.dumps({**message, "url": "https://evil.example/",
                                                                       "tag": "other"})})
    urls = poll(page, """async () => {
        const list = await (await navigator.serviceWorker.ready).getNotifications({ tag: "other" });
        return list.length ? list.map((n) => n.data.url) : null;
    }""")
    assert urls == ["/"]
    # The page's own subscribing, with no push service in this browser: it fails quietly.
    subscribed = page.evaluate("""async () => {
        localStorage.setItem('ohhell.prefs', JSON.stringify({ notify: true }));
        const { subscribePush } = await import('/static/js/push.js');
        return subscribePush({});
    }""")
    assert subscribed in (True, False)
    assert errors == [], errors
    context.close()
