// The texts of the account, player, ratings, event and daily-deal pages: /i18n/community/{lang}.json,
// built by ohhell/server/web/community_texts.py from the gettext catalogs. Plural forms are picked with
// the table catalog's plural_index (i18n.js), so the browser needs no plural rules of its own.
import { currentCatalog, language } from "../i18n.js";

let texts = null;

export async function loadCommunityTexts() {
  const lang = language();
  if (!texts || texts.language !== lang) {
    const response = await fetch(`/i18n/community/${encodeURIComponent(lang)}.json`);
    texts = await response.json();
  }
  return texts;
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/%\((\w+)\)[sdr]/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** A text of these pages by key, with its %(name)s placeholders filled. */
export function ct(key, params) {
  return fill((texts && texts.texts[key]) ?? key, params);
}

/** A counted text: the plural form the language takes for `n`. */
export function ctn(key, n, params) {
  const forms = texts.plurals[key];
  const table = currentCatalog().plural_index;
  const form = n < table.length ? table[n] : table[100 + (n % 100)];
  return fill(forms[Math.min(form, forms.length - 1)], { count: n, ...(params || {}) });
}

/** A rating family's name and description. */
export function family(name) { return (texts && texts.families[name]) || { name, about: "" }; }

/** A moment (unix seconds) as the page's language writes a date. */
export function day(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(language(), { year: "numeric", month: "short", day: "numeric" });
}
