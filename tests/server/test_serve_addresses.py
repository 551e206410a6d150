"""What ``ohhell serve`` prints on starting: the address to open and, listening on every
interface (``--host 0.0.0.0``), this machine's addresses that friends on the network can use."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from click.testing import CliRunner

from ohhell.server import addresses
from ohhell.server import app as app_module
from ohhell.server.cli import serve


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """``serve`` up to uvicorn, which only records how it was asked to run."""
    runs: list[dict[str, Any]] = []
    monkeypatch.setattr(app_module, "create_app", lambda config: object())
    monkeypatch.setattr("uvicorn.run", lambda app, **options: runs.append(options))
    return runs


def test_by_default_it_prints_the_local_page_to_open(started: list[dict[str, Any]]) -> None:
    result = CliRunner().invoke(serve, ["--port", "8123", "--database", "sqlite:///:memory:"])
    assert result.exit_code == 0, result.output
    assert "Open http://localhost:8123/ in your browser." in result.output
    assert "Friends" not in result.output
    assert started[0]["host"] == "127.0.0.1"


def test_on_every_interface_it_prints_the_machines_addresses(started: list[dict[str, Any]]) -> None:
    found = addresses.machine_addresses()
    assert found, "this machine has a network address"
    assert all(not a.startswith("127.") for a in found)
    result = CliRunner().invoke(serve, ["--host", "0.0.0.0", "--port", "8124", "--database", "sqlite:///:memory:"])
    assert result.exit_code == 0, result.output
    assert "Open http://localhost:8124/ in your browser." in result.output
    friends = next(line for line in result.output.splitlines() if line.startswith("Friends on your network"))
    for address in found:
        assert f"http://{address}:8124/" in friends


def test_the_addresses_printed_are_the_machines_own() -> None:
    """Each address is one this machine can listen on (a socket binds to it)."""
    for address in addresses.machine_addresses():
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.bind((address, 0))


def test_a_machine_without_a_network_says_so(started: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(addresses, "machine_addresses", lambda: [])
    result = CliRunner().invoke(serve, ["--host", "0.0.0.0", "--database", "sqlite:///:memory:"])
    assert "No network address found" in result.output
    assert addresses.site_addresses("0.0.0.0", 80, machine=["192.168.1.5"]) == \
        ["http://localhost:80/", "http://192.168.1.5:80/"]
    assert addresses.site_addresses("::1", 80) == ["http://localhost:80/"]
    assert addresses.site_addresses("fe80::1", 80) == ["http://[fe80::1]:80/"]
