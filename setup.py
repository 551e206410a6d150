"""Build step: compile the game state machine with mypyc (2-3x faster), keeping the pure
Python module as the source of truth.

``ohhell/game.py`` is copied to ``ohhell/_game_native.py`` with the SHA-256 of its source
appended, compiled, and the copy removed. At import, ``ohhell.game`` uses the compiled classes
only when that digest matches its own source, so an edited ``game.py`` never runs stale
compiled code. ``OHHELL_PURE_PYTHON=1`` skips the compilation (and, at run time, its use).
"""

from __future__ import annotations

import hashlib
import os
import platform
from pathlib import Path
from typing import Any

from setuptools import Extension, setup


def native_extensions() -> list[Any]:
    if os.environ.get("OHHELL_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    source = Path("ohhell/game.py")
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    copy = Path("ohhell/_game_native.py")
    copy.write_text(source.read_text(encoding="utf-8") + f'\nSOURCE_SHA256: Final = "{digest}"\n',
                    encoding="utf-8")
    try:
        return list(mypycify([str(copy)], opt_level="3", debug_level="0"))
    finally:
        copy.unlink()


def fastsim_extension() -> Extension:
    """The bots' fast simulation core (C, optional: without a compiler the bots fall back to
    the reference engine)."""
    return Extension("ohhell.fastsim._core", sources=["ohhell/fastsim/_core.c"],
                     extra_compile_args=["-O3"], optional=True)


def batch_extension() -> Extension:
    """Many games stepped at once on NumPy arrays, for learning (C, optional: without a
    compiler ohhell.integrations.batched is unavailable, the other interfaces work)."""
    return Extension("ohhell.fastsim._batch", sources=["ohhell/fastsim/_batch.c"],
                     extra_compile_args=["-O3"], optional=True)


def solver_extension() -> Extension:
    """The analysis' exact open-hand solver (C, optional: without a compiler the analysis
    uses its pure-Python solver, which gives the same answers, slower). On x86-64 it counts
    bits with the popcnt instruction (every x86-64 processor since 2008; the module refuses
    to load without it)."""
    flags = ["-O3"]
    if platform.machine().lower() in ("x86_64", "amd64"):
        flags.append("-mpopcnt")
    return Extension("ohhell.analysis._solver", sources=["ohhell/analysis/_solver.c"],
                     extra_compile_args=flags, optional=True)


setup(ext_modules=[*native_extensions(), fastsim_extension(), batch_extension(), solver_extension()])
