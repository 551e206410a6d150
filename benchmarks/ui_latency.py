"""How long a move takes to reach the other players' screens, in real browsers.

Starts ``ohhell serve`` on a fresh database (no bot delay, no trick or hand pause), seats four
people at one table, each in its own headless Chromium page (Debian's ``/usr/bin/chromium``,
1366×768), and lets every page play its own turns as soon as its screen offers a move (the
first allowed bid, a random playable card) — a whole game of Oh Hell (classic rules, 19 hands).
For every card played it measures, on each of the three other pages:

* **screen**: from the click on the card to the first frame in which the other page shows that
  card on the table (a ``requestAnimationFrame`` after the DOM patch — the animation that then
  moves the card is not counted);
* **socket** (the server's own figure, measured side by side): from the same click to the
  moment the other page's WebSocket received the message that carries the card.

The difference is what the browser client adds (parsing, rendering, layout). All pages run in
one browser on this machine, so their clocks are the same. Also printed: how long the table
page's updates take (``update()``: the Preact patch; the cards' flights are planned in the next
frame, timed apart), for updates with a 10-card hand, against the bare render of the same
picture measured in the same run (benchmarks/render_comparison.js, before and after the game);
and every card that took a second or more to show on a screen, with what that screen was doing
meanwhile (its long tasks and updates) and how busy the machine was (runnable threads, sampled
every 50 ms). A card's delay runs from its click to its first showing before the same card is
clicked again (a later deal): never to a later hand's showing.

The 10-card updates are also told apart by kind: the page's first drawing (the game had begun
when the page opened), the deal (the hand's ten card buttons are made, where the bare render
only patches a hand that exists), the bidding (this player's bid buttons made and removed among
them) and the first trick's play; and the bare render is measured twice more: paced, 20 ms
between updates (a game's update comes to code and caches that did other things meanwhile, not
as the 2 000th of a loop: about 2.5× slower), and with ``--together`` in four pages at once.
``--tree TREE`` plays the game on another worktree's code with this benchmark. ``--replay N``
records the first hand's messages of one page against bots and gives them to the table page
itself N times in one page, nothing else running: the page's own work per update, timed as the
bare render's is (back to back, with the layout it asks for, and paced).

``--render`` measures instead three ways to render the table side by side (Preact+htm as
shipped, rebuilding the page with innerHTML as the old client did, and a hand-written keyed
patch), with their code sizes. ``--throttle 4`` plays one page against bots with its CPU slowed
down four times through the DevTools protocol (Lighthouse's mobile setting) and prints the total
blocking time (every task's time past 50 ms) and the longest task over the whole game;
``--against TREE`` (a worktree of another commit: ``git worktree add --detach ../base main``)
measures that code the same way, in turn, ``--repeat`` times. ``--profile`` adds the first
page's CPU profile by function, and the part of it inside ``update()``.

    python benchmarks/ui_latency.py               # one game, four browser clients
    python benchmarks/ui_latency.py --render      # only the rendering comparison (a few seconds)
    python benchmarks/ui_latency.py --throttle 4 --against ../base --repeat 3 --profile
    python benchmarks/ui_latency.py --replay 40 [--tree ../base]   # the page's own update, replayed

Traffic goes to 127.0.0.1 only; the run stops by itself (``--timeout``). The last line is the
result: a 10-card update's p50 and p95 against the bare render's, and the screen's p95 against
the socket's.
"""

# ruff: noqa: E501  (the page scripts below are JavaScript, kept readable as they are)
from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "ohhell" / "server" / "static"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
                 # four pages share one machine: none of them may be throttled as a background tab
                 "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                 "--disable-backgrounding-occluded-windows"]

