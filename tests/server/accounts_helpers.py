"""Helpers of the accounts tests: an app with cheap password hashing, a browser-like client."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from starlette.testclient import TestClient

from ohhell.server.app import create_app
from ohhell.server.community.accounts import AccountsConfig
from ohhell.server.config import ServerConfig
from ohhell.server.web.csrf import CSRF_HEADER

CHEAP = AccountsConfig(hash_time_cost=1, hash_memory_kib=1024, hash_parallelism=1)
"""Argon2 parameters for tests (the defaults take about a tenth of a second per hash)."""


@contextmanager
def app_client(database: str, base_url: str = "http://testserver", config: AccountsConfig = CHEAP,
               **server: Any) -> Iterator[TestClient]:
    """A TestClient of a whole app (lifespan run), its accounts on ``config``."""
    app = create_app(ServerConfig.fast(database=database, **server))
    app.state.accounts_config = config
    with TestClient(app, base_url=base_url) as client:
        yield client


class Browser:
    """A page of the site in one browser: its cookies, and the CSRF token the page holds.
    ``site``: a running app's TestClient, or the URL of a live server."""

    def __init__(self, site: TestClient | str) -> None:
        self.client: Any = TestClient(site.app, base_url=str(site.base_url)) if isinstance(site, TestClient) \
            else httpx.Client(base_url=site, timeout=20)
        """A cookie jar of its own (for an app: the running one, its lifespan the given client's)."""
        self.csrf: str | None = None
        self.origin = str(self.client.base_url).rstrip("/")

    def headers(self) -> dict[str, str]:
        return {"Origin": self.origin, CSRF_HEADER: self.csrf or "1"}

    def post(self, path: str, body: dict[str, Any] | None = None, **headers: str) -> Any:
        response = self.client.post(path, json=body or {}, headers={**self.headers(), **headers})
        if response.status_code == 200 and "csrf" in response.json():
            self.csrf = response.json()["csrf"]
        return response

    def get(self, path: str) -> Any:
        return self.client.get(path)

    def signup(self, name: str, password: str = "correct horse", **extra: Any) -> Any:
        response = self.post("/api/account/signup", {"name": name, "password": password, **extra})
        assert response.status_code == 200, response.text
        return response

    def login(self, name: str, password: str = "correct horse", **extra: Any) -> Any:
        return self.post("/api/account/login", {"name": name, "password": password, **extra})
