// Every text the page shows comes from /i18n/{lang}.json, built by ohhell/server/texts.py from
// the gettext catalogs: nothing reaches a person without going through t() or tn().

let catalog = null;

export const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** The language the page should speak: the header's choice, else what the server picked. */
export function chosenLanguage() {
  return localStorage.getItem("ohhell.lang") || document.documentElement.lang || "en";
}

export async function loadCatalog(language) {
  const response = await fetch(`/i18n/${encodeURIComponent(language)}.json`);
  catalog = await response.json();
  document.documentElement.lang = catalog.language;
  return catalog;
}

export function currentCatalog() { return catalog; }
export function language() { return catalog ? catalog.language : "en"; }

function fill(text, params) {
  if (!params) return text;
  // Python's format: %(name)s, %(name)d; "%%" is a per cent sign.
  return text.replace(/%\((\w+)\)[sdr]|%%/g, (whole, name) => (whole === "%%" ? "%" : name in params ? String(params[name]) : whole));
}

/** A text by key, with its %(name)s placeholders filled. */
export function t(key, params) {
  const text = (catalog && (catalog.texts[key] ?? catalog.knobs[key])) ?? key;
  return fill(text, params);
}

/** A counted text: the plural form the language takes for `n`. */
export function tn(key, n, params) {
  const forms = catalog.plurals[key];
  const table = catalog.plural_index;
  // A negative count (a total under German Bridge scoring, −3 points) takes the form of its size.
  const size = Math.abs(Math.trunc(n));
  const form = size < table.length ? table[size] : table[100 + (size % 100)];
  return fill(forms[Math.min(form, forms.length - 1)], { count: n, ...(params || {}) });
}

export function choiceLabel(knob, value) {
  return (catalog.choices[knob] && catalog.choices[knob][value]) || String(value);
}

export function levelName(level) { return (catalog && catalog.levels[level]) || level; }
export function dealerChip() { return catalog.dealer_chip || "D"; }

// ---------------------------------------------------------------------------- cards

/** A card's face: the rank letter of the language (Т К Д В in Russian) and the suit symbol. */
export function cardFace(card) {
  if (card === "??" || card === "hidden") return { back: true, rank: "", suit: "", letter: "" };
  if (card[0] === "X") return { rank: catalog.ranks.X, suit: "🃏", letter: "X", joker: true };
  const rank = card.slice(0, -1), letter = card.slice(-1);
  return { rank: catalog.ranks[rank] || rank, suit: SUIT_SYMBOLS[letter], letter };
}

/** A card as short text: "10♥". */
export function cardText(card) {
  const face = cardFace(card);
  return face.back ? "🂠" : face.joker ? face.rank : face.rank + face.suit;
}

/** A card as a screen reader says it: "ten of hearts". */
export function cardSpoken(card) {
  if (card === "??" || card === "hidden") return t("card_hidden");
  if (card[0] === "X") return t("card_joker");
  return t("card_spoken", { rank: t("rank_" + card.slice(0, -1)), suit: t("suit_of_" + card.slice(-1)) });
}

export function suitWord(letter) { return letter ? t("suit_" + letter) : t("no_trump"); }

/**
 * A text by key as pieces, for a sentence with elements in it (a name in bold, a card in its
 * suit's colour): each %(name)s is replaced by `params[name]` as it is, string or element.
 */
export function tParts(key, params) {
  const text = (catalog && catalog.texts[key]) ?? key;
  const parts = [];
  let at = 0;
  for (const found of text.matchAll(/%\((\w+)\)[sdr]|%%/g)) {
    parts.push(text.slice(at, found.index));
    parts.push(found[0] === "%%" ? "%" : found[1] in params ? params[found[1]] : found[0]);
    at = found.index + found[0].length;
  }
  parts.push(text.slice(at));
  return parts.filter((part) => part !== "");
}

/** A number as the page's language writes it, with `digits` decimals. */
export function number(value, digits = 1) {
  return new Intl.NumberFormat(language(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}
