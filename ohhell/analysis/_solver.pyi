"""Type stubs of the C open-hand solver (see _solver.c and ohhell.analysis.solver)."""

from collections.abc import Sequence

def solve(players: int, hands: Sequence[int], trump: int, must_trump: bool, high_low: bool, leader: int,
          trick: Sequence[int], mine: int, remaining: int, seat: int, joker_high: int, first_joker: int,
          first_trick: bool, mode: int, want: int, limit: int) -> tuple[int, int]: ...
