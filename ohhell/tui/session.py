"""A game of one person against bots, without the screen: what ``ohhell play`` runs.

A :class:`PlaySession` holds the engine's state, the bots and the table options, and
answers the questions of the app: must the person act now (bid, play, declare a joker)?
which bot acts next, with which view? It applies the person's actions (the engine
refuses illegal ones with its reason), takes back the person's last card when the table
allows it, proves claims (:mod:`ohhell.tui.claim`), asks a bot for a hint, and saves to
and resumes from a JSON file that holds the ``ohhell/1`` record beside the seeds and the
options.

Chance is reproducible hand by hand: the cut for the first deal and the deal of hand
``i`` come from ``random.Random(f"{seed}/cut")`` and ``random.Random(f"{seed}/{i}")``, so a
resumed game gets the same cards as the game would have had without the pause.

Bots see only their seat's view (:func:`ohhell.views.seat_view`); a bot's decision is
computed from a :class:`BotTask` (a snapshot) so that it can run in a thread while the
screen stays responsive, and it is applied only if nothing changed in between.

>>> from ohhell.rules import preset
>>> session = PlaySession.new(preset("classic", players=3, max_size=2), bots="random", seed=4)
>>> _ = session.advance_chance()
>>> while session.human_turn() is None:
...     task = session.next_bot_task()
...     _ = session.apply_bot(task, session.run_task(task))
>>> session.human_turn()
'bid'
>>> session.bid(0)
>>> session.state.bids[0]
0
"""

from __future__ import annotations

import json
import os
import random
import secrets
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final, Literal

from ohhell.actions import Action, Bid, ChooseTrump, Declare, Play, make_bid, make_play
from ohhell.bots import Bot, Budget, Suggestion, make_bot, strongest_bot
from ohhell.cards import HIDDEN_CARD, Card, parse_card
from ohhell.errors import OhHellError, RecordError
from ohhell.game import Game, Phase, State
from ohhell.i18n import N_, _
from ohhell.record import record_from_state, state_from_record
from ohhell.rules import Rules
from ohhell.tui import claim
from ohhell.tui.render import card_label, suit_label
from ohhell.views import SeatView, seat_view

SAVE_FORMAT: Final = "ohhell-play/1"
"""The ``format`` of a saved game: ``{"format", "record", "human", "bots", "seed", "bot_seed",
"options", "saved"}``; ``record`` is an ``ohhell/1`` record of the game so far."""

SPEEDS: Final = {"slow": 1.2, "normal": 0.6, "fast": 0.25, "instant": 0.0}
"""The bots' play speed: seconds between two bot actions."""

SPEED_LABELS: Final = {"slow": N_("slow"), "normal": N_("normal"), "fast": N_("fast"), "instant": N_("instant")}

BOT_NAMES: Final = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo")


class SessionError(OhHellError):
    """A saved game that cannot be read, or an option that cannot be used."""


def data_directory() -> Path:
    """The user's data directory for ohhell (``OHHELL_DATA`` overrides it)."""
    override = os.environ.get("OHHELL_DATA")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("ohhell"))


def saves_directory() -> Path:
    """Where ``ohhell play`` saves games."""
    return data_directory() / "games"


@dataclass
class TableOptions:
    """Options of the table: take-back of your last card (off by default) and the bots' speed."""

    take_back: bool = False
    delay: float = SPEEDS["normal"]
    """Seconds between two bot actions."""
    budget_seconds: float | None = None
    """How long a bot may think per decision (``None``: the bot's default)."""
    window: float = 1.5
    """Seconds the next bot waits after your bid, so that you can still change it."""

    def to_json(self) -> dict[str, Any]:
        return {"take_back": self.take_back, "delay": self.delay, "budget_seconds": self.budget_seconds,
                "window": self.window}

    @classmethod
    def from_json(cls, data: Any) -> TableOptions:
        if not isinstance(data, dict):
            return cls()
        budget = data.get("budget_seconds")
        return cls(take_back=bool(data.get("take_back", False)), delay=float(data.get("delay", SPEEDS["normal"])),
                   budget_seconds=float(budget) if isinstance(budget, (int, float)) else None,
                   window=float(data.get("window", 1.5)))

    @property
    def speed_name(self) -> str:
        """The name of the speed closest to the delay."""
        return min(SPEEDS, key=lambda name: abs(SPEEDS[name] - self.delay))


