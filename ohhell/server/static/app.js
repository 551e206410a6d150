// The ohhell web client: lobby, table, history and scorekeeper in one page, no build step.
// Every text comes from /i18n/{lang}.json (the server's gettext catalogs); nothing here is
// shown to a person without going through t() or tn().
"use strict";

// ---------------------------------------------------------------------------- i18n
let CAT = null;
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = new Set(["H", "D"]);

function fmt(text, params) {
  if (!params) return text;
  return text.replace(/%\((\w+)\)[sdr]/g, (m, name) => (name in params ? String(params[name]) : m));
}
function t(key, params) {
  const text = (CAT && (CAT.texts[key] ?? CAT.knobs[key])) ?? key;
  return fmt(text, params);
}
function tn(key, n, params) {
  const forms = CAT.plurals[key];
  const idx = CAT.plural_index;
  const form = n < idx.length ? idx[n] : idx[100 + (n % 100)];
  return fmt(forms[Math.min(form, forms.length - 1)], Object.assign({ count: n }, params || {}));
}
function levelName(level) { return (CAT && CAT.levels && CAT.levels[level]) || level; }
function chosenLanguage() {
  return localStorage.getItem("ohhell.lang") || document.documentElement.lang || "en";
}
async function loadCatalog(lang) {
  const response = await fetch(`/i18n/${encodeURIComponent(lang)}.json`);
  CAT = await response.json();
  document.documentElement.lang = CAT.language;
  document.title = t("app_title");
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  const select = document.getElementById("lang");
  select.innerHTML = "";
  for (const l of CAT.languages) {
    const o = el("option", { value: l.code }, l.name);
    if (l.code === CAT.language) o.selected = true;
    select.append(o);
  }
}

// ---------------------------------------------------------------------------- DOM helpers
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "html") node.innerHTML = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}
const main = () => document.getElementById("main");
function setConn(text, cls) {
  const c = document.getElementById("conn");
  c.textContent = text || "";
  c.className = "conn " + (cls || "");
}
async function api(method, url, body) {
  const sep = url.includes("?") ? "&" : "?";
  const response = await fetch(`${url}${sep}lang=${CAT ? CAT.language : "en"}`, {
    method, headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
  if (!response.ok) throw Object.assign(new Error(data.error || response.statusText), { data, status: response.status });
  return data;
}
function errorBox(message) { return el("p", { class: "error", role: "alert" }, message); }

// ---------------------------------------------------------------------------- cards
function cardParts(name) {
  if (name === "??" || name === "hidden") return { back: true };
  if (name === "X1" || name === "X2") return { rank: "🃏", suit: name === "X1" ? "1" : "2", red: name === "X1", joker: true };
  const r = name.slice(0, -1), s = name.slice(-1);
  // Rank letters follow the language (Т К Д В in Russian); the suit symbols never change.
  const rank = (CAT && CAT.ranks && CAT.ranks[r]) || (r === "T" ? "10" : r);
  return { rank, suit: SUITS[s], red: RED.has(s) };
}
function cardText(name) {
  const p = cardParts(name);
  return p.back ? "🂠" : p.rank + p.suit;
}
function cardEl(name, opts) {
  opts = opts || {};
  const p = cardParts(name);
  const cls = ["card", p.back ? "back" : p.red ? "red" : "black", opts.legal ? "legal" : "", opts.dim ? "dim" : "",
               opts.hint ? "hinted" : "", opts.small ? "small" : ""].join(" ");
  const tag = opts.onclick ? "button" : "span";
  const node = el(tag, { class: cls, "data-card": name, onclick: opts.onclick, title: p.back ? null : cardText(name),
                         "aria-label": p.back ? "?" : cardText(name), disabled: opts.disabled },
    p.back ? "" : el("span", { class: "rank" }, p.rank), p.back ? "" : el("span", { class: "suit" }, p.suit));
  return node;
}
function suitWord(letter) { return letter ? t("suit_" + letter) : t("no_trump"); }
function actionText(action) {
  if (action.type === "bid") return t("bid_word", { bid: action.bid });
  if (action.type === "play") return t("play_word", { card: cardText(action.card) });
  if (action.type === "declare") return action.high ? t("declare_high") : t("declare_low");
  return JSON.stringify(action);
}

// ---------------------------------------------------------------------------- storage
const SEATS_KEY = "ohhell.seats";
function seatsStored() { try { return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}"); } catch (e) { return {}; } }
function storeSeat(code, info) {
  const all = seatsStored();
  all[code] = Object.assign({ at: Date.now() }, info);
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}
const SHEETS_KEY = "ohhell.sheets";
function sheetsStored() { try { return JSON.parse(localStorage.getItem(SHEETS_KEY) || "{}"); } catch (e) { return {}; } }
function storeSheet(id, names) {
  const all = sheetsStored();
  all[id] = { names, at: Date.now() };
  localStorage.setItem(SHEETS_KEY, JSON.stringify(all));
}

// ---------------------------------------------------------------------------- router
let current = null; // the page object in use (has stop())
function go(path) { history.pushState(null, "", path); route(); }
window.addEventListener("popstate", () => route());
async function route() {
  if (current && current.stop) current.stop();
  current = null;
  setConn("");
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/t\/([A-Za-z0-9]+)/))) current = new TablePage(m[1].toUpperCase());
  else if ((m = path.match(/^\/score\/([A-Za-z0-9_-]+)/))) current = new SheetPage(m[1]);
  else if (path.startsWith("/score")) current = new NewSheetPage();
  else current = new Lobby();
  await current.show();
}

// ---------------------------------------------------------------------------- lobby
let CONFIG = null;
async function config() {
  if (!CONFIG) CONFIG = await api("GET", "/api/config");
  return CONFIG;
}

