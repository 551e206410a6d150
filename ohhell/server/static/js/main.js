// The page's entry: the header (home, the site's pages, language), and a router that shows the
// lobby, a table, a game's history, the scorekeeper or a community page for the path. Each page
// draws into <main> with Preact.
import { html, render } from "./html.js";
import { t, chosenLanguage, loadCatalog, currentCatalog } from "./i18n.js";
import { serverConfig } from "./net/api.js";
import { setBaseTitle } from "./notify.js";
import { Lobby } from "./pages/lobby.js";
import { TablePage } from "./pages/table.js";
import { NewSheet, SheetView } from "./pages/scorekeeper.js";
import { GameHistory } from "./pages/history.js";
import { showCommunity } from "./pages/community.js";
import { registerWorker } from "./offline.js";
import { showFriends } from "./friends.js";

const main = document.getElementById("main");
let page = null; // the table page in use (it owns a socket)

export function go(path, replace = false) {
  if (replace) history.replaceState(null, "", path); else history.pushState(null, "", path);
  route();
}

// The community pages (pages/community.js), one tap away from everywhere.
const SITE_LINKS = [["/daily", "nav_daily"], ["/events", "nav_events"], ["/ratings", "nav_ratings"], ["/account", "nav_account"]];
let menuOpen = false;

function header() {
  const catalog = currentCatalog();
  const changeLanguage = async (event) => {
    localStorage.setItem("ohhell.lang", event.currentTarget.value);
    await loadCatalog(event.currentTarget.value);
    header();
    route();
  };
  const here = location.pathname;
  const follow = (path) => (event) => { event.preventDefault(); menuOpen = false; go(path); };
  const toggle = () => { menuOpen = !menuOpen; header(); };
  render(html`<a href="/" id="home" class="brand" onClick=${follow("/")}>♠ <span>${t("app_title")}</span></a>
    <nav class="site-nav" aria-label=${t("nav_label")}>
      <button type="button" class="menu-button" id="menu-button" aria-expanded=${menuOpen ? "true" : "false"} aria-controls="site-links"
        onClick=${toggle}><span aria-hidden="true">☰</span><span class="sr">${t("menu")}</span></button>
      <ul class=${"site-links" + (menuOpen ? " open" : "")} id="site-links">${SITE_LINKS.map(([path, key]) => html`<li key=${path}>
        <a href=${path} id=${"nav-" + path.slice(1)} class=${here.startsWith(path) || (path === "/events" && here.startsWith("/e/")) ? "here" : ""}
          aria-current=${here.startsWith(path) ? "page" : undefined} onClick=${follow(path)}>${t(key)}</a></li>`)}</ul>
    </nav>
    <span id="conn" class="conn"></span>
    <label class="lang"><span class="sr">${t("language")}</span>
      <select id="lang" value=${catalog.language} onChange=${changeLanguage}>
        ${catalog.languages.map((l) => html`<option value=${l.code} selected=${l.code === catalog.language}>${l.name}</option>`)}
      </select></label>`, document.getElementById("top"));
}

async function route() {
  if (page) page.stop();
  page = null;
  render(null, main);
  main.className = "";
  setBaseTitle(t("app_title"));
  const path = location.pathname;
  menuOpen = false;
  header();
  let match;
  if ((match = path.match(/^\/t\/([A-Za-z0-9]+)\/history\/?$/))) {
    main.className = "at-history";
    setBaseTitle(`${t("history_of", { code: match[1].toUpperCase() })} · ${t("app_title")}`);
    render(html`<${GameHistory} code=${match[1].toUpperCase()} go=${go} />`, main);
  } else if ((match = path.match(/^\/t\/([A-Za-z0-9]+)/))) {
    main.className = "at-table";
    page = new TablePage(match[1].toUpperCase(), main, go);
    await page.show();
  } else if ((match = path.match(/^\/score\/([A-Za-z0-9_-]+)/))) {
    render(html`<${SheetView} id=${match[1]} go=${go} />`, main);
  } else if (path.startsWith("/score")) {
    render(html`<${NewSheet} config=${await serverConfig()} go=${go} />`, main);
  } else if (await showCommunity(path, main, go)) {
    // the account, player, ratings, event and daily-deal pages (pages/community.js)
  } else {
    render(html`<${Lobby} config=${await serverConfig()} go=${go} />`, main);
  }
  showFriends(go); // a signed-in player's friends and invitations, on every page (friends.js)
}

window.addEventListener("popstate", () => route());
loadCatalog(chosenLanguage()).then(() => route());
registerWorker(); // the site installable, starting offline (sw.js)