TaskKind = Literal["choose", "change", "claim"]


@dataclass(frozen=True)
class BotTask:
    """One decision to compute: a bot's action (``choose``), a bot's possible bid change
    (``change``), or the claimant's next card after an accepted claim (``claim``)."""

    seat: int
    kind: TaskKind
    view: SeatView
    generation: int
    state: State | None = field(default=None, compare=False)
    """For a claim only: a copy of the full state (the proof needs it)."""


class PlaySession:
    """A game against bots. See the module docstring."""

    def __init__(self, rules: Rules, *, bots: str, seed: int, bot_seed: int, human: int = 0,
                 names: Sequence[str] | None = None, options: TableOptions | None = None,
                 state: State | None = None, save_path: Path | None = None) -> None:
        if not 0 <= human < rules.players:
            raise SessionError(_("there is no seat %(seat)d") % {"seat": human})
        self.rules = rules
        self.human = human
        self.bot_level = bots
        self.seed = seed
        self.bot_seed = bot_seed
        self.options = options or TableOptions()
        self.names = tuple(names) if names else default_names(rules.players, human)
        if len(self.names) != rules.players:
            raise SessionError(_("%(n)d players need %(n)d names") % {"n": rules.players})
        self.state = state or Game(rules).new_initial_state()
        self.save_path = save_path
        budget = Budget(seconds=self.options.budget_seconds) if self.options.budget_seconds else None
        resumed = len(self.state.history)
        try:
            self.bots: dict[int, Bot] = {
                seat: make_bot(bots, seed=_mix(bot_seed, seat, resumed), budget=budget)
                for seat in range(rules.players) if seat != human
            }
            # The hint is the best advice on offer, whoever the opponents are.
            self._hint_bot = make_bot(strongest_bot(), seed=_mix(bot_seed, rules.players, resumed), budget=budget)
        except ValueError as error:
            raise SessionError(str(error)) from error
        self.generation = 0
        """Grows with every change of the state: a decision computed for an older generation is dropped."""
        self._asked: set[tuple[int, int]] = set()
        self._chance_rng: tuple[int, random.Random] | None = None
        self._told_game_over = False
        self.claim_hand: int | None = None
        """The hand in which the person's claim was accepted (its cards are then played out)."""

    # ------------------------------------------------------------------ creating

    @classmethod
    def new(cls, rules: Rules, *, bots: str | None = None, seed: int | None = None, bot_seed: int | None = None,
            human: int = 0, names: Sequence[str] | None = None, options: TableOptions | None = None,
            save_path: Path | None = None) -> PlaySession:
        """A new game; missing seeds are drawn at random (and saved with the game)."""
        seed = seed if seed is not None else secrets.randbelow(2**31)
        bot_seed = bot_seed if bot_seed is not None else _mix(seed, 1000, 0)
        return cls(rules, bots=bots or strongest_bot(), seed=seed, bot_seed=bot_seed, human=human, names=names,
                   options=options, save_path=save_path)

    @classmethod
    def from_save(cls, data: Any, save_path: Path | None = None,
                  options: TableOptions | None = None) -> PlaySession:
        """A game from the JSON object of a save file (``options`` override the saved ones).
        A file that cannot be resumed is a :class:`SessionError` that says so in words for the
        player (never a bare ``KeyError``)."""
        where = str(save_path) if save_path is not None else _("this file")
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SessionError(_("%(path)s is not a game saved by ohhell play, so it cannot be resumed.")
                               % {"path": where})
        damaged = _("The saved game %(path)s is damaged and cannot be resumed: %(reason)s "
                    "Start a new game with: ohhell play")
        record = data.get("record")
        if not isinstance(record, dict):
            raise SessionError(damaged % {"path": where, "reason": _("the game itself is missing from it.")})
        try:
            state = state_from_record(record)
        except RecordError as error:
            reason = (_("the game in it breaks the rules.") if error.hand is None
                      else _("the game in it breaks the rules in hand %(hand)d.") % {"hand": error.hand + 1})
            raise SessionError(damaged % {"path": where, "reason": reason}) from error
        try:
            seed = int(data["seed"])
            bot_seed = int(data["bot_seed"])
            human = int(data.get("human", 0))
            level = str(data.get("bots", "random"))
        except (KeyError, TypeError, ValueError) as error:
            reason = _("the numbers that deal the next hands are missing from it.")
            raise SessionError(damaged % {"path": where, "reason": reason}) from error
        names = record.get("names")
        return cls(state.rules, bots=level, seed=seed, bot_seed=bot_seed, human=human, names=names,
                   options=options or TableOptions.from_json(data.get("options")), state=state,
                   save_path=save_path)

    @classmethod
    def load(cls, path: Path, options: TableOptions | None = None) -> PlaySession:
        """A game from a save file."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError as error:
            raise SessionError(_("There is no saved game at %(path)s.") % {"path": path}) from error
        except IsADirectoryError as error:
            raise SessionError(_("%(path)s is a folder, not a saved game.") % {"path": path}) from error
        except PermissionError as error:
            raise SessionError(_("You may not read %(path)s.") % {"path": path}) from error
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise SessionError(_("%(path)s is not a game saved by ohhell play, so it cannot be resumed.")
                               % {"path": path}) from error
        return cls.from_save(data, save_path=Path(path), options=options)

    # ------------------------------------------------------------------ saving

    def to_save(self) -> dict[str, Any]:
        """The JSON object of a save file."""
        return {
            "format": SAVE_FORMAT,
            "saved": time.time(),
            "record": self.record(),
            "human": self.human,
            "bots": self.bot_level,
            "seed": self.seed,
            "bot_seed": self.bot_seed,
            "options": self.options.to_json(),
        }

    def save(self, path: Path | None = None) -> Path:
        """Write the game to ``path`` (by default its save file, or a new one in the saves
        directory), atomically; returns the path."""
        target = path or self.save_path or (saves_directory() / (time.strftime("%Y%m%d-%H%M%S-")
                                                                  + secrets.token_hex(2) + ".json"))
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(self.to_save(), stream, ensure_ascii=False, indent=1)
        os.replace(temporary, target)
        self.save_path = target
        return target

    def record(self, derived: bool = False) -> dict[str, Any]:
        """The ``ohhell/1`` record of the game so far."""
        if self.state.first_dealer is None:
            # A record starts with the first dealer: cut for it now (chance is seeded, so this
            # is the cut the game would have had anyway).
            self.advance_chance()
        return record_from_state(self.state, self.names, derived=derived)

    # ------------------------------------------------------------------ chance

    def advance_chance(self) -> list[Action]:
        """Let chance act (the cut for the first deal, the shuffle, the cut, the deal) until a
        player must act; returns the chance actions applied."""
        applied: list[Action] = []
        state = self.state
        while state.is_chance_node():
            if state.phase == Phase.CUT_FOR_DEAL:
                key = -1
            else:
                key = state.hand_index
            if self._chance_rng is None or self._chance_rng[0] != key:
                label = "cut" if key < 0 else str(key)
                self._chance_rng = (key, random.Random(f"{self.seed}/{label}"))
            action = state.sample_chance(self._chance_rng[1])
            state.apply(action)
            applied.append(action)
        if applied:
            self._changed()
        return applied

    # ------------------------------------------------------------------ whose turn

    def view(self) -> SeatView:
        """What the person may know now."""
        return seat_view(self.state, self.human, self.names)

    def human_turn(self) -> Literal["bid", "play", "declare", "trump"] | None:
        """What the person must do now, if anything (a claim being played out needs nothing)."""
        state = self.state
        phase = state.phase
        if phase == Phase.BIDDING:
            if state.rules.bidding == "simultaneous":
                return "bid" if state.bids[self.human] is None and self.human in state.bid_order else None
            return "bid" if state.turn == self.human else None
        if state.turn != self.human or self.claiming:
            return None
        if phase == Phase.PLAYING:
            return "play"
        if phase == Phase.DECLARING:
            return "declare"
        if phase == Phase.CHOOSING_TRUMP:
            return "trump"
        return None

    def human_may_change_bid(self) -> bool:
        """Whether the person may still change their bid (the bid-change window)."""
        return self.state.bid_changer() == self.human and not self.state.is_terminal()

    @property
    def claiming(self) -> bool:
        """Whether an accepted claim is being played out."""
        return self.claim_hand is not None and self.claim_hand == self.state.hand_index and \
            self.state.phase in (Phase.PLAYING, Phase.DECLARING)

    def next_bot_task(self) -> BotTask | None:
        """The next decision a bot (or an accepted claim) must make, if any."""
        state = self.state
        if state.is_terminal() or state.is_chance_node():
            return None
        changer = state.bid_changer()
        if changer is not None and changer != self.human and changer != state.turn:
            key = (len(state.history), changer)
            if key not in self._asked:
                self._asked.add(key)
                return BotTask(changer, "change", seat_view(state, changer, self.names), self.generation)
        turn = state.turn
        if turn is None:
            waiting = [seat for seat in state.actors() if seat != self.human]
            if not waiting:
                return None
            turn = waiting[0]
        if turn == self.human:
            if self.claiming:
                return BotTask(turn, "claim", self.view(), self.generation, state.clone())
            return None
        return BotTask(turn, "choose", seat_view(state, turn, self.names), self.generation)

    def run_task(self, task: BotTask) -> Action | None:
        """Compute the decision of ``task`` (may take a while; safe to run in a thread)."""
        if task.kind == "change":
            return self.bots[task.seat].change_bid(task.view)
        if task.kind == "claim":
            assert task.state is not None
            return claim.winning_move(task.state, task.seat)
        return self.bots[task.seat].choose(task.view)

    def apply_bot(self, task: BotTask, action: Action | None) -> bool:
        """Apply a computed decision if the game has not changed since; whether it was applied."""
        if task.generation != self.generation:
            return False
        if action is None:
            if task.kind == "claim":  # cannot happen after a proof; stop playing for the person
                self.claim_hand = None
            return False
        self.state.apply(action)
        self._changed()
        return True

    # ------------------------------------------------------------------ the person's actions

    def bid(self, bid: int) -> None:
        """Bid (or change the bid to) ``bid``; the engine's refusal is raised as
        :class:`~ohhell.errors.IllegalActionError`."""
        self._apply(make_bid(self.human, bid))

    def play(self, card: Card) -> None:
        """Play ``card`` (:data:`~ohhell.cards.HIDDEN_CARD` in a blind hand)."""
        self._apply(make_play(self.human, card))

    def declare(self, high: bool) -> None:
        """Declare the first joker of the hand high or low."""
        self._apply(Declare(self.human, high))

    def choose_trump(self, suit: int) -> None:
        """Name the trump suit as the highest bidder (``trump: chosen``)."""
        self._apply(ChooseTrump(self.human, suit))

    def _apply(self, action: Action) -> None:
        self.state.apply(action)
        self._changed()

    def _changed(self) -> None:
        self.generation += 1

    # ------------------------------------------------------------------ options

    def can_take_back(self) -> bool:
        """Whether the table allows it and the person has played a card in this hand."""
        state = self.state
        return (self.options.take_back and state.phase in (Phase.PLAYING, Phase.DECLARING)
                and self.human in state.play_seats and not self.claiming)

    def take_back(self) -> int:
        """Take back the person's last card of this hand (and every card played after it);
        returns how many actions were taken back."""
        if not self.can_take_back():
            raise SessionError(_("there is no card of yours to take back") if self.options.take_back
                               else _("take-back is off at this table"))
        count = 0
        while self.state.history:
            action = self.state.undo()
            count += 1
            if isinstance(action, Play) and action.seat == self.human:
                break
        self._changed()
        return count

    def claim(self) -> bool:
        """Claim the remaining tricks: accepted (and then played out) only if the engine proves
        that they are the person's whatever the others play."""
        if self.state.phase not in (Phase.PLAYING, Phase.DECLARING):
            return False
        if not claim.can_claim(self.state, self.human):
            return False
        self.claim_hand = self.state.hand_index
        self._changed()
        return True

    def remaining_tricks(self) -> int:
        """The tricks still to be won in this hand (the trick in progress counts)."""
        state = self.state
        if state.phase not in (Phase.PLAYING, Phase.DECLARING):
            return 0
        return state.hand_size - len(state.trick_winners)

    def hint(self, view: SeatView | None = None) -> Suggestion:
        """A bot's advice for the person now, with its estimates (may take a while)."""
        view = view or self.view()
        if self.state.bid_changer() == self.human and self.human_turn() is None:
            # Inside the bid-change window it is not the person's turn (a bot's ``suggest`` would
            # find nothing to do): the question is whether to change the bid, which the bot's
            # ``change_bid`` answers; a suggestion of the bid already made means "keep it".
            own = self.state.bids[self.human]
            view = replace(view, legal_actions=tuple(a for a in view.legal_actions if isinstance(a, Bid)))
            change = self._hint_bot.change_bid(view)
            if change is not None:
                return Suggestion(change)
            return Suggestion(Bid(self.human, own if own is not None else 0))
        return self._hint_bot.suggest(view)

    def tell_game_over(self) -> None:
        """Tell every bot, once, that the game is over (with its seat's final view)."""
        if not self.state.is_terminal() or self._told_game_over:
            return
        self._told_game_over = True
        for seat, bot in self.bots.items():
            bot.game_over(seat_view(self.state, seat, self.names))

    def close(self) -> None:
        for bot in self.bots.values():
            bot.close()
        self._hint_bot.close()