class Lobby {
  async show() {
    const cfg = await config();
    const root = main();
    root.innerHTML = "";
    this.knobValues = {};
    const name = el("input", { id: "name", name: "name", maxlength: 24, autocomplete: "nickname", required: true,
                                value: localStorage.getItem("ohhell.name") || "" });
    const presetSel = el("select", { id: "preset" }, cfg.presets.map((p) => el("option", { value: p.name }, p.name)));
    const summary = el("p", { class: "muted", id: "preset-summary" });
    const players = el("select", { id: "players" });
    const seats = el("div", { class: "seat-choices", id: "seat-choices" });
    const timer = el("select", { id: "timer" }, [0, 15, 30, 60, 120].map((s) =>
      el("option", { value: s }, s ? t("seconds_n", { n: s }) : t("no_timer"))));
    const knobs = el("div", { class: "knobs", id: "knobs" });
    const described = el("div", { class: "described", id: "described" });
    const message = el("div", { id: "create-message" });
    this.described = described;
    this.knobsBox = knobs;
    this.message = message;

    const fillPlayers = () => {
      const p = cfg.presets.find((x) => x.name === presetSel.value);
      summary.textContent = p.summary;
      const keep = Number(players.value || 4);
      players.innerHTML = "";
      for (const n of p.players) players.append(el("option", { value: n, selected: n === keep }, n));
      if (!p.players.includes(keep)) players.value = String(p.players.includes(4) ? 4 : p.players[0]);
      fillSeats();
    };
    const fillSeats = () => {
      const n = Number(players.value);
      const old = [...seats.querySelectorAll("select")].map((s) => s.value);
      seats.innerHTML = "";
      seats.append(el("div", { class: "seat-choice" }, el("span", {}, t("seat_n", { n: 1 })), el("strong", {}, t("seat_you"))));
      for (let i = 1; i < n; i++) {
        const sel = el("select", { "data-seat": i, "aria-label": t("seat_n", { n: i + 1 }) },
          el("option", { value: "open" }, t("seat_open")),
          cfg.levels.map((level) => el("option", { value: level }, t("bot_level", { level: levelName(level) }))));
        sel.value = old[i - 1] || (cfg.levels.includes(cfg.stand_in) ? cfg.stand_in : "open");
        seats.append(el("label", { class: "seat-choice" }, el("span", {}, t("seat_n", { n: i + 1 })), sel));
      }
      this.knobValues = {};
      this.refreshRules(presetSel.value, Number(players.value), true);
    };
    presetSel.addEventListener("change", fillPlayers);
    players.addEventListener("change", fillSeats);

    const create = async (event) => {
      event.preventDefault();
      message.innerHTML = "";
      if (!name.value.trim()) { message.append(errorBox(t("name_required"))); return; }
      localStorage.setItem("ohhell.name", name.value.trim());
      const body = { name: name.value.trim(), preset: presetSel.value, players: Number(players.value),
                     seats: [...seats.querySelectorAll("select")].map((s) => s.value), timer: Number(timer.value),
                     knobs: this.knobValues };
      try {
        const result = await api("POST", "/api/tables", body);
        storeSeat(result.code, { token: result.token, seat: result.seat, name: body.name });
        go(`/t/${result.code}`);
      } catch (e) { message.append(errorBox(e.message)); }
    };

    const code = el("input", { id: "code", maxlength: 8, autocapitalize: "characters", placeholder: "ABC234",
                                "aria-label": t("code") });
    const joinMessage = el("div");
    const join = (event) => {
      event.preventDefault();
      const value = code.value.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
      if (value) go(`/t/${value}`);
    };
    const mine = Object.entries(seatsStored()).sort((a, b) => b[1].at - a[1].at).slice(0, 10);
    const sheets = Object.entries(sheetsStored()).sort((a, b) => b[1].at - a[1].at).slice(0, 5);

    root.append(
      el("p", { class: "tagline" }, t("tagline")),
      el("div", { class: "lobby" },
        el("form", { class: "panel create", id: "create-form", onsubmit: create },
          el("h2", {}, t("create_table")),
          el("label", {}, t("your_name"), name),
          el("div", { class: "row" }, el("label", {}, t("preset"), presetSel), el("label", {}, t("players"), players)),
          summary,
          el("fieldset", {}, el("legend", {}, t("choose_bot_levels")), seats),
          el("label", {}, t("turn_timer"), timer),
          el("details", { class: "more" }, el("summary", {}, t("more_rules")), knobs),
          el("details", { class: "more" }, el("summary", {}, t("rules_explained")), described),
          message,
          el("button", { type: "submit", class: "primary", id: "create" }, t("create"))),
        el("div", { class: "side" },
          el("form", { class: "panel", onsubmit: join },
            el("h2", {}, t("join_by_code")),
            el("div", { class: "row" }, code, el("button", { type: "submit", id: "join-code" }, t("join"))), joinMessage),
          mine.length ? el("div", { class: "panel" }, el("h2", {}, t("my_tables")),
            el("ul", { class: "plain" }, mine.map(([c, info]) => el("li", {},
              el("a", { href: `/t/${c}`, onclick: (e) => { e.preventDefault(); go(`/t/${c}`); } }, c), " · ", info.name || "")))) : null,
          el("div", { class: "panel" }, el("h2", {}, t("scorekeeper")), el("p", { class: "muted" }, t("sk_intro")),
            el("a", { href: "/score", class: "button", onclick: (e) => { e.preventDefault(); go("/score"); } }, t("sk_title")),
            sheets.length ? el("ul", { class: "plain" }, sheets.map(([id, info]) => el("li", {},
              el("a", { href: `/score/${id}`, onclick: (e) => { e.preventDefault(); go(`/score/${id}`); } }, info.names.join(", "))))) : null))));
    fillPlayers();
  }

  async refreshRules(presetName, players, rebuild) {
    let data;
    try {
      data = await api("POST", "/api/rules", { preset: presetName, players, knobs: this.knobValues });
    } catch (e) {
      this.message.innerHTML = "";
      this.message.append(errorBox(e.message));
      return;
    }
    this.message.innerHTML = "";
    this.described.innerHTML = "";
    for (const [topic, sentence] of data.described) this.described.append(el("p", {}, el("strong", {}, topic), " ", sentence));
    if (rebuild) this.buildKnobs(data.knobs, presetName, players);
  }

