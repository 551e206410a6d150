"""The addresses a served site can be opened at: what ``ohhell serve`` prints on starting.

On this machine the site is ``http://localhost:PORT/``; listening on every interface
(``--host 0.0.0.0``), friends on the same network use this machine's own addresses, which are
found here without asking any other machine (the interfaces' IPv4 addresses on Linux, else the
addresses the host name resolves to and the one a route to the outside would leave from).

>>> site_addresses("127.0.0.1", 8000)
['http://localhost:8000/']
>>> site_addresses("cards.example.org", 80)
['http://cards.example.org:80/']
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import struct
import sys

EVERY_INTERFACE = ("0.0.0.0", "::", "")
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
_SIOCGIFADDR = 0x8915  # Linux's ioctl for an interface's IPv4 address


def site_addresses(host: str, port: int, machine: list[str] | None = None) -> list[str]:
    """The pages to open: localhost first, then (listening everywhere) every address of the
    machine others can reach (``machine``: those addresses, found here when not given)."""
    if host in LOOPBACK_NAMES:
        return [f"http://localhost:{port}/"]
    if host not in EVERY_INTERFACE:
        shown = f"[{host}]" if ":" in host else host
        return [f"http://{shown}:{port}/"]
    found = machine_addresses() if machine is None else machine
    return [f"http://localhost:{port}/"] + [f"http://{address}:{port}/" for address in found]


def machine_addresses() -> list[str]:
    """This machine's IPv4 addresses other machines may reach (no loopback), in a stable order."""
    found = set(_interface_addresses()) if sys.platform.startswith("linux") else set()
    if not found:
        found = set(_resolved_addresses())
    reachable = [ipaddress.ip_address(a) for a in found]
    return [str(a) for a in sorted(reachable, key=lambda a: a.packed) if not a.is_loopback and not a.is_link_local]


def _interface_addresses() -> list[str]:
    import fcntl

    addresses = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _index, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                answer = fcntl.ioctl(probe.fileno(), _SIOCGIFADDR, request)
            except OSError:  # an interface without an IPv4 address (or down)
                continue
            addresses.append(socket.inet_ntoa(answer[20:24]))
    return addresses


def _resolved_addresses() -> list[str]:
    addresses: list[str] = []
    with contextlib.suppress(OSError):
        addresses += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    # The address a packet to the outside would leave from (a UDP "connection" sends nothing).
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))
        addresses.append(str(probe.getsockname()[0]))
    return addresses
