"""Post-game analysis on the server: computed once per finished game, in a worker process, and
kept in the database.

The analysis (:func:`ohhell.analysis.analyze_record`) takes seconds to a minute of CPU, most
of it Python: run in the server's own process it would hold the interpreter and slow every
table's messages. So it runs in a pool of worker processes (one by default), started on first
use; the first request for a game starts it and answers "running", later ones wait for it or
find it in the database. It reads only the finished game's record — what anyone may download
— so it shows nothing the record does not.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final

from ohhell.analysis import DEFAULT_BUDGET
from ohhell.server.storage.store import Store

log = logging.getLogger("ohhell.server.community.analyses")

ANALYSIS_BUDGET: Final = DEFAULT_BUDGET
"""The analysis' budget: the default of ``ohhell analyze``, so that the history page shows the
same analysis as the command and the terminal's end screen (a 19-hand game in well under a
minute on two cores)."""


def _analyze(record: dict[str, Any], budget: int) -> dict[str, Any]:
    """In a worker process: the analysis of one record."""
    from ohhell.analysis import analyze_record

    result: dict[str, Any] = analyze_record(record, budget=budget)
    return result


class Analyses:
    """The analyses of finished games: stored, computing, or to start."""

    def __init__(self, store: Store, workers: int = 1, budget: int = ANALYSIS_BUDGET) -> None:
        self.store = store
        self.workers = workers
        self.budget = budget
        self._pool: ProcessPoolExecutor | None = None
        self._running: dict[str, asyncio.Future[dict[str, Any]]] = {}

    async def get(self, code: str, record: dict[str, Any], wait: float = 0.0) -> dict[str, Any] | None:
        """The analysis of the finished game ``code`` (whose record is ``record``): from the
        database, or computed now — waiting up to ``wait`` seconds for it; ``None`` while it
        is still being computed."""
        stored = await asyncio.to_thread(self.store.load_analysis, code)
        if stored is not None:
            return stored
        running = self._running.get(code)
        if running is None:
            running = asyncio.ensure_future(self._compute(code, record))
            self._running[code] = running
            running.add_done_callback(lambda _done: self._running.pop(code, None))
        try:
            return await asyncio.wait_for(asyncio.shield(running), wait) if wait > 0 else (
                running.result() if running.done() else None)
        except TimeoutError:
            return None

    async def _compute(self, code: str, record: dict[str, Any]) -> dict[str, Any]:
        if self._pool is None:  # forkserver: the server has threads, which a fork would copy half-way
            self._pool = ProcessPoolExecutor(max_workers=self.workers,
                                             mp_context=multiprocessing.get_context("forkserver"))
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(self._pool, _analyze, record, self.budget)
        await self.store.save_analysis(code, result)
        log.info("table %s: analysed in %.1f s", code, result.get("seconds", 0.0))
        return result

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