  buildKnobs(values, presetName, players) {
    const box = this.knobsBox;
    box.innerHTML = "";
    for (const knob of CONFIG.knobs) {
      const value = values[knob.name];
      let input;
      const changed = (v) => {
        if (v === undefined) delete this.knobValues[knob.name]; else this.knobValues[knob.name] = v;
        this.refreshRules(presetName, players, false);
      };
      if (knob.kind === "bool") {
        input = el("input", { type: "checkbox", checked: !!value, onchange: () => changed(input.checked) });
      } else if (knob.kind === "choice") {
        input = el("select", { onchange: () => changed(knob.number && /^\d+$/.test(input.value) ? Number(input.value) : input.value) },
          knob.choices.map((c) => el("option", { value: c, selected: c === value },
            (CAT.choices && CAT.choices[knob.name] && CAT.choices[knob.name][c]) || c)),
          knob.number ? [...Array(15).keys()].map((i) => el("option", { value: i + 1, selected: value === i + 1 }, i + 1)) : null);
      } else if (knob.kind === "int" || knob.kind === "number") {
        input = el("input", { type: "number", value: value ?? "", step: knob.kind === "int" ? 1 : "any",
                              placeholder: t("knob_default"),
                              onchange: () => changed(input.value === "" ? null : Number(input.value)) });
      } else {
        input = el("input", { type: "text", value: JSON.stringify(value), spellcheck: false,
                              onchange: () => { try { changed(JSON.parse(input.value)); } catch (e) { input.classList.add("bad"); } } });
      }
      input.dataset.knob = knob.name;
      box.append(el("label", { class: "knob" + (knob.kind === "bool" ? " check" : "") }, el("span", {}, t(knob.name)), input));
    }
  }
}

// ---------------------------------------------------------------------------- the table
const PAUSE_RECONNECT = [300, 700, 1500, 3000, 5000];

class TablePage {
  constructor(code) {
    this.code = code;
    this.ws = null;
    this.state = null;
    this.welcome = null;
    this.stopped = false;
    this.attempt = 0;
    this.showLast = false;
    this.panel = null; // "sheet" | "history" | "rules" | null
    this.hint = null;
    this.messageId = 0;
    this.pending = null;
    this.historyData = null;
    this.replay = { hand: 0, trick: 0 };
    this.deadlines = {};
    this.tick = null;
    this.notice = "";
  }

  stop() {
    this.stopped = true;
    if (this.ws) this.ws.close();
    if (this.tick) clearInterval(this.tick);
  }

  async show() {
    const fragment = new URLSearchParams(location.hash.slice(1));
    if (fragment.get("seat")) {
      storeSeat(this.code, { token: fragment.get("seat"), seat: null, name: "" });
      history.replaceState(null, "", location.pathname);
    }
    const root = main();
    root.innerHTML = "";
    let summary;
    try {
      summary = await api("GET", `/api/tables/${this.code}`);
    } catch (e) {
      root.append(errorBox(t("bad_code")), el("p", {}, el("a", { href: "/", onclick: (ev) => { ev.preventDefault(); go("/"); } }, t("back_to_lobby"))));
      return;
    }
    this.summary = summary;
    const mine = seatsStored()[this.code];
    const watching = new URLSearchParams(location.search).has("watch");
    if (!mine && !watching && summary.status === "waiting" && summary.open_seats.length) {
      this.showJoin(summary);
      return;
    }
    this.token = mine && !watching ? mine.token : null;
    this.connect();
    this.tick = setInterval(() => this.renderTimers(), 500);
  }

  showJoin(summary) {
    const root = main();
    const name = el("input", { id: "join-name", maxlength: 24, value: localStorage.getItem("ohhell.name") || "", required: true });
    const message = el("div");
    const submit = async (event) => {
      event.preventDefault();
      if (!name.value.trim()) { message.append(errorBox(t("name_required"))); return; }
      localStorage.setItem("ohhell.name", name.value.trim());
      try {
        const result = await api("POST", `/api/tables/${this.code}/join`, { name: name.value.trim() });
        storeSeat(this.code, { token: result.token, seat: result.seat, name: name.value.trim() });
        route();
      } catch (e) { message.innerHTML = ""; message.append(errorBox(e.message)); }
    };
    root.append(el("form", { class: "panel narrow", onsubmit: submit },
      el("h2", {}, t("join_title", { code: this.code })),
      el("ul", { class: "plain" }, summary.seats.map((s, i) => el("li", {}, t("seat_n", { n: i + 1 }), ": ", this.seatLabel(s, i)))),
      el("label", {}, t("your_name"), name), message,
      el("div", { class: "row" }, el("button", { type: "submit", class: "primary", id: "take-seat" }, t("take_seat")),
        el("a", { class: "button", href: `/t/${this.code}?watch`, id: "watch" }, t("watch")))));
  }

  seatLabel(seat, index) {
    if (seat.kind === "human") return seat.name;
    if (seat.kind === "bot") return t("seat_kind_bot", { n: index + 1, level: levelName(seat.bot) });
    return t("status_open");
  }

  connect() {
    if (this.stopped) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      ws.send(JSON.stringify({ type: "hello", table: this.code, token: this.token, lang: CAT.language }));
    };
    ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    ws.onclose = () => {
      if (this.stopped || this.ws !== ws) return;
      setConn(t("reconnecting"), "bad");
      const pause = PAUSE_RECONNECT[Math.min(this.attempt++, PAUSE_RECONNECT.length - 1)];
      setTimeout(() => this.connect(), pause);
    };
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  act(action) {
    if (!this.state) return;
    this.messageId += 1;
    this.pending = { action, id: this.messageId, version: this.state.version, retried: false };
    this.hint = null;
    this.send({ type: "act", version: this.state.version, action, id: this.messageId });
  }

