// The pages of players who come back: the account, a player's or a bot's page, the ratings,
// duplicate events and the daily deal (docs/accounts.md). showCommunity(path, main, go) draws the
// page for a path into <main> and says whether the path was one of these.
import { html, render, useEffect, useState } from "../html.js";
import { t, levelName } from "../i18n.js";
import { serverConfig } from "../net/api.js";
import { seatsStored, storeSeat, savedName, saveName } from "../storage.js";
import { capi, me, forget } from "../community/api.js";
import { ct, ctn, day, family, loadCommunityTexts } from "../community/texts.js";
import { RatingChart } from "../community/chart.js";
import { inPool, keptPoolContribution, poolContribution } from "../fair.js";

const POLL_MS = 3000;

function stylesheet() {
  if (!document.getElementById("community-css")) {
    const link = document.createElement("link");
    Object.assign(link, { id: "community-css", rel: "stylesheet", href: "/static/community.css" });
    document.head.appendChild(link);
  }
}

function linkTo(go, path) { return (event) => { event.preventDefault(); go(path); }; }

function Message({ text, error }) {
  return text ? html`<p class=${error ? "error" : "notice"} role=${error ? "alert" : "status"}>${text}</p>` : null;
}

/** The seats this browser holds, as the claim API takes them. */
function storedSeats() {
  return Object.entries(seatsStored()).filter(([, info]) => info && info.token)
    .map(([code, info]) => ({ table: code, token: info.token }));
}

function claimedText(claimed) {
  const count = (claimed || []).filter((item) => item.claimed).length;
  return count ? ctn("games_claimed", count) : "";
}

// ----------------------------------------------------------------------------- the account

function SignForms({ onSigned }) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [message, setMessage] = useState("");
  const submit = (path) => async (event) => {
    event.preventDefault();
    try {
      const data = await capi("POST", path, { name, password, seats: storedSeats() });
      onSigned(claimedText(data.claimed));
    } catch (error) { setMessage(error.message); }
  };
  return html`<div class="panel narrow" id="sign-forms">
    <h1>${ct("account_title")}</h1>
    <p class="muted">${ct("guest_intro")}</p>
    <form id="sign-form" onSubmit=${submit("/api/account/login")}>
      <label>${ct("user_name")}<input id="account-name" name="username" autocomplete="username" maxlength="24" required
        value=${name} onInput=${(e) => setName(e.currentTarget.value)} /></label>
      <label>${ct("password")}<input id="account-password" name="password" type="password" autocomplete="current-password"
        required value=${password} onInput=${(e) => setPassword(e.currentTarget.value)} /></label>
      <${Message} text=${message} error=${true} />
      <div class="row"><button type="submit" class="primary" id="sign-in">${ct("sign_in")}</button>
        <button type="button" id="sign-up" onClick=${submit("/api/account/signup")}>${ct("sign_up")}</button></div>
    </form></div>`;
}

