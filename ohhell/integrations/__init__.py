"""Standard interfaces for researchers and bot builders.

Each interface lives in its own module and imports its framework only when it is imported
itself, so ``import ohhell`` never needs them (install them with ``pip install ohhell[rl]``):

* :mod:`ohhell.integrations.pettingzoo` — a PettingZoo AEC environment
  (``from ohhell.integrations.pettingzoo import env``);
* :mod:`ohhell.integrations.gymnasium` — a Gymnasium single-agent environment: one seat
  against ohhell's bots;
* :mod:`ohhell.integrations.vector` — a vectorized Gymnasium environment (``gymnasium.vector``):
  many games at once, the bots inside the batch;
* :mod:`ohhell.integrations.openspiel` — registers ``python_ohhell`` with ``pyspiel``;
* :mod:`ohhell.integrations.openspiel_mini` — registers ``python_ohhell_mini``, a small exact
  variant for CFR and ``nash_conv``;
* :mod:`ohhell.integrations.batched` — many games stepped at once on NumPy arrays, the loop in C
  (:mod:`ohhell.integrations.engine_batch`: the same interface on the reference engine).

What they share — the game set-up (a whole game or a single hand, the dealer, the hand cap),
the fixed numbering of actions and the one observation tensor built from a seat's view (the C
batch core writes the same vector) — is in :mod:`ohhell.integrations.core` and
:mod:`ohhell.integrations.encoding` (numpy only).
The layouts are documented in ``docs/integrations.md``.
"""
