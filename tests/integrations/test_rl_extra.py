"""The ``[rl]`` extra — what docs/integrations.md tells a researcher to install — stays light."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
LIGHT = {"numpy", "pettingzoo", "gymnasium", "open-spiel"}
"""What the learning interfaces import: no browser, no deep-learning framework, no test tools."""


def extra(name: str) -> set[str]:
    requirements = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["optional-dependencies"][name]
    return {re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].lower() for requirement in requirements}


def test_the_rl_extra_holds_only_what_the_interfaces_import() -> None:
    assert extra("rl") <= LIGHT
    assert {"numpy", "gymnasium", "pettingzoo"} <= extra("rl")


def test_the_docs_name_the_rl_extra_as_the_one_to_install() -> None:
    docs = (PYPROJECT.parent / "docs" / "integrations.md").read_text(encoding="utf-8")
    assert 'pip install -e ".[rl]"' in docs and "`[rl]` is the one to install" in docs