function AccountPage({ go }) {
  const [account, setAccount] = useState(undefined);
  const [notice, setNotice] = useState("");
  const [games, setGames] = useState([]);
  const [message, setMessage] = useState("");
  const [oldPassword, setOld] = useState("");
  const [newPassword, setNew] = useState("");
  const [deletePassword, setDelete] = useState("");
  const load = async () => {
    const found = await me(true);
    setAccount(found);
    if (found) {
      // Seats taken in this browser while signed in (the lobby, the table) become the account's.
      const seats = storedSeats();
      if (seats.length) await capi("POST", "/api/account/claim", { seats }).catch(() => null);
      setGames((await capi("GET", "/api/account/games")).games);
    }
  };
  useEffect(() => { load(); }, []);
  if (account === undefined) return null;
  if (!account) return html`<${SignForms} onSigned=${(text) => { setNotice(text); load(); }} />`;
  const act = (path, body, after) => async (event) => {
    event.preventDefault();
    try { await capi("POST", path, body); setMessage(""); after(); } catch (error) { setMessage(error.message); }
  };
  const signedOut = () => { forget(); setAccount(null); };
  const name = account.account.name;
  return html`<div class="panel" id="account">
    <h1>${ct("signed_in_as", { name })}</h1>
    <${Message} text=${notice} />
    <p><a id="my-page" href=${`/u/${encodeURIComponent(name)}`} onClick=${linkTo(go, `/u/${encodeURIComponent(name)}`)}>${ct("my_page")}</a></p>
    <h2>${ct("my_tables")}</h2>
    <ul class="plain" id="my-tables">${games.map((game) => html`<li key=${game.table}>
      <a href=${`/t/${game.table}`} onClick=${linkTo(go, `/t/${game.table}`)}>${game.table}</a>
      · ${day(game.created)} · ${ct("status_" + game.status)}</li>`)}</ul>
    <${Message} text=${message} error=${true} />
    <form class="row" onSubmit=${act("/api/account/password", { old: oldPassword, new: newPassword }, () => { setNotice(ct("password_changed")); setOld(""); setNew(""); })}>
      <label class="grow">${ct("current_password")}<input type="password" id="old-password" autocomplete="current-password"
        value=${oldPassword} onInput=${(e) => setOld(e.currentTarget.value)} /></label>
      <label class="grow">${ct("new_password")}<input type="password" id="new-password" autocomplete="new-password"
        value=${newPassword} onInput=${(e) => setNew(e.currentTarget.value)} /></label>
      <button type="submit" id="change-password">${ct("change_password")}</button></form>
    <div class="row">
      <button id="sign-out" onClick=${act("/api/account/logout", {}, signedOut)}>${ct("sign_out")}</button>
      <button id="sign-out-everywhere" onClick=${act("/api/account/logout-everywhere", {}, signedOut)}>${ct("sign_out_everywhere")}</button>
    </div>
    <details class="danger"><summary>${ct("delete_account")}</summary>
      <p class="muted">${ct("delete_warning")}</p>
      <form class="row" onSubmit=${act("/api/account/delete", { password: deletePassword }, signedOut)}>
        <label class="grow">${ct("current_password")}<input type="password" id="delete-password" autocomplete="current-password"
          value=${deletePassword} onInput=${(e) => setDelete(e.currentTarget.value)} /></label>
        <button type="submit" id="delete-account">${ct("delete_account")}</button></form>
    </details>
  </div>`;
}

// ----------------------------------------------------------------------------- players and bots

function ratingText(rating) {
  return `${Math.round(rating.mu)} (${ct("rating_range", { low: Math.round(rating.low), high: Math.round(rating.high) })})`;
}

function Share({ entry }) {
  if (!entry || !entry.hands) return html`<span class="muted">—</span>`;
  return html`<span>${Math.round(entry.share * 100)}% <span class="muted small">(${entry.made}/${entry.hands})</span></span>`;
}

function Figures({ stats }) {
  return html`<div class="panel" id="figures"><h2>${ct("statistics")}</h2>
    <dl class="figures">
      <dt>${ct("games_played")}</dt><dd id="games-count">${stats.games}</dd>
      <dt>${ct("wins")}</dt><dd>${stats.wins}</dd>
      <dt>${ct("average_place")}</dt><dd>${stats.average_place ?? "—"}</dd>
      <dt>${ct("points_per_hand")}</dt><dd id="points-per-hand">${stats.points_per_hand ?? "—"}</dd>
      <dt>${ct("bids_made")}</dt><dd><${Share} entry=${stats.bids} /></dd>
      <dt>${ct("zero_bids")}</dt><dd><${Share} entry=${stats.zero_bids} /></dd>
      <dt>${ct("hook_as_dealer")}</dt><dd><${Share} entry=${stats.hook_as_dealer} /></dd>
      <dt>${ct("dealer_without_hook")}</dt><dd><${Share} entry=${stats.dealer_without_hook} /></dd>
    </dl>
    ${stats.hands ? html`<div class="row top">
      <table class="grid"><caption>${ct("by_hand_size")}</caption>
        <tr><th>${ct("cards")}</th><th>${ct("made")}</th><th>${ct("points_per_hand")}</th></tr>
        ${Object.entries(stats.by_size).map(([size, entry]) => html`<tr key=${size}><td>${size}</td>
          <td><${Share} entry=${entry} /></td><td>${entry.points_per_hand}</td></tr>`)}</table>
      <table class="grid"><caption>${ct("by_bid")}</caption>
        <tr><th>${ct("bid")}</th><th>${ct("made")}</th></tr>
        ${Object.entries(stats.by_bid).map(([bid, entry]) => html`<tr key=${bid}><td>${bid}</td><td><${Share} entry=${entry} /></td></tr>`)}</table>
    </div>` : null}</div>`;
}

