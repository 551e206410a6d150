"""Test set-up shared by the tests and the doctests: English messages, helpers importable.

The doctests of the machine-learning integrations need the ``rl`` extra; without it (a plain
``pip install -e .``) they are not collected.
"""

import importlib.util
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "tests"))
os.environ["OHHELL_LANG"] = "en"

from ohhell.i18n import set_language  # noqa: E402

set_language("en")

collect_ignore: list[str] = []
if not all(importlib.util.find_spec(name) for name in ("numpy", "pettingzoo", "gymnasium", "pyspiel")):
    collect_ignore.append("ohhell/integrations")
if not all(importlib.util.find_spec(name) for name in ("torch", "sb3_contrib")) and os.environ.get("CI") != "true":
    collect_ignore.append("ohhell/integrations/sb3.py")  # the SB3 adapter's doctest trains: the examples extra
if not importlib.util.find_spec("numpy"):
    collect_ignore.append("ohhell/integrations/learned.py")  # the learned bot's forward pass is NumPy (the rl extra)


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """Every test saves into its own directory (``OHHELL_DATA``), never the user's."""
    folder = tmp_path / "data"
    monkeypatch.setenv("OHHELL_DATA", str(folder))
    return folder


@pytest.fixture(autouse=True)
def english_afterwards():  # type: ignore[no-untyped-def]
    """A test that switches the language (``--lang`` on a command line it runs) leaves English
    behind for the tests that follow."""
    yield
    set_language("en")