# Runs in every page before the app: records clicks on cards, the arrival of each card in a
# WebSocket message, the first frame showing each card on the table, and plays this page's turns.
PROBE = r"""
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const probe = window.__probe = { clicks: [], arrived: [], shown: [], seen: new WeakSet(), long: [], phase: null };
  // The page pushes each update's time here; the probe adds the game's phase then (the last
  // state message's), so that the report tells the bidding's updates from the play's.
  window.__ohhellUpdates = [];
  window.__ohhellUpdates.push = function (update) { update.phase = probe.phase; return Array.prototype.push.call(this, update); };
  window.__ohhellFrames = [];
  // Every task of 50 ms or more on this page's main thread: [start (epoch ms), duration ms].
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) probe.long.push([performance.timeOrigin + entry.startTime, entry.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch (error) { /* no Long Tasks API: none recorded */ }
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const at = now();
        let message;
        try { message = JSON.parse(event.data); } catch (error) { return; }
        const cards = [];
        if (message.type === "state") {
          const c = message.changes || {};
          if (c.phase !== undefined) probe.phase = c.phase;
          for (const [, card] of c.current_trick || []) cards.push(card);
          const done = c.completed_tricks || [];
          if (done.length) for (const [, card] of done[done.length - 1].cards) cards.push(card);
        } else if (message.type === "history" && message.hands.length) {
          const plays = message.hands[message.hands.length - 1].plays;
          for (const [, card] of plays.slice(-8)) cards.push(card);
        }
        for (const card of cards) probe.arrived.push([card, at]);
      });
    }
  };
  // A card counts from its first click; clicking it again before it leaves the hand is ignored.
  const clicked = new Set();
  document.addEventListener("click", (event) => {
    const card = event.target.closest && event.target.closest("#hand button.card.legal");
    if (card && !clicked.has(card.dataset.card)) { clicked.add(card.dataset.card); probe.clicks.push([card.dataset.card, now()]); }
  }, true);
  const watch = () => {
    const held = new Set([...document.querySelectorAll("#hand .card[data-card]")].map((n) => n.dataset.card));
    for (const card of [...clicked]) if (!held.has(card)) clicked.delete(card);
    // A card on the table is new when its element is: the same card may still lie there from
    // the last hand's closing trick (on its way to its winner) when the next deal's is played.
    const fresh = [];
    for (const node of document.querySelectorAll(".trick .card[data-card]")) {
      if (!probe.seen.has(node)) { probe.seen.add(node); fresh.push(node.dataset.card); }
    }
    if (!fresh.length) return;
    requestAnimationFrame(() => { const at = now(); for (const card of fresh) probe.shown.push([card, at]); });
  };
  let pending = false;
  let lastClick = 0;
  const play = () => {
    pending = false;
    const bid = document.querySelector(".bid-button:not([disabled])");
    if (bid) { bid.click(); return; }
    const legal = [...document.querySelectorAll("#hand button.card.legal")];
    // One card per turn: wait until the clicked card has left the hand (or 3 s: it was refused).
    const waiting = [...clicked].some((card) => document.querySelector(`#hand .card[data-card="${card}"]`));
    if (waiting && now() - lastClick < 3000) return;
    if (waiting) clicked.clear();
    if (legal.length) { lastClick = now(); legal[Math.floor(Math.random() * legal.length)].click(); }
  };
  const observer = new MutationObserver(() => {
    watch();
    if (!pending) { pending = true; setTimeout(play, 0); }
  });
  document.addEventListener("DOMContentLoaded", () => observer.observe(document.body, { childList: true, subtree: true, attributes: true }));
  setInterval(() => { if (!pending) { pending = true; play(); } }, 250);
})();
"""


def free_port() -> int:
    import socket
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def match(clicks: list[tuple[str, float]], events: list[tuple[str, float]],
          next_click: dict[tuple[str, float], float]) -> list[tuple[str, float, float | None]]:
    """For each click, (card, click time, delay ms to the first event of that card after it).

    The delay is None when the card was not seen before it was clicked again (a later hand deals
    it again): matching it to that later hand's event would count the hands between as delay.
    """
    out: list[tuple[str, float, float | None]] = []
    for card, clicked in clicks:
        until = next_click.get((card, clicked), float("inf"))
        later = [at for seen, at in events if seen == card and clicked - 1 <= at < until]
        out.append((card, clicked, max(0.0, min(later) - clicked) if later else None))
    return out


class RunQueue:
    """Samples the machine's runnable threads (/proc/stat procs_running) every 50 ms in a thread:
    on two shared cores, a page that waits for a CPU shows here, not in its own tasks."""

    def __init__(self) -> None:
        import threading
        self.samples: list[tuple[float, int]] = []
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stopped.wait(0.05):
            try:
                for line in Path("/proc/stat").read_text().splitlines():
                    if line.startswith("procs_running"):
                        self.samples.append((time.time() * 1000, int(line.split()[1])))
            except OSError:
                return

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join()

    def between(self, start: float, end: float) -> list[int]:
        return [n for at, n in self.samples if start <= at <= end]


def serve(folder: Path, tree: Path = ROOT) -> tuple[subprocess.Popen[bytes], str]:
    """``ohhell serve`` of the code in ``tree`` (this checkout, or another worktree: --against)."""
    port = free_port()
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "ohhell.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--database", f"sqlite:///{folder / 'ohhell.db'}", "--log-level", "warning",
         "--bot-delay", "0", "--trick-pause", "0", "--hand-pause", "0"],
        stdout=log, stderr=subprocess.STDOUT, cwd=tree, env={**os.environ, "OHHELL_LANG": "en", "PYTHONPATH": str(tree)})
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(url + "/api/config", timeout=1)
            return process, url
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("ohhell serve did not start")


