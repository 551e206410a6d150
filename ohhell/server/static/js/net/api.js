// HTTP + JSON to the server (docs/protocol.md): one helper that turns an error answer into an
// Error carrying the server's message, in the page's language.
import { language } from "../i18n.js";

export async function api(method, url, body) {
  const separator = url.includes("?") ? "&" : "?";
  const response = await fetch(`${url}${separator}lang=${language()}`, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  let data;
  try { data = await response.json(); } catch (error) { data = { error: response.statusText }; }
  if (!response.ok) throw Object.assign(new Error(data.error || response.statusText), { data, status: response.status });
  return data;
}

let config = null;
/** GET /api/config, once per language. */
export async function serverConfig() {
  if (!config || config.language !== language()) config = { ...(await api("GET", "/api/config")), language: language() };
  return config;
}
