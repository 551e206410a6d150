// Web Push (docs/protocol.md, "Web Push"): when notifications are on and allowed, this browser
// subscribes through the service worker with the site's VAPID key and gives the server the
// subscription — for the signed-in account, and for the seat token of the table open here — so
// that the server can say "your turn" when no page of this player is open (sw.js shows it). The
// in-page notification (notify.js, a hidden tab) is unchanged. Nothing here may break the page: a
// browser without a push service (or a server without Web Push) just gets no push.
import { capi } from "./community/api.js";
import { getPrefs } from "./storage.js";

/** Whether this browser can receive pushes at all. */
export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function keyBytes(base64url) {
  const padded = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function registration() {
  const found = await navigator.serviceWorker.getRegistration("/");
  return found || navigator.serviceWorker.register("/sw.js", { scope: "/" });
}

/**
 * Subscribe (again: the server keeps one row per browser) when notifications are on and allowed;
 * `seat`: `{ table, token }` of the table open here (a guest's turns are found by their token).
 * Whether the server has the subscription now.
 */
export async function subscribePush(seat = {}) {
  if (!pushSupported() || !getPrefs().notify || Notification.permission !== "granted") return false;
  try {
    const answer = await fetch("/api/push/key");
    if (!answer.ok) return false; // this server sends no pushes
    const { key } = await answer.json();
    const worker = await registration();
    let subscription = await worker.pushManager.getSubscription();
    if (subscription && subscription.options && subscription.options.applicationServerKey) {
      const held = new Uint8Array(subscription.options.applicationServerKey);
      const wanted = keyBytes(key);
      if (held.length !== wanted.length || held.some((byte, i) => byte !== wanted[i])) {
        await subscription.unsubscribe(); // made for another server's key
        subscription = null;
      }
    }
    if (!subscription) subscription = await worker.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
    await capi("POST", "/api/push/subscription", { subscription: subscription.toJSON(), ...seat });
    return true;
  } catch (error) {
    return false; // no push service reachable from this browser: the in-page notification stays
  }
}

/** Notifications were switched off: withdraw this browser's subscription (here and at the server). */
export async function unsubscribePush() {
  if (!pushSupported()) return;
  try {
    const worker = await navigator.serviceWorker.getRegistration("/");
    const subscription = worker ? await worker.pushManager.getSubscription() : null;
    if (!subscription) return;
    await capi("DELETE", "/api/push/subscription", { endpoint: subscription.endpoint }).catch(() => {});
    await subscription.unsubscribe();
  } catch (error) { /* nothing to withdraw */ }
}
