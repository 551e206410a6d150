"""The browser client's modules that need no browser, tested under Node's own test runner
(tests/js/*.test.mjs: the table page's controller replayed from a recorded game). Skipped when
Node 20 or newer is not installed."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from conftest import ROOT

NODE = shutil.which("node")


def node_major() -> int:
    if NODE is None:
        return 0
    version = subprocess.run([NODE, "--version"], capture_output=True, text=True, check=False).stdout.strip()
    try:
        return int(version.lstrip("v").split(".")[0])
    except ValueError:
        return 0


@pytest.mark.skipif(node_major() < 20, reason="needs Node 20+ (node --test)")
def test_client_modules_under_node() -> None:
    files = sorted(str(path) for path in (ROOT / "tests" / "js").glob("*.test.mjs"))
    assert files
    result = subprocess.run([str(NODE), "--test", *files], capture_output=True, text=True, cwd=ROOT, timeout=120,
                            check=False)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
