// The rendering comparison of benchmarks/ui_latency.py --render, and the "bare render" that
// tests/server/test_browser_table_speed.py measures a table update against: the same picture as
// the table page's (four seats, a trick, a 10-card hand with legal cards raised) drawn three ways
// (Preact+htm as shipped, rebuilding with innerHTML as the old client did, a hand-written keyed
// patch), updated `count` times (a card leaves the hand, the turn and the legal cards change), in
// one page of the running server. Evaluated by Playwright: an async function of `count`, or of
// `{count, pause}`: `pause` ms between two updates (outside the timing), so that each update
// comes as a game's does, to code and caches that did other things meanwhile (0: back to back).
async (arg) => {
  const { count, pause = 0 } = typeof arg === "number" ? { count: arg } : arg;
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
    for (let i = 0; i < count; i++) {
      if (pause) await new Promise((done) => setTimeout(done, pause));
      const t0 = performance.now();
      draw(frame(i));
      host.getBoundingClientRect();  // the layout the browser must do before it paints
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    out[name] = { mean: times.reduce((a, b) => a + b, 0) / times.length, p50: times[Math.floor(times.length * 0.5)],
                  p95: times[Math.floor(times.length * 0.95)] };
    render(null, host);
    host.innerHTML = "";
  }
  return out;
}