  receive(message) {
    if (message.type === "welcome") {
      this.welcome = message;
      setConn(t("connected"), "ok");
      if (message.seat === null && this.token) {
        // our token was refused: forget it and watch instead
        this.token = null;
      }
    } else if (message.type === "state") {
      if (message.full || !this.state) this.state = {};
      Object.assign(this.state, message.changes);
      const now = Date.now();
      this.deadlines = {};
      for (const [seat, left] of Object.entries((this.state.table || {}).deadlines || {})) this.deadlines[seat] = now + left * 1000;
      if (this.hint && this.hint.version !== this.state.version) this.hint = null;
      this.render();
    } else if (message.type === "error") {
      if (message.code === "stale" && this.pending && !this.pending.retried) {
        // Somebody else acted first (simultaneous bids, a bid change): try again if still legal.
        const p = this.pending;
        const still = this.state && this.state.legal_actions.some((a) => sameAction(a, p.action));
        if (still) {
          p.retried = true;
          this.messageId += 1;
          this.send({ type: "act", version: this.state.version, action: p.action, id: this.messageId });
          return;
        }
      }
      this.notice = message.detail || message.message;
      this.render();
    } else if (message.type === "hint") {
      this.hint = message;
      this.render();
    } else if (message.type === "history") {
      this.historyData = message;
      this.render();
    }
  }

  names() {
    const seats = (this.state.table || this.summary).seats;
    return seats.map((s, i) => this.seatLabel(s, i));
  }

  render() {
    const s = this.state;
    if (!s || !s.table) return;
    const root = main();
    root.innerHTML = "";
    const me = s.seat;
    const names = this.names();
    const info = s.table;
    root.append(el("div", { class: "table-head" },
      el("h2", {}, t("table_code", { code: this.code })),
      me === null ? el("span", { class: "badge" }, t("spectating")) : null,
      info.spectators ? el("span", { class: "muted" }, tn("spectators_n", info.spectators)) : null));
    if (this.notice) root.append(el("p", { class: "notice", role: "status", onclick: () => { this.notice = ""; this.render(); } }, this.notice));

    if (info.status === "waiting") {
      root.append(this.renderWaiting(names));
      return;
    }
    root.append(this.renderInfo(names));
    if (me !== null && info.seats[me].away) {
      root.append(el("div", { class: "notice away" }, t("away_notice"), " ",
        el("button", { id: "back", onclick: () => this.send({ type: "back" }) }, t("im_back"))));
    }
    root.append(this.renderSeats(names));
    if (s.game_over) root.append(this.renderGameOver(names));
    else root.append(this.renderTrick(names));
    if (me !== null && !s.game_over) root.append(this.renderActions(names));
    if (me !== null && s.hand && s.hand.length) root.append(this.renderHand());
    root.append(this.renderTools());
    if (this.panel === "sheet" || s.game_over) root.append(this.renderSheet(names));
    if (this.panel === "history") root.append(this.renderHistory(names));
    if (this.panel === "rules") root.append(this.renderRules());
  }

  renderWaiting(names) {
    const s = this.state;
    const link = `${location.origin}/t/${this.code}`;
    const copy = (text) => async (e) => {
      try { await navigator.clipboard.writeText(text); e.target.textContent = t("copied"); } catch (err) { /* no clipboard */ }
    };
    const box = el("div", { class: "panel waiting" },
      el("p", {}, t("waiting_for_players")),
      el("label", {}, t("invite"), el("div", { class: "row" }, el("input", { readonly: true, value: link, id: "invite-link" }),
        el("button", { onclick: copy(link) }, t("copy")))),
      el("ul", { class: "plain seats-list" }, s.table.seats.map((seat, i) => el("li", {},
        t("seat_n", { n: i + 1 }), ": ", names[i], seat.kind === "human" ? el("span", { class: "dot " + (seat.online ? "on" : "off") }) : null))),
      el("p", { class: "muted" }, t("only_host_starts")));
    if (s.seat !== null && s.seat === s.table.host) {
      box.append(el("button", { class: "primary", id: "start", onclick: () => this.send({ type: "start" }) }, t("start_now")));
    }
    if (this.token) {
      const own = `${location.origin}/t/${this.code}#seat=${this.token}`;
      box.append(el("details", {}, el("summary", {}, t("your_link")), el("div", { class: "row" },
        el("input", { readonly: true, value: own }), el("button", { onclick: copy(own) }, t("copy")))));
    }
    return box;
  }

  renderInfo(names) {
    const s = this.state;
    const parts = [];
    if (!s.game_over) {
      parts.push(el("span", {}, s.hand_count ? t("hand_of", { n: s.hand_index + 1, count: s.hand_count }) : t("hand_open", { n: s.hand_index + 1 })));
      parts.push(el("span", {}, tn("cards_n", s.hand_size)));
      if (s.dealer !== null) parts.push(el("span", {}, t("dealer"), ": ", names[s.dealer]));
      // Before the deal (between hands) the trump is not known yet: say nothing rather than "No trump".
      if (s.dealt || s.scoresheet) {
        const trump = el("span", { class: "trump" }, t("trump"), ": ",
          el("strong", { class: s.trump && RED.has(s.trump) ? "red" : "" }, s.trump && SUITS[s.trump] ? SUITS[s.trump] + " " : "", suitWord(s.trump)));
        parts.push(trump);
      }
      if (s.turn_up) parts.push(el("span", { class: "turned" }, t("turned_card"), ": ", cardEl(s.turn_up, { small: true })));
    }
    const bar = el("div", { class: "info-bar" }, parts);
    if (s.hand_index === 0 && s.draws && s.draws.length && s.phase === "bidding") {
      bar.append(el("span", { class: "muted" }, t("draws"), ": ", s.draws.map(([seat, card]) => `${names[seat]} ${cardText(card)}`).join(", ")));
    }
    return bar;
  }

