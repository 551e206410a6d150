// HTTP + JSON to the accounts, events and daily-deal API (docs/accounts.md). Every state-changing
// request carries the CSRF header: the session's token when signed in (from GET /api/account),
// else any value (a page of this site can set a custom header; another site's form cannot).
import { language } from "../i18n.js";

const CSRF_HEADER = "X-OhHell-CSRF";
let account = undefined; // undefined: not asked yet; null: nobody signed in

export async function capi(method, url, body) {
  const separator = url.includes("?") ? "&" : "?";
  const headers = {};
  if (method !== "GET") {
    if (account === undefined) await me();
    headers[CSRF_HEADER] = (account && account.csrf) || "1";
  }
  if (body) headers["Content-Type"] = "application/json";
  const response = await fetch(`${url}${separator}lang=${language()}`, {
    method, headers, body: body ? JSON.stringify(body) : undefined, credentials: "same-origin",
  });
  let data;
  try { data = await response.json(); } catch (error) { data = { error: response.statusText }; }
  if (!response.ok) throw Object.assign(new Error(data.error || response.statusText), { data, status: response.status });
  if (data && "csrf" in data && "account" in data) account = data.account ? data : null;
  return data;
}

/** Who is signed in here: { account: {name, since}, csrf } or null. */
export async function me(refresh = false) {
  if (account === undefined || refresh) {
    const data = await (await fetch("/api/account", { credentials: "same-origin" })).json();
    account = data.account ? data : null;
  }
  return account;
}

export function forget() { account = null; }
