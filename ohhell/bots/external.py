"""Bots in any language: a program speaking line-delimited JSON on stdin/stdout.

``make_bot("cmd:./mybot --level 3")`` gives an :class:`ExternalBot`, which runs the program
and asks it for every decision of its seat. The protocol (``docs/bot-protocol.md``, version
:data:`PROTOCOL_VERSION`) in short — one JSON object per line, each way:

* ohhell → bot ``{"type": "hello", "protocol": 1, "seat": 2, "rules": {…}, "players": 4,
  "timeout": 10.0, "seed": 7}`` at the start of each game; the bot answers
  ``{"type": "ready", "name": "my bot"}`` (add ``"bid_changes": true`` to be asked about
  changing a bid in the bid-change window);
* ohhell → bot ``{"type": "act", "id": 17, "kind": "choose", "view": {…}, "options": […]}``
  when the seat must act (``kind`` ``"change_bid"``: it may change its bid, ``null`` keeps
  it); the bot answers ``{"type": "action", "id": 17, "action": {"type": "bid", "bid": 3}}``
  or ``{"type": "action", "id": 17, "option": 0}`` (an index into ``options``);
* ohhell → bot ``{"type": "result", …}`` when a host reports the end of a game, and
  ``{"type": "bye"}`` before closing its stdin.

Anything else the bot writes to stderr is kept (its first and last lines appear in reports:
an error message usually comes first, its stack trace after it) and never disturbs the game.
A message of a type the protocol does not know is ignored with a warning (a newer bot may
send more). When the program does not start, does not answer in time, exits, or answers
something that is not a legal action, the failure is logged and recorded in
:attr:`ExternalBot.incidents`, the program is stopped, and a built-in bot (``basic`` when
installed, else ``random``) plays the seat for the rest of the game; hosts learn of it through
:attr:`ExternalBot.on_fallback` (and :attr:`ExternalBot.failed`).

:func:`check_command` tells a host at start-up whether a command names a program that exists.

The other side: ``ohhell bot-stdio --bot basic`` runs one of ohhell's bots as such a program
(:func:`serve_stdio`), and :func:`view_from_json` rebuilds a view from its JSON.
"""

from __future__ import annotations

import collections
import contextlib
import json
import logging
import os
import queue
import shlex
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any, Final

import click

from ohhell.actions import Action, Bid, action_from_json, action_to_json, parse_action
from ohhell.bots.base import Bot, Budget, forward_actions
from ohhell.errors import OhHellError
from ohhell.i18n import N_, _
from ohhell.rules import Rules
from ohhell.views import SeatView, view_from_json

PROTOCOL_VERSION: Final = 1
DEFAULT_TIMEOUT: Final = 10.0
"""Seconds a program may think per decision, unless told otherwise."""
DEFAULT_START_TIMEOUT: Final = 30.0
"""Seconds a program may take to start and answer ``hello``."""
MAX_LINE_BYTES: Final = 1 << 20
"""A longer line from a program is nonsense (and is not kept in memory)."""
STDERR_LINES_KEPT: Final = 40
"""The last lines of a program's stderr that are kept…"""
STDERR_FIRST_LINES_KEPT: Final = 20
"""…and the first ones (Node, Python and others print the error before the stack trace)."""
STDERR_LINES_SHOWN: Final = 10
"""How many of the first and of the last lines a report shows."""
MESSAGE_TYPES: Final = frozenset({"ready", "action", "log"})
"""The message types a bot may send; any other is ignored with a warning."""

log = logging.getLogger("ohhell.bots.external")


@dataclass(frozen=True)
class Incident:
    """Something an external bot did wrong, and when.

    ``kind`` is one of ``start`` (the program did not start or greet), ``timeout``,
    ``crash`` (it exited or closed its output), ``nonsense`` (a line that is not a protocol
    message), ``illegal`` (an action that is not among the options), ``protocol`` (a
    message out of place, such as a reply to another request).
    """

    kind: str
    message: str
    seat: int | None
    hand_index: int | None
    request: int | None
    stderr: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.message


