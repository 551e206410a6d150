"""The terminal apps: ``ohhell play`` (you against bots) and ``ohhell score`` (the scorekeeper
for games played with real cards), built on Textual.

The modules that do not draw anything can be used and tested on their own:

* :mod:`ohhell.tui.render` — how a card, a suit or a trump looks (the one place to change
  rank letters for a language);
* :mod:`ohhell.tui.chart` — a line chart of running totals drawn with Braille dots;
* :mod:`ohhell.tui.claim` — the proof that the remaining tricks belong to a player;
* :mod:`ohhell.tui.session` — a game against bots without the screen: whose turn, the bots'
  decisions, take-back, claims, hints, saving and resuming.

The apps themselves are :mod:`ohhell.tui.play_app` and :mod:`ohhell.tui.score_app`; the
commands are in :mod:`ohhell.tui.cli`.
"""