  renderSeats(names) {
    const s = this.state;
    const n = names.length;
    const me = s.seat === null ? 0 : s.seat;
    const order = [...Array(n).keys()].map((i) => (me + i) % n);
    return el("div", { class: "seats" }, order.map((seat) => {
      const info = s.table.seats[seat];
      const acting = !s.game_over && (s.turn === seat || (s.turn === null && s.actors.includes(seat) && s.phase === "bidding"));
      const status = info.kind === "bot" ? t("status_bot") : info.away ? t("status_away") : info.online ? t("status_online") : t("status_offline");
      const bid = s.bids[seat];
      const bidText = bid !== null && bid !== undefined ? String(bid) : s.has_bid[seat] ? "✓" : "–";
      const visible = s.visible_hands && s.visible_hands[String(seat)];
      return el("div", { class: "seat" + (acting ? " acting" : "") + (seat === s.seat ? " mine" : ""), "data-seat": seat },
        el("div", { class: "seat-name" }, names[seat], s.dealer === seat && !s.game_over ? el("span", { class: "dealer-chip", title: t("dealer") }, CAT.dealer_chip || "D") : null),
        el("div", { class: "seat-status muted" }, status, el("span", { class: "timer", "data-timer": seat })),
        el("div", { class: "seat-numbers" },
          el("span", { title: t("bid") }, t("bid"), " ", el("strong", { class: "bid" }, bidText)),
          el("span", { title: t("tricks") }, t("tricks"), " ", el("strong", { class: "tricks" }, s.tricks_won[seat])),
          el("span", { title: t("total") }, t("total"), " ", el("strong", { class: "total" }, s.totals[seat]))),
        visible ? el("div", { class: "visible-hand" }, visible.map((c) => cardEl(c, { small: true }))) : null);
    }));
  }

  renderTimers() {
    const now = Date.now();
    for (const node of document.querySelectorAll("[data-timer]")) {
      const at = this.deadlines[node.dataset.timer];
      node.textContent = at ? " · " + t("time_left", { seconds: Math.max(0, Math.ceil((at - now) / 1000)) }) : "";
    }
  }

  renderTrick(names) {
    const s = this.state;
    let cards = s.current_trick;
    let caption = t("current_trick");
    let winner = null;
    const last = s.completed_tricks.length ? s.completed_tricks[s.completed_tricks.length - 1] : null;
    if (this.showLast && last) {
      cards = last.cards; caption = t("last_trick"); winner = last.winner;
    } else if (!cards.length && last && s.phase === "playing") {
      cards = last.cards; winner = last.winner; caption = t("last_trick");
    }
    return el("div", { class: "trick", id: "trick" },
      el("div", { class: "trick-caption muted" }, caption, winner !== null ? " · " + t("won_by", { name: names[winner] }) : ""),
      el("div", { class: "trick-cards" }, cards.map(([seat, card]) => el("div", { class: "played" + (seat === winner ? " winner" : "") },
        cardEl(card), el("div", { class: "played-by" }, names[seat])))));
  }

  renderActions(names) {
    const s = this.state;
    const me = s.seat;
    const box = el("div", { class: "actions", id: "actions" });
    const legal = s.legal_actions || [];
    const bids = legal.filter((a) => a.type === "bid");
    const myTurn = s.turn === me || (s.turn === null && s.actors.includes(me));
    if (s.phase === "bidding" && myTurn && s.bids[me] === null) {
      box.append(el("p", { class: "prompt" }, t("your_bid")));
      if (s.forbidden_bid !== null && s.dealer === me) box.append(el("p", { class: "hook" }, t("forbidden_bid", { bid: s.forbidden_bid })));
      const row = el("div", { class: "bid-buttons" });
      for (let b = 0; b <= s.hand_size; b++) {
        const allowed = bids.some((a) => a.bid === b);
        row.append(el("button", { class: "bid-button" + (this.isHinted({ type: "bid", bid: b }) ? " hinted" : ""), "data-bid": b, disabled: !allowed,
                                  onclick: () => this.act({ type: "bid", bid: b }) }, b));
      }
      box.append(row);
    } else if (s.phase === "declaring" && s.turn === me) {
      box.append(el("p", { class: "prompt" }, t("declare_joker")),
        el("div", { class: "row" }, el("button", { id: "declare-high", onclick: () => this.act({ type: "declare", high: true }) }, t("joker_high")),
          el("button", { id: "declare-low", onclick: () => this.act({ type: "declare", high: false }) }, t("joker_low"))));
    } else if (s.phase === "playing" && s.turn === me) {
      box.append(el("p", { class: "prompt your-turn" }, t("your_turn")));
      if (s.blind) box.append(el("p", {}, t("blind_hand")), el("button", { id: "play-hidden", onclick: () => this.act({ type: "play", card: "hidden" }) }, t("play_hidden")));
    } else if (s.phase === "bidding" && s.turn === null && s.bids[me] !== null) {
      box.append(el("p", { class: "muted" }, t("waiting_for_bids"), " · ", t("bid_secret")));
    } else if (s.turn !== null && s.turn !== undefined) {
      box.append(el("p", { class: "muted" }, t("waiting_for", { name: names[s.turn] })));
    }
    if (s.can_change_bid && !(s.phase === "bidding" && s.turn === me && s.bids[me] === null)) {
      const changes = bids;
      const open = this.changing;
      const button = el("button", { id: "change-bid", onclick: () => { this.changing = !this.changing; this.render(); } }, open ? t("keep_bid") : t("change_bid"));
      box.append(button);
      if (open) {
        const row = el("div", { class: "bid-buttons" });
        for (const a of changes) row.append(el("button", { class: "bid-button", "data-bid": a.bid, onclick: () => { this.changing = false; this.act({ type: "bid", bid: a.bid }); } }, a.bid));
        box.append(row);
      }
    } else this.changing = false;
    if (this.hint && this.hint.version === s.version) {
      box.append(el("p", { class: "hint", id: "hint-text" }, t("hint_says", { action: actionText(this.hint.action) })));
    }
    return box;
  }

  isHinted(action) { return this.hint && this.hint.version === this.state.version && sameAction(this.hint.action, action); }

  renderHand() {
    const s = this.state;
    const me = s.seat;
    const plays = (s.legal_actions || []).filter((a) => a.type === "play").map((a) => a.card);
    const myTurn = s.phase === "playing" && s.turn === me;
    const hand = el("div", { class: "hand", id: "hand" });
    let lastSuit = null;
    for (const card of s.hand) {
      const legal = myTurn && plays.includes(card);
      const suit = card.slice(-1);
      if (lastSuit && suit !== lastSuit) hand.append(el("span", { class: "suit-gap" }));
      lastSuit = suit;
      hand.append(cardEl(card, { legal, dim: myTurn && !legal, hint: this.isHinted({ type: "play", card }),
                                 onclick: legal ? () => this.act({ type: "play", card }) : undefined, disabled: !legal }));
    }
    return hand;
  }