class BotFailure(Exception):
    """Raised inside :class:`ExternalBot` when the program fails; turned into an :class:`Incident`."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


_EOF: Final = object()
_TOO_LONG: Final = object()


class BotProcess:
    """A running program with line-based pipes: stdout lines and stderr lines are read by
    background threads, so a slow, silent or chatty program never blocks the caller."""

    def __init__(self, command: str, env: dict[str, str] | None = None, cwd: str | None = None) -> None:
        self.command = command
        argv = shlex.split(command, posix=os.name != "nt")
        if not argv:
            raise BotFailure("start", _("the bot command is empty"))
        environment = dict(os.environ)
        environment.update(env or {})
        environment["OHHELL_BOT_PROTOCOL"] = str(PROTOCOL_VERSION)
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment,
                cwd=cwd,
            )
        except OSError as error:
            raise BotFailure("start", _("the bot program %(command)s could not be started: %(error)s")
                             % {"command": command, "error": error}) from error
        self.lines: queue.Queue[object] = queue.Queue()
        self.stderr: collections.deque[str] = collections.deque(maxlen=STDERR_LINES_KEPT)
        """The last lines of the program's stderr."""
        self.stderr_head: list[str] = []
        """The first lines of the program's stderr."""
        self.stderr_count = 0
        """How many lines the program wrote to stderr in all."""
        self._write_lock = threading.Lock()
        threading.Thread(target=self._read_stdout, name=f"bot-stdout {argv[0]}", daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, name=f"bot-stderr {argv[0]}", daemon=True)
        self._stderr_reader.start()

    def _read_stdout(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        try:
            while True:
                line = stream.readline(MAX_LINE_BYTES)
                if not line:
                    break
                if not line.endswith(b"\n") and len(line) >= MAX_LINE_BYTES:
                    self.lines.put(_TOO_LONG)
                    while line and not line.endswith(b"\n"):  # skip the rest of that line
                        line = stream.readline(MAX_LINE_BYTES)
                    continue
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(_EOF)

    def _read_stderr(self) -> None:
        stream = self.process.stderr
        assert stream is not None
        try:
            for raw in iter(lambda: stream.readline(MAX_LINE_BYTES), b""):
                text = raw.decode("utf-8", "replace").rstrip("\r\n")
                if len(self.stderr_head) < STDERR_FIRST_LINES_KEPT:
                    self.stderr_head.append(text)
                self.stderr.append(text)
                self.stderr_count += 1
                log.debug("bot %s stderr: %s", self.command, text)
        except (OSError, ValueError):
            pass

    def send(self, message: dict[str, Any]) -> None:
        """Write one message as a line. A program that stopped reading makes the write fail
        (or block until the deadline of the reply, when the caller stops the program)."""
        data = (json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")
        stdin = self.process.stdin
        assert stdin is not None
        try:
            with self._write_lock:
                stdin.write(data)
                stdin.flush()
        except (OSError, ValueError) as error:
            raise BotFailure("crash", _("the bot stopped reading its input: %(error)s") % {"error": error}) \
                from error

    def send_soon(self, message: dict[str, Any], deadline: float) -> None:
        """:meth:`send` from a helper thread, so that a full pipe cannot block past ``deadline``."""
        failure: list[BotFailure] = []

        def write() -> None:
            try:
                self.send(message)
            except BotFailure as error:
                failure.append(error)

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        writer.join(max(0.0, deadline - time.monotonic()))
        if writer.is_alive():
            raise BotFailure("timeout", _("the bot did not read its input in time"))
        if failure:
            raise failure[0]

    def receive(self, deadline: float) -> dict[str, Any]:
        """The next protocol message, or :class:`BotFailure`. Blank lines are skipped and
        ``log`` messages are logged."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BotFailure("timeout", "")
            try:
                item = self.lines.get(timeout=remaining)
            except queue.Empty:
                raise BotFailure("timeout", "") from None
            if item is _EOF:
                code = self.process.wait(timeout=5) if self.process.poll() is None else self.process.returncode
                raise BotFailure("crash", _("the bot closed its output (exit code %(code)s)") % {"code": code})
            if item is _TOO_LONG:
                raise BotFailure("nonsense", _("the bot wrote a line longer than %(limit)d bytes")
                                 % {"limit": MAX_LINE_BYTES})
            assert isinstance(item, bytes)
            text = item.decode("utf-8", "replace").strip()
            if not text:
                continue
            try:
                message = json.loads(text)
            except json.JSONDecodeError:
                raise BotFailure("nonsense", _("the bot wrote %(line)s, which is not a JSON message")
                                 % {"line": _shorten(text)}) from None
            if not isinstance(message, dict):
                raise BotFailure("nonsense", _("the bot wrote %(line)s, which is not a JSON object")
                                 % {"line": _shorten(text)})
            kind = message.get("type")
            if kind == "log":
                log.info("bot %s says: %s", self.command, _shorten(str(message.get("message", ""))))
                continue
            if kind not in MESSAGE_TYPES:
                log.warning("bot %s sent a message of unknown type %s; ignored", self.command,
                            _shorten(json.dumps(kind)))
                continue
            return message

    def error_output(self) -> tuple[str, ...]:
        """The program's stderr as kept: its first lines, then (with a line saying how many were
        left out between them) its last lines."""
        head = self.stderr_head
        tail = list(self.stderr)
        if self.stderr_count <= len(head):
            return tuple(head)
        overlap = len(head) + len(tail) - self.stderr_count  # lines in both when few were written
        if overlap >= 0:
            return tuple(head + tail[overlap:])
        skipped = self.stderr_count - len(head) - len(tail)
        return (*head, f"[… {skipped} lines …]", *tail)

    def close(self, grace: float = 1.0) -> None:
        """Close stdin, give the program ``grace`` seconds to exit, then stop it."""
        process = self.process
        try:
            if process.stdin is not None:
                process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        process = self.process
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5.0)
        # The program is gone: let the reader take in its last error output before closing.
        self._stderr_reader.join(timeout=1.0)
        for stream in (process.stdin, process.stdout, process.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    @property
    def alive(self) -> bool:
        return self.process.poll() is None


def check_command(command: str) -> None:
    """Raise ``ValueError`` with a clear message unless ``command`` (with or without the
    ``cmd:`` prefix) names a program that exists and can be run: an executable on the ``PATH``
    or a path to an executable file. Hosts call it when they start, so that a typo is refused
    at once instead of when the first game starts.

    >>> check_command("cmd:" + sys.executable + " bot.py")
    >>> check_command("cmd:./no-such-bot --level 3")
    Traceback (most recent call last):
    ...
    ValueError: the bot program ./no-such-bot does not exist
    """
    text = command[len("cmd:"):] if command.startswith("cmd:") else command
    try:
        argv = shlex.split(text, posix=os.name != "nt")
    except ValueError as error:
        raise ValueError(_("the bot command %(command)r cannot be read: %(error)s")
                         % {"command": text, "error": error}) from error
    if not argv:
        raise ValueError(_("the bot command is empty"))
    program = argv[0]
    if os.sep in program or (os.altsep is not None and os.altsep in program):
        if not os.path.exists(program):
            raise ValueError(_("the bot program %(program)s does not exist") % {"program": program})
        if os.path.isdir(program) or not os.access(program, os.X_OK):
            raise ValueError(_("the bot program %(program)s is not an executable file (chmod +x, or start it "
                               "with its interpreter: python3 %(program)s)") % {"program": program})
    elif shutil.which(program) is None:
        raise ValueError(_("the bot program %(program)s is not on the PATH") % {"program": program})


def external_bot_options(spec: str, timeout: float | None = None) -> dict[str, Any]:
    """The options a host passes to ``make_bot(spec, …)``: ``timeout`` for an external bot
    (``cmd:…``) when the host sets one; nothing for a built-in bot, which takes no timeout.

    >>> external_bot_options("cmd:./bot", timeout=3.0), external_bot_options("basic", timeout=3.0)
    ({'timeout': 3.0}, {})
    """
    if spec.startswith("cmd:") and timeout is not None:
        return {"timeout": float(timeout)}
    return {}


def _shorten(text: str, limit: int = 200) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")


def default_fallback() -> str:
    """The bot that finishes a game for a failed program: ``basic`` when installed, else ``random``."""
    from ohhell.bots import bot_names

    return "basic" if "basic" in bot_names() else "random"


class ExternalBot(Bot):
    """A bot played by an external program (see the module docstring).

    ``timeout`` is the seconds per decision (default: the budget's seconds plus one, else
    :data:`DEFAULT_TIMEOUT`); ``start_timeout`` the seconds to start and greet;
    ``fallback`` the bot spec that takes over after a failure. ``incidents`` lists every
    failure; ``failed`` says whether the fallback plays the current game, and
    ``on_fallback`` (when set) is called with the :class:`Incident` each time the fallback
    takes over — a host tells its players that the seat's bot was replaced (call it from
    any thread: it runs in the thread that asked the bot).
    """

    name = "external"

    def __init__(self, command: str, seed: int | None = None, budget: Budget | None = None,
                 timeout: float | None = None, start_timeout: float = DEFAULT_START_TIMEOUT,
                 fallback: str | None = None, cwd: str | None = None, env: dict[str, str] | None = None,
                 on_fallback: Callable[[Incident], None] | None = None) -> None:
        super().__init__(seed=seed, budget=budget)
        self.command = command.strip()
        if timeout is None:
            timeout = self.budget.seconds + 1.0 if self.budget.seconds is not None else DEFAULT_TIMEOUT
        self.timeout = float(timeout)
        self.start_timeout = float(start_timeout)
        self.fallback_spec = fallback or default_fallback()
        self.cwd = cwd
        self.env = env
        self.incidents: list[Incident] = []
        self.failed = False
        self.on_fallback = on_fallback
        self.bot_name: str | None = None
        self.wants_bid_changes = False
        self._process: BotProcess | None = None
        self._fallback: Bot | None = None
        self._game: tuple[Rules, int] | None = None
        self._last_version = -1
        self._last_hand = -1
        self._request = 0

    # -- the Bot interface ---------------------------------------------------------------

    def choose(self, view: SeatView) -> Action:
        options = forward_actions(view)
        if not options:
            raise ValueError(f"seat {view.seat} has nothing to do now")
        answer = self._ask(view, "choose", options)
        if answer is None or answer[0] is None:  # the program failed: the fallback plays
            return self._fallback_bot().choose(view)
        return answer[0]

    def change_bid(self, view: SeatView) -> Bid | None:
        if not view.can_change_bid:
            return None
        self._start_game_if_new(view)
        if self.failed:
            return self._fallback_bot().change_bid(view)
        if not self.wants_bid_changes:
            return None
        options: list[Action] = [action for action in view.legal_actions
                                 if isinstance(action, Bid) and action.seat == view.seat]
        if not options:
            return None
        answer = self._ask(view, "change_bid", options, may_pass=True)
        if answer is None:
            return self._fallback_bot().change_bid(view)
        action = answer[0]
        return action if isinstance(action, Bid) else None

    def game_over(self, view: SeatView) -> None:
        """Tell the program the game ended (hosts that know it call this with the final view)."""
        if self._process is None or self.failed or not self._process.alive:
            return
        try:
            self._process.send_soon({"type": "result", "seat": view.seat, "totals": list(view.totals),
                                     "winners": list(view.winners), "view": view.to_json()},
                                    time.monotonic() + self.timeout)
        except BotFailure as failure:
            self._fail(failure, view)

    def close(self) -> None:
        """Say bye and stop the program."""
        process, self._process = self._process, None
        if process is not None:
            if process.alive:
                with contextlib.suppress(BotFailure):
                    process.send_soon({"type": "bye"}, time.monotonic() + 1.0)
            process.close()
        if self._fallback is not None:
            self._fallback.close()

    def __repr__(self) -> str:
        return f"ExternalBot({self.command!r})"

    # -- inside ------------------------------------------------------------------------------

    def _fallback_bot(self) -> Bot:
        if self._fallback is None:
            from ohhell.bots import make_bot

            self._fallback = make_bot(self.fallback_spec, seed=self.seed, budget=self.budget)
        return self._fallback

    def _start_game_if_new(self, view: SeatView) -> None:
        """Greet the program at the start of each game (a new seat, new rules, or a view older
        than the last one)."""
        assert view.seat is not None
        game = (view.rules, view.seat)
        if game == self._game and view.version >= self._last_version and view.hand_index >= self._last_hand:
            self._last_version, self._last_hand = view.version, view.hand_index
            return
        self._game = game
        self._last_version, self._last_hand = view.version, view.hand_index
        self.failed = False
        try:
            if self._process is None or not self._process.alive:
                if self._process is not None:
                    self._process.kill()
                self._process = BotProcess(self.command, env=self.env, cwd=self.cwd)
            deadline = time.monotonic() + self.start_timeout
            self._process.send_soon({
                "type": "hello", "protocol": PROTOCOL_VERSION, "seat": view.seat, "players": view.players,
                "rules": view.rules.to_json(), "timeout": self.timeout, "seed": self.seed,
            }, deadline)
            try:
                reply = self._process.receive(deadline)
            except BotFailure as failure:
                if failure.kind == "timeout":
                    raise BotFailure("start", _("the bot did not answer hello within %(seconds)g seconds")
                                     % {"seconds": self.start_timeout}) from None
                raise
            if reply.get("type") != "ready":
                raise BotFailure("protocol", _("the bot answered hello with %(reply)s instead of a ready message")
                                 % {"reply": _shorten(json.dumps(reply))})
            version = reply.get("protocol", PROTOCOL_VERSION)
            if version != PROTOCOL_VERSION:
                raise BotFailure("protocol", _("the bot speaks protocol %(theirs)s; this ohhell speaks %(ours)d")
                                 % {"theirs": version, "ours": PROTOCOL_VERSION})
            name = reply.get("name")
            self.bot_name = str(name) if name is not None else None
            self.wants_bid_changes = reply.get("bid_changes") is True
        except BotFailure as failure:
            self._fail(failure, view)

    def _ask(self, view: SeatView, kind: str, options: list[Action], may_pass: bool = False
             ) -> tuple[Action | None] | None:
        """The program's answer as a 1-tuple (``(None,)`` when it passes), or ``None`` when it failed."""
        self._start_game_if_new(view)
        if self.failed or self._process is None:
            return None
        self._request += 1
        request = self._request
        deadline = time.monotonic() + self.timeout
        try:
            self._process.send_soon({"type": "act", "id": request, "kind": kind, "view": view.to_json(),
                                     "options": [action_to_json(option) for option in options]}, deadline)
            while True:
                try:
                    reply = self._process.receive(deadline)
                except BotFailure as failure:
                    if failure.kind == "timeout":
                        raise BotFailure("timeout", _("the bot did not answer within %(seconds)g seconds")
                                         % {"seconds": self.timeout}) from None
                    raise
                if reply.get("type") != "action":  # "ready": the only other type a bot sends
                    raise BotFailure("protocol", _("the bot sent %(reply)s while an action was expected")
                                     % {"reply": _shorten(json.dumps(reply))})
                if reply.get("id") != request:
                    raise BotFailure("protocol", _("the bot answered request %(theirs)s, but request %(ours)d "
                                                   "was asked") % {"theirs": reply.get("id"), "ours": request})
                return (self._read_action(reply, view, options, may_pass),)
        except BotFailure as failure:
            self._fail(failure, view, request)
            return None

    def _read_action(self, reply: dict[str, Any], view: SeatView, options: list[Action], may_pass: bool
                     ) -> Action | None:
        assert view.seat is not None
        if "option" in reply:
            index = reply["option"]
            if type(index) is not int or not 0 <= index < len(options):
                raise BotFailure("illegal", _("the bot chose option %(index)s, but there are %(count)d options")
                                 % {"index": _shorten(json.dumps(index)), "count": len(options)})
            return options[index]
        raw = reply.get("action")
        if raw is None:
            if may_pass:
                return None
            raise BotFailure("nonsense", _("the bot answered without an action"))
        try:
            if isinstance(raw, str):
                action = parse_action(raw)
            elif isinstance(raw, dict):
                data = dict(raw)
                data.setdefault("seat", view.seat)
                action = action_from_json(data)
            else:
                raise BotFailure("nonsense", _("the bot answered %(action)s, which is not an action")
                                 % {"action": _shorten(json.dumps(raw))})
        except OhHellError as error:
            raise BotFailure("nonsense", _("the bot answered %(action)s, which is not an action: %(error)s")
                             % {"action": _shorten(json.dumps(raw)), "error": error}) from error
        if action not in options:
            raise BotFailure("illegal", _("the bot chose %(action)s, which is not legal now (legal: %(legal)s)")
                             % {"action": action, "legal": ", ".join(str(option) for option in options)})
        return action

    def _fail(self, failure: BotFailure, view: SeatView, request: int | None = None) -> None:
        stderr: tuple[str, ...] = ()
        if self._process is not None:
            self._process.kill()  # first: the reader takes in the last lines of the error output
            stderr = self._process.error_output()
        self._process = None
        self.failed = True
        message = _("external bot %(command)s (seat %(seat)s, hand %(hand)d): %(problem)s; the %(fallback)s bot "
                    "plays the seat for the rest of the game") % {
            "command": self.command, "seat": view.seat, "hand": view.hand_index + 1,
            "problem": failure.message or failure.kind, "fallback": self.fallback_spec}
        if stderr and failure.kind in ("crash", "start", "nonsense"):
            message += "\n" + _("its error output:") + "\n  " + "\n  ".join(_shown_lines(stderr))
        incident = Incident(failure.kind, message, view.seat, view.hand_index, request, stderr)
        self.incidents.append(incident)
        log.warning("%s", message)
        if self.on_fallback is not None:
            try:
                self.on_fallback(incident)
            except Exception:  # a host's listener must not break the game
                log.exception("the fallback listener of %s failed", self.command)


