"""Post-game analysis and exact tables (``ohhell analyze``; ``docs/analysis.md``).

* :func:`analyze_record` — a game record in, one JSON-able result out: for every hand the
  open-hand facts (with every card face up, which bids each player could make for certain,
  only with help, or not at all; :mod:`ohhell.analysis.open_hands`, on the exact solver
  :mod:`ohhell.analysis.solver`) and the review of every decision by the strong bot from the
  player's own view (:mod:`ohhell.analysis.review`, graded by :mod:`ohhell.analysis.grading`).
  :func:`format_analysis` shows it as text.
* :func:`solve_one_card` — the exact one-card tables (:mod:`ohhell.bots.exact_one_card`).

The server calls :func:`analyze_record` in a worker thread (it releases the interpreter while
the C solver searches, and takes seconds to a minute); it never needs the state, only the
record, so it shows no more than the finished game's record does.
"""

from ohhell.analysis.game_analysis import DEFAULT_BUDGET, analyze_record
from ohhell.analysis.text import format_analysis
from ohhell.bots.exact_one_card import solve_one_card

__all__ = ["DEFAULT_BUDGET", "analyze_record", "format_analysis", "solve_one_card"]