def play_game(browser: Any, url: str, players: int, timeout: float, *, alone: bool = False, throttle: float = 1.0,
              profile: bool = False, trace: Path | None = None) -> dict[str, Any]:
    """One whole game. ``alone``: one browser page and bots in the other seats (else a page for
    every seat); ``throttle``: the first page's CPU slowed down that many times through the
    DevTools protocol (Lighthouse's mobile setting is 4); ``profile``: the first page's CPU
    profile (the DevTools protocol's sampling profiler) summed by function."""
    seats = ["basic"] * (players - 1) if alone else ["open"] * (players - 1)
    created = httpx.post(url + "/api/tables", json={"name": "P1", "preset": "classic", "players": players,
                                                   "seats": seats, "timer": 0}).json()
    code, tokens = created["code"], [created["token"]]
    if not alone:
        for n in range(2, players + 1):
            tokens.append(httpx.post(f"{url}/api/tables/{code}/join", json={"name": f"P{n}"}).json()["token"])
    pages = []
    sockets: list[str] = []  # every WebSocket the pages open: more than one a page is a reconnection
    for token in tokens:
        context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-US")
        context.add_init_script(PROBE)
        page = context.new_page()
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(url + "/score")  # any page of the site, to reach its localStorage
        page.evaluate("([code, token]) => localStorage.setItem('ohhell.seats', JSON.stringify({[code]: {token, at: 0}}))",
                      [code, token])
        pages.append(page)
    cdp = pages[0].context.new_cdp_session(pages[0])
    if throttle != 1.0:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    if profile:
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 200})
        cdp.send("Profiler.start")
    if trace:
        browser.start_tracing(page=pages[0], path=str(trace), categories=["devtools.timeline"])
    queue = RunQueue()
    started = time.monotonic()
    for page in pages:
        page.goto(f"{url}/t/{code}")
    pages[0].wait_for_selector("#game-over", timeout=timeout * 1000)
    elapsed = time.monotonic() - started
    pages[0].wait_for_timeout(500)
    queue.stop()
    if trace:
        browser.stop_tracing()
    functions: list[tuple[float, str]] = []
    in_update: list[tuple[float, str]] = []
    if profile:
        taken = cdp.send("Profiler.stop")["profile"]
        if os.environ.get("UI_LATENCY_PROFILE"):  # a file to keep the whole profile in (DevTools opens it)
            Path(os.environ["UI_LATENCY_PROFILE"]).write_text(json.dumps(taken))
        functions = by_function(taken)
        in_update = by_function(taken, within="update pages/table.js")
    data = [page.evaluate("() => ({clicks: __probe.clicks, arrived: __probe.arrived, shown: __probe.shown, long: __probe.long, "
                          "updates: window.__ohhellUpdates, frames: window.__ohhellFrames || []})") for page in pages]
    for page in pages:
        page.context.close()
    # A click's card, until the same card is clicked again (a later hand): the events between are its.
    every_click = sorted((at, card) for page in data for card, at in page["clicks"])
    next_click: dict[tuple[str, float], float] = {}
    last_seen: dict[str, float] = {}
    for at, card in reversed(every_click):
        next_click[(card, at)] = last_seen.get(card, float("inf"))
        last_seen[card] = at
    # (card, clicking page, showing page, click time, screen delay, socket delay, the delay to any later showing)
    pairs = []
    for i, mine in enumerate(data):
        for j, other in enumerate(data):
            if i != j:
                shown = match(mine["clicks"], other["shown"], next_click)
                arrived = match(mine["clicks"], other["arrived"], next_click)
                unbounded = match(mine["clicks"], other["shown"], {})  # as this benchmark matched before
                for (card, at, screen), (_, _, socket), (_, _, old) in zip(shown, arrived, unbounded, strict=True):
                    pairs.append((card, i, j, at, screen, socket, old))
    # A card never shown before its next click: was that click the same player's, again, soon
    # (the first click did not play the card), or a later deal's?
    again = {(card, at): next_click[(card, at)] - at for card, at in next_click}
    return {"pairs": pairs, "again": again, "data": data, "queue": queue, "functions": functions, "in_update": in_update, "seconds": elapsed,
            "clicks": sum(len(d["clicks"]) for d in data), "reconnections": len(sockets) - len(pages)}