function Games({ games, go }) {
  if (!games.length) return html`<p class="muted">${ct("no_games")}</p>`;
  return html`<div class="panel"><h2>${ct("finished_games")}</h2><table class="grid wide" id="games">
    <tr><th>${ct("date")}</th><th>${ct("rules")}</th><th>${ct("place")}</th><th>${ct("total")}</th><th>${ct("points_by_hand")}</th><th></th></tr>
    ${games.map((game) => html`<tr key=${game.table + game.seat}>
      <td>${day(game.finished)}</td><td>${game.preset} · ${game.players}${game.rated ? html` · <strong>${ct("rated")}</strong>` : null}</td>
      <td>${game.place}</td><td>${game.total}</td><td class="points">${game.points.join(" ")}</td>
      <td><a href=${game.table_page} onClick=${linkTo(go, game.table_page)}>${game.table}</a>
        · <a href=${game.record} download>${ct("record")}</a> · <a href=${`/t/${game.table}/history`} class="analysis" data-table=${game.table}
          onClick=${linkTo(go, `/t/${game.table}/history`)}>${ct("analysis")}</a></td>
    </tr>`)}</table></div>`;
}

function PlayerPage({ name, bot, go }) {
  const [data, setData] = useState(null);
  const [message, setMessage] = useState("");
  useEffect(() => {
    capi("GET", bot ? `/api/bots/${encodeURIComponent(bot)}` : `/api/players/${encodeURIComponent(name)}`)
      .then(setData).catch((error) => setMessage(error.message));
  }, [name, bot]);
  if (message) return html`<${Message} text=${message} error=${true} />`;
  if (!data) return null;
  const ratings = bot ? (data.rating ? { all: data.rating } : {}) : data.ratings;
  return html`<div id="player-page">
    <h1>${bot ? ct("bot_title", { level: levelName(bot) }) : data.name}</h1>
    ${bot ? null : html`<p class="muted">${ct("member_since", { date: day(data.since) })}</p>`}
    <div class="panel" id="ratings"><h2>${ct("ratings_title")}</h2>
      ${Object.keys(ratings).length ? html`<ul class="plain">${Object.entries(ratings).map(([name, rating]) => html`<li key=${name}>
        <strong>${name === "all" ? ct("fixed") : family(name).name}</strong>: ${ratingText(rating)}
        ${rating.provisional ? html` <span class="badge">${ct("provisional")}</span>` : null}
        ${rating.games ? html` · ${ctn("rated_games", rating.games)}` : null}
        ${data.chart && data.chart[name] ? html`<figure><figcaption class="muted small">${ct("rating_chart")}</figcaption>
          <${RatingChart} points=${data.chart[name]} /></figure>` : null}</li>`)}</ul>` : html`<p class="muted">—</p>`}
      ${bot && data.arena_elo != null ? html`<p class="muted small" id="bot-scale">${ct("bot_scale", { elo: Math.round(data.arena_elo) })}</p>` : null}
    </div>
    <${Figures} stats=${data.statistics} />
    <${Games} games=${data.games} go=${go} />
  </div>`;
}

// ----------------------------------------------------------------------------- ratings

function RatingsPage({ chosen, go }) {
  const [families, setFamilies] = useState([]);
  const [board, setBoard] = useState(null);
  const current = chosen || "classic";
  useEffect(() => { capi("GET", "/api/ratings").then((data) => setFamilies(data.families)); }, []);
  useEffect(() => { capi("GET", `/api/ratings/${current}`).then(setBoard).catch(() => setBoard(null)); }, [current]);
  return html`<div id="ratings-page"><h1>${ct("ratings_title")}</h1>
    <p class="muted">${ct("ratings_intro")}</p>
    <nav class="tabs">${families.map((item) => html`<a key=${item.family} href=${`/ratings/${item.family}`}
      class=${item.family === current ? "here" : ""} onClick=${linkTo(go, `/ratings/${item.family}`)}>${item.name}</a>`)}</nav>
    ${board ? html`<div class="panel"><p class="muted">${board.about}</p>
      ${board.players.length ? html`<table class="grid wide" id="leaderboard">
        <tr><th>${ct("rank")}</th><th>${ct("player")}</th><th>${ct("rating")}</th><th>${ct("games_played")}</th></tr>
        ${board.players.map((row) => html`<tr key=${row.name}><td>${row.rank}</td>
          <td><a href=${`/u/${encodeURIComponent(row.name)}`} onClick=${linkTo(go, `/u/${encodeURIComponent(row.name)}`)}>${row.name}</a></td>
          <td>${ratingText(row)}${row.provisional ? html` <span class="badge">${ct("provisional")}</span>` : null}</td>
          <td>${row.games}</td></tr>`)}</table>` : html`<p class="muted">${ct("nobody_rated")}</p>`}</div>` : null}
  </div>`;
}