  renderTools() {
    const s = this.state;
    const tools = el("div", { class: "tools" });
    const legal = s.legal_actions || [];
    if (s.seat !== null && !s.game_over && legal.length) tools.append(el("button", { id: "hint", onclick: () => this.send({ type: "hint", version: s.version }) }, t("hint")));
    if (s.completed_tricks.length && !s.game_over) {
      tools.append(el("button", { id: "last-trick", onclick: () => { this.showLast = !this.showLast; this.render(); } }, this.showLast ? t("hide_last_trick") : t("show_last_trick")));
    }
    const toggle = (name, label, id) => el("button", { id, class: this.panel === name ? "active" : "", onclick: () => {
      this.panel = this.panel === name ? null : name;
      if (this.panel === "history") this.send({ type: "history" });
      this.render();
    } }, label);
    if (!s.game_over) tools.append(toggle("sheet", t("score_sheet"), "show-sheet"));
    if (s.finished_hands.length) tools.append(toggle("history", t("history"), "show-history"));
    tools.append(toggle("rules", t("rules"), "show-rules"));
    if (s.finished_hands.length) tools.append(el("a", { class: "button", id: "export", href: `/api/tables/${this.code}/record`, download: `ohhell-${this.code}.json` }, t("export_record")));
    return tools;
  }

  renderGameOver(names) {
    const s = this.state;
    const winners = s.winners.map((w) => names[w]).join(", ");
    return el("div", { class: "panel game-over", id: "game-over" }, el("h2", {}, t("game_over")),
      el("p", { class: "winners" }, tn("winners", s.winners.length, { names: winners })),
      el("a", { class: "button", href: "/", onclick: (e) => { e.preventDefault(); go("/"); } }, t("new_game")));
  }

  renderSheet(names) {
    const s = this.state;
    return el("div", { class: "panel sheet", id: "sheet" }, el("h3", {}, t("score_sheet")),
      scoreTable(names, s.finished_hands.map((h) => ({ dealer: h.dealer, size: h.size, trump: h.trump, bids: h.bids, tricks: h.tricks, scores: h.scores, totals: h.totals })), s.totals),
      el("h3", {}, t("chart")), totalsChart(names, s.finished_hands.map((h) => h.totals)));
  }

  renderRules() {
    const w = this.welcome;
    return el("div", { class: "panel rules-text", id: "rules" }, el("h3", {}, t("rules")),
      (w ? w.rules_text : []).map(([topic, sentence]) => el("p", {}, el("strong", {}, topic), " ", sentence)));
  }

  renderHistory(names) {
    const data = this.historyData;
    const box = el("div", { class: "panel history", id: "history" }, el("h3", {}, t("replay")));
    if (!data || !data.hands.length) return box;
    const r = this.replay;
    r.hand = Math.min(r.hand, data.hands.length - 1);
    const hand = data.hands[r.hand];
    const n = names.length;
    const tricks = [];
    for (let i = 0; i < hand.plays.length; i += n) tricks.push(hand.plays.slice(i, i + n));
    r.trick = Math.max(0, Math.min(r.trick, tricks.length));
    const handSel = el("select", { id: "replay-hand", onchange: () => { r.hand = Number(handSel.value); r.trick = 0; this.render(); } },
      data.hands.map((h, i) => el("option", { value: i, selected: i === r.hand }, t("hand_open", { n: i + 1 }) + " · " + tn("cards_n", h.size))));
    const dealt = {};
    for (const [seat, card] of hand.plays) (dealt[seat] = dealt[seat] || []).push(card);
    const playedSoFar = new Set(tricks.slice(0, r.trick).flat().map(([, c]) => c));
    box.append(el("div", { class: "row" }, handSel,
      el("button", { id: "replay-prev", onclick: () => { r.trick -= 1; if (r.trick < 0 && r.hand > 0) { r.hand -= 1; r.trick = 99; } this.render(); } }, t("previous")),
      el("span", { class: "muted" }, r.trick === 0 ? t("deal") : t("trick_n", { n: r.trick })),
      el("button", { id: "replay-next", onclick: () => { r.trick += 1; if (r.trick > tricks.length && r.hand < data.hands.length - 1) { r.hand += 1; r.trick = 0; } this.render(); } }, t("next"))));
    box.append(el("p", {}, t("dealer"), ": ", names[hand.dealer], " · ", t("trump"), ": ", suitWord(hand.trump),
      hand.turn_up ? [" · ", t("turned_card"), ": ", cardText(hand.turn_up)] : null));
    box.append(el("div", { class: "replay-seats" }, [...Array(n).keys()].map((seat) => el("div", { class: "replay-seat" },
      el("div", { class: "seat-name" }, names[seat], " · ", t("bid"), " ", hand.bids[seat] ?? "–", " · ", t("tricks"), " ", hand.tricks[seat]),
      el("div", { class: "replay-hand" }, sortCards(dealt[seat] || []).map((c) => cardEl(c, { small: true, dim: playedSoFar.has(c) })))))));
    if (r.trick > 0) {
      const trick = tricks[r.trick - 1];
      const win = trickWinner(trick, hand.trump);
      box.append(el("div", { class: "trick-cards" }, trick.map(([seat, card]) => el("div", { class: "played" + (seat === win ? " winner" : "") }, cardEl(card), el("div", { class: "played-by" }, names[seat])))));
    }
    return box;
  }
}