def speed_label(name: str) -> str:
    """A speed's name in the current language."""
    return _(SPEED_LABELS.get(name, name))


def default_names(players: int, human: int = 0, you: str | None = None) -> tuple[str, ...]:
    """"You" (or the person's name) at the person's seat and a short name for each bot, never
    the person's own.

    >>> default_names(4, 0, "Ada")
    ('Ada', 'Ben', 'Cleo', 'Dev')
    """
    mine = you or _("You")
    names = []
    others = iter(name for name in BOT_NAMES if name.casefold() != mine.strip().casefold())
    for seat in range(players):
        names.append(mine if seat == human else next(others))
    return tuple(names)


def _mix(*numbers: int) -> int:
    """A seed made of several numbers (stable across runs, unlike ``hash``)."""
    value = 0
    for number in numbers:
        value = (value * 1_000_003 + number) % (2**61 - 1)
    return value


def describe_action(action: Action, names: Sequence[str], you: int | None = None) -> str:
    """An action in words for the game log: "Ben bids 2", "Ada plays K♥" ("You bid 2" for the
    seat ``you``)."""
    if getattr(action, "seat", None) == you and you is not None:
        if isinstance(action, Bid):
            return _("You bid %(bid)d") % {"bid": action.bid}
        if isinstance(action, Play):
            if action.card == HIDDEN_CARD:
                return _("You play the card on your forehead")
            return _("You play %(card)s") % {"card": card_label(action.card)}
        if isinstance(action, Declare):
            return _("You declare the joker high") if action.high else _("You declare the joker low")
        if isinstance(action, ChooseTrump):
            return _("You choose %(suit)s as trump") % {"suit": suit_label(action.suit)}
    if isinstance(action, Bid):
        return _("%(name)s bids %(bid)d") % {"name": names[action.seat], "bid": action.bid}
    if isinstance(action, Play):
        if action.card == HIDDEN_CARD:
            return _("%(name)s plays the card on their forehead") % {"name": names[action.seat]}
        return _("%(name)s plays %(card)s") % {"name": names[action.seat], "card": card_label(action.card)}
    if isinstance(action, Declare):
        if action.high:
            return _("%(name)s declares the joker high") % {"name": names[action.seat]}
        return _("%(name)s declares the joker low") % {"name": names[action.seat]}
    if isinstance(action, ChooseTrump):
        return _("%(name)s chooses %(suit)s as trump") % {"name": names[action.seat], "suit": suit_label(action.suit)}
    return str(action)