// ----------------------------------------------------------------------------- events

function EventsPage({ go }) {
  const [config, setConfig] = useState(null);
  const [recent, setRecent] = useState([]);
  const [name, setName] = useState("");
  const [presetName, setPreset] = useState("classic");
  const [players, setPlayers] = useState(4);
  const [tables, setTables] = useState(3);
  const [seats, setSeats] = useState(["open", "basic", "basic", "basic", "basic", "basic", "basic"]);
  const [message, setMessage] = useState("");
  useEffect(() => {
    serverConfig().then(setConfig);
    capi("GET", "/api/events").then((data) => setRecent(data.events));
  }, []);
  if (!config) return null;
  const preset = config.presets.find((p) => p.name === presetName) || config.presets[0];
  const count = preset.players.includes(players) ? players : preset.players[0];
  const create = async (event) => {
    event.preventDefault();
    try {
      const data = await capi("POST", "/api/events", { name, preset: presetName, players: count, tables,
        seats: seats.slice(0, count) });
      go(data.url);
    } catch (error) { setMessage(error.message); }
  };
  return html`<div id="events-page"><h1>${ct("events_title")}</h1><p class="muted">${ct("events_intro")}</p>
    <div class="lobby"><form class="panel create" id="event-form" onSubmit=${create}>
      <h2>${ct("create_event")}</h2>
      <label>${ct("event_name")}<input id="event-name" maxlength="64" required value=${name} onInput=${(e) => setName(e.currentTarget.value)} /></label>
      <div class="row">
        <label class="grow">${t("preset")}<select id="event-preset" value=${presetName} onChange=${(e) => setPreset(e.currentTarget.value)}>
          ${config.presets.map((p) => html`<option value=${p.name} selected=${p.name === presetName}>${p.title || p.name}</option>`)}</select></label>
        <label>${t("players")}<select id="event-players" value=${String(count)} onChange=${(e) => setPlayers(Number(e.currentTarget.value))}>
          ${preset.players.map((n) => html`<option value=${n} selected=${n === count}>${n}</option>`)}</select></label>
        <label>${ct("tables_count")}<select id="event-tables" value=${String(tables)} onChange=${(e) => setTables(Number(e.currentTarget.value))}>
          ${Array.from({ length: 15 }, (_, i) => i + 2).map((n) => html`<option value=${n} selected=${n === tables}>${n}</option>`)}</select></label>
      </div>
      <fieldset><legend>${ct("seats_of_tables")}</legend><div class="seat-choices">
        ${Array.from({ length: count }, (_, i) => html`<label class="seat-choice" key=${i}><span>${t("seat_n", { n: i + 1 })}</span>
          <select data-event-seat=${i} value=${seats[i]} onChange=${(e) => { const next = [...seats]; next[i] = e.currentTarget.value; setSeats(next); }}>
            <option value="open" selected=${seats[i] === "open"}>${ct("person")}</option>
            ${config.levels.map((level) => html`<option value=${level} selected=${seats[i] === level}>${t("bot_level", { level: levelName(level) })}</option>`)}
          </select></label>`)}</div></fieldset>
      <${Message} text=${message} error=${true} />
      <button type="submit" class="primary" id="create-event">${t("create")}</button></form>
      <div class="side panel"><h2>${ct("recent_events")}</h2><ul class="plain">
        ${recent.map((item) => html`<li key=${item.id}><a href=${`/e/${item.id}`} onClick=${linkTo(go, `/e/${item.id}`)}>${item.name}</a>
          <span class="muted small"> · ${day(item.created)}</span></li>`)}</ul></div></div></div>`;
}