function sameAction(a, b) {
  return a.type === b.type && (a.bid ?? null) === (b.bid ?? null) && (a.card ?? null) === (b.card ?? null) && (a.high ?? null) === (b.high ?? null);
}
const RANK_ORDER = "23456789TJQKA";
function sortCards(cards) {
  const suitOrder = { S: 0, H: 1, C: 2, D: 3, "1": 4, "2": 4 };
  return [...cards].sort((a, b) => (suitOrder[a.slice(-1)] - suitOrder[b.slice(-1)]) || (RANK_ORDER.indexOf(b[0]) - RANK_ORDER.indexOf(a[0])));
}
// The winner of a finished trick, for the replay (the usual rule: the highest trump, else the
// highest card of the suit led; a joker counts above the ace of its own suit).
function trickWinner(trick, trump) {
  if (!trick.length) return null;
  const suit = (c) => (c[0] === "X" ? "X" : c.slice(-1));
  const rank = (c) => (c[0] === "X" ? 13 : RANK_ORDER.indexOf(c[0]));
  const led = suit(trick[0][1]);
  let best = null, power = -1;
  for (const [seat, card] of trick) {
    let p = -1;
    if (trump && suit(card) === trump) p = 200 + rank(card);
    else if (suit(card) === led) p = 100 + rank(card);
    if (p > power) { power = p; best = seat; }
  }
  return best;
}

const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22"];
function scoreTable(names, hands, totals) {
  const head = el("tr", {}, el("th", {}, "#"), el("th", {}, t("dealer")), el("th", {}, t("trump")),
    names.map((name, i) => el("th", { colspan: 2, style: `color:${COLORS[i % COLORS.length]}` }, name)));
  const rows = hands.map((h, index) => el("tr", {}, el("td", {}, `${index + 1}`, el("span", { class: "muted" }, ` (${h.size})`)),
    el("td", {}, names[h.dealer]), el("td", { class: h.trump && RED.has(h.trump) ? "red" : "" }, h.trump ? SUITS[h.trump] || "🃏" : "–"),
    names.map((_, seat) => [
      el("td", { class: "bt " + (h.scores && h.bids[seat] === h.tricks[seat] ? "made" : h.scores ? "missed" : "") },
        `${h.bids[seat] ?? "–"}/${h.tricks ? h.tricks[seat] : "–"}`),
      el("td", { class: "num" }, h.scores ? el("span", {}, h.scores[seat], el("small", { class: "muted" }, h.totals ? ` ${h.totals[seat]}` : "")) : "")])));
  const foot = el("tr", { class: "totals" }, el("td", { colspan: 3 }, t("total")), names.map((_, seat) => el("td", { colspan: 2, class: "num" }, el("strong", {}, totals[seat]))));
  return el("div", { class: "scroll" }, el("table", { class: "score-table" }, el("thead", {}, head), el("tbody", {}, rows), el("tfoot", {}, foot)));
}

function totalsChart(names, series) {
  const width = 640, height = 220, pad = 32;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("chart"));
  const all = series.flat();
  const lo = Math.min(0, ...all), hi = Math.max(10, ...all);
  const count = Math.max(1, series.length);
  const x = (i) => pad + (i * (width - 2 * pad)) / count;
  const y = (v) => height - pad - ((v - lo) * (height - 2 * pad)) / (hi - lo || 1);
  const line = (x1, y1, x2, y2, cls) => {
    const l = document.createElementNS(ns, "line");
    Object.entries({ x1, y1, x2, y2 }).forEach(([k, v]) => l.setAttribute(k, v));
    l.setAttribute("class", cls);
    svg.append(l);
  };
  line(pad, y(0), width - pad, y(0), "axis");
  line(pad, pad / 2, pad, height - pad, "axis");
  const label = (text, lx, ly, anchor) => {
    const node = document.createElementNS(ns, "text");
    node.setAttribute("x", lx); node.setAttribute("y", ly); node.setAttribute("text-anchor", anchor || "end");
    node.textContent = text;
    svg.append(node);
  };
  label(String(hi), pad - 4, y(hi) + 4);
  label(String(lo), pad - 4, y(lo) + 4);
  label(String(series.length), x(series.length), height - pad + 16, "middle");
  names.forEach((name, seat) => {
    const points = [[x(0), y(0)]].concat(series.map((totals, i) => [x(i + 1), y(totals[seat])]));
    const path = document.createElementNS(ns, "polyline");
    path.setAttribute("points", points.map((p) => p.join(",")).join(" "));
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", COLORS[seat % COLORS.length]);
    path.setAttribute("stroke-width", "2.5");
    svg.append(path);
  });
  const legend = el("div", { class: "legend" }, names.map((name, seat) => el("span", {}, el("i", { style: `background:${COLORS[seat % COLORS.length]}` }), name)));
  return el("div", { class: "chart-box" }, svg, legend);
}

// ---------------------------------------------------------------------------- scorekeeper
class NewSheetPage {
  async show() {
    const cfg = await config();
    const root = main();
    root.innerHTML = "";
    const names = el("div", { class: "names", id: "sk-names" });
    const addName = (value) => {
      if (names.children.length >= 10) return;
      const input = el("input", { class: "sk-name", maxlength: 24, value: value || "" });
      const row = el("div", { class: "row" }, input, el("button", { type: "button", onclick: () => { if (names.children.length > 3) row.remove(); } }, t("sk_remove_player")));
      names.append(row);
    };
    for (let i = 0; i < 4; i++) addName("");
    const presetSel = el("select", { id: "sk-preset" }, cfg.presets.map((p) => el("option", { value: p.name }, p.name)));
    const message = el("div");
    const submit = async (event) => {
      event.preventDefault();
      const list = [...names.querySelectorAll("input")].map((i) => i.value.trim());
      try {
        const sheet = await api("POST", "/api/sheets", { names: list, preset: presetSel.value, first_dealer: 0 });
        storeSheet(sheet.id, sheet.names);
        go(`/score/${sheet.id}`);
      } catch (e) { message.innerHTML = ""; message.append(errorBox(e.message)); }
    };
    root.append(el("form", { class: "panel narrow", onsubmit: submit },
      el("h2", {}, t("sk_title")), el("p", { class: "muted" }, t("sk_intro")),
      el("label", {}, t("preset"), presetSel),
      el("fieldset", {}, el("legend", {}, t("sk_names")), names,
        el("button", { type: "button", id: "sk-add", onclick: () => addName("") }, t("sk_add_player"))),
      message, el("button", { type: "submit", class: "primary", id: "sk-create" }, t("sk_start"))));
  }
}

