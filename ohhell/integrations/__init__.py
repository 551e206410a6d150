"""Standard interfaces for researchers and bot builders.

Each interface lives in its own module and imports its framework only when it is imported
itself, so ``import ohhell`` never needs them (install them with ``pip install ohhell[rl]``):

* :mod:`ohhell.integrations.pettingzoo` — a PettingZoo AEC environment
  (``from ohhell.integrations.pettingzoo import env``);
* :mod:`ohhell.integrations.gymnasium` — a Gymnasium single-agent environment: one seat
  against ohhell's bots;
* :mod:`ohhell.integrations.openspiel` — registers ``python_ohhell`` with ``pyspiel``;
* :mod:`ohhell.integrations.batched` — many hands stepped at once on numpy arrays.

What they share — the game set-up (a whole game or a single hand, the dealer, the hand cap),
the fixed numbering of actions and the observation tensor built from a seat's view — is in
:mod:`ohhell.integrations.core` and :mod:`ohhell.integrations.encoding` (numpy only).
The layouts are documented in ``docs/integrations.md``.
"""
