"""The learning integrations need their optional packages (``pip install -e .[rl]``; the
``test`` extra brings them). Without them these tests are skipped — except under CI=true,
where a missing package must fail the run."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def require(module: str) -> ModuleType:
    """Import ``module``, or skip the calling test module when it is missing (fail in CI)."""
    if os.environ.get("CI") == "true":
        return importlib.import_module(module)
    return pytest.importorskip(module, reason=f"{module} is not installed (pip install -e .[rl])")
