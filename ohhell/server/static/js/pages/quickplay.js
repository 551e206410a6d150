// Quick play on the lobby (docs/protocol.md, "Quick play"): "Play now" puts you in the pool for
// a family of rules and a number of players; the page asks about your place once a second, shows
// the countdown until bots fill the empty seats, and goes to your table once you are seated.
import { html, useEffect, useRef, useState } from "../html.js";
import { t, tn, levelName } from "../i18n.js";
import { api } from "../net/api.js";
import { me } from "../community/api.js";
import { storeSeat, savedName, saveName } from "../storage.js";

const POLL_MS = 1000;
const COUNTS_MS = 10000;

export function QuickPlay({ config, go }) {
  const [offer, setOffer] = useState(null);
  const [account, setAccount] = useState(null);
  const [name, setName] = useState(savedName());
  const [family, setFamily] = useState("classic");
  const [players, setPlayers] = useState(4);
  const [level, setLevel] = useState(config.levels.includes(config.stand_in) ? config.stand_in : config.levels[0]);
  const [place, setPlace] = useState(null); // { ticket, status, seconds_left, waiting } while in the pool
  const [message, setMessage] = useState("");
  const ticket = useRef(null);

  useEffect(() => {
    let live = true;
    const load = () => api("GET", "/api/quickplay").then((data) => { if (live) setOffer(data); }, () => {});
    load();
    me().then((found) => { if (live) setAccount(found && found.account ? found.account : null); }, () => {});
    const timer = setInterval(load, COUNTS_MS);
    return () => { live = false; clearInterval(timer); };
  }, []);

  // Leave the pool when the page goes elsewhere while waiting.
  useEffect(() => () => { if (ticket.current) api("POST", "/api/quickplay/leave", { ticket: ticket.current }).catch(() => {}); }, []);

  const seated = (answer) => {
    ticket.current = null;
    storeSeat(answer.code, { token: answer.token, seat: answer.seat, name: account ? account.name : name.trim() });
    go(`/t/${answer.code}`);
  };

  useEffect(() => {
    if (!place) return undefined;
    let live = true;
    const timer = setTimeout(async () => {
      try {
        const answer = await api("POST", "/api/quickplay/poll", { ticket: place.ticket });
        if (!live) return;
        if (answer.status === "seated") seated(answer); else setPlace({ ...place, ...answer });
      } catch (error) {
        if (!live) return;
        ticket.current = null;
        setPlace(null);
        setMessage(error.message);
      }
    }, POLL_MS);
    return () => { live = false; clearTimeout(timer); };
  }, [place]);

  const chosen = offer ? offer.families.find((f) => f.family === family) || offer.families[0] : null;
  const count = chosen && !chosen.players.includes(players) ? chosen.players[0] : players;

  const play = async (event) => {
    event.preventDefault();
    const shownName = account ? account.name : name.trim();
    if (!shownName) { setMessage(t("name_required")); return; }
    if (!account) saveName(shownName);
    setMessage("");
    try {
      const answer = await api("POST", "/api/quickplay", { name: shownName, family, players: count, level });
      if (answer.status === "seated") { seated(answer); return; }
      ticket.current = answer.ticket;
      setPlace(answer);
    } catch (error) { setMessage(error.message); }
  };
  const cancel = async () => {
    const held = ticket.current;
    ticket.current = null;
    setPlace(null);
    if (held) await api("POST", "/api/quickplay/leave", { ticket: held }).catch(() => {});
  };

  const counts = offer ? html`<p class="muted small" id="qp-counts">${tn("qp_playing_n", offer.playing)} · ${tn("qp_waiting_n", offer.waiting)}</p>` : null;
  if (place) {
    const seconds = Math.ceil(place.seconds_left || 0);
    return html`<div class="panel quickplay waiting" id="quickplay" aria-live="polite">
      <h2>${t("qp_title")}</h2>
      <p><strong>${t("qp_looking")}</strong></p>
      <p class="qp-here" id="qp-here">${tn("qp_here_n", place.waiting || 1, { players: count })}</p>
      <p class="qp-countdown" id="qp-countdown">${seconds > 0 ? t("qp_countdown", { seconds }) : t("qp_starting")}</p>
      <progress max=${offer ? offer.wait : 10} value=${place.seconds_left || 0} aria-label=${t("qp_countdown", { seconds })}></progress>
      <button type="button" id="qp-cancel" onClick=${cancel}>${t("qp_cancel")}</button>
    </div>`;
  }
  return html`<form class="panel quickplay" id="quickplay" onSubmit=${play}>
    <h2>${t("qp_title")}</h2>
    <p class="muted small">${t("qp_intro", { seconds: offer ? offer.wait : 10 })}</p>
    ${account ? null : html`<label for="qp-name">${t("your_name")}</label>
      <input id="qp-name" maxlength="24" autocomplete="nickname" value=${name} onInput=${(e) => setName(e.currentTarget.value)} />`}
    <div class="row">
      <label class="grow">${t("qp_family")}<select id="qp-family" value=${family} onChange=${(e) => setFamily(e.currentTarget.value)}>
        ${(offer ? offer.families : [{ family: "classic", name: "classic" }]).map((f) => html`<option value=${f.family} selected=${f.family === family}>${f.name}</option>`)}
      </select></label>
      <label>${t("players")}<select id="qp-players" value=${String(count)} onChange=${(e) => setPlayers(Number(e.currentTarget.value))}>
        ${(chosen ? chosen.players : [4]).map((n) => html`<option value=${n} selected=${n === count}>${n}</option>`)}
      </select></label>
    </div>
    <label for="qp-level">${t("qp_bots")}</label>
    <select id="qp-level" value=${level} onChange=${(e) => setLevel(e.currentTarget.value)}>
      ${config.levels.map((l) => html`<option value=${l} selected=${l === level}>${t("bot_level", { level: levelName(l) })}</option>`)}
    </select>
    ${counts}
    <div>${message ? html`<p class="error" role="alert">${message}</p>` : null}</div>
    <button type="submit" class="primary" id="play-now">${t("qp_play")}</button>
  </form>`;
}