function EventPage({ id, go }) {
  const [event, setEvent] = useState(null);
  const [message, setMessage] = useState("");
  const [hand, setHand] = useState(null);
  const [name, setName] = useState(savedName());
  const [account, setAccount] = useState(null);
  useEffect(() => {
    let live = true;
    const poll = async () => {
      try { const data = await capi("GET", `/api/events/${id}`); if (live) setEvent(data); } catch (error) { if (live) setMessage(error.message); }
    };
    poll();
    me().then(setAccount);
    const timer = setInterval(poll, POLL_MS);
    return () => { live = false; clearInterval(timer); };
  }, [id]);
  if (!event) return html`<${Message} text=${message} error=${true} />`;
  const mine = seatsStored();
  const take = (table, seat) => async () => {
    if (!account && !name.trim()) { setMessage(t("name_required")); return; }
    if (!account) saveName(name.trim());
    try {
      // While the event has not begun, this browser's random contribution goes with the seat
      // (docs/fairness.md, "Events and the daily deal").
      const pool = event.fair && event.fair.pool;
      const contribution = pool && pool.open ? poolContribution(id) : undefined;
      const data = await capi("POST", `/api/events/${id}/join`, { table, seat, name: name.trim(), contribution });
      storeSeat(data.code, { token: data.token, seat: data.seat, name: account ? account.account.name : name.trim(), event: id });
      go(`/t/${data.code}`);
    } catch (error) { setMessage(error.message); }
  };
  const showHand = async (n) => {
    try { setHand(await capi("GET", `/api/events/${id}/hands/${n}`)); } catch (error) { setMessage(error.message); }
  };
  const heldHere = Object.entries(mine).filter(([, info]) => info.event === id);
  return html`<div id="event-page"><h1>${event.name}</h1>
    <p class="muted small mono">${ct("commitment", { hash: event.commitment })}</p>
    ${event.seed ? html`<p class="muted small mono">${ct("seed_revealed", { seed: event.seed })}</p>` : null}
    <${PoolNote} scope=${id} fair=${event.fair} />
    ${event.fair && event.fair.tables ? html`<ul class="plain small" id="event-verdicts">${event.fair.tables.map((entry) => html`<li key=${entry.table}
      class=${entry.verified ? "verified" : "not-verified"}>${ct("table_n", { n: entry.table + 1 })}: ${entry.message}</li>`)}</ul>` : null}
    ${event.over ? html`<p class="notice">${ct("event_over")} <a id="export" href=${`/api/events/${id}/export`} download>${ct("export_records")}</a></p>`
      : html`<p class="muted">${ct("share_link")}</p>`}
    ${heldHere.length ? html`<p>${heldHere.map(([code]) => html`<a key=${code} class="button primary" href=${`/t/${code}`} onClick=${linkTo(go, `/t/${code}`)}>${ct("go_to_table")}</a>`)}</p>` : null}
    ${!account && !event.over && !heldHere.length ? html`<label class="narrow">${t("your_name")}<input id="event-join-name" maxlength="24"
      value=${name} onInput=${(e) => setName(e.currentTarget.value)} /></label>` : null}
    <${Message} text=${message} error=${true} />
    <div class="event-tables">${event.tables.map((table) => html`<div class="panel event-table" key=${table.table} data-table=${table.table}>
      <h3>${ct("table_n", { n: table.table + 1 })} <span class="muted small">${ctn("hands_played", table.hands_done)}${table.over ? " · " + ct("status_finished") : ""}</span></h3>
      <ul class="plain seats">${table.seats.map((seat) => html`<li key=${seat.seat}><span class="seat-label">${t("seat_n", { n: seat.seat + 1 })}</span>
        ${seat.kind === "bot" ? html`<span>${t("bot_level", { level: levelName(seat.bot) })}</span>` : seat.kind === "human" ? html`<strong>${seat.name}</strong>`
          : heldHere.length || event.over ? html`<span class="muted">${ct("person")}</span>`
          : html`<button class="small" data-join=${`${table.table}-${seat.seat}`} onClick=${take(table.table, seat.seat)}>${ct("take_seat")}</button>`}</li>`)}</ul>
      ${table.code ? html`<a href=${`/api/tables/${table.code}/record`} download>${ct("record")}</a>` : null}
    </div>`)}</div>
    <div class="panel"><h2>${ct("standings")} <span class="muted small">${ctn("hands_compared", event.revealed_hands)}</span></h2>
      <table class="grid wide" id="standings"><tr><th>${ct("rank")}</th><th>${ct("player")}</th><th>${ct("table")}</th>
        <th>${ct("matchpoints")}</th><th>%</th><th>${ct("total")}</th></tr>
        ${event.standings.map((row, index) => html`<tr key=${row.table + "-" + row.seat}><td>${index + 1}</td>
          <td>${row.kind === "bot" ? t("bot_level", { level: levelName(row.bot) }) : row.name || html`<span class="muted">${ct("person")}</span>`}</td>
          <td>${row.table + 1} · ${row.seat + 1}</td><td>${row.matchpoints} / ${row.most}</td>
          <td>${row.percent ?? "—"}</td><td>${row.total}</td></tr>`)}</table>
      <div class="row" id="hand-buttons">${Array.from({ length: event.revealed_hands }, (_, n) => html`<button class="small" key=${n}
        data-hand=${n} onClick=${() => showHand(n)}>${ct("compare_hand", { n: n + 1 })}</button>`)}</div>
      ${hand ? html`<table class="grid wide" id="hand-comparison"><caption>${ct("compare_hand", { n: hand.hand + 1 })}</caption>
        <tr><th>${ct("table")}</th>${hand.tables[0].scores.map((_, seat) => html`<th key=${seat}>${t("seat_n", { n: seat + 1 })}</th>`)}</tr>
        ${hand.tables.map((entry) => html`<tr key=${entry.table}><td>${entry.table + 1}</td>${entry.scores.map((score, seat) => html`<td key=${seat}>
          ${ct("bid")} ${entry.bids[seat] ?? "—"}, ${entry.tricks[seat]} → <strong>${score}</strong> <span class="muted small">(${entry.matchpoints[seat]})</span></td>`)}</tr>`)}</table>` : null}
    </div></div>`;
}