def _shown_lines(lines: tuple[str, ...]) -> list[str]:
    """The first and the last :data:`STDERR_LINES_SHOWN` lines of an error output."""
    limit = 2 * STDERR_LINES_SHOWN
    if len(lines) <= limit:
        return list(lines)
    return [*lines[:STDERR_LINES_SHOWN], "[…]", *lines[-STDERR_LINES_SHOWN:]]


# -- one of our bots behind the protocol ----------------------------------------------------------


def serve_stdio(make: Callable[[int | None], Bot], name: str, input_stream: IO[str], output: IO[str],
                errors: IO[str] | None = None) -> int:
    """Answer protocol messages from ``input_stream`` on ``output`` with the bot ``make(seed)``
    makes for each game, until ``bye`` or the end of the input. Returns an exit code: 0, or 2
    after a message it could not understand (reported on ``errors``)."""
    errors = errors or sys.stderr
    bot: Bot | None = None

    def reply(message: dict[str, Any]) -> None:
        output.write(json.dumps(message, separators=(",", ":")) + "\n")
        output.flush()

    try:
        for line in input_stream:
            if not line.strip():
                continue
            try:
                message = json.loads(line)
                kind = message.get("type")
                if kind == "hello":
                    if bot is not None:
                        bot.close()
                    seed = message.get("seed")
                    bot = make(seed if isinstance(seed, int) else None)
                    reply({"type": "ready", "protocol": PROTOCOL_VERSION, "name": name, "bid_changes": True})
                elif kind == "act":
                    if bot is None:
                        raise ValueError("an act message came before hello")
                    view = view_from_json(message["view"])
                    action: Action | None
                    if message.get("kind") == "change_bid":
                        action = bot.change_bid(view)
                    else:
                        action = bot.choose(view)
                    reply({"type": "action", "id": message.get("id"),
                           "action": action_to_json(action) if action is not None else None})
                elif kind == "bye":
                    break
                elif kind != "result":
                    raise ValueError(f"unknown message type {kind!r}")
            except (ValueError, KeyError, TypeError, AttributeError) as error:
                errors.write(f"ohhell bot-stdio: cannot handle {line.strip()[:200]!r}: {error}\n")
                errors.flush()
                return 2
    finally:
        if bot is not None:
            bot.close()
    return 0


@click.command(name="bot-stdio",
               help=N_("Run one of ohhell's bots as a program speaking the bot protocol on stdin/stdout "
                       "(docs/bot-protocol.md): to test a harness, or to use ohhell's bots in your own."))
@click.option("--bot", "spec", default="basic", show_default=True,
              help=N_("The bot to run: random, basic, strong (as installed)."))
@click.option("--seed", type=int, default=None, help=N_("Seed of the bot (default: the seed in hello)."))
def bot_stdio_command(spec: str, seed: int | None) -> None:
    """Run one of ohhell's bots as a program speaking the bot protocol on stdin/stdout
    (docs/bot-protocol.md): to test a harness, or to use ohhell's bots in your own."""
    from ohhell.bots import bot_names, make_bot

    if spec.startswith("cmd:") or spec not in bot_names():
        raise click.BadParameter(_("the bots are %(names)s") % {"names": ", ".join(bot_names())},
                                 param_hint="--bot")

    def make(hello_seed: int | None) -> Bot:
        return make_bot(spec, seed=seed if seed is not None else hello_seed)

    sys.exit(serve_stdio(make, f"ohhell {spec}", sys.stdin, sys.stdout))