class SheetPage {
  constructor(id) { this.id = id; this.sheet = null; this.editing = null; this.message = ""; }
  async show() {
    try { this.sheet = await api("GET", `/api/sheets/${this.id}`); } catch (e) { main().innerHTML = ""; main().append(errorBox(e.message)); return; }
    storeSheet(this.id, this.sheet.names);
    this.render();
  }
  async change(op) {
    try { this.sheet = await api("POST", `/api/sheets/${this.id}`, op); this.message = ""; this.editing = null; }
    catch (e) { this.message = e.message; }
    this.render();
  }
  render() {
    const s = this.sheet;
    const root = main();
    root.innerHTML = "";
    const names = s.names;
    root.append(el("h2", {}, t("sk_title")), el("p", { class: "muted" }, t("sk_link")));
    if (this.message) root.append(errorBox(this.message));
    if (!s.finished) {
      const box = el("div", { class: "panel", id: "sk-current" },
        el("h3", {}, s.hand_count ? t("hand_of", { n: s.hand_index + 1, count: s.hand_count }) : t("hand_open", { n: s.hand_index + 1 }),
          " · ", tn("cards_n", s.hand_size), " · ", t("dealer"), ": ", names[s.dealer]));
      if (s.trump_is_turned && s.next_bidder === s.bid_order[0] && s.bids.every((b) => b === null)) {
        const input = el("input", { id: "sk-trump", maxlength: 3, placeholder: "7H / S" });
        box.append(el("div", { class: "row" }, el("label", {}, t("sk_trump_entry"), input),
          el("button", { onclick: () => this.change({ op: "trump", trump: input.value }) }, t("sk_set_trump"))));
      }
      if (s.trump) box.append(el("p", {}, t("trump"), ": ", SUITS[s.trump] || "", " ", suitWord(s.trump)));
      if (s.next_bidder !== null) {
        box.append(el("p", { class: "prompt" }, t("sk_enter_bid", { name: names[s.next_bidder] })));
        if (s.forbidden_bid !== null) box.append(el("p", { class: "hook" }, t("forbidden_bid", { bid: s.forbidden_bid })));
        const row = el("div", { class: "bid-buttons" });
        for (let b = 0; b <= s.hand_size; b++) {
          row.append(el("button", { class: "bid-button", "data-bid": b, disabled: b === s.forbidden_bid, onclick: () => this.change({ op: "bid", seat: s.next_bidder, bid: b }) }, b));
        }
        box.append(row);
      } else {
        box.append(el("p", { class: "prompt" }, t("sk_enter_tricks")), el("p", { class: "muted" }, t("sk_tricks_must_add_up", { n: s.hand_size })));
        const inputs = names.map((name, seat) => el("label", { class: "sk-trick" }, `${name} (${t("bid")} ${s.bids[seat] ?? "–"})`,
          el("input", { type: "number", min: 0, max: s.hand_size, value: 0, "data-seat": seat })));
        box.append(el("div", { class: "sk-tricks" }, inputs));
        box.append(el("button", { class: "primary", id: "sk-score", onclick: () => this.change({ op: "tricks", tricks: inputs.map((l) => Number(l.querySelector("input").value)) }) }, t("sk_save_tricks")));
      }
      root.append(box);
    } else {
      root.append(el("div", { class: "panel game-over" }, el("h3", {}, t("game_over")),
        el("p", { class: "winners" }, tn("winners", s.winners.length, { names: s.winners.map((w) => names[w]).join(", ") }))));
    }
    const table = scoreTable(names, s.hands, s.totals);
    const rows = table.querySelectorAll("tbody tr");
    s.hands.forEach((h, index) => {
      if (!h.scores) return;
      rows[index].append(el("td", {}, el("button", { class: "small", "data-edit": index, onclick: () => { this.editing = index; this.render(); } }, t("sk_edit"))));
    });
    root.append(el("div", { class: "panel" }, el("h3", {}, t("score_sheet")), table));
    if (this.editing !== null) root.append(this.renderEdit(names));
    root.append(el("div", { class: "panel" }, el("h3", {}, t("chart")), totalsChart(names, s.totals_by_hand)));
    root.append(el("div", { class: "tools" },
      s.can_undo ? el("button", { id: "sk-undo", onclick: () => this.change({ op: "undo" }) }, t("sk_undo")) : null,
      el("a", { class: "button", href: `/api/sheets/${this.id}?format=record` }, t("export_record")),
      el("a", { class: "button", href: `/api/sheets/${this.id}?format=csv` }, t("export_csv"))));
  }
  renderEdit(names) {
    const index = this.editing;
    const hand = this.sheet.hands[index];
    const rows = names.map((name, seat) => el("tr", {}, el("td", {}, name),
      el("td", {}, el("input", { type: "number", min: 0, max: hand.size, value: hand.bids[seat] ?? "", "data-bid": seat })),
      el("td", {}, el("input", { type: "number", min: 0, max: hand.size, value: hand.tricks[seat], "data-tricks": seat }))));
    const box = el("div", { class: "panel", id: "sk-edit" }, el("h3", {}, t("sk_edit_hand", { n: index + 1 })),
      el("table", {}, el("thead", {}, el("tr", {}, el("th", {}), el("th", {}, t("bid")), el("th", {}, t("tricks")))), el("tbody", {}, rows)));
    box.append(el("div", { class: "row" },
      el("button", { class: "primary", onclick: () => {
        const bids = names.map((_, seat) => { const v = box.querySelector(`[data-bid="${seat}"]`).value; return v === "" ? null : Number(v); });
        const tricks = names.map((_, seat) => Number(box.querySelector(`[data-tricks="${seat}"]`).value));
        this.change({ op: "edit", hand: index, bids, tricks });
      } }, t("sk_save")),
      el("button", { onclick: () => { this.editing = null; this.render(); } }, t("sk_cancel"))));
    return box;
  }
}

// ---------------------------------------------------------------------------- start
document.getElementById("home").addEventListener("click", (e) => { e.preventDefault(); go("/"); });
document.getElementById("lang").addEventListener("change", async (e) => {
  localStorage.setItem("ohhell.lang", e.target.value);
  CONFIG = null;
  await loadCatalog(e.target.value);
  route();
});
loadCatalog(chosenLanguage()).then(route);