/** An event's (a day's) pool of contributions: how many, open or closed, and whether it holds this browser's. */
function PoolNote({ scope, fair }) {
  const pool = fair && fair.pool;
  if (!pool) return null;
  const own = keptPoolContribution(scope);
  const held = pool.open ? null : inPool(scope, pool.contributions);
  return html`<p class="muted small pool-note">${ct(pool.open ? "pool_open" : "pool_closed", { count: pool.count })}
    ${own && held !== null ? html` <span class=${held ? "mono" : "mono warning"}>${ct(held ? "own_in_pool" : "own_not_in_pool", { value: own })}</span>` : null}
    ${fair.summary ? html` ${fair.summary}` : null}</p>`;
}

// ----------------------------------------------------------------------------- the daily deal

function DailyPage({ go }) {
  const [daily, setDaily] = useState(null);
  const [results, setResults] = useState(null);
  const [account, setAccount] = useState(null);
  const [name, setName] = useState(savedName());
  const [message, setMessage] = useState("");
  useEffect(() => {
    (async () => {
      setAccount(await me());
      const data = await capi("GET", "/api/daily");
      setDaily(data);
      // Whoever opens the page on the day before contributes to tomorrow's deal (once per browser).
      const tomorrow = data.tomorrow;
      if (tomorrow && tomorrow.pool && tomorrow.pool.open && !keptPoolContribution(`daily-${tomorrow.day}`)) {
        const value = poolContribution(`daily-${tomorrow.day}`);
        capi("POST", "/api/daily/contribute", { day: tomorrow.day, value }).catch(() => { /* refused: kept, shown as not in */ });
      }
      if (data.try && data.try.finished) setResults(await capi("GET", "/api/daily/results"));
    })().catch((error) => setMessage(error.message));
  }, []);
  if (!daily) return html`<${Message} text=${message} error=${true} />`;
  const start = async (event) => {
    event.preventDefault();
    if (!account && !name.trim()) { setMessage(t("name_required")); return; }
    if (!account) saveName(name.trim());
    try {
      const tomorrow = daily.tomorrow;
      const contribution = tomorrow && tomorrow.pool && tomorrow.pool.open ? poolContribution(`daily-${tomorrow.day}`) : undefined;
      const data = await capi("POST", "/api/daily/start", { name: name.trim(), contribution });
      storeSeat(data.code, { token: data.token, seat: data.seat, name: account ? account.account.name : name.trim(), daily: data.day });
      go(`/t/${data.code}`);
    } catch (error) { setMessage(error.message); }
  };
  return html`<div id="daily-page"><h1>${ct("daily_title")} · ${daily.day}</h1>
    <p class="muted">${ct("daily_intro")}</p>
    <p class="muted small mono">${ct("commitment", { hash: daily.commitment })}</p>
    <${PoolNote} scope=${`daily-${daily.day}`} fair=${daily.fair} />
    ${daily.tomorrow ? html`<p class="muted small mono" id="daily-tomorrow">${ct("tomorrow_committed", { hash: daily.tomorrow.commitment })}</p>` : null}
    ${daily.try === null ? html`<form class="panel narrow" onSubmit=${start}>
        ${account ? null : html`<label>${t("your_name")}<input id="daily-name" maxlength="24" value=${name} onInput=${(e) => setName(e.currentTarget.value)} /></label>`}
        <${Message} text=${message} error=${true} />
        <button type="submit" class="primary" id="daily-start">${ct("play_today")}</button></form>`
      : !daily.try.finished ? html`<p><a class="button primary" id="daily-continue" href=${`/t/${daily.try.table}`} onClick=${linkTo(go, `/t/${daily.try.table}`)}>${ct("continue_today")}</a></p>
        <p class="muted">${ct("finish_first")}</p>` : null}
    ${results ? html`<div class="panel"><h2>${ct("daily_results", { day: results.day })} <span class="muted small">${ctn("players_today", results.players.length)}</span></h2>
      <table class="grid wide" id="daily-results"><tr><th>${ct("rank")}</th><th>${ct("player")}</th><th>${ct("matchpoints")}</th><th>%</th><th>${ct("total")}</th><th>${ct("points_by_hand")}</th></tr>
      ${results.players.map((row) => html`<tr key=${row.rank} class=${row.you ? "you" : ""}><td>${row.rank}</td>
        <td>${row.name}${row.you ? html` <span class="badge">${ct("you")}</span>` : null}</td><td>${row.matchpoints} / ${row.most}</td>
        <td>${row.percent ?? "—"}</td><td>${row.total}</td><td class="points">${(row.scores || []).join(" ")}</td></tr>`)}</table></div>` : null}
    ${daily.yesterday ? html`<p class="muted small mono">${ct("yesterday", { seed: daily.yesterday.seed })}</p>
      <${PoolNote} scope=${`daily-${daily.yesterday.day}`} fair=${daily.yesterday.fair} />` : null}
  </div>`;
}

