"""Shared set-up of the terminal app tests: a private data directory for every test."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    """Every test saves into its own directory (``OHHELL_DATA``), never the user's."""
    folder = tmp_path / "data"
    monkeypatch.setenv("OHHELL_DATA", str(folder))
    return folder
