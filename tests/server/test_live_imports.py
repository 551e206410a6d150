"""The game master stands alone: ``ohhell.server.live`` imports nothing of the transports, the
cluster, the HTTP side or the community (not even for type checking); they implement the
interfaces it defines (``live.subscriber``, ``live.peers``, ``live.room.Site``)."""

from __future__ import annotations

import ast
from pathlib import Path

import ohhell.server.live

ABOVE = ("ohhell.server.ws", "ohhell.server.cluster", "ohhell.server.web", "ohhell.server.app",
         "ohhell.server.community", "ohhell.server.cli")


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_live_imports_nothing_above_it() -> None:
    folder = Path(ohhell.server.live.__file__).parent
    found = {f"{path.name}: {name}" for path in folder.glob("*.py") for name in imported(path)
             if name.startswith(ABOVE)}
    assert not found, sorted(found)