// ----------------------------------------------------------------------------- routing

const ROUTES = [
  [/^\/account\/?$/, (m, go) => html`<${AccountPage} go=${go} />`],
  [/^\/u\/([^/]+)/, (m, go) => html`<${PlayerPage} name=${decodeURIComponent(m[1])} go=${go} />`],
  [/^\/bots\/([^/]+)/, (m, go) => html`<${PlayerPage} bot=${decodeURIComponent(m[1])} go=${go} />`],
  [/^\/ratings(?:\/([\w-]+))?\/?$/, (m, go) => html`<${RatingsPage} chosen=${m[1]} go=${go} />`],
  [/^\/events\/?$/, (m, go) => html`<${EventsPage} go=${go} />`],
  [/^\/e\/([A-Za-z0-9]+)/, (m, go) => html`<${EventPage} id=${m[1]} go=${go} />`],
  [/^\/daily\/?$/, (m, go) => html`<${DailyPage} go=${go} />`],
];

/** Draw the page for `path` into `main`; false when the path is none of these pages. */
export async function showCommunity(path, main, go) {
  const route = ROUTES.find(([pattern]) => pattern.test(path));
  if (!route) return false;
  stylesheet();
  await loadCommunityTexts();
  const match = path.match(route[0]);
  // The site's pages are linked from the header (main.js); the page's own styles apply under
  // main.community (community.css).
  main.className = "community";
  render(route[1](match, go), main);
  return true;
}