def estimate_label(label: str) -> str:
    """A bot's label of a candidate (``"play AS"``, ``"bid 2"``) in the terminal's words."""
    parts = label.split()
    if len(parts) == 2 and parts[0] == "play":
        try:
            return card_label(parse_card(parts[1]))
        except OhHellError:
            return label
    if len(parts) == 2 and parts[0] == "bid" and parts[1].isdigit():
        return _("bid %(bid)s") % {"bid": parts[1]}
    if len(parts) == 2 and parts[0] == "trump" and parts[1] in ("S", "H", "D", "C"):
        return suit_label("SHDC".index(parts[1]))
    return label


def latest_save(directory: Path | None = None) -> Path | None:
    """The most recently saved game that is not over, if any."""
    folder = directory or saves_directory()
    if not folder.exists():
        return None
    candidates = sorted(folder.glob("*.json"), key=lambda path: path.stat().st_mtime, reverse=True)
    for path in candidates:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") != SAVE_FORMAT:
                continue
            if state_from_record(data["record"]).is_terminal():
                continue
        except (OSError, ValueError, KeyError, TypeError):
            continue
        return path
    return None


__all__ = [
    "SAVE_FORMAT", "SPEEDS", "BotTask", "PlaySession", "SessionError", "TableOptions",
    "default_names", "describe_action", "estimate_label", "latest_save", "saves_directory", "strongest_bot",
]