def by_function(profile: dict[str, Any], within: str = "") -> list[tuple[float, str]]:
    """A CPU profile's self time (ms) by function (name, file and line), most first; ``within``:
    only the samples taken inside a call of the function of that name (its own and its callees')."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", [])}
    ticks: dict[int, int] = {}
    for sample in profile.get("samples", []):
        ticks[sample] = ticks.get(sample, 0) + 1
    total_us = profile["endTime"] - profile["startTime"]
    per_tick = total_us / max(1, len(profile.get("samples", []))) / 1000

    def name_of(node_id: int) -> str:
        frame = nodes[node_id]["callFrame"]
        where = frame["url"].rsplit("/static/js/", 1)[-1] if frame["url"] else ""
        return f"{frame['functionName'] or '(anonymous)'} {where}:{frame['lineNumber'] + 1}" if where else frame["functionName"]

    def inside(node_id: int) -> bool:
        while node_id in nodes:
            if name_of(node_id).split(":")[0] == within:
                return True
            if node_id not in parent:
                return False
            node_id = parent[node_id]
        return False

    spent: dict[str, float] = {}
    for node_id, count in ticks.items():
        if within and not inside(node_id):
            continue
        spent[name_of(node_id)] = spent.get(name_of(node_id), 0.0) + count * per_tick
    return sorted(((ms, name) for name, ms in spent.items()), reverse=True)


def main_thread_work(trace: Path) -> list[tuple[float, int, str]]:
    """A Chromium trace's work on the renderer's main thread by kind (style, layout, paint, script):
    the total ms of each kind of event and their count, most first (nested kinds overlap)."""
    events = json.loads(trace.read_text())
    events = events.get("traceEvents", events) if isinstance(events, dict) else events
    main = {(e["pid"], e["tid"]) for e in events if e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"}
    spent: dict[str, list[float]] = {}
    for e in events:
        if e.get("ph") == "X" and (e.get("pid"), e.get("tid")) in main:
            kind = spent.setdefault(e["name"], [0.0, 0])
            kind[0] += e.get("dur", 0) / 1000
            kind[1] += 1
    return sorted(((ms, int(n), name) for name, (ms, n) in spent.items()), reverse=True)


def blocking(long_tasks: list[list[float]]) -> tuple[float, float, int]:
    """Total blocking time (each task's time past 50 ms, summed, as Lighthouse), the longest task, their count."""
    durations = [duration for _, duration in long_tasks]
    return sum(max(0.0, d - 50) for d in durations), max(durations, default=0.0), len(durations)


def outliers(result: dict[str, Any], over_ms: float) -> list[str]:
    """What each screen was doing while a card took longer than ``over_ms`` to show on it."""
    lines = []
    data, queue = result["data"], result["queue"]
    for card, i, j, at, screen, socket, _ in sorted(result["pairs"], key=lambda p: -(p[4] or 0)):
        if screen is None or screen < over_ms:
            continue
        end = at + screen
        tasks = [(start, d) for start, d in data[j]["long"] if start < end and start + d > at]
        updates = [u for u in data[j]["updates"] if at <= u.get("at", 0) <= end]
        running = queue.between(at, end)
        lines.append(
            f"    {card} played on page {i + 1}, shown on page {j + 1} after {screen:.0f} ms (its socket had it after "
            f"{socket if socket is None else round(socket)} ms): page {j + 1} ran {len(tasks)} long tasks then "
            f"({sum(d for _, d in tasks):.0f} ms, longest {max((d for _, d in tasks), default=0):.0f} ms), "
            f"{len(updates)} updates ({sum(u['ms'] for u in updates):.0f} ms); machine: "
            f"{statistics.mean(running) if running else float('nan'):.1f} runnable threads on average, "
            f"max {max(running, default=0)}")
        if len(lines) >= 8:
            break
    return lines


# The rendering comparison (a JavaScript function, kept in its own file: the speed test uses it too).
RENDER_COMPARISON = (Path(__file__).resolve().parent / "render_comparison.js").read_text()


def gz(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), 9))


def idle_work(browser: Any, url: str, seconds: float = 3.0) -> list[tuple[float, int, str]]:
    """The main thread's work while nothing happens: this player's bid to make, the bots waiting."""
    created = httpx.post(url + "/api/tables", json={"name": "P1", "preset": "classic", "players": 4,
                                                   "seats": ["basic"] * 3, "timer": 0}).json()
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-US")
    page = context.new_page()
    page.goto(url + "/score")
    page.evaluate("([code, token]) => localStorage.setItem('ohhell.seats', JSON.stringify({[code]: {token, at: 0}}))",
                  [created["code"], created["token"]])
    page.goto(f"{url}/t/{created['code']}")
    page.wait_for_selector(".bid-button:not([disabled])", timeout=30_000)
    page.wait_for_timeout(1500)  # the deal's flights are over
    with tempfile.TemporaryDirectory(prefix="ohhell-ui-idle-") as tmp:
        trace = Path(tmp) / "trace.json"
        browser.start_tracing(page=page, path=str(trace), categories=["devtools.timeline"])
        page.wait_for_timeout(seconds * 1000)
        browser.stop_tracing()
        work = main_thread_work(trace)
    context.close()
    return work


PAUSE_MS = 20  # --replay: the pause before each update of its "apart" measurement

# --replay: every message this page's socket receives, kept in order (a hand to replay later).
RECORD = r"""
(() => {
  window.__messages = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => { try { window.__messages.push(JSON.parse(event.data)); } catch (error) { /* not JSON */ } });
    }
  };
})();
"""

# --replay: the recorded messages given to the table page itself (pages/table.js, its controller
# and view as shipped, in a fresh element of this page, no socket), `reps` times; each update
# timed as the bare render times its own: the patch, and with `layout` the layout it asks for.
REPLAY = r"""
async ({ messages, code, summary, reps, layout, pause }) => {
  const { render } = await import("/static/js/html.js");
  const { TablePage } = await import("/static/js/pages/table.js");
  const { TableController } = await import("/static/js/table/controller.js");
  const runs = [];
  for (let r = 0; r < reps; r++) {
    const root = document.createElement("div");
    document.body.append(root);
    const page = new TablePage(code, root, () => {});
    page.summary = summary;
    page.ctl = new TableController({ code, token: null, send: () => 1, connection: () => 1, changed: () => page.update(),
      prefs: () => ({ chatMuted: false, mutedNames: [], teach: false }) });
    const updates = [];
    const update = page.update;
    page.update = function () {
      const started = performance.now();
      update.call(this);
      if (layout) root.getBoundingClientRect();
      const s = this.ctl.s;
      if (s && s.table) updates.push({ ms: performance.now() - started, cards: s.hand ? s.hand.length : 0, phase: s.phase });
    };
    for (const message of messages) {
      if (pause) await new Promise((done) => setTimeout(done, pause));
      page.ctl.receive(message);
    }
    if (r >= 3) runs.push(updates);  // the first runs warm the code up, as the bare render's do
    await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));  // its flights planned
    page.stop();
    render(null, root);
    root.remove();
  }
  return runs;
}
"""


