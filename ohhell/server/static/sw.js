// The site's service worker (served as /sw.js by ohhell/server/web/routes/sheets_sync.py, which
// fills in the version and the files). It makes the site start without the network: the page
// shell and every static file are kept in a cache named for the version; a page asked for
// offline gets the shell (the scorekeeper then works from the sheets kept on the phone) or, for
// a page that needs the server, the offline page. A new version served is a new worker text:
// the browser installs it, it takes over at once and drops the old cache, and the pages reload
// themselves once (static/js/offline.js). It also shows the server's Web Push messages ("your
// turn at table X", sent when no page of the player is open) and opens the table when one is
// clicked (static/js/push.js subscribes).
const VERSION = "{{VERSION}}";
const PRECACHE = "{{PRECACHE}}";
const CACHE = `ohhell-${VERSION}`;
const RUNTIME = "ohhell-runtime"; // the catalogs and the config, refreshed at every visit online
const OFFLINE_PAGE = "/static/offline.html";
// Pages that work offline: the scorekeeper (its sheets are on the phone). Others need the server.
const WORKS_OFFLINE = /^\/score(\/[A-Za-z0-9_-]+)?\/?$/;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name !== CACHE && name !== RUNTIME) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

async function fromNetwork(request, cacheName) {
  const response = await fetch(request);
  if (response.ok && cacheName) (await caches.open(cacheName)).put(request, response.clone());
  return response;
}

async function page(request) {
  try {
    return await fromNetwork(request, null);
  } catch (error) {
    const path = new URL(request.url).pathname;
    const cache = await caches.open(CACHE);
    const shell = WORKS_OFFLINE.test(path) ? await cache.match("/score") : null;
    return shell || (await cache.match(OFFLINE_PAGE)) || Response.error();
  }
}

async function staticFile(request) {
  const cached = await caches.match(request, { ignoreSearch: true });
  return cached || fromNetwork(request, CACHE);
}

async function networkFirst(request) {
  try {
    return await fromNetwork(request, RUNTIME);
  } catch (error) {
    const cached = await caches.match(request);
    if (cached) return cached;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (url.pathname.startsWith("/static/")) event.respondWith(staticFile(request));
  else if (url.pathname.startsWith("/i18n/") || url.pathname === "/api/config") event.respondWith(networkFirst(request));
});

// Web Push (docs/protocol.md, "Web Push"): the message is the table and "your turn", nothing of
// the game; showing it is required (userVisibleOnly), and a later one of the same table replaces it.
self.addEventListener("push", (event) => {
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch (error) { message = { body: event.data ? event.data.text() : "" }; }
  const url = typeof message.url === "string" && message.url.startsWith("/") ? message.url : "/";
  event.waitUntil(self.registration.showNotification(message.title || "Oh Hell", {
    body: message.body || "", tag: message.tag || "ohhell-turn", renotify: true, data: { url },
    icon: "/static/icons/icon-192.png", badge: "/static/icons/icon-96.png",
  }));
});

// A click: the table's page, focused if it is open in a window already, else opened.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = (event.notification.data && event.notification.data.url) || "/";
  const target = new URL(path, self.location.origin);
  if (target.origin !== self.location.origin) return; // only the site's own pages
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((client) => new URL(client.url).pathname === target.pathname);
    if (open && "focus" in open) return open.focus();
    return self.clients.openWindow(target.href);
  })());
});
