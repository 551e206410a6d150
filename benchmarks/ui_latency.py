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
page's updates take (``update()``: the Preact patch plus the animation plan), for updates with
a 10-card hand. ``--render`` measures instead three ways to render the table side by side
(Preact+htm as shipped, rebuilding the page with innerHTML as the old client did, and a
hand-written keyed patch), with their code sizes.

    python benchmarks/ui_latency.py               # one game, four browser clients
    python benchmarks/ui_latency.py --render      # only the rendering comparison (a few seconds)

Traffic goes to 127.0.0.1 only; the run stops by itself (``--timeout``). The last line is the
result: the screen's p95 against the socket's p95 as the anchor.
"""

# ruff: noqa: E501  (the page scripts below are JavaScript, kept readable as they are)
from __future__ import annotations

import argparse
import gzip
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
  const probe = window.__probe = { clicks: [], arrived: [], shown: [], seen: new Set() };
  window.__ohhellUpdates = [];
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
    const onTable = new Set([...document.querySelectorAll(".trick .card[data-card]")].map((n) => n.dataset.card));
    const fresh = [...onTable].filter((card) => !probe.seen.has(card));
    for (const card of [...probe.seen]) if (!onTable.has(card)) probe.seen.delete(card);
    if (!fresh.length) return;
    for (const card of fresh) probe.seen.add(card);
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


def match(clicks: list[tuple[str, float]], events: list[tuple[str, float]]) -> list[float]:
    """For each click, the delay to the first event of the same card after it (ms)."""
    delays = []
    for card, clicked in clicks:
        later = [at for seen, at in events if seen == card and at >= clicked - 1]
        if later:
            delays.append(max(0.0, min(later) - clicked))
    return delays


def serve(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "ohhell.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--database", f"sqlite:///{folder / 'ohhell.db'}", "--log-level", "warning",
         "--bot-delay", "0", "--trick-pause", "0", "--hand-pause", "0"],
        stdout=log, stderr=subprocess.STDOUT, cwd=ROOT, env={**os.environ, "OHHELL_LANG": "en"})
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


def play_game(browser: Any, url: str, players: int, timeout: float) -> dict[str, Any]:
    created = httpx.post(url + "/api/tables", json={"name": "P1", "preset": "classic", "players": players,
                                                   "seats": ["open"] * (players - 1), "timer": 0}).json()
    code, tokens = created["code"], [created["token"]]
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
    started = time.monotonic()
    for page in pages:
        page.goto(f"{url}/t/{code}")
    pages[0].wait_for_selector("#game-over", timeout=timeout * 1000)
    elapsed = time.monotonic() - started
    pages[0].wait_for_timeout(500)
    data = [page.evaluate("() => ({clicks: __probe.clicks, arrived: __probe.arrived, shown: __probe.shown, "
                          "updates: window.__ohhellUpdates})") for page in pages]
    for page in pages:
        page.context.close()
    screen: list[float] = []
    socket: list[float] = []
    for i, mine in enumerate(data):
        for j, other in enumerate(data):
            if i != j:
                screen += match(mine["clicks"], other["shown"])
                socket += match(mine["clicks"], other["arrived"])
    updates = [u["ms"] for page in data for u in page["updates"]]
    ten = [u["ms"] for page in data for u in page["updates"] if u["cards"] == 10]
    # Where a 10-card update's time goes: the positions read before, the patch (with the layout
    # the seats' standing lines force), the animation plan after.
    parts = {part: statistics.median([u.get(part, 0.0) for page in data for u in page["updates"] if u["cards"] == 10] or [0.0])
             for part in ("snapshot", "render", "animate")}
    return {"screen": screen, "socket": socket, "updates": updates, "ten": ten, "parts": parts, "seconds": elapsed,
            "clicks": sum(len(d["clicks"]) for d in data), "reconnections": len(sockets) - len(pages)}


# The rendering comparison: the same picture (four seats, a trick, a 10-card hand with legal
# cards raised) drawn three ways, updated 2 000 times (a card leaves the hand, the turn and the
# legal cards change), in one page of the running server.
RENDER_COMPARISON = r"""
async () => {
  const { h, render } = await import("/static/js/vendor/preact.mjs");
  const htm = (await import("/static/js/vendor/htm.mjs")).default;
  const html = htm.bind(h);
  const deck = ["AS","KS","9S","4S","QH","TH","3H","KC","7C","2C","AD","JD","8D"];
  const frame = (i) => {
    const hand = deck.slice(0, 10).filter((_, k) => (k + i) % 11 !== 0);
    return { hand, legal: new Set(hand.filter((_, k) => (k + i) % 3 === 0)), turn: i % 4,
             trick: deck.slice(10, 10 + (i % 4)), scores: [i, 2 * i, 3 * i, 4 * i] };
  };
  const host = document.createElement("div");
  document.body.append(host);
  const seats = (f) => [0, 1, 2, 3].map((s) => ({ s, acting: f.turn === s, score: f.scores[s] }));
  const ways = {
    preact: (f) => render(html`<div class="felt">${seats(f).map((x) => html`<div key=${x.s} class=${"seat" + (x.acting ? " acting" : "")}>
        <b>Seat ${x.s}</b> <span>${x.score}</span></div>`)}
      <div class="trick">${f.trick.map((c) => html`<div key=${c} class="card" data-card=${c}>${c}</div>`)}</div>
      <div class="hand">${f.hand.map((c, k) => html`<button key=${c} class=${"card" + (f.legal.has(c) ? " legal" : " dim")} data-card=${c}
        aria-label=${c}>${c}</button>`)}</div></div>`, host),
    innerHTML: (f) => { host.innerHTML = `<div class="felt">${seats(f).map((x) => `<div class="seat${x.acting ? " acting" : ""}"><b>Seat ${x.s}</b> <span>${x.score}</span></div>`).join("")}
      <div class="trick">${f.trick.map((c) => `<div class="card" data-card="${c}">${c}</div>`).join("")}</div>
      <div class="hand">${f.hand.map((c) => `<button class="card${f.legal.has(c) ? " legal" : " dim"}" data-card="${c}" aria-label="${c}">${c}</button>`).join("")}</div></div>`; },
    keyed: (() => {
      let built = null;
      const sync = (parent, items, make, update) => {
        const old = new Map([...parent.children].map((n) => [n.dataset.card, n]));
        items.forEach((item, k) => {
          let node = old.get(item); old.delete(item);
          if (!node) node = make(item);
          update(node, item);
          if (parent.children[k] !== node) parent.insertBefore(node, parent.children[k] || null);
        });
        for (const node of old.values()) node.remove();
      };
      return (f) => {
        if (!built) {
          host.innerHTML = "";
          const felt = document.createElement("div"); felt.className = "felt";
          const seatNodes = [0, 1, 2, 3].map((s) => { const d = document.createElement("div"); d.innerHTML = `<b>Seat ${s}</b> <span></span>`; felt.append(d); return d; });
          const trick = document.createElement("div"); trick.className = "trick";
          const hand = document.createElement("div"); hand.className = "hand";
          felt.append(trick, hand); host.append(felt);
          built = { seatNodes, trick, hand };
        }
        seats(f).forEach((x) => { const d = built.seatNodes[x.s]; d.className = "seat" + (x.acting ? " acting" : ""); d.lastChild.textContent = x.score; });
        sync(built.trick, f.trick, (c) => { const d = document.createElement("div"); d.className = "card"; d.dataset.card = c; d.textContent = c; return d; }, () => {});
        sync(built.hand, f.hand, (c) => { const b = document.createElement("button"); b.dataset.card = c; b.textContent = c; b.setAttribute("aria-label", c); return b; },
             (b, c) => { b.className = "card" + (f.legal.has(c) ? " legal" : " dim"); });
      };
    })(),
  };
  const out = {};
  for (const [name, draw] of Object.entries(ways)) {
    host.innerHTML = "";
    render(null, host);
    for (let i = 0; i < 200; i++) draw(frame(i));  // warm up
    const times = [];
    for (let i = 0; i < 2000; i++) {
      const t0 = performance.now();
      draw(frame(i));
      host.getBoundingClientRect();  // the layout the browser must do before it paints
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    out[name] = { mean: times.reduce((a, b) => a + b, 0) / times.length, p95: times[Math.floor(times.length * 0.95)] };
    render(null, host);
    host.innerHTML = "";
  }
  return out;
}
"""


def gz(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), 9))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=600, help="seconds before giving up on the game")
    parser.add_argument("--render", action="store_true", help="only compare ways of rendering the table")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="ohhell-ui-latency-") as tmp:
        process, url = serve(Path(tmp))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
                try:
                    if args.render:
                        page = browser.new_page()
                        page.goto(url + "/score")
                        compared = page.evaluate(RENDER_COMPARISON)
                        page.close()
                        app = sum(gz(p) for p in (STATIC / "js").rglob("*.js") if "vendor" not in p.parts)
                        vendor = {name: gz(STATIC / "js" / "vendor" / name) for name in ("preact.mjs", "hooks.mjs", "htm.mjs")}
                        print("rendering the table (2000 updates of a 10-card hand, four seats, a trick):")
                        print(f"  {'way':<12}{'mean ms':>10}{'p95 ms':>10}   library size (gzip)")
                        sizes = {"preact": f"{vendor['preact.mjs'] + vendor['htm.mjs']} B preact+htm"
                                           f" (+{vendor['hooks.mjs']} B hooks)", "innerHTML": "0", "keyed": "0 (hand-written)"}
                        for name, figures in compared.items():
                            print(f"  {name:<12}{figures['mean']:>10.3f}{figures['p95']:>10.3f}   {sizes[name]}")
                        print(f"  the client's own modules: {app} B gzip")
                        load = os.getloadavg()
                        print(f"  load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
                        preact, rebuilt = compared["preact"]["mean"], compared["innerHTML"]["mean"]
                        print(f"ui_latency --render: preact+htm {preact:.3f} ms a 10-card update vs innerHTML rebuild "
                              f"{rebuilt:.3f} ms: ratio {preact / rebuilt:.2f}")
                        return
                    result = play_game(browser, url, args.players, args.timeout)
                finally:
                    browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)
    screen, socket = result["screen"], result["socket"]
    load = os.getloadavg()
    print(f"{args.players} browser clients, one game: {result['clicks']} cards played in {result['seconds']:.1f} s, "
          f"{len(screen)} (card, other screen) pairs")
    print(f"  click -> other screen shows the card: p50 {statistics.median(screen):.1f} ms, p95 {percentile(screen, .95):.1f} ms, "
          f"max {max(screen):.1f} ms")
    print(f"  click -> other page's socket has it (server): p50 {statistics.median(socket):.1f} ms, "
          f"p95 {percentile(socket, .95):.1f} ms")
    print(f"  reconnections (a connection that did not answer a ping within 3 s, or closed): {result['reconnections']}")
    updates, ten = result["updates"], result["ten"]
    print(f"  table page update(): p50 {statistics.median(updates):.2f} ms, p95 {percentile(updates, .95):.2f} ms over "
          f"{len(updates)} updates; with a 10-card hand p50 {statistics.median(ten):.2f} ms, p95 {percentile(ten, .95):.2f} ms")
    print("  a 10-card update's parts (p50 ms): " + ", ".join(f"{part} {ms:.2f}" for part, ms in result["parts"].items()))
    print(f"  load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    verdict = "meets" if percentile(screen, .95) < 150 else "misses"
    print(f"ui_latency: screen p95 {percentile(screen, .95):.1f} ms vs socket (server) p95 {percentile(socket, .95):.1f} ms: "
          f"ratio {percentile(screen, .95) / max(0.1, percentile(socket, .95)):.2f}; {verdict} the 150 ms target")


if __name__ == "__main__":
    main()