def replay(browser: Any, url: str, reps: int, timeout: float, against: list[tuple[str, str]]) -> None:
    """A 10-card hand (the first of classic rules) played by one page against bots, its socket's
    messages recorded, then given to the table page again ``reps`` times in one browser page
    with nothing else running there: each update's cost measured the way the bare render's is
    (without the other pages, the server and the frames that share the cores in a game), and with
    the layout it asks for (the bare render lays its table out after each patch; the table page
    leaves that to the next frame). ``against``: (name, address) of servers of other code, whose
    pages are given the same messages (the same deal), in turn."""
    created = httpx.post(url + "/api/tables", json={"name": "P1", "preset": "classic", "players": 4,
                                                   "seats": ["basic"] * 3, "timer": 0}).json()
    code = created["code"]
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-US")
    context.add_init_script(PROBE)
    context.add_init_script(RECORD)
    page = context.new_page()
    page.goto(url + "/score")
    page.evaluate("([code, token]) => localStorage.setItem('ohhell.seats', JSON.stringify({[code]: {token, at: 0}}))",
                  [code, created["token"]])
    page.goto(f"{url}/t/{code}")
    page.wait_for_function("() => window.__messages.some((m) => m.type === 'state' && m.changes && m.changes.hand_index === 1)",
                           timeout=timeout * 1000)
    messages = page.evaluate("() => window.__messages")
    context.close()
    # The seat's view of the first hand: every message until the second hand's first state.
    # (Replayed as a spectator's messages would be: the hand is in the state, no token is needed.)
    end = next(i for i, m in enumerate(messages) if m["type"] == "state" and (m.get("changes") or {}).get("hand_index") == 1)
    messages = messages[:end]
    summary = httpx.get(f"{url}/api/tables/{code}").json()
    for name, address in [("this", url), *against]:
        print(f"{name}:")
        replay_in(browser, address, messages, code, summary, reps)


def replay_in(browser: Any, url: str, messages: list[Any], code: str, summary: Any, reps: int) -> None:
    fresh = browser.new_page(viewport={"width": 1366, "height": 768})
    fresh.goto(url + "/score")
    # Back to back (as the bare render's 2 000 updates), with the layout each asks for, and with
    # a pause before each update (as in a game: the code and the caches did other things meanwhile).
    ways = [("patch", False, 0), ("patch and layout", True, 0), (f"patch, {PAUSE_MS} ms apart", False, PAUSE_MS)]
    bare_before = {pause: fresh.evaluate(RENDER_COMPARISON, {"count": 2000 if not pause else 300, "pause": pause})["preact"]
                   for pause in (0, PAUSE_MS)}
    runs = {name: fresh.evaluate(REPLAY, {"messages": messages, "code": code, "summary": summary,
                                          "reps": reps if not pause else max(4, reps // 4),
                                          "layout": layout, "pause": pause})
            for name, layout, pause in ways}
    bare_after = {pause: fresh.evaluate(RENDER_COMPARISON, {"count": 2000 if not pause else 300, "pause": pause})["preact"]
                  for pause in (0, PAUSE_MS)}
    fresh.close()
    bare = {pause: (bare_before[pause]["p50"] + bare_after[pause]["p50"]) / 2 for pause in (0, PAUSE_MS)}
    print(f"the first hand (10 cards) replayed in one page: {len(messages)} messages; the bare render p50 "
          f"{bare_before[0]['p50']:.3f} ms before, {bare_after[0]['p50']:.3f} ms after; {PAUSE_MS} ms apart "
          f"{bare_before[PAUSE_MS]['p50']:.3f} and {bare_after[PAUSE_MS]['p50']:.3f} ms")
    summary = []
    for name, _, pause in ways:
        taken = runs[name]
        kinds = ten_card_kinds([{"updates": updates} for updates in taken])
        print(f"  {name} ({len(taken)} runs), against the bare render {'the same way' if pause else 'back to back'} "
              f"({bare[pause]:.3f} ms): a kind's updates over the runs (the page's timer counts in steps of 0.1 ms: "
              f"the mean tells smaller differences than the median)")
        for kind, times in kinds.items():
            if times:
                print(f"    {kind:<8} {len(times) // len(taken):>3} a run, p50 {statistics.median(times):6.3f} ms "
                      f"({statistics.median(times) / bare[pause]:.2f}×), mean {statistics.mean(times):6.3f} ms, p95 {percentile(times, .95):6.3f} ms")
        ten = [ms for times in kinds.values() for ms in times]
        summary.append(f"{name} {statistics.median(ten) / bare[pause]:.2f}× ("
                       + ", ".join(f"{kind} {statistics.median(times) / bare[pause]:.2f}×" for kind, times in kinds.items() if times) + ")")
    print(f"  {machine()}")
    print("ui_latency --replay: a 10-card update's p50 against the bare render's: " + "; ".join(summary))


def bare_render(browser: Any, url: str) -> dict[str, dict[str, float]]:
    page = browser.new_page()
    page.goto(url + "/score")
    compared: dict[str, dict[str, float]] = page.evaluate(RENDER_COMPARISON, 2000)
    page.close()
    return compared


def bare_render_paced(browser: Any, url: str) -> dict[str, float]:
    """The bare render (Preact), 300 updates, each after a pause of PAUSE_MS: a game's update
    comes to code and caches that did other things meanwhile, not as the 2 000th of a loop."""
    page = browser.new_page()
    page.goto(url + "/score")
    paced: dict[str, float] = page.evaluate(RENDER_COMPARISON, {"count": 300, "pause": PAUSE_MS})["preact"]
    page.close()
    return paced


def bare_render_together(browser: Any, url: str, pages: int) -> dict[str, float]:
    """The bare render (Preact) in ``pages`` pages at once: the game's pages all update at the same
    moment (every message goes to all of them), so each update there shares the cores with the
    other pages' updates, which the bare render alone in one page does not. The pages' medians'
    mean, and their p95s' mean."""
    opened = [browser.new_page() for _ in range(pages)]
    for page in opened:
        page.goto(url + "/score")
    for page in opened:  # started together, without waiting for each other
        page.evaluate(f"() => {{ window.__bare = ({RENDER_COMPARISON})(2000); }}")
    results = [page.evaluate("() => window.__bare") for page in opened]
    for page in opened:
        page.close()
    return {part: statistics.mean(r["preact"][part] for r in results) for part in ("p50", "p95")}


def ten_card_kinds(data: list[dict[str, Any]]) -> dict[str, list[float]]:
    """A 10-card hand's updates by kind: ``first`` (the page's first drawing of the table, all of
    it: the game had begun when the page opened), ``deal`` (the update that shows the hand: its ten card
    buttons are made, where the bare render only patches a hand that exists), ``bidding`` (the
    bids, this player's bid buttons made and removed among them), ``playing`` (the first trick)."""
    kinds: dict[str, list[float]] = {"first": [], "deal": [], "bidding": [], "playing": []}
    for page in data:
        before = None
        for update in page["updates"]:
            if update["cards"] == 10:
                kind = ("first" if before is None else "deal" if before != 10
                        else "bidding" if update.get("phase") == "bidding" else "playing")
                kinds[kind].append(update["ms"])
            before = update["cards"]
    return kinds


def machine() -> str:
    load = os.getloadavg()
    return f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores"


def print_render(compared: dict[str, dict[str, float]]) -> None:
    app = sum(gz(p) for p in (STATIC / "js").rglob("*.js") if "vendor" not in p.parts)
    vendor = {name: gz(STATIC / "js" / "vendor" / name) for name in ("preact.mjs", "hooks.mjs", "htm.mjs")}
    print("rendering the table (2000 updates of a 10-card hand, four seats, a trick):")
    print(f"  {'way':<12}{'mean ms':>10}{'p50 ms':>10}{'p95 ms':>10}   library size (gzip)")
    sizes = {"preact": f"{vendor['preact.mjs'] + vendor['htm.mjs']} B preact+htm"
                       f" (+{vendor['hooks.mjs']} B hooks)", "innerHTML": "0", "keyed": "0 (hand-written)"}
    for name, figures in compared.items():
        print(f"  {name:<12}{figures['mean']:>10.3f}{figures['p50']:>10.3f}{figures['p95']:>10.3f}   {sizes[name]}")
    print(f"  the client's own modules: {app} B gzip")
    print(f"  {machine()}")


def report_game(result: dict[str, Any], bare: dict[str, float], players: int, outlier_ms: float,
                together: dict[str, float] | None = None, paced: dict[str, float] | None = None) -> None:
    pairs = result["pairs"]
    screen = [p[4] for p in pairs if p[4] is not None]
    socket = [p[5] for p in pairs if p[5] is not None]
    unseen = sum(1 for p in pairs if p[4] is None)
    print(f"{players} browser clients, one game: {result['clicks']} cards played in {result['seconds']:.1f} s, "
          f"{len(pairs)} (card, other screen) pairs, {unseen} of them never shown before the card's next deal")
    print(f"  click -> other screen shows the card: p50 {statistics.median(screen):.1f} ms, p95 {percentile(screen, .95):.1f} ms, "
          f"max {max(screen):.1f} ms")
    print(f"  click -> other page's socket has it (server): p50 {statistics.median(socket):.1f} ms, "
          f"p95 {percentile(socket, .95):.1f} ms, max {max(socket):.1f} ms")
    print(f"  reconnections (a connection that did not answer a ping within 3 s, or closed): {result['reconnections']}")
    updates = [u["ms"] for page in result["data"] for u in page["updates"]]
    ten = [u["ms"] for page in result["data"] for u in page["updates"] if u["cards"] == 10]
    frames = [f["ms"] for page in result["data"] for f in page["frames"]]
    print(f"  table page update(): p50 {statistics.median(updates):.2f} ms, p95 {percentile(updates, .95):.2f} ms over "
          f"{len(updates)} updates; with a 10-card hand p50 {statistics.median(ten):.2f} ms, p95 {percentile(ten, .95):.2f} ms")
    if frames:
        print(f"  the frame's animation plan (frame.js, reads then writes): p50 {statistics.median(frames):.2f} ms, "
              f"p95 {percentile(frames, .95):.2f} ms over {len(frames)} frames")
    print(f"  the bare render in the same run: p50 {bare['p50']:.2f} ms, p95 {bare['p95']:.2f} ms")
    for kind, times in ten_card_kinds(result["data"]).items():
        if times:
            print(f"    10-card {kind + ' updates:':<18} {len(times):>4}, p50 {statistics.median(times):6.2f} ms "
                  f"({statistics.median(times) / bare['p50']:.2f}× the bare render), p95 {percentile(times, .95):6.2f} ms "
                  f"({percentile(times, .95) / bare['p95']:.2f}×)")
    if paced:
        print(f"  the bare render {PAUSE_MS} ms apart (as a game's updates come): p50 {paced['p50']:.2f} ms, p95 {paced['p95']:.2f} ms; "
              f"a 10-card update's p50 {statistics.median(ten) / paced['p50']:.2f}× that, "
              + ", ".join(f"{kind} {statistics.median(times) / paced['p50']:.2f}×" for kind, times in ten_card_kinds(result["data"]).items() if times))
    if together:
        print(f"  the bare render in {players} pages at once (as the game's pages update together): p50 {together['p50']:.2f} ms, "
              f"p95 {together['p95']:.2f} ms; a 10-card update's p50 {statistics.median(ten) / together['p50']:.2f}× that")
    old = [p[6] for p in pairs if p[6] is not None]
    later_deal = [p for p in pairs if p[4] is None and p[6] is not None]
    print(f"  matched to any later showing of the card (as before): max {max(old):.0f} ms; "
          f"{len(later_deal)} pairs matched to a later deal of the card, after {', '.join(f'{p[6] / 1000:.1f}' for p in later_deal[:8])} s")
    for card, i, j, at, _, arrived, _ in [p for p in pairs if p[4] is None][:6]:
        print(f"    never shown: {card} clicked on page {i + 1}, on page {j + 1}, whose socket had it "
              + (f"after {arrived:.0f} ms" if arrived is not None else "never")
              + f"; the card was clicked again {result['again'][(card, at)] / 1000:.1f} s later")
    slow = [p for p in pairs if p[4] is not None and p[4] >= outlier_ms]
    print(f"  cards that took {outlier_ms:.0f} ms or more to show: {len(slow)}")
    for line in outliers(result, outlier_ms):
        print(line)
    long_tasks = [t for page in result["data"] for t in page["long"]]
    total, longest, count = blocking(long_tasks)
    print(f"  long tasks on the four pages: {count}, longest {longest:.0f} ms, blocking {total:.0f} ms in all")
    if result["functions"]:
        print("  page 1's CPU profile, self time by function (ms):")
        for ms, name in result["functions"][:15]:
            print(f"    {ms:9.1f}  {name}")
        print(f"  of which inside update() ({sum(ms for ms, _ in result['in_update']):.0f} ms):")
        for ms, name in result["in_update"][:15]:
            print(f"    {ms:9.1f}  {name}")
    print(f"  {machine()}")
    kinds = ten_card_kinds(result["data"])
    by_kind = "; ".join(f"{kind} p50 {statistics.median(times) / bare['p50']:.2f}×" for kind, times in kinds.items() if times)
    against_paced = f"; against the bare render {PAUSE_MS} ms apart {statistics.median(ten) / paced['p50']:.2f}" if paced else ""
    print(f"ui_latency: a 10-card update p50 {statistics.median(ten):.2f} ms / bare render p50 {bare['p50']:.2f} ms = "
          f"{statistics.median(ten) / bare['p50']:.2f} ({by_kind}){against_paced}; p95 {percentile(ten, .95):.2f} / {bare['p95']:.2f} = "
          f"{percentile(ten, .95) / bare['p95']:.2f}; screen p95 {percentile(screen, .95):.1f} ms vs socket p95 "
          f"{percentile(socket, .95):.1f} ms")


def throttled(browser: Any, trees: list[tuple[str, Path]], players: int, rate: float, repeat: int, timeout: float,
              profile: bool) -> None:
    """One page (and bots) under ``rate``× CPU slowdown, a whole game for each tree, in turn, ``repeat`` times."""
    print(f"one browser page and {players - 1} bots, the page's CPU slowed {rate:g}× (DevTools protocol), a whole game:")
    print(f"  {'code':<10}{'run':>4}{'seconds':>9}{'long tasks':>12}{'longest ms':>12}{'TBT ms':>9}"
          f"{'upd p50':>9}{'upd p95':>9}{'frame p50':>10}{'frame p95':>10}   load")
    for run in range(repeat):
        for name, tree in trees if run % 2 == 0 else list(reversed(trees)):
            with tempfile.TemporaryDirectory(prefix="ohhell-ui-latency-") as tmp:
                process, url = serve(Path(tmp), tree)
                try:
                    trace = Path(tmp) / "trace.json" if profile else None
                    result = play_game(browser, url, players, timeout, alone=True, throttle=rate, profile=profile, trace=trace)
                    work = main_thread_work(trace) if trace else []
                finally:
                    process.terminate()
                    process.wait(timeout=10)
            page = result["data"][0]
            total, longest, count = blocking(page["long"])
            updates = [u["ms"] for u in page["updates"]]
            frames = [f["ms"] for f in page["frames"]] or [float("nan")]  # frame.js's plans (none on older code)
            load = os.getloadavg()[0]
            print(f"  {name:<10}{run + 1:>4}{result['seconds']:>9.1f}{count:>12}{longest:>12.0f}{total:>9.0f}"
                  f"{statistics.median(updates):>9.1f}{percentile(updates, .95):>9.1f}"
                  f"{statistics.median(frames):>10.1f}{percentile(frames, .95):>10.1f}   {load:.2f}", flush=True)
            if profile:
                for ms, function in result["functions"][:12]:
                    print(f"      {ms:9.1f}  {function}")
                print(f"      inside update() ({sum(ms for ms, _ in result['in_update']):.0f} ms):")
                for ms, function in result["in_update"][:12]:
                    print(f"      {ms:9.1f}  {function}")
                print("      the main thread's work by kind (trace events; kinds nest):")
                for ms, count, kind in work[:14]:
                    print(f"      {ms:9.1f}  {kind} ×{count}")
    print(f"  {machine()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=600, help="seconds before giving up on the game")
    parser.add_argument("--render", action="store_true", help="only compare ways of rendering the table")
    parser.add_argument("--throttle", type=float, default=0, metavar="RATE",
                        help="one page and bots, its CPU slowed RATE times (4: Lighthouse's mobile setting)")
    parser.add_argument("--against", type=Path, action="append", default=[], metavar="TREE",
                        help="with --throttle or --replay: also measure the code in TREE (a worktree of another commit), in turn")
    parser.add_argument("--repeat", type=int, default=1, help="with --throttle: rounds of games")
    parser.add_argument("--replay", type=int, default=0, metavar="N",
                        help="only the first hand's messages given to the table page again N times, against the bare render")
    parser.add_argument("--idle", action="store_true", help="only the main thread's work while a player thinks (3 s)")
    parser.add_argument("--profile", action="store_true", help="print the first page's CPU profile by function")
    parser.add_argument("--tree", type=Path, default=ROOT, metavar="TREE",
                        help="the four-page game: serve the code in TREE (a worktree of another commit) with this benchmark")
    parser.add_argument("--together", action="store_true",
                        help="also the bare render in as many pages as players at once, after the game")
    parser.add_argument("--outlier-ms", type=float, default=1000, help="explain the cards that took this long to show")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            if args.throttle:
                trees = [(tree.name, tree.resolve()) for tree in args.against] + [("this", ROOT)]
                throttled(browser, trees, args.players, args.throttle, args.repeat, args.timeout, args.profile)
                return
            with tempfile.TemporaryDirectory(prefix="ohhell-ui-latency-") as tmp:
                process, url = serve(Path(tmp), args.tree.resolve())
                try:
                    if args.replay:
                        others: list[subprocess.Popen[bytes]] = []
                        replay_against: list[tuple[str, str]] = []
                        try:
                            for n, tree in enumerate(args.against):
                                folder = Path(tmp) / f"against-{n}"
                                folder.mkdir()
                                other, address = serve(folder, tree.resolve())
                                others.append(other)
                                replay_against.append((tree.name, address))
                            replay(browser, url, args.replay, args.timeout, replay_against)
                        finally:
                            for other in others:
                                other.terminate()
                                other.wait(timeout=10)
                        return
                    if args.idle:
                        work = idle_work(browser, url)
                        print("the main thread's work in 3 s on this player's bid, nothing moving (trace events; kinds nest):")
                        for ms, count, kind in work[:10]:
                            print(f"  {ms:9.1f} ms  {kind} ×{count}")
                        print(f"  {machine()}")
                        return
                    compared = bare_render(browser, url)
                    paced_before = bare_render_paced(browser, url) if not args.render else None
                    if args.render:
                        print_render(compared)
                        preact, rebuilt = compared["preact"]["mean"], compared["innerHTML"]["mean"]
                        print(f"ui_latency --render: preact+htm {preact:.3f} ms a 10-card update vs innerHTML rebuild "
                              f"{rebuilt:.3f} ms: ratio {preact / rebuilt:.2f}")
                        return
                    result = play_game(browser, url, args.players, args.timeout, profile=args.profile)
                    after = bare_render(browser, url)["preact"]
                    paced_after = bare_render_paced(browser, url)
                    together = bare_render_together(browser, url, args.players) if args.together else None
                finally:
                    process.terminate()
                    process.wait(timeout=10)
        finally:
            browser.close()
    # The bare render before and after the game, their mean: the machine's load changes meanwhile.
    before = compared["preact"]
    bare = {part: (before[part] + after[part]) / 2 for part in ("p50", "p95")}
    assert paced_before is not None
    paced = {part: (paced_before[part] + paced_after[part]) / 2 for part in ("p50", "p95")}
    report_game(result, bare, args.players, args.outlier_ms, together, paced)


if __name__ == "__main__":
    main()
